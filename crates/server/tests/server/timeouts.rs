//! The fair time-out policy (issue 27, item 2) on paused time: nothing waits for real. A
//! time-out lets a bot play that turn and gives the seat a fresh minimum for its next one, so
//! three time-outs are three missed turns; "I'm back" takes the seat back; a turn-based game
//! whose player is away may be claimed.
//! How time is paused: `common::paused`.
use crate::common::after_game_scenarios::account;
use crate::common::paused::*;
use crate::common::*;
use serde_json::{Value, json};
use std::time::Duration;

async fn next_state(ws: &mut Socket) -> Value {
    loop {
        let m = next_untimed(ws).await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "state" {
            return m;
        }
    }
}

#[tokio::test]
async fn three_time_outs_are_three_missed_turns_and_i_am_back_takes_the_seat_back() {
    let s = server_on_paused_time("timeouts-fair", "rt=60+0").await;
    let mut c = Client::guest(&s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}], "clock": "rt"});
    let t = c.post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let mut state = next_state(&mut ws).await;
    let _frozen = freeze();

    // Nobody plays seat 0: record, for each of its turns, the time it starts with, and the
    // time-outs announced.
    let mut my_turns: Vec<i64> = Vec::new();
    let mut notices: Vec<(String, u64)> = Vec::new();
    let mut was_mine = false;
    loop {
        let mine = state["to_move"] == 0 && state["bots"][0] == false;
        if mine && !was_mine {
            my_turns.push(state["clock"]["remaining_ms"][0].as_i64().unwrap());
            // Nobody plays: the turn's whole time passes.
            advance(Duration::from_secs(61)).await;
        }
        was_mine = mine;
        // The state that hands the seat to a bot comes before the notice that says so.
        if state["bots"][0] == true && notices.len() == 3 {
            break;
        }
        let m = next_untimed(&mut ws).await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "notice" {
            assert_eq!(m["seat"], 0);
            let n = (
                m["kind"].as_str().unwrap().to_string(),
                m["timeouts"].as_u64().unwrap(),
            );
            // Said on every move the bot plays in that turn: counted once.
            if notices.last() != Some(&n) {
                notices.push(n);
            }
        } else if m["type"] == "state" {
            state = m;
        }
    }
    assert_eq!(
        notices,
        vec![
            ("timeout_bot_move".to_string(), 1),
            ("timeout_bot_move".to_string(), 2),
            ("seat_to_bot".to_string(), 3),
        ]
    );
    // Three turns of mine, each with time to play: the whole bank, then the fresh minimum
    // (60 s / 4 is less than 30 s) twice, not an empty bank.
    assert_eq!(my_turns.len(), 3, "{my_turns:?}");
    assert!(my_turns[0] > 55_000, "{my_turns:?}");
    for fresh in &my_turns[1..] {
        assert!(*fresh > 25_000 && *fresh <= 30_000, "{my_turns:?}");
    }
    let row = s.state.store.game(&id).await.unwrap().unwrap();
    assert_eq!(row.clock_state.unwrap().timeouts, vec![3, 0]);

    // "I'm back": the seat is mine again while the game runs, with its time-outs forgiven.
    let r = c.post(&format!("/api/games/{id}/back"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["seats"], json!([0]));
    let r = c.post(&format!("/api/games/{id}/back"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "not_away"), "{}", r.text);
    loop {
        state = next_state(&mut ws).await;
        if state["bots"][0] == false && state["to_move"] == 0 && state["finished"] == false {
            break;
        }
        assert_eq!(
            state["finished"], false,
            "the game ended before my turn came back"
        );
    }
    assert_eq!(state["clock"]["timeouts"], json!([0, 0]));
    assert!(state["clock"]["remaining_ms"][0].as_i64().unwrap() > 25_000);
    let legal = state["legal"][0]["text"].as_str().unwrap().to_string();
    let sid = state["state_id"].as_u64().unwrap();
    ws.play(&id, sid, &legal).await;
    let played = next_state(&mut ws).await;
    assert_eq!(played["state_id"], sid + 1);
    assert_eq!(played["last_move"]["seat"], 0);
    // My own move is stored at its ply (the bot may have answered it already: a greedy
    // reply is stored within milliseconds, and a loaded machine read 13 moves, not 12).
    let moves = s.state.store.moves(&id).await.unwrap();
    assert_eq!(
        moves.get(sid as usize),
        Some(&legal),
        "my own move is stored: {moves:?}"
    );
}

