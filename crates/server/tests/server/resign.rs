//! Resign, abandon, and the sweep that abandons forgotten games against bots (issue 27), over
//! real HTTP and WebSockets.
use crate::common::after_game_scenarios::account;
use crate::common::*;
use pyramidion_server::wall_clock::now_ms;
use serde_json::{Value, json};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// A live table of `players` pyramids seats: `people` clients (the first creates it and sits at
/// seat 0, the others join in order), bots (greedy) in the other seats.
async fn table(s: &TestServer, people: &mut [Client], players: usize, rated: bool) -> String {
    let mut seats = vec![json!({"type": "me"})];
    for i in 1..players {
        seats.push(if i < people.len() {
            json!({"type": "open"})
        } else {
            json!({"type": "bot", "level": "greedy"})
        });
    }
    let mut body = json!({"game": "pyramids", "options": {"players": players}, "seats": seats,
                          "rated": rated});
    if rated {
        // Rated tables need a clock (a rated game without one could be stalled for ever).
        body["clock"] = json!("normal");
    }
    let t = people[0].post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    for p in people.iter_mut().skip(1) {
        let j = p.post(&format!("/api/tables/{id}/join"), json!({})).await;
        assert_eq!(j.status, 200, "{}", j.text);
    }
    let _ = s;
    id
}

fn rating_of(profile: &Value) -> Option<f64> {
    profile["ratings"]
        .as_array()?
        .iter()
        .find(|r| r["game"] == "pyramids")
        .and_then(|r| r["rating"].as_f64())
}

#[tokio::test]
async fn resigning_a_rated_duel_ends_it_at_once_and_moves_ratings_as_a_loss() {
    let s = start_sqlite("resign-duel").await;
    let mut people = [account(&s, "anna").await, account(&s, "bruno").await];
    let id = table(&s, &mut people, 2, true).await;
    let [a, b] = &mut people;
    let mut ws_b = b.socket().await;
    let first = ws_b.subscribe(&id, None).await;
    assert_eq!(first["finished"], false);
    assert_eq!(first["resigned"], json!([]));

    // Someone not seated may not resign it; a bad id is not found. Nothing changes.
    let mut stranger = Client::guest(&s).await;
    let r = stranger
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (403, "not_seated"), "{}", r.text);
    let r = a.post("/api/games/nope/resign", json!({})).await;
    assert_eq!((r.status, r.code()), (404, "not_found"), "{}", r.text);
    let r = a.post(&format!("/api/games/{id}/abandon"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "not_bot_only"), "{}", r.text);
    let r = a.post(&format!("/api/games/{id}/claim"), json!({})).await;
    // A real-time game may be claimed too, but only against someone away (issue 46).
    assert_eq!((r.status, r.code()), (409, "nobody_away"), "{}", r.text);
    assert_eq!(
        s.state.store.game(&id).await.unwrap().unwrap().status,
        "live"
    );

    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["ended"], true);
    // The other player is told at once: the game is over, ranked by the server.
    let over = loop {
        let m = ws_b.next_of("state").await;
        if m["finished"] == true {
            break m;
        }
    };
    assert_eq!(over["to_move"], Value::Null);
    assert_eq!(over["legal"], json!([]));
    assert_eq!(over["outcome"], Value::Null);
    assert_eq!(
        over["ending"],
        json!({"ending": "resigned", "ranks": [1, 0], "resigned": [0]})
    );
    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "game_over"), "{}", r.text);

    // Ratings moved as for a loss (and a win), and the history says how it ended.
    let anna = rating_of(&a.get("/api/users/anna").await.body).unwrap();
    let bruno = rating_of(&b.get("/api/users/bruno").await.body).unwrap();
    assert!(anna < 1500.0 && bruno > 1500.0, "{anna} {bruno}");
    let history = a.get("/api/me/games").await.body;
    let mine = &history["games"][0];
    assert_eq!(mine["status"], "finished");
    assert_eq!(mine["result"]["ending"], "resigned");
    assert_eq!(mine["mine"]["rank"], 1);
    assert_eq!(mine["mine"]["won"], false);
    assert_eq!(mine["mine"]["rating"]["after"], anna.round());
    assert_eq!(b.get("/api/me/turns").await.body["games"], json!([]));

    // A new socket (or a restarted room) reads the same ending from storage.
    let restarted = start(sqlite_url(&s.dir), |_| {}).await;
    let mut again = Client::new(&restarted);
    again.cookie = b.cookie.clone();
    let read = again.socket().await.subscribe(&id, None).await;
    assert_eq!(read["ending"], over["ending"]);
    assert_eq!(read["finished"], true);
}

