//! The smaller edges of issue 29: a stale room, unlisted games, hot seat, rematches, the
//! public health check, and paged exports.
use crate::common::*;
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
        .send(pyramidion_server::live::room_cmd::RoomCmd::BotMove(
            pyramidion_server::live::room_cmd::BotChoice {
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
    assert_eq!(
        rebuilt["state_id"].as_u64(),
        Some(bots_state + 1),
        "{rebuilt}"
    );
    assert_eq!(rebuilt["last_move"]["text"], theirs.as_str(), "{rebuilt}");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(&game)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    assert_eq!(stored as u64, bots_state + 1);
}

const DUEL: &str = "pyramids";

/// A finished 2-player game between two guests, not listed: (a, b, game id, invite).
async fn unlisted_game(s: &TestServer) -> (Client, Client, String, String) {
    let mut a = Client::guest(s).await;
    let mut b = Client::guest(s).await;
    let t = a
        .post(
            "/api/tables",
            json!({"game": DUEL, "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "invite"}], "listed": false}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let invite = t.body["invite"].as_str().unwrap().to_string();
    let j = b
        .post(&format!("/api/tables/{id}/join"), json!({"invite": invite}))
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    (a, b, id, invite)
}

#[tokio::test]
async fn unlisted_games_are_seen_only_by_their_players_and_invite_holders() {
    let s = start_sqlite("unlisted").await;
    let (a, b, id, invite) = unlisted_game(&s).await;
    let a_id = a.clone().get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stranger = Client::guest(&s).await;
    // Following it live: refused as if it did not exist, unless with the invite.
    let mut ws = stranger.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let refused = ws.next_of("error").await;
    assert_eq!(refused["code"], "not_found", "{refused}");
    // A move (which subscribes) does not open it either.
    ws.play(&id, 0, "anything").await;
    assert_eq!(ws.next_of("error").await["code"], "not_found");
    ws.send(json!({"type": "subscribe", "game": id, "invite": invite}))
        .await;
    let followed = ws.next_of("state").await;
    assert_eq!(followed["game"], id.as_str());
    // Its record likewise.
    let r = stranger.get(&format!("/api/games/{id}/record")).await;
    assert_eq!((r.status, r.code()), (404, "not_found"), "{}", r.text);
    let r = stranger
        .get(&format!("/api/games/{id}/record?invite={invite}"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Not on the player's public profile nor in their public export…
    let p = stranger.get(&format!("/api/users/{a_id}")).await;
    assert_eq!(p.status, 200, "{}", p.text);
    assert!(!p.text.contains(&id), "{}", p.text);
    let n = stranger
        .get(&format!("/api/users/{a_id}/games.ndjson"))
        .await;
    assert_eq!(n.status, 200);
    assert!(!n.text.contains(&id), "{}", n.text);
    // …but the player sees it in both.
    let mut me = a.clone();
    assert!(
        me.get(&format!("/api/users/{a_id}"))
            .await
            .text
            .contains(&id)
    );
    assert!(
        me.get(&format!("/api/users/{a_id}/games.ndjson"))
            .await
            .text
            .contains(&id)
    );
    // Finished, its replay is likewise its players' and its invite holders'.
    let (mut wa, mut wb) = (a.socket().await, b.socket().await);
    let (sa, sb) = (wa.subscribe(&id, None).await, wb.subscribe(&id, None).await);
    let (end, _) = tokio::join!(wa.play_out(&id, sa, 1), wb.play_out(&id, sb, 2));
    assert_eq!(end["finished"], true);
    for path in [
        format!("/api/games/{id}/replay"),
        format!("/api/games/{id}/replay/1"),
    ] {
        let r = stranger.get(&path).await;
        assert_eq!(
            (r.status, r.code()),
            (404, "not_found"),
            "{path}: {}",
            r.text
        );
        let with = if path.ends_with("/1") {
            "?seat=0&invite="
        } else {
            "?invite="
        };
        let r = stranger.get(&format!("{path}{with}{invite}")).await;
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        assert_eq!(me.get(&path).await.status, 200, "{path}");
    }
}

#[tokio::test]
async fn profiles_and_exports_are_paged() {
    let s = start_sqlite("paged").await;
    let mut c = Client::guest(&s).await;
    let me = c.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut games = Vec::new();
    for _ in 0..5 {
        let t = c
            .create_table(
                "forgotten-treasures",
                json!({"players": 1, "solo": "a-legend"}),
                json!([{"type": "me"}]),
            )
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
        games.push(t.body["id"].as_str().unwrap().to_string());
    }
    // Newest first, two at a time.
    let mut seen = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let path = match &before {
            None => format!("/api/users/{me}?limit=2"),
            Some(b) => format!("/api/users/{me}?limit=2&before={b}"),
        };
        let p = c.get(&path).await;
        assert_eq!(p.status, 200, "{}", p.text);
        let recent = p.body["recent"].as_array().unwrap();
        assert!(recent.len() <= 2);
        seen.extend(recent.iter().map(|g| g["id"].as_str().unwrap().to_string()));
        match p.body["next"].as_str() {
            Some(next) => before = Some(next.to_string()),
            None => break,
        }
        assert!(seen.len() <= 6, "the pages never end");
    }
    let mut expected = games.clone();
    expected.sort();
    let mut got = seen.clone();
    got.sort();
    assert_eq!(got, expected, "every game once");
    // The export: a full page names the next one in a Link header.
    let r = c
        .http
        .get(format!("{}/api/users/{me}/games.ndjson?limit=3", c.base))
        .send()
        .await
        .unwrap();
    let link = r.headers()["link"].to_str().unwrap().to_string();
    assert!(link.ends_with("; rel=\"next\""), "{link}");
    let first = r.text().await.unwrap();
    assert_eq!(first.lines().count(), 3);
    let next = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .to_string();
    let rest = c.get(&next).await;
    assert_eq!(rest.text.lines().count(), 2, "{}", rest.text);
    let r = c.get(&format!("/api/users/{me}?before=nonsense")).await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
}

#[tokio::test]
async fn hot_seat_follows_the_seat_to_move_and_its_rematch_seats_the_player_everywhere() {
    let s = start_sqlite("hot-seat").await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            DUEL,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "me"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    assert_eq!(t.body["status"], "live");
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&id, None).await;
    // One connection plays both seats to the end (it would wait forever, and the test fail,
    // if it kept the first seat's view).
    let end = ws.play_out(&id, state, 7).await;
    assert_eq!(end["finished"], true);
    let r = c.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["status"], "live", "{}", r.text);
}

#[tokio::test]
async fn a_rematch_table_its_asker_left_does_not_block_the_next() {
    let s = start_sqlite("rematch-left").await;
    let (mut a, mut b, id, _) = unlisted_game(&s).await;
    let mut wa = a.socket().await;
    let mut wb = b.socket().await;
    let sa = wa.subscribe(&id, None).await;
    let sb = wb.subscribe(&id, None).await;
    let (ra, _) = tokio::join!(wa.play_out(&id, sa, 1), wb.play_out(&id, sb, 2));
    assert_eq!(ra["finished"], true);
    let r = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let first = r.body["id"].as_str().unwrap().to_string();
    let left = a
        .post(&format!("/api/tables/{first}/leave"), json!({}))
        .await;
    assert_eq!(left.body["status"], "abandoned", "{}", left.text);
    // B asks: a new table, not the abandoned one; A joins it.
    let r = b.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let second = r.body["id"].as_str().unwrap().to_string();
    assert_ne!(second, first);
    let r = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.body["id"], second.as_str(), "{}", r.text);
    let joined = a
        .post(&format!("/api/tables/{second}/join"), json!({}))
        .await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
}
