//! The quick-pairing queue in the database (issue 28): a waiting player is seated once only,
//! whatever races for them; a player gone from the site for good no longer waits. (That the
//! queue outlives its holder is shown with real processes in the CLI's cluster tests.)
use crate::common::*;
use pyramidion_server::db::error::SeatRefused;
use pyramidion_server::db::error::StoreError;
use pyramidion_server::db::pairing_queue::Setting;
use pyramidion_server::db::pairing_queue::{self as queue, Waiting};
use pyramidion_server::db::rows::{GameRow, SeatKind};
use pyramidion_server::game_status::GameStatus;
use pyramidion_server::http::meet::PAIRING_ABSENT_MS;
use pyramidion_server::wall_clock::now_ms;
use serde_json::json;

fn duel() -> Setting {
    Setting {
        game: "pyramids".parse().unwrap(),
        players: 2,
        clock: None,
    }
}

fn waiting(user: &str, since: i64) -> Waiting {
    Waiting {
        user: user.into(),
        setting: duel(),
        rated: false,
        range: None,
        rating: 1500.0,
        since,
    }
}

/// A live 2-player Pyramids game `id` made by `by`, as stored.
pub fn game(id: &str, by: &str) -> GameRow {
    GameRow {
        id: id.into(),
        kind: "pyramids".parse().unwrap(),
        options: json!({"players": 2}).to_string(),
        seed: 1,
        status: GameStatus::Live,
        listed: true,
        invite: format!("invite-{id}"),
        clock: None,
        clock_state: None,
        to_move: None,
        created_by: by.into(),
        result: None,
        created_at: now_ms(),
        rated: false,
        finished_at: None,
    }
}

#[tokio::test]
async fn a_waiting_player_is_never_seated_twice() {
    let s = start_sqlite("pairing-once").await;
    let store = &s.state.store;
    let anna = waiting("anna", now_ms());
    queue::add(store, &anna).await.unwrap();
    let seats = |newcomer: &str| {
        vec![
            SeatKind::Human("anna".into()),
            SeatKind::Human(newcomer.into()),
        ]
    };
    // Two seatings race for anna (as two holders of the queue would): one wins, the other is
    // refused and writes nothing.
    let (g1, g2) = (game("g1", "anna"), game("g2", "anna"));
    let (s1, s2) = (seats("bruno"), seats("carla"));
    let w = [anna.clone()];
    let (first, second) = tokio::join!(
        queue::seat(store, &w, "bruno", &g1, &s1, None),
        queue::seat(store, &w, "carla", &g2, &s2, None),
    );
    let refused = |r: &Result<(), StoreError>| match r {
        Err(StoreError::SeatRefused(why)) => Some(*why),
        _ => None,
    };
    let outcomes = [refused(&first), refused(&second)];
    assert!(
        outcomes.contains(&None) && outcomes.contains(&Some(SeatRefused::Gone)),
        "{first:?} {second:?}"
    );
    let (won, lost) = if first.is_ok() {
        ("g1", "g2")
    } else {
        ("g2", "g1")
    };
    assert!(store.game(won).await.unwrap().is_some());
    assert!(
        store.game(lost).await.unwrap().is_none(),
        "a refused seating creates no game"
    );
    assert!(store.seats(lost).await.unwrap().is_empty());
    assert_eq!(store.seats_held_by("anna").await.unwrap(), 1);
    assert!(queue::load(store).await.unwrap().is_empty());
    // Seating her again, from a stale view of the queue, is refused too.
    let again = queue::seat(
        store,
        &w,
        "dario",
        &game("g3", "anna"),
        &seats("dario"),
        None,
    )
    .await;
    assert_eq!(refused(&again), Some(SeatRefused::Gone));
    assert!(store.game("g3").await.unwrap().is_none());
}