#[tokio::test]
async fn in_a_three_player_game_a_bot_plays_the_resigned_seat_and_the_others_play_on() {
    let s = start_sqlite("resign-three").await;
    let mut people = [Client::guest(&s).await, Client::guest(&s).await];
    let id = table(&s, &mut people, 3, false).await;
    let [a, b] = &mut people;
    let mut ws_b = b.socket().await;
    let state = ws_b.subscribe(&id, None).await;
    assert_eq!(state["bots"], json!([false, false, true]));
    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body, json!({"ended": false, "resigned": [0]}));
    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (409, "already_resigned"),
        "{}",
        r.text
    );
    // The resigned seat may not move any more; a bot plays it.
    let mut ws_a = a.socket().await;
    let seen = ws_a.subscribe(&id, None).await;
    assert_eq!(seen["legal"], json!([]));
    let state = loop {
        let m = ws_b.next_of("state").await;
        if m["resigned"] == json!([0]) {
            break m;
        }
    };
    assert_eq!(state["bots"], json!([true, false, true]));
    assert_eq!(state["finished"], false);
    // The other person plays on to the end; the resigned seat ranks last, said as such.
    let done = ws_b.play_out(&id, state, 7).await;
    assert_eq!(done["ending"], Value::Null);
    let ranks = done["outcome"]["ranks"].as_array().unwrap();
    assert_eq!(ranks[0], 2, "{done}");
    assert_eq!(done["outcome"]["decided_by"][0], "resigned");
    let stored = s.state.store.game(&id).await.unwrap().unwrap();
    let result: Value = serde_json::from_str(stored.result.as_deref().unwrap()).unwrap();
    assert_eq!(result["ranks"], done["outcome"]["ranks"]);
    assert_eq!(result["resigned"], json!([0]));
}

#[tokio::test]
async fn a_game_against_bots_is_abandoned_and_leaves_your_move() {
    let s = start_sqlite("abandon").await;
    let mut people = [Client::guest(&s).await];
    let id = table(&s, &mut people, 2, false).await;
    let a = &mut people[0];
    let mut ws = a.socket().await;
    let state = ws.subscribe(&id, None).await;
    if state["to_move"] != 0 {
        ws.state_at_least(&id, state["state_id"].as_u64().unwrap() + 1)
            .await;
    }
    assert_eq!(
        a.get("/api/me/turns").await.body["games"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let r = a.post(&format!("/api/games/{id}/abandon"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["ended"], true);
    let turn = ws.next_of("turn").await;
    assert_eq!(
        (turn["game"].as_str(), turn["finished"].as_bool()),
        (Some(id.as_str()), Some(true))
    );
    assert_eq!(a.get("/api/me/turns").await.body["games"], json!([]));
    let history = a.get("/api/me/games").await.body;
    assert_eq!(history["games"][0]["result"]["ending"], "abandoned");
    assert_eq!(history["games"][0]["mine"]["rank"], 1);
    // The replay reads it too.
    let replay = a.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(replay.status, 200, "{}", replay.text);
}

#[tokio::test]
async fn the_sweep_abandons_games_against_bots_untouched_for_fourteen_days_only() {
    let s = start_sqlite("abandon-sweep").await;
    let mut solo = [Client::guest(&s).await];
    let against_bots = table(&s, &mut solo, 2, false).await;
    let mut pair = [Client::guest(&s).await, Client::guest(&s).await];
    let with_people = table(&s, &mut pair, 2, false).await;
    let status = |id: String| {
        let store = s.state.store.clone();
        async move { store.game(&id).await.unwrap().unwrap() }
    };
    s.state.sweep(now_ms() + 13 * DAY_MS).await;
    assert_eq!(status(against_bots.clone()).await.status, "live");
    s.state.sweep(now_ms() + 15 * DAY_MS).await;
    let row = status(against_bots.clone()).await;
    assert_eq!(row.status, "finished");
    let result: Value = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
    assert_eq!(result["ending"], "abandoned");
    assert_eq!(
        status(with_people).await.status,
        "live",
        "people are never abandoned"
    );
}

/// The scenario the PostgreSQL tier runs too (`crate::common::people_scenarios`), on SQLite.
#[tokio::test]
async fn people_scenario_on_sqlite() {
    let s = start_sqlite("people-scenario").await;
    crate::common::people_scenarios::people(&s).await;
}

#[tokio::test]
async fn an_abandoned_table_stays_dead_and_leave_reports_it() {
    let s = start_sqlite("abandoned").await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let r = c.post(&format!("/api/tables/{id}/leave"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.body["status"], "abandoned",
        "leave reports the real status"
    );
    assert_eq!(
        c.get(&format!("/api/tables/{id}")).await.body["status"],
        "abandoned"
    );
    let mut ws = c.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let e = ws.next_of("error").await;
    assert_eq!(e["code"], "not_found", "{e}");
    let again = c.get(&format!("/api/tables/{id}")).await;
    assert_eq!(again.body["status"], "abandoned");
    assert_eq!(metric(&mut c, "pyramidion_games_live").await, 0);
}
