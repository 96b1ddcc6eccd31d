//! Storage that fails, then recovers: every acknowledged move survives a restart (the data
//! directory is reopened and every game replayed), every refused one was answered with an
//! error, and the failure shows in `/healthz` and `/metrics` until a write succeeds again.
use crate::common::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// What became of one move sent.
enum Sent {
    Acked(Value),
    Refused,
}

/// A guest's 2-player Forgotten Treasures table against greedy: the guest, their socket
/// subscribed to it, the game id and its first state.
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

/// Sends the first legal move of `state` and waits for its answer: the next state, or an
/// error.
async fn send_move(ws: &mut Socket, game: &str, state: &Value) -> (String, Sent) {
    let id = state["state_id"].as_u64().unwrap();
    let mv = state["legal"][0]["text"]
        .as_str()
        .expect("a legal move")
        .to_string();
    ws.play(game, id, &mv).await;
    loop {
        let v = ws.next().await;
        if v["type"] == "error" {
            assert_eq!(v["code"], "unavailable", "a full disk passes: {v}");
            assert_eq!(v["state_id"], id, "{v}");
            return (mv, Sent::Refused);
        }
        if v["type"] == "state" && v["game"] == game && v["state_id"].as_u64() > Some(id) {
            assert_eq!(v["state_id"], id + 1, "{v}");
            assert_eq!(v["last_move"]["text"], mv.as_str());
            return (mv, Sent::Acked(v));
        }
    }
}

