//! Fair shares' storage on any backend (issue 29): the analysis queue's rows, the count of a
//! user's search bots, and the rule that a repeated rated pair with a provisional account
//! counts for nothing (its query runs in the transaction that ends the game). Through the
//! HTTP API only (the CLI's tests share this module and have no database client).
use super::after_game_scenarios::DUEL;
use super::*;

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

/// Two accounts play a rated game against each other; the first one's rating (before, after).
async fn rated_pair_game(a: &mut Client, b: &mut Client) -> (f64, f64) {
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
    let history = a.get("/api/me/games").await.body;
    let entry = history["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .expect("the game is in the history")
        .clone();
    let rating = &entry["mine"]["rating"];
    (
        rating["before"].as_f64().unwrap(),
        rating["after"].as_f64().unwrap(),
    )
}

pub async fn fair_shares_storage(server: &TestServer) {
    let mut a = named_account(server, "pair_a").await;
    let mut b = named_account(server, "pair_b").await;
    let first = rated_pair_game(&mut a, &mut b).await;
    assert_eq!(first.0, 1500.0, "{first:?}");
    let repeat = rated_pair_game(&mut a, &mut b).await;
    assert_eq!(
        repeat.0, repeat.1,
        "the repeat counts for nothing: {repeat:?}"
    );
    assert_eq!(repeat.0, first.1, "{first:?} {repeat:?}");

    // The search-bot count reads the user's open and live tables.
    let r = a
        .create_table(
            DUEL,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "easy"}]),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);

    // An analysis is queued once, asked twice.
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
    let status = b.get(&format!("/api/games/{id}/analysis")).await.body["status"].clone();
    assert!(status == "queued" || status == "done", "{status}");
}
