//! Issue 46's undo and vacation on a cluster: two real instances on one PostgreSQL database;
//! the undo is sent to the instance that does not own the game, and a vacation (and its early
//! end) taken through it pauses (and runs again) a game the other instance owns. Each goes
//! through the owner's room (`crate::live::link`), stored there, fenced by its lease.
use crate::cluster_support::*;
use serde_json::{Value, json};

/// The clock state stored for `game` (JSON).
async fn stored_clock(database: &str, game: &str) -> Value {
    let mut c = db(database).await;
    let text: Option<String> = sqlx::query_scalar("SELECT clock_state FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(&mut c)
        .await
        .unwrap();
    serde_json::from_str(&text.expect("a clock is stored")).unwrap()
}

#[tokio::test]
async fn an_undo_and_a_vacation_reach_a_game_another_instance_owns() {
    let database = fresh_database("pyramidion_people_test").await;
    let (instances, bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    let (alice, bob, id) = two_guests_at(
        &http,
        [&bases[0], &bases[0]],
        json!({"game": "pyramido", "options": {"players": 2}, "clock": "day"}),
    )
    .await;
    let mut a = Player::join(alice.clone(), &id, &bases, 0).await.unwrap();
    let mut b = Player::join(bob.clone(), &id, &bases, 0).await.unwrap();
    let sa = a.state(0, &bases, &[]).await.unwrap();
    let sb = b.state(0, &bases, &[]).await.unwrap();
    let (mut mover, cookie, first) = if sa["legal"].as_array().unwrap().is_empty() {
        (b, bob, sb)
    } else {
        (a, alice, sa)
    };
    let seat = first["to_move"].as_u64().unwrap() as usize;
    let owner_name = owner(&database, &id).await.expect("the game has an owner");
    let other = instances.iter().position(|i| i.name != owner_name).unwrap();

    // A take (undoable in Pyramido), then its undo through the instance that does not own
    // the game: stored by the owner, told to the mover, the state numbered anew.
    let at = first["state_id"].as_u64().unwrap();
    let take = first["legal"][0]["text"].as_str().unwrap().to_string();
    mover.send_move(at, &take).await;
    let after = mover.state(at + 1, &bases, &[]).await.unwrap();
    assert_eq!(after["undo"], true, "{after}");
    assert_eq!(stored_moves(&database, &id).await, vec![take.clone()]);
    let undone = post(
        &http,
        format!("{}/api/games/{id}/undo", bases[other]),
        &cookie,
        json!({"state_id": at + 1}),
    )
    .await
    .unwrap();
    assert_eq!(undone, json!({"state_id": at + 2}));
    assert!(stored_moves(&database, &id).await.is_empty());
    let back = mover.state(at + 2, &bases, &[]).await.unwrap();
    assert_eq!(
        (back["event"].clone(), back["view"].clone()),
        (json!(0), first["view"].clone())
    );
    // A stale undo through either instance is refused.
    for base in &bases {
        let stale = post(
            &http,
            format!("{base}/api/games/{id}/undo"),
            &cookie,
            json!({"state_id": at + 1}),
        )
        .await
        .unwrap_err();
        assert!(stale.to_string().contains("stale_state"), "{stale}");
    }
    assert_eq!(owner(&database, &id).await, Some(owner_name.clone()));

    // A vacation through the other instance pauses the owner's game for the mover's seat;
    // "I'm back" through it runs the game again.
    let paused = post(
        &http,
        format!("{}/api/me/vacation", bases[other]),
        &cookie,
        json!({"days": 2}),
    )
    .await
    .unwrap();
    assert_eq!(paused["paused"], 1, "{paused}");
    let until = paused["active"]["ends_at"].as_i64().unwrap();
    let clock = stored_clock(&database, &id).await;
    assert_eq!(clock["vacation"], json!([[seat, until]]), "{clock}");
    let r = http
        .delete(format!("{}/api/me/vacation", bases[other]))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    let ended: Value = r.json().await.unwrap();
    assert_eq!(ended["paused"], 1, "{ended}");
    let clock = stored_clock(&database, &id).await;
    // Left out when empty (`ClockState::vacation`).
    assert!(
        clock["vacation"].as_array().is_none_or(Vec::is_empty),
        "{clock}"
    );
    assert_eq!(owner(&database, &id).await, Some(owner_name));
}