/// Reopens the database in a second server: the game replays from its record, and its
/// moves are exactly the acknowledged ones.
async fn assert_survives_restart(
    url: String,
    cookie: Option<String>,
    game: &str,
    acked: &[String],
) {
    let again = start(url, |_| {}).await;
    let mut c = Client::new(&again);
    c.cookie = cookie;
    let mut ws = c.socket().await;
    let state = ws.subscribe(game, Some(0)).await;
    assert_eq!(state["state_id"], acked.len() as u64, "{state}");
    let stored: Vec<String> = state["missed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stored, acked, "the stored moves are the acknowledged ones");
}

#[tokio::test]
async fn failing_commits_acknowledge_nothing_and_the_writer_recovers() {
    let faults = Arc::new(FailNext::default());
    let dir = temp_dir("faults");
    let url = sqlite_url(&dir);
    let injector = faults.clone();
    let s = start(url.clone(), move |c| {
        c.writer.faults = Some(injector);
        // No probe: each failure below is met by a move, one commit each.
        c.writer.probe_every = Duration::from_secs(3600);
    })
    .await;
    let mut c = Client::guest(&s).await;
    let game = solo_table(&mut c).await;
    let mut ws = c.socket().await;
    let mut state = ws.subscribe(&game, None).await;
    let mut acked = Vec::new();
    let (mut refused, mut acked_after_refusal) = (0, 0);
    for round in 0..13 {
        // Every fourth move meets three failing commits.
        if round % 4 == 1 {
            faults.0.store(3, Ordering::SeqCst);
        }
        let (mv, sent) = send_move(&mut ws, &game, &state).await;
        match sent {
            Sent::Acked(next) => {
                acked.push(mv);
                if refused > 0 {
                    acked_after_refusal += 1;
                }
                assert_eq!(c.get("/healthz").await.text, "ok");
                state = next;
            }
            Sent::Refused => {
                refused += 1;
                let h = c.get("/healthz").await;
                assert_eq!(h.status, 503, "{}", h.text);
                assert_eq!(h.body["status"], "degraded");
                // The public sees a code; the error itself is the operator's (/metrics).
                assert_eq!(h.body["error"]["code"], "storage_failing");
                assert!(!h.text.contains("the test fails this commit"), "{}", h.text);
                let m = c.get("/metrics").await.text;
                assert!(
                    m.contains("pyramidion_storage_last_error_info{error=\"")
                        && m.contains("the test fails this commit"),
                    "{m}"
                );
                assert_eq!(metric(&mut c, "pyramidion_storage_degraded").await, 1);
            }
        }
    }
    assert_eq!(refused, 9, "three rounds of three refusals");
    assert_eq!(acked_after_refusal, 3);
    assert_eq!(metric(&mut c, "pyramidion_storage_errors_total").await, 9);
    assert_eq!(metric(&mut c, "pyramidion_storage_degraded").await, 0);
    // An HTTP write in a failing commit is refused too, and nothing of it is stored.
    faults.0.store(1, Ordering::SeqCst);
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "the-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    // The storage failed, not the request: `503 unavailable` (with `Retry-After`).
    assert_eq!((t.status, t.code()), (503, "unavailable"), "{}", t.text);
    let mine = c.get("/api/me/games").await;
    assert_eq!(
        mine.body["games"].as_array().unwrap().len(),
        1,
        "{}",
        mine.text
    );
    assert_survives_restart(url, c.cookie.clone(), &game, &acked).await;
}

#[tokio::test]
async fn the_probe_notices_recovery_without_traffic() {
    let faults = Arc::new(FailNext::default());
    let injector = faults.clone();
    let dir = temp_dir("probe");
    let s = start(sqlite_url(&dir), move |c| {
        c.writer.faults = Some(injector);
        c.writer.probe_every = Duration::from_millis(20);
    })
    .await;
    let mut c = Client::guest(&s).await;
    let game = solo_table(&mut c).await;
    let mut ws = c.socket().await;
    let state = ws.subscribe(&game, None).await;
    faults.0.store(3, Ordering::SeqCst);
    let (_, sent) = send_move(&mut ws, &game, &state).await;
    assert!(matches!(sent, Sent::Refused));
    // Nothing else is sent: the probes use up the two other failures, then succeed.
    let mut waited = 0;
    while c.get("/healthz").await.status != 200 {
        waited += 1;
        assert!(waited < 2000, "the storage never turned healthy again");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(faults.0.load(Ordering::SeqCst), 0);
    assert_eq!(metric(&mut c, "pyramidion_storage_errors_total").await, 3);
    let (_, sent) = send_move(&mut ws, &game, &state).await;
    assert!(matches!(sent, Sent::Acked(_)));
}

/// Unmounts the test's tmpfs, also when the test fails.
struct Mounted(std::path::PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

/// A real full disk: a small tmpfs, filled up while a game is played, then freed. 64 MiB (a
/// server stored its shipped puzzles at start until session 32: 1,219 of them took more than
/// the 4 MiB this test had), and the filler takes whatever the store left. Mounting
/// needs root: `scripts/test` (run as root by CI) enables it; plain `cargo test` lists it as
/// ignored, with the reason.
#[tokio::test]
#[cfg_attr(
    not(feature = "root-tests"),
    ignore = "mounts a tmpfs: needs root, run by scripts/test"
)]
async fn a_full_disk_refuses_moves_then_recovers() {
    let dir = temp_dir("full-disk");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64m", "tmpfs"])
        .arg(&dir)
        .status();
    assert!(
        matches!(mounted, Ok(s) if s.success()),
        "this test mounts a small tmpfs to fill the disk: run it as root on a machine that \
         allows `mount -t tmpfs` ({mounted:?})"
    );
    let _unmount = Mounted(dir.clone());
    let url = sqlite_url(&dir);
    let s = start(url.clone(), |c| {
        c.writer.probe_every = Duration::from_secs(3600);
    })
    .await;
    // A WAL left by the start (the shipped puzzles, when they were stored there, left
    // megabytes) would be reused by later commits without growing any file, so that no
    // commit met the full disk: it is emptied and truncated first, as a long-running
    // server's checkpoints would.
    {
        use sqlx::Connection;
        let mut conn = sqlx::sqlite::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
    }
    let mut c = Client::guest(&s).await;
    let game = solo_table(&mut c).await;
    let mut ws = c.socket().await;
    let mut state = ws.subscribe(&game, None).await;
    let mut acked = Vec::new();
    for _ in 0..3 {
        let (mv, sent) = send_move(&mut ws, &game, &state).await;
        let Sent::Acked(next) = sent else {
            panic!("refused before the disk is full")
        };
        acked.push(mv);
        state = next;
    }
    // Fill the disk.
    let filler = dir.join("filler");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&filler).unwrap();
        let chunk = vec![0u8; 4096];
        while f.write_all(&chunk).is_ok() {}
        let _ = f.sync_all();
    }
    let mut refused = 0;
    for _ in 0..400 {
        if state["finished"] == true {
            break;
        }
        let (mv, sent) = send_move(&mut ws, &game, &state).await;
        match sent {
            Sent::Acked(next) => {
                acked.push(mv);
                state = next;
            }
            Sent::Refused => {
                refused += 1;
                if refused == 3 {
                    break;
                }
            }
        }
    }
    assert_eq!(refused, 3, "a full disk should refuse moves");
    let h = c.get("/healthz").await;
    assert_eq!(
        (h.status, &h.body["status"]),
        (503, &json!("degraded")),
        "{}",
        h.text
    );
    std::fs::remove_file(&filler).unwrap();
    // Space is back: the same move is accepted, and the next ones.
    for _ in 0..5 {
        let (mv, sent) = send_move(&mut ws, &game, &state).await;
        let Sent::Acked(next) = sent else {
            panic!(
                "still refused after the disk was freed: {}",
                c.get("/healthz").await.text
            )
        };
        acked.push(mv);
        state = next;
    }
    assert_eq!(c.get("/healthz").await.text, "ok");
    assert!(metric(&mut c, "pyramidion_storage_errors_total").await >= 3);
    assert_survives_restart(url, c.cookie.clone(), &game, &acked).await;
}

