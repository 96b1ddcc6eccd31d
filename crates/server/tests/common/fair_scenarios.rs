//! Fair shares' storage on any backend (issue 29): the analysis queue's rows, the count of a
//! user's search bots, and the rule that a repeated rated pair with a provisional account
//! counts for nothing (its query runs in the transaction that ends the game).
use super::after_game_scenarios::DUEL;
use super::*;
use sqlx::Row;

async fn named_account(server: &TestServer, prefix: &str) -> Client {
    let mut c = Client::new(server);
    let name = format!("{prefix}{}", rand_suffix() % 100_000);
    let r = c
        .post(
            "/api/register",
            json!({ "name": name, "password": "correct horse" }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    c
}

/// Two accounts play a rated game against each other; its rating changes (before, after).
async fn rated_pair_game(server: &TestServer, a: &mut Client, b: &mut Client) -> Vec<(f64, f64)> {
    let t = a
        .post(
            "/api/tables",
            json!({"game": DUEL, "options": {"players": 2}, "rated": true, "clock": "day",
                   "seats": [{"type": "me"}, {"type": "open"}]}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let (mut wa, mut wb) = (a.socket().await, b.socket().await);
    let (sa, sb) = (wa.subscribe(&id, None).await, wb.subscribe(&id, None).await);
    tokio::join!(wa.play_out(&id, sa, 1), wb.play_out(&id, sb, 2));
    sqlx::query(
        "SELECT rating_before, rating_after FROM rating_changes WHERE game_id = $1 ORDER BY seat",
    )
    .bind(&id)
    .fetch_all(&server.state.store.pool)
    .await
    .unwrap()
    .iter()
    .map(|r| {
        (
            r.try_get::<f64, _>("rating_before").unwrap(),
            r.try_get::<f64, _>("rating_after").unwrap(),
        )
    })
    .collect()
}

pub async fn fair_shares_storage(server: &TestServer) {
    let mut a = named_account(server, "pair_a").await;
    let mut b = named_account(server, "pair_b").await;
    assert_eq!(rated_pair_game(server, &mut a, &mut b).await.len(), 2);
    let repeat = rated_pair_game(server, &mut a, &mut b).await;
    assert_eq!(repeat.len(), 2);
    assert!(repeat.iter().all(|(x, y)| x == y), "{repeat:?}");

    // The search-bot count reads the user's open and live tables.
    let r = a
        .create_table(
            DUEL,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "easy"}]),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);

    // An analysis is queued once, asked twice: its row says who asked, started once.
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]);
    let t = b.create_table(DUEL, json!({"players": 2}), seats).await;
    let id = t.body["id"].as_str().unwrap().to_string();
    super::after_game_scenarios::play_out(&mut b, &id).await;
    for _ in 0..2 {
        let r = b
            .post(&format!("/api/games/{id}/analysis"), json!({}))
            .await;
        assert!(matches!(r.status, 200 | 202), "{}", r.text);
    }
    let row = sqlx::query("SELECT requested_by, attempts FROM analyses WHERE game_id = $1")
        .bind(&id)
        .fetch_one(&server.state.store.pool)
        .await
        .unwrap();
    let me = b.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        row.try_get::<Option<String>, _>("requested_by").unwrap(),
        Some(me)
    );
    assert_eq!(row.try_get::<i64, _>("attempts").unwrap(), 1);
}
