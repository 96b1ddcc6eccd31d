//! Scenarios run against every storage backend (SQLite here, PostgreSQL in postgres.rs).
use super::*;

/// Accounts and guests: register, name taken, login, logout, guest upgrade keeps games.
pub async fn accounts(server: &TestServer) {
    let mut guest = Client::guest(server).await;
    let me = guest.get("/api/me").await;
    assert_eq!(me.body["guest"], true);
    let guest_id = me.body["id"].as_str().unwrap().to_string();
    // The guest plays a solo game, then registers: same identity, the game is still theirs.
    let t = guest
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "a-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let name = format!("ann{}", &guest_id[..6]);
    let r = guest
        .post(
            "/api/register",
            json!({"name": name, "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["id"], guest_id.as_str());
    assert_eq!(r.body["guest"], false);
    let games = guest.get("/api/me/games").await;
    assert_eq!(games.body["games"].as_array().unwrap().len(), 1);
    // Name taken, for a new visitor too.
    let mut other = Client::guest(server).await;
    let r = other
        .post(
            "/api/register",
            json!({"name": name, "password": "another pass"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (409, "name_taken"));
    // Logout, then login again.
    let r = guest.post("/api/logout", json!({})).await;
    assert_eq!(r.status, 200);
    assert!(guest.cookie.is_none());
    let r = guest.get("/api/me/games").await;
    assert_eq!((r.status, r.code()), (401, "unauthorized"));
    let r = guest
        .post(
            "/api/login",
            json!({"name": name, "password": "wrong password"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (401, "unauthorized"));
    let r = guest
        .post(
            "/api/login",
            json!({"name": name, "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["id"], guest_id.as_str());
    assert_eq!(
        guest.get("/api/me/games").await.body["games"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// A solo game against THE Legend, played to the end over the socket; its record replays.
pub async fn solo_game(server: &TestServer) {
    let mut c = Client::guest(server).await;
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "the-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    assert_eq!(t.body["status"], "live", "solo games start at once");
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&id, None).await;
    assert_eq!(state["seat"], 0);
    let done = ws.play_out(&id, state, 1).await;
    let outcome = &done["outcome"];
    assert!(outcome["automa"].is_number(), "{done}");
    // The finished game's record carries its seed and replays to the same scores.
    let r = c.get(&format!("/api/games/{id}/record?format=text")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let record = pyramidion_core::record::Record::parse(&r.text).unwrap();
    let game = pyramidion_games::AnyGame::from_record(&record).unwrap();
    assert_eq!(
        serde_json::to_value(game.outcome().unwrap()).unwrap(),
        *outcome
    );
}

/// NUL characters anywhere in a request are bad input (a `400`, or "no such thing" for ids),
/// never a database error.
pub async fn nul_bytes(server: &TestServer) {
    let mut c = Client::guest(server).await;
    let r = c
        .post(
            "/api/register",
            json!({"name": "nul\u{0}name", "password": "long enough"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = c
        .post(
            "/api/register",
            json!({"name": "nulpass", "password": "long\u{0}enough"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let r = c
        .post(
            "/api/login",
            json!({"name": "nul\u{0}", "password": "long enough"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let r = c
        .create_table(
            "forgotten-treasures\u{0}",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2, "x\u{0}": "\u{0}"}),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy\u{0}"}]),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "invite"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let r = c
        .post(
            &format!("/api/tables/{id}/join"),
            json!({"invite": "a\u{0}b"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let mut ws = ids_with_nul_are_not_found(
        &mut c,
        &[
            "/api/tables/a%00b",
            "/api/tables/a%00b/join",
            "/api/games/a%00b/record",
        ],
    )
    .await;
    ws.send(json!({"type": "move", "game": id, "state_id": 0, "move": "take\u{0}"}))
        .await;
    let e = ws.next_of("error").await;
    assert!(
        e["code"] == "not_found" || e["code"] == "illegal_move",
        "{e}"
    );
}

/// Ids no game or player can have (a NUL inside) are "no such thing", never a database error:
/// every path (a POST for `…/join`, else a GET) and a subscription answer `not_found`. The
/// socket is returned for more checks.
pub async fn ids_with_nul_are_not_found(c: &mut Client, paths: &[&str]) -> Socket {
    for path in paths {
        let r = if path.ends_with("join") {
            c.post(path, json!({})).await
        } else {
            c.get(path).await
        };
        assert_eq!(
            (r.status, r.code()),
            (404, "not_found"),
            "{path}: {}",
            r.text
        );
    }
    let mut ws = c.socket().await;
    ws.send(json!({"type": "subscribe", "game": "a\u{0}b"}))
        .await;
    assert_eq!(ws.next_of("error").await["code"], "not_found");
    ws
}