/// A bot's move that the storage refuses is tried again (with a growing wait) until it is
/// stored: the game goes on by itself once the storage recovers, and the move survives a
/// restart.
#[tokio::test]
async fn a_refused_bot_move_is_tried_again_until_stored() {
    let faults = Arc::new(FailNext::default());
    let dir = temp_dir("bot-retry");
    let url = sqlite_url(&dir);
    let injector = faults.clone();
    let s = start(url.clone(), move |c| {
        c.writer.faults = Some(injector);
        c.writer.probe_every = Duration::from_secs(3600);
        // The bot's move waits this long after ours: time to make its commits fail.
        c.bot_pace = Duration::from_millis(500);
    })
    .await;
    let (mut c, mut ws, game, mut state) = table_against_greedy(&s).await;
    let me = state["seat"].clone();
    if state["to_move"] != me {
        state = loop {
            let next = ws.state_at_least(&game, 1).await;
            if next["to_move"] == me {
                break next;
            }
        };
    }
    // Our turn, to its last move; then the bot's first three commits fail.
    while state["to_move"] == me {
        let (_, sent) = send_move(&mut ws, &game, &state).await;
        let Sent::Acked(next) = sent else {
            panic!("our move was refused with no fault injected")
        };
        state = next;
    }
    faults.0.store(3, Ordering::SeqCst);
    let handed_over = state["state_id"].as_u64().unwrap();
    // The bot's turn is played all the same, once the storage takes it (a few hundred
    // milliseconds of waits between attempts; the socket's pings would keep `next` waiting).
    let bots_turn = async {
        while state["to_move"] != me && state["finished"] != true {
            let id = state["state_id"].as_u64().unwrap();
            state = ws.state_at_least(&game, id + 1).await;
            assert_ne!(state["last_move"]["seat"], me, "{state}");
        }
    };
    tokio::time::timeout(Duration::from_secs(20), bots_turn)
        .await
        .expect("the bot's turn is played within 20 s of the storage failing");
    assert!(state["state_id"].as_u64().unwrap() > handed_over);
    assert_eq!(
        faults.0.load(Ordering::SeqCst),
        0,
        "the bot's commits met the faults"
    );
    assert_eq!(metric(&mut c, "pyramidion_storage_errors_total").await, 3);
    assert_eq!(c.get("/healthz").await.text, "ok");
    // Stored: a second server replays the game to the same state.
    let again = start(url, |_| {}).await;
    let mut other = Client::new(&again);
    other.cookie = c.cookie.clone();
    let replayed = other.socket().await.subscribe(&game, None).await;
    assert_eq!(replayed["state_id"], state["state_id"], "{replayed}");
}

/// A bot move the rules refuse (a bug in a bot) does not stall the game: the first legal
/// move is played in its place. The bug is made by handing the room a move no game has, as
/// the bot pool would hand it a bot's answer.
#[tokio::test]
async fn a_bot_move_the_rules_refuse_is_replaced_by_a_legal_one() {
    let s = start_sqlite_with("bot-refused", |c| {
        // The real bot's answer waits this long after our move: only the fallback can play
        // the bot's turn before it.
        c.bot_pace = Duration::from_secs(60);
    })
    .await;
    let (_c, mut ws, game, mut state) = table_against_greedy(&s).await;
    let me = state["seat"].clone();
    // Our turn, if it comes first, to its end; then the bot's.
    while state["to_move"] == me {
        let (_, sent) = send_move(&mut ws, &game, &state).await;
        let Sent::Acked(next) = sent else {
            panic!("our move was refused")
        };
        state = next;
    }
    let bots_state = state["state_id"].as_u64().unwrap();
    let room = s.state.rooms.running(&game).expect("the game's room runs");
    room.tx
        .send(pyramidion_server::live::room_cmd::RoomCmd::BotMove(
            pyramidion_server::live::room_cmd::BotChoice {
                state_id: bots_state,
                text: "no such move".to_string(),
                timeout_seat: None,
                failures: 0,
            },
        ))
        .await
        .unwrap();
    let next = tokio::time::timeout(
        Duration::from_secs(10),
        ws.state_at_least(&game, bots_state + 1),
    )
    .await
    .expect("the bot's turn goes on within seconds, not after the bot's 60 s pace");
    assert_ne!(next["last_move"]["seat"], me, "{next}");
    assert_ne!(next["last_move"]["text"], "no such move", "{next}");
}
