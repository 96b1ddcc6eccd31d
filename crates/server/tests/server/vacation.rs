//! Vacation mode (issue 46 item 10), over real HTTP and WebSockets: the allowance, the clock
//! of a turn-based game paused for the player's seat (and not a real-time game's), what the
//! other player sees, and the clock read back the same after restarts during and after the
//! vacation. The rooms read set clocks: the servers' time of day is the test's.
use crate::common::*;
use pyramidion_server::wall_clock::WallClock;
use serde_json::{Value, json};

const DAY: i64 = 24 * 3600 * 1000;

async fn server_at(url: &str, ms: i64) -> TestServer {
    let clock = WallClock::fixed(ms);
    start(url.to_string(), move |c| c.room_clock = clock).await
}

/// A live two-player Pyramids table between `a` (seat 0) and `b` with clock `clock`: its id.
async fn table(a: &mut Client, b: &mut Client, clock: &str) -> String {
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}], "clock": clock});
    let t = a.post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    id
}

/// Plays first legal moves for seat 1 (on `b`'s socket) until seat 0 is to move.
async fn until_seat_0(b: &mut Socket, id: &str) -> Value {
    let mut state = b.subscribe(id, None).await;
    while state["to_move"] == 1 {
        let n = state["state_id"].as_u64().unwrap();
        let text = state["legal"][0]["text"].as_str().unwrap().to_string();
        b.play(id, n, &text).await;
        state = b.state_at_least(id, n + 1).await;
    }
    state
}

#[tokio::test]
async fn a_vacation_pauses_turn_based_clocks_within_the_allowance_and_across_restarts() {
    let dir = temp_dir("vacation");
    let url = sqlite_url(&dir);
    let t0 = pyramidion_server::wall_clock::now_ms();
    let s = server_at(&url, t0).await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let daily = table(&mut a, &mut b, "day").await;
    let live = table(&mut a, &mut b, "normal").await;

    let status = a.get("/api/me/vacation").await;
    assert_eq!(status.status, 200, "{}", status.text);
    assert_eq!(status.body["active"], Value::Null);
    assert_eq!(status.body["days_left"], 21);
    for days in [0, 22] {
        let r = a.post("/api/me/vacation", json!({ "days": days })).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "vacation_too_long"),
            "{}",
            r.text
        );
    }

    // Three days from now: the turn-based game pauses, the real-time one does not.
    let r = a.post("/api/me/vacation", json!({"days": 3})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let until = t0 + 3 * DAY;
    assert_eq!(r.body["paused"], 1);
    assert_eq!(r.body["active"], json!({"starts_at": t0, "ends_at": until}));
    assert_eq!(r.body["days_left"], 18);
    let r = a.post("/api/me/vacation", json!({"days": 1})).await;
    assert_eq!((r.status, r.code()), (409, "vacation_active"), "{}", r.text);

    // The other player sees it on the clock; seat 0's next (or running) turn starts when the
    // vacation ends, with the full day.
    let mut wb = b.socket().await;
    let seen = until_seat_0(&mut wb, &daily).await;
    assert_eq!(seen["clock"]["vacation_until"], json!([until, null]));
    assert_eq!(seen["clock"]["remaining_ms"][0], DAY);
    let row = s.state.store.game(&daily).await.unwrap().unwrap();
    assert_eq!(row.clock_state.unwrap().vacation, vec![(0, until)]);
    assert_eq!(
        s.state.store.deadline_of(&daily).await.unwrap(),
        Some(until + DAY)
    );
    let other = wb.subscribe(&live, None).await;
    assert_eq!(other["clock"]["vacation_until"], json!([null, null]));

    // A restart during the vacation, then one after it: still the full day, from when the
    // vacation ended (or, as the game had no room then, from the restart).
    let during = server_at(&url, t0 + DAY).await;
    b.base = during.base.clone();
    let read = b.socket().await.subscribe(&daily, None).await;
    assert_eq!(read["clock"]["remaining_ms"][0], DAY, "{read}");
    assert_eq!(read["clock"]["vacation_until"], json!([until, null]));
    assert_eq!(
        during.state.store.deadline_of(&daily).await.unwrap(),
        Some(until + DAY)
    );
    let after = server_at(&url, t0 + 5 * DAY).await;
    b.base = after.base.clone();
    let read = b.socket().await.subscribe(&daily, None).await;
    assert_eq!(read["clock"]["remaining_ms"][0], DAY, "{read}");
    assert_eq!(read["clock"]["vacation_until"], json!([null, null]));
    assert_eq!(
        after.state.store.deadline_of(&daily).await.unwrap(),
        Some(t0 + 6 * DAY)
    );
}

