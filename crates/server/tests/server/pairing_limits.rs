//! Quick pairing obeys the rules of tables (issue 54, item 5): it made a new live game per
//! ask with no table or seat limit (2,000 live games from two guests in 38 s), and a rated
//! pairing without a clock made a rated game nobody could make end.
use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn quick_pairing_is_refused_past_the_seat_and_table_limits() {
    let duel = json!({"game": "pyramids", "players": 2});
    // Seats: each pairing seats both players at a new live game.
    let s = start_sqlite_with("pairing-seats", |c| {
        c.limits.seats_per_user = 2;
        c.limits.tables_per_guest = 100;
    })
    .await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    for _ in 0..2 {
        let r = a.post("/api/pairing", duel.clone()).await;
        assert_eq!(r.status, 202, "{}", r.text);
        let r = b.post("/api/pairing", duel.clone()).await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    for c in [&mut a, &mut b] {
        let r = c.post("/api/pairing", duel.clone()).await;
        assert_eq!((r.status, r.code()), (429, "too_many_seats"), "{}", r.text);
    }
    assert_eq!(
        a.get("/api/pairing").await.body["waiting"],
        json!([]),
        "nobody refused waits"
    );
    // A player with no seat left who was already waiting is passed over: the newcomer waits.
    let mut c = Client::guest(&s).await;
    let mut d = Client::guest(&s).await;
    let r = c.post("/api/pairing", duel.clone()).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let t = c
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let t = c
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let r = d.post("/api/pairing", duel.clone()).await;
    assert_eq!(r.status, 202, "{}", r.text);

    // Tables: a pairing's table counts for the player who waited longest.
    let s = start_sqlite_with("pairing-tables", |c| {
        c.limits.tables_per_guest = 2;
    })
    .await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    for _ in 0..2 {
        assert_eq!(a.post("/api/pairing", duel.clone()).await.status, 202);
        assert_eq!(b.post("/api/pairing", duel.clone()).await.status, 201);
    }
    let r = a.post("/api/pairing", duel.clone()).await;
    assert_eq!((r.status, r.code()), (429, "too_many_tables"), "{}", r.text);
}

#[tokio::test]
async fn rated_quick_pairing_makes_clocked_games_only() {
    let s = start_sqlite("pairing-rated-clock").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let r = a
        .post(
            "/api/pairing",
            json!({"game": "pyramids", "players": 2, "rated": true}),
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "rated_needs_clock"),
        "{}",
        r.text
    );
    assert_eq!(a.get("/api/pairing").await.body["waiting"], json!([]));
    let ask = json!({"game": "pyramids", "players": 2, "clock": "fast", "rated": true});
    assert_eq!(a.post("/api/pairing", ask.clone()).await.status, 202);
    let r = b.post("/api/pairing", ask).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let table = &r.body["table"];
    assert_eq!(table["rated"], true, "{table}");
    assert_eq!(table["clock"]["key"], "fast", "{table}");
}
