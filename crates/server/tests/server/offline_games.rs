//! Games played offline in the page (issue 50): an upload is replayed by the server's rules
//! and kept as an unrated finished game in the player's history, once however often it is
//! sent; a record that does not replay, a game not over, or seats other than the player and
//! bots are refused with a code and store nothing. It never moves a rating and is never a
//! daily challenge's attempt.
use crate::common::*;
use pyramidion_ai::level::BotLevel;
use pyramidion_games::{AnyGame, GameKind, bots};
use pyramidion_server::db::rows::SeatKind;
use serde_json::{Value, json};

/// A finished game of `game` with `options` from `seed`, the seats' moves chosen by a bot of
/// `level` (the player's too: the page's player is who clicked): its record as the page
/// uploads it.
fn played(game: &str, options: Value, seed: u64, level: BotLevel) -> Value {
    let kind: GameKind = game.parse().unwrap();
    let mut g = AnyGame::new(kind, &options, seed).unwrap();
    let mut moves = Vec::new();
    while g.outcome().is_none() {
        let m = bots::choose_any(&g, level, seed + moves.len() as u64);
        moves.push(g.play_text(&m).unwrap().full.text);
    }
    json!({"game": game, "options": options, "seed": seed, "moves": moves})
}

async fn upload(c: &mut Client, id: &str, record: &Value, seats: Value) -> Reply {
    c.post(
        "/api/offline-games",
        json!({"client_id": id, "record": record, "seats": seats}),
    )
    .await
}