#[tokio::test]
async fn a_turn_based_game_whose_player_is_away_can_be_claimed() {
    let s = server_on_paused_time("timeouts-claim", "day=86400").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}], "clock": "day"});
    let t = a.post("/api/tables", body).await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let j = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(j.body["status"], "live", "{}", j.text);
    let mut ws = a.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let mut state = next_state(&mut ws).await;
    let r = a.post(&format!("/api/games/{id}/claim"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "nobody_away"), "{}", r.text);
    let _frozen = freeze();
    // A plays its turns at once; B never comes: a day per turn runs out three times.
    // Time passes once per turn of B's: a turn of several moves (the bot plays them for B
    // after the time-out) shows B to move at several states, and passing a day again at one
    // of them could run out A's next turn instead, if the bot was quicker than this loop.
    let mut waited = false;
    while state["bots"][1] == false {
        let sid = state["state_id"].as_u64().unwrap();
        if state["to_move"] != 1 {
            waited = false;
        }
        if let Some(mv) = state["legal"][0]["text"].as_str() {
            ws.play(&id, sid, mv).await;
        } else if state["to_move"] == 1 && !waited {
            waited = true;
            advance(Duration::from_secs(86_401)).await;
        }
        state = next_state(&mut ws).await;
    }
    let r = a.post(&format!("/api/games/{id}/claim"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body, json!({"ended": true, "resigned": [1]}));
    loop {
        state = next_state(&mut ws).await;
        if state["finished"] == true {
            break;
        }
    }
    assert_eq!(
        state["ending"],
        json!({"ending": "claimed", "ranks": [0, 1], "resigned": [1]})
    );
    let r = b.post(&format!("/api/games/{id}/back"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "game_over"), "{}", r.text);
}

/// A duel of `a` (seat 0) and `b` (seat 1, joining) on the clock profile `clock`.
async fn duel(a: &mut Client, b: &mut Client, clock: &str, rated: bool) -> String {
    let body = json!({"game": "pyramids", "options": {"players": 2}, "rated": rated,
                      "seats": [{"type": "me"}, {"type": "open"}], "clock": clock});
    let t = a.post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let j = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(j.body["status"], "live", "{}", j.text);
    id
}

/// Plays seat 0's first legal move whenever it is to move, and lets seat 1's turns run out
/// (one time-out per turn of seat 1's that its player would play), until `done` holds.
async fn seat_one_walks_away(
    ws: &mut Socket,
    id: &str,
    mut state: Value,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let mut waited = false;
    while !done(&state) {
        let sid = state["state_id"].as_u64().unwrap();
        if state["to_move"] != 1 {
            waited = false;
        }
        if let Some(mv) = state["legal"][0]["text"].as_str() {
            ws.play(id, sid, mv).await;
        } else if state["to_move"] == 1 && state["bots"][1] == false && !waited {
            waited = true;
            advance(Duration::from_secs(3600)).await;
        }
        state = next_state(ws).await;
    }
    state
}