#[tokio::test]
async fn a_player_gone_for_good_no_longer_waits() {
    let s = start_sqlite("pairing-durable").await;
    let mut a = Client::guest(&s).await;
    let mut ws_a = a.socket().await;
    let ask = json!({"game": "pyramids", "players": 2});
    let r = a.post("/api/pairing", ask.clone()).await;
    assert_eq!(r.status, 202, "{}", r.text);
    // Someone who asked long ago and has no connection left is gone for good.
    queue::add(
        &s.state.store,
        &waiting("long-gone", now_ms() - PAIRING_ABSENT_MS - 1000),
    )
    .await
    .unwrap();
    let counts = a.get("/api/pairing").await.body;
    assert_eq!(
        counts["waiting"],
        json!([{"game": "pyramids", "players": 2, "clock": null, "rated": false, "waiting": 1}])
    );
    assert_eq!(queue::load(&s.state.store).await.unwrap().len(), 1);
    // The one left is the guest with a socket, seated with the next player.
    let _ = ws_a.next_of("pairing").await;
    let mut b = Client::guest(&s).await;
    let r = b.post("/api/pairing", ask).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let paired = ws_a.next_of("pairing").await;
    assert_eq!(paired["table"], r.body["table"]["id"]);
    assert!(queue::load(&s.state.store).await.unwrap().is_empty());
}

/// On PostgreSQL, as two instances would: two stores on one database (two writers, two
/// transactions) race to seat the same waiting player: one commits, the other is refused and
/// writes nothing. And a holder whose lease moved on (a newer epoch) seats nobody.
#[cfg(feature = "postgres-tests")]
pub async fn races_on_postgres(url: &str) {
    use pyramidion_server::db::fence::Fence;
    use pyramidion_server::db::store::Store;
    use pyramidion_server::db::writer::WriterOptions;
    use pyramidion_server::metrics::Metrics;
    use std::sync::Arc;
    let open = || Store::open(url, Arc::<Metrics>::default(), WriterOptions::default());
    let (one, two) = (open().await.unwrap(), open().await.unwrap());
    let refused = |r: &Result<(), StoreError>| match r {
        Err(StoreError::SeatRefused(why)) => Some(*why),
        _ => None,
    };
    for round in 0..5 {
        let waiter = format!("pg-waiter-{round}");
        queue::add(&one, &waiting(&waiter, now_ms())).await.unwrap();
        let w = [waiting(&waiter, 0)];
        let (g1, g2) = (
            game(&format!("pg1-{round}"), &waiter),
            game(&format!("pg2-{round}"), &waiter),
        );
        let seats = vec![SeatKind::Human(waiter.clone()), SeatKind::Human("x".into())];
        let (a, b) = tokio::join!(
            queue::seat(&one, &w, "x", &g1, &seats, None),
            queue::seat(&two, &w, "x", &g2, &seats, None),
        );
        let outcomes = [refused(&a), refused(&b)];
        assert!(
            outcomes.contains(&None) && outcomes.contains(&Some(SeatRefused::Gone)),
            "{a:?} {b:?}"
        );
        assert_eq!(one.seats_held_by(&waiter).await.unwrap(), 1);
        let lost = if a.is_ok() { &g2.id } else { &g1.id };
        assert!(one.game(lost).await.unwrap().is_none());
    }
    // The queue's lease is at epoch 3 (the test server, an instance too, may hold it: it is
    // taken from it): a holder still at epoch 2 is fenced out.
    sqlx::query(
        "INSERT INTO game_leases (game_id, owner, epoch) VALUES ('~pairing', 'a', 3)
         ON CONFLICT (game_id) DO UPDATE SET owner = 'a', epoch = 3",
    )
    .execute(&one.pool)
    .await
    .unwrap();
    queue::add(&one, &waiting("pg-fenced", now_ms()))
        .await
        .unwrap();
    let w = [waiting("pg-fenced", 0)];
    let seats = vec![
        SeatKind::Human("pg-fenced".into()),
        SeatKind::Human("y".into()),
    ];
    let stale = Fence {
        owner: "a".into(),
        epoch: 2,
    };
    let r = queue::seat(&one, &w, "y", &game("pg-stale", "y"), &seats, Some(stale)).await;
    assert_eq!(refused(&r), Some(SeatRefused::Moved), "{r:?}");
    assert!(one.game("pg-stale").await.unwrap().is_none());
    assert_eq!(queue::load(&one).await.unwrap().len(), 1, "still waiting");
    let held = Fence {
        owner: "a".into(),
        epoch: 3,
    };
    queue::seat(&one, &w, "y", &game("pg-held", "y"), &seats, Some(held))
        .await
        .unwrap();
    assert!(queue::load(&one).await.unwrap().is_empty());
}
