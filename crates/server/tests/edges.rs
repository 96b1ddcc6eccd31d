//! The smaller edges of issue 29: a stale room, unlisted games, hot seat, rematches, the
//! public health check, and paged exports.
mod common;
use common::*;
use pyramidion_games::{AnyGame, GameKind};
use serde_json::{Value, json};
use sqlx::Row;
use std::time::Duration;

/// A guest's 2-player table against greedy, the guest's socket on it, and its first state.
async fn table_against_greedy(s: &TestServer) -> (Client, Socket, String, Value) {
    let mut c = Client::guest(s).await;
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let game = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&game, None).await;
    (c, ws, game, state)
}

/// The game as stored: replayed from its seed and moves.
async fn stored_game(s: &TestServer, game: &str) -> (AnyGame, usize) {
    let row = sqlx::query("SELECT kind, options, seed FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    let kind: GameKind = row.get::<String, _>("kind").parse().unwrap();
    let options: Value = serde_json::from_str(&row.get::<String, _>("options")).unwrap();
    let seed = row.get::<i64, _>("seed") as u64;
    let mut g = AnyGame::new(kind, &options, seed).unwrap();
    let moves: Vec<String> =
        sqlx::query_scalar("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game)
            .fetch_all(&s.state.store.pool)
            .await
            .unwrap();
    for m in &moves {
        g.play_text(m).unwrap();
    }
    (g, moves.len())
}

/// A move stored by someone else (another server on the database) makes the room stale: the
/// bot's move at that ply is refused as a duplicate, the room is dropped (its followers are
/// told to resubscribe) and rebuilt from storage, and the refused move is never tried again.
#[tokio::test]
async fn a_stale_rooms_bot_move_is_not_retried_and_the_room_is_rebuilt() {
    let s = start_sqlite_with("stale-room", |c| {
        // The real bot's answer waits this long: only the injected one plays its turn.
        c.bot_pace = Duration::from_secs(600);
    })
    .await;
    let (_c, mut ws, game, mut state) = table_against_greedy(&s).await;
    let me = state["seat"].clone();
    while state["to_move"] == me {
        let id = state["state_id"].as_u64().unwrap();
        let mv = state["legal"][0]["text"].as_str().unwrap().to_string();
        ws.play(&game, id, &mv).await;
        state = ws.state_at_least(&game, id + 1).await;
    }
    let bots_state = state["state_id"].as_u64().unwrap();
    // Another writer stores the bot seat's move at this ply.
    let (g, ply) = stored_game(&s, &game).await;
    assert_eq!(ply as u64, bots_state);
    let legal = g.legal_moves();
    let theirs = legal[0].text.clone();
    let ours = legal.get(1).map_or(theirs.clone(), |m| m.text.clone());
    sqlx::query(
        "INSERT INTO moves (game_id, ply, text, by_bot, created_at) VALUES ($1, $2, $3, 1, 0)",
    )
    .bind(&game)
    .bind(ply as i64)
    .bind(&theirs)
    .execute(&s.state.store.pool)
    .await
    .unwrap();
    let room = s.state.rooms.running(&game).expect("the game's room runs");
    room.tx
        .send(pyramidion_server::room::RoomCmd::BotMove(
            pyramidion_server::bot_retry::BotChoice {
                state_id: bots_state,
                text: ours,
                timeout_seat: None,
                failures: 0,
            },
        ))
        .await
        .unwrap();
    // The follower is told to resubscribe (the room is gone)…
    let dropped = ws.next_of("error").await;
    assert_eq!(dropped["code"], "lagging", "{dropped}");
    assert_eq!(dropped["game"], game.as_str());
    assert!(room.tx.is_closed(), "the stale room still runs");
    // …and the rebuilt room holds the stored move.
    let rebuilt = ws.subscribe(&game, None).await;
    assert_eq!(rebuilt["state_id"].as_u64(), Some(bots_state + 1), "{rebuilt}");
    assert_eq!(rebuilt["last_move"]["text"], theirs.as_str(), "{rebuilt}");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(&game)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    assert_eq!(stored as u64, bots_state + 1);
}