async fn count(s: &TestServer, sql: &'static str, game: &str) -> i64 {
    sqlx::query_scalar(sql)
        .bind(game)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_finished_offline_game_is_kept_unrated_in_the_history_once() {
    kept_once_and_unrated(&start_sqlite("offline-kept").await).await;
}

/// The upload's storage, on SQLite here and on PostgreSQL (`postgres.rs`).
pub async fn kept_once_and_unrated(s: &TestServer) {
    let mut c = Client::guest(s).await;
    let me = c.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Solo against THE Legend, as a player on a train plays it.
    let record = played(
        "forgotten-treasures",
        json!({"players": 1, "solo": "the-legend"}),
        77,
        BotLevel::Greedy,
    );
    let r = upload(&mut c, "train-1", &record, json!([{"type": "me"}])).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["created"], true);
    let id = r.body["id"].as_str().unwrap().to_string();

    // In the history: finished, unrated, said to be played offline, with the player's result.
    let history = c.get("/api/me/games").await.body;
    let games = history["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{history}");
    let entry = &games[0];
    assert_eq!(entry["id"], id.as_str());
    assert_eq!(entry["status"], "finished");
    assert_eq!(entry["rated"], false);
    assert_eq!(entry["offline"], true);
    assert_eq!(entry["mine"]["seats"], json!([0]));
    assert!(entry["mine"]["rank"].is_u64(), "{entry}");
    // Its record is the one played (the rules' own notation), and it replays on the server.
    let kept = c.get(&format!("/api/games/{id}/record?format=json")).await;
    assert_eq!(kept.status, 200, "{}", kept.text);
    assert_eq!(kept.body["moves"], record["moves"]);
    assert_eq!(kept.body["seed"], 77);
    let last = record["moves"].as_array().unwrap().len();
    let end = c
        .get(&format!("/api/games/{id}/replay/{last}?seat=0"))
        .await;
    assert_eq!(end.status, 200, "{}", end.text);
    assert!(end.body["view"]["outcome"].is_object(), "{}", end.text);

    // Sent again (its answer lost on a bad connection): the same game, not a second one.
    let again = upload(&mut c, "train-1", &record, json!([{"type": "me"}])).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(
        (again.body["id"].as_str(), again.body["created"].as_bool()),
        (Some(id.as_str()), Some(false))
    );
    assert_eq!(
        c.get("/api/me/games").await.body["games"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Never rated, never a daily challenge's attempt.
    let no_rating = "SELECT COUNT(*) FROM rating_changes WHERE game_id = $1";
    assert_eq!(count(s, no_rating, &id).await, 0);
    let no_daily = "SELECT COUNT(*) FROM daily_attempts WHERE game_id = $1";
    assert_eq!(count(s, no_daily, &id).await, 0);
    let rated: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ratings WHERE player = $1")
        .bind(&me)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    assert_eq!(rated, 0);
    let row = s.state.store.game(&id).await.unwrap().unwrap();
    assert!(!row.rated && !row.listed);
    assert_eq!(
        s.state.store.seats(&id).await.unwrap(),
        vec![SeatKind::Human(me.clone())]
    );

    // Another player's game of the same id is theirs: ids are the page's, per player.
    let mut other = Client::guest(s).await;
    let theirs = upload(&mut other, "train-1", &record, json!([{"type": "me"}])).await;
    assert_eq!(theirs.status, 201, "{}", theirs.text);
    assert_ne!(theirs.body["id"].as_str(), Some(id.as_str()));
}

#[tokio::test]
async fn a_game_against_bots_keeps_who_played_which_move() {
    let s = start_sqlite("offline-bots").await;
    let mut c = Client::guest(&s).await;
    let record = played("pyramids", json!({"players": 3}), 5, BotLevel::Random);
    let seats = json!([{"type": "bot", "level": "greedy"}, {"type": "me"}, {"type": "bot", "level": "random"}]);
    let r = upload(&mut c, "bots-1", &record, seats).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap();
    let table = c.get(&format!("/api/tables/{id}")).await.body;
    let kinds: Vec<&str> = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["bot", "human", "bot"]);
    assert_eq!(table["rated"], false);
    // The moves of seat 1 (the player) are not the bots'; the others' are.
    let by_bot: Vec<(i64, i64)> =
        sqlx::query_as("SELECT ply, by_bot FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&s.state.store.pool)
            .await
            .unwrap();
    assert_eq!(by_bot.len(), record["moves"].as_array().unwrap().len());
    assert!(by_bot.iter().any(|&(_, b)| b == 0));
    assert!(by_bot.iter().any(|&(_, b)| b == 1));
}

#[tokio::test]
async fn a_record_that_does_not_replay_is_refused_and_nothing_is_kept() {
    let s = start_sqlite("offline-refused").await;
    let mut c = Client::guest(&s).await;
    let solo = json!({"players": 1, "solo": "a-legend"});
    let good = played("forgotten-treasures", solo.clone(), 9, BotLevel::Random);
    let me = json!([{"type": "me"}]);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut r = good.clone();
        f(&mut r);
        r
    };
    let cases: Vec<(&str, Value, Value, u16, &str)> = vec![
        (
            "an illegal move",
            with(&|r| r["moves"][3] = json!("nonsense")),
            me.clone(),
            400,
            "bad_offline_record",
        ),
        (
            "a game not over",
            with(&|r| {
                r["moves"].as_array_mut().unwrap().pop();
            }),
            me.clone(),
            409,
            "offline_not_over",
        ),
        (
            "moves after the end",
            with(&|r| {
                let last = r["moves"][0].clone();
                r["moves"].as_array_mut().unwrap().push(last);
            }),
            me.clone(),
            400,
            "bad_offline_record",
        ),
        (
            "an unknown game",
            with(&|r| r["game"] = json!("chess")),
            me.clone(),
            400,
            "bad_offline_record",
        ),
        (
            "options the rules refuse",
            with(&|r| r["options"] = json!({"players": 9})),
            me.clone(),
            400,
            "bad_offline_record",
        ),
        (
            "a seed over 2^63 - 1",
            with(&|r| r["seed"] = json!(u64::MAX)),
            me.clone(),
            400,
            "bad_offline_record",
        ),
        (
            "two seats for a solo game",
            good.clone(),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]),
            400,
            "bad_offline_record",
        ),
        (
            "no seat for the player",
            good.clone(),
            json!([{"type": "bot", "level": "greedy"}]),
            400,
            "bad_offline_record",
        ),
        (
            "an open seat",
            good.clone(),
            json!([{"type": "open"}]),
            400,
            "bad_offline_record",
        ),
    ];
    for (what, record, seats, status, code) in cases {
        let r = upload(&mut c, "bad-1", &record, seats).await;
        assert_eq!((r.status, r.code()), (status, code), "{what}: {}", r.text);
    }
    // A bot level the game does not list.
    let duel = played("pyramids", json!({"players": 2}), 3, BotLevel::Random);
    let r = upload(
        &mut c,
        "bad-2",
        &duel,
        json!([{"type": "me"}, {"type": "bot", "level": "search:5"}]),
    )
    .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "unknown_bot_level"),
        "{}",
        r.text
    );
    // An id the page could not have made.
    for id in ["", "a/b", &"x".repeat(65)] {
        let r = upload(&mut c, id, &good, me.clone()).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_offline_record"),
            "{id}: {}",
            r.text
        );
    }
    // Nothing was kept, and the good record still is, under the id a refusal did not take.
    assert_eq!(c.get("/api/me/games").await.body["games"], json!([]));
    let r = upload(&mut c, "bad-1", &good, me.clone()).await;
    assert_eq!(r.status, 201, "{}", r.text);
    // Only a player uploads.
    let r = upload(&mut Client::new(&s), "anon-1", &good, me).await;
    assert_eq!((r.status, r.code()), (401, "unauthorized"), "{}", r.text);
}
