//! After-the-game storage on any backend: a rated game moves ratings (in the transaction that
//! ends it), a replay and an NDJSON export read it back, a daily challenge refuses a second
//! attempt.
use super::*;

/// A 2-seat game that plays quickly against a bot.
pub const DUEL: &str = "pyramids";

pub async fn account(server: &TestServer, name: &str) -> Client {
    let mut c = Client::new(server);
    let r = c
        .post(
            "/api/register",
            json!({ "name": name, "password": "correct horse" }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    c
}

/// Creates a table of `game` with `options` and `seats`, plays it out over the socket as the
/// client's seat, and returns the game id and the final state.
pub async fn play_table(
    c: &mut Client,
    game: &str,
    options: Value,
    seats: Value,
    rated: bool,
) -> (String, Value) {
    // A rated table needs a clock: a turn-based one that never runs out in a test.
    let clock = if rated { json!("day") } else { Value::Null };
    let t = c
        .post(
            "/api/tables",
            json!({ "game": game, "options": options, "seats": seats, "rated": rated,
                    "clock": clock }),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    assert_eq!(t.body["rated"], rated);
    let id = t.body["id"].as_str().unwrap().to_string();
    (id.clone(), play_out(c, &id).await)
}

pub async fn play_out(c: &mut Client, id: &str) -> Value {
    let mut ws = c.socket().await;
    let state = ws.subscribe(id, None).await;
    ws.play_out(id, state, 3).await
}

pub async fn rated_game_replay_and_daily(server: &TestServer) {
    let mut c = Client::new(server);
    let name = format!("rater{}", rand_suffix() % 100_000);
    let r = c
        .post(
            "/api/register",
            json!({ "name": name, "password": "correct horse" }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let t = c
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2}, "rated": true, "clock": "day",
                   "seats": [{"type": "me"}, {"type": "bot", "level": "random"}]}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&id, None).await;
    let done = ws.play_out(&id, state, 9).await;
    let profile = c.get(&format!("/api/users/{name}")).await.body;
    assert_eq!(profile["ratings"][0]["games"], 1, "{profile}");
    assert_eq!(profile["ratings"][0]["provisional"], true, "{profile}");
    // One game: both ratings are provisional, kept off the leaderboard.
    let board = c.get("/api/leaderboards/pyramids").await.body;
    assert!(
        !board["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == name.as_str()),
        "{board}"
    );
    let history = c.get("/api/me/games").await.body;
    assert_eq!(history["games"][0]["mine"]["rating"]["before"], 1500.0);
    let replay = c.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(replay.status, 200, "{}", replay.text);
    let plies = replay.body["plies"].as_u64().unwrap();
    let end = c.get(&format!("/api/games/{id}/replay/{plies}")).await;
    assert_eq!(end.body["outcome"], done["outcome"]);
    let me = c.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let ndjson = c.get(&format!("/api/users/{me}/games.ndjson")).await;
    assert_eq!(ndjson.text.lines().count(), 1, "{}", ndjson.text);
    let daily = c.get("/api/daily").await.body;
    let cid = daily["challenges"][0]["id"].as_str().unwrap().to_string();
    let first = c.post(&format!("/api/daily/{cid}"), json!({})).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let second = c.post(&format!("/api/daily/{cid}"), json!({})).await;
    assert_eq!(second.code(), "daily_already_played");
    // Ids no game or player can have are "no such thing", never a database error.
    super::scenarios::ids_with_nul_are_not_found(
        &mut c,
        &[
            "/api/games/a%00b/replay",
            "/api/games/a%00b/replay/0",
            "/api/games/a%00b/analysis",
            "/api/users/a%00b",
            "/api/users/a%00b/games.ndjson",
        ],
    )
    .await;
}