/// The entry of `game` in `c`'s "your move" list.
async fn turn_entry(c: &mut Client, game: &str) -> Value {
    let turns = c.get("/api/me/turns").await;
    assert_eq!(turns.status, 200, "{}", turns.text);
    turns.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == game)
        .cloned()
        .unwrap_or_else(|| panic!("{game} waits for its player: {}", turns.text))
}

#[tokio::test]
async fn a_vacation_pauses_games_started_during_it_and_i_am_back_ends_it_early() {
    let dir = temp_dir("vacation-back");
    let url = sqlite_url(&dir);
    let t0 = pyramidion_server::wall_clock::now_ms();
    let s = server_at(&url, t0).await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let daily = table(&mut a, &mut b, "day").await;
    let r = a.post("/api/me/vacation", json!({"days": 3})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let until = t0 + 3 * DAY;
    let mut wb = b.socket().await;
    until_seat_0(&mut wb, &daily).await;

    // The game waits for `a`, but a's vacation pauses it: "your move" says so, with until
    // when (the header counts it apart).
    let entry = turn_entry(&mut a, &daily).await;
    assert_eq!(entry["paused_until"], until, "{entry}");

    // A day later, a turn-based game started with `a` starts paused for a's seat; a
    // real-time one does not.
    let during = server_at(&url, t0 + DAY).await;
    a.base = during.base.clone();
    b.base = during.base.clone();
    let fresh = table(&mut a, &mut b, "day").await;
    let live = table(&mut a, &mut b, "normal").await;
    let mut wb = b.socket().await;
    let seen = wb.subscribe(&fresh, None).await;
    assert_eq!(
        seen["clock"]["vacation_until"],
        json!([until, null]),
        "{seen}"
    );
    let row = during.state.store.game(&fresh).await.unwrap().unwrap();
    assert_eq!(row.clock_state.unwrap().vacation, vec![(0, until)]);
    let seen = wb.subscribe(&live, None).await;
    assert_eq!(
        seen["clock"]["vacation_until"],
        json!([null, null]),
        "{seen}"
    );

    // "I'm back" that day: the vacation ends now, the two unused days return (the day begun
    // counts), and both turn-based games run again, a's turn from now with its full day.
    let r = a.delete("/api/me/vacation").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["active"], Value::Null, "{}", r.text);
    assert_eq!(r.body["days_left"], 20, "{}", r.text);
    assert_eq!(r.body["paused"], 2, "{}", r.text);
    let read = wb.subscribe(&daily, None).await;
    assert_eq!(
        read["clock"]["vacation_until"],
        json!([null, null]),
        "{read}"
    );
    assert_eq!(read["clock"]["remaining_ms"][0], DAY, "{read}");
    assert_eq!(
        during.state.store.deadline_of(&daily).await.unwrap(),
        Some(t0 + 2 * DAY)
    );
    let entry = turn_entry(&mut a, &daily).await;
    assert_eq!(entry["paused_until"], Value::Null, "{entry}");
    let row = during.state.store.game(&fresh).await.unwrap().unwrap();
    assert!(row.clock_state.unwrap().vacation.is_empty());

    // Nothing left to end; a new vacation may start again.
    let r = a.delete("/api/me/vacation").await;
    assert_eq!((r.status, r.code()), (409, "no_vacation"), "{}", r.text);
    let r = a.get("/api/me/vacation").await;
    assert_eq!(r.body["days_left"], 20, "{}", r.text);
}