/// Issue 46, item 2: claim in real time too, as lichess does: once the other player's turn
/// has run out (no need to wait for three), the game may be claimed; `away` says so.
#[tokio::test]
async fn a_real_time_game_may_be_claimed_as_soon_as_a_turn_runs_out() {
    let s = server_on_paused_time("timeouts-claim-rt", "rt=60+0").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let id = duel(&mut a, &mut b, "rt", false).await;
    let mut ws = a.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let state = next_state(&mut ws).await;
    assert_eq!(state["away"], json!([]));
    let r = a.post(&format!("/api/games/{id}/claim"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "nobody_away"), "{}", r.text);
    let _frozen = freeze();
    let state = seat_one_walks_away(&mut ws, &id, state, |s| s["away"] == json!([1])).await;
    assert_eq!(
        state["clock"]["timeouts"],
        json!([0, 1]),
        "one time-out: {state}"
    );
    // The one who ran out may not claim against the other.
    let r = b.post(&format!("/api/games/{id}/claim"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "nobody_away"), "{}", r.text);
    let r = a.post(&format!("/api/games/{id}/claim"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body, json!({"ended": true, "resigned": [1]}));
    let over = loop {
        let m = next_state(&mut ws).await;
        if m["finished"] == true {
            break m;
        }
    };
    assert_eq!(
        over["ending"],
        json!({"ending": "claimed", "ranks": [0, 1], "resigned": [1]})
    );
    assert_eq!(over["away"], json!([]));
}

/// Issue 46, item 2: in a rated duel the friend closes the tab; after three time-outs a bot
/// plays his seat to the end. Whatever it scores, he ranks last (Board Game Arena's rule):
/// on the end screen (the state and its view), in the stored result, in his history, and in
/// the ratings.
#[tokio::test]
async fn a_player_who_walks_away_ranks_last_whatever_his_stand_in_scores() {
    let s = server_on_paused_time("timeouts-absent", "rt=60+0").await;
    let mut a = account(&s, "anna").await;
    let mut b = account(&s, "bruno").await;
    let id = duel(&mut a, &mut b, "rt", true).await;
    let mut ws = a.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let state = next_state(&mut ws).await;
    let _frozen = freeze();
    let done = seat_one_walks_away(&mut ws, &id, state, |s| s["finished"] == true).await;
    assert_eq!(done["ending"], Value::Null, "played out by the rules");
    assert_eq!(
        done["outcome"]["ranks"],
        json!([0, 1]),
        "{}",
        done["outcome"]
    );
    assert_eq!(done["outcome"]["decided_by"][1], "absent");
    assert_eq!(done["view"]["outcome"]["ranks"], json!([0, 1]));
    let stored = s.state.store.game(&id).await.unwrap().unwrap();
    let result: Value = serde_json::from_str(stored.result.as_deref().unwrap()).unwrap();
    assert_eq!(result["ranks"], json!([0, 1]));
    assert_eq!(result["absent"], json!([1]));
    // The replay's last position says it too, in its outcome and its view.
    let plies = s.state.store.moves(&id).await.unwrap().len();
    let end = a
        .get(&format!("/api/games/{id}/replay/{plies}?seat=1"))
        .await;
    assert_eq!(end.status, 200, "{}", end.text);
    assert_eq!(end.body["outcome"]["ranks"], json!([0, 1]));
    assert_eq!(end.body["view"]["outcome"]["ranks"], json!([0, 1]));
    let mine = &b.get("/api/me/games").await.body["games"][0];
    assert_eq!(
        (&mine["mine"]["rank"], &mine["mine"]["won"]),
        (&json!(1), &json!(false))
    );
    let rating = |p: &Value| p["ratings"][0]["rating"].as_f64().unwrap();
    let anna = rating(&a.get("/api/users/anna").await.body);
    let bruno = rating(&b.get("/api/users/bruno").await.body);
    assert!(anna > 1500.0 && bruno < 1500.0, "{anna} {bruno}");
    // His profile's fair-play record counts the game he timed out of (issue 49); hers not.
    let fair = |c: Value| c["fair_play"].clone();
    assert_eq!(
        fair(b.get("/api/users/bruno/stats").await.body),
        json!({"games": 1, "resigned": 0, "timed_out": 1})
    );
    assert_eq!(
        fair(a.get("/api/users/anna/stats").await.body),
        json!({"games": 1, "resigned": 0, "timed_out": 0})
    );
}
