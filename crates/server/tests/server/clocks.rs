//! Clocks per turn, the time-out policy, "your move" pushes and the live lobby, over real
//! HTTP and WebSockets.
use crate::common::paused::{
    advance, freeze, let_threads_run, next_untimed, ready_messages, server_on_paused_time,
};
use crate::common::*;
use pyramidion_server::time_control::parse_profiles;
use serde_json::{Value, json};

/// A server whose clock profiles are `clocks` (as `pyramidion serve --clocks` sets them).
async fn server_with_clocks(name: &str, clocks: &str) -> (TestServer, String) {
    let dir = temp_dir(name);
    let url = sqlite_url(&dir);
    let profiles = parse_profiles(clocks).unwrap();
    let mut s = start(url.clone(), |c| c.clocks = profiles).await;
    s.dir = dir;
    (s, url)
}

/// Two guests at a live two-player Pyramids table with clock `clock`; the creator sits at
/// seat 0.
async fn two_player_table(s: &TestServer, clock: &str) -> (Client, Client, String) {
    let mut a = Client::guest(s).await;
    let mut b = Client::guest(s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}], "clock": clock});
    let t = a.post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    assert_eq!(t.body["clock"]["key"], clock);
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    (a, b, id)
}

fn remaining(state: &Value) -> Vec<i64> {
    state["clock"]["remaining_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// Plays the first legal move on whichever socket is to move until the seat to move changes;
/// returns the last state seen by `sockets[0]`.
async fn play_one_turn(sockets: &mut [Socket; 2], game: &str, mut state: Value) -> Value {
    let first = state["to_move"].as_u64().unwrap();
    loop {
        let seat = state["to_move"].as_u64().unwrap() as usize;
        if seat as u64 != first {
            return state;
        }
        let id = state["state_id"].as_u64().unwrap();
        let mut mine = sockets[seat].subscribe(game, None).await;
        assert_eq!(mine["state_id"], id);
        let text = mine["legal"][0]["text"].as_str().unwrap().to_string();
        sockets[seat].play(game, id, &text).await;
        mine = sockets[seat].state_at_least(game, id + 1).await;
        state = if seat == 0 {
            mine
        } else {
            sockets[0].state_at_least(game, id + 1).await
        };
    }
}

#[tokio::test]
async fn a_turn_pays_the_bank_when_the_seat_changes_and_the_clock_reads_the_same_after_a_restart() {
    let (s, url) = server_with_clocks("clock-restart", "rt=60+5").await;
    let (a, b, id) = two_player_table(&s, "rt").await;
    let mut sockets = [a.socket().await, b.socket().await];
    let opening = sockets[0].subscribe(&id, None).await;
    let first = opening["to_move"].as_u64().unwrap() as usize;
    assert_eq!(opening["clock"]["running"], first as u64);
    assert_eq!(opening["clock"]["profile"]["bank_ms"], 60_000);
    let fresh = remaining(&opening);
    assert_eq!(fresh[1 - first], 60_000, "a waiting seat's clock stands");
    assert!(fresh[first] <= 60_000 && fresh[first] > 50_000, "{fresh:?}");

    let after = play_one_turn(&mut sockets, &id, opening).await;
    let next = after["to_move"].as_u64().unwrap() as usize;
    assert_eq!(after["clock"]["running"], next as u64);
    let paid = remaining(&after);
    // The turn took well under 5 s: its bank was paid once and gained the 5 s bonus.
    assert!(
        paid[first] > 60_000 && paid[first] <= 65_000,
        "the ended turn pays its time and gains the bonus: {paid:?}"
    );

    // A second server on the same database (as after a restart) reads the same clock.
    let restarted = start(url, |c| c.clocks = parse_profiles("rt=60+5").unwrap()).await;
    let mut again = Client::new(&restarted);
    again.cookie = a.cookie.clone();
    let mut ws = again.socket().await;
    let read = ws.subscribe(&id, None).await;
    assert_eq!(read["state_id"], after["state_id"]);
    assert_eq!(read["clock"]["running"], next as u64);
    let reread = remaining(&read);
    assert_eq!(
        reread[first], paid[first],
        "a standing clock reads the same"
    );
    // The running turn resumes from what it had used when its room last saw it (issue 46):
    // the time between the two servers is not charged.
    assert!(
        reread[next] <= 60_000 && reread[next] > paid[next] - 5_000,
        "the running clock went on from where it was: {paid:?} then {reread:?}"
    );
}

/// Issue 46: a 30 s restart took 30 s off a 10+5 bank. The rooms of both servers read set
/// clocks: the second server builds the game's room 40 s after the first saw its turn start.
/// The running turn resumes with what it had; the restart is not charged.
#[tokio::test]
async fn a_restart_does_not_charge_its_downtime_to_the_running_clock() {
    let dir = temp_dir("clock-downtime");
    let url = sqlite_url(&dir);
    let t0 = pyramidion_server::wall_clock::now_ms();
    let before = pyramidion_server::wall_clock::WallClock::fixed(t0);
    let s = start(url.clone(), |c| {
        c.clocks = parse_profiles("ten=600+5").unwrap();
        c.room_clock = before.clone();
    })
    .await;
    let (a, _b, id) = two_player_table(&s, "ten").await;
    let mut ws = a.socket().await;
    let opening = ws.subscribe(&id, None).await;
    let first = opening["to_move"].as_u64().unwrap() as usize;
    assert_eq!(remaining(&opening)[first], 600_000);

    let after = pyramidion_server::wall_clock::WallClock::fixed(t0 + 40_000);
    let restarted = start(url, |c| {
        c.clocks = parse_profiles("ten=600+5").unwrap();
        c.room_clock = after.clone();
    })
    .await;
    let mut again = Client::new(&restarted);
    again.cookie = a.cookie.clone();
    let mut ws = again.socket().await;
    let read = ws.subscribe(&id, None).await;
    assert_eq!(read["clock"]["running"], first as u64);
    assert_eq!(
        remaining(&read)[first],
        600_000,
        "the 40 s without a server are not charged"
    );
    let row = restarted.state.store.game(&id).await.unwrap().unwrap();
    let state = row.clock_state.unwrap();
    assert_eq!(state.turn_started_ms, t0 + 40_000, "stored as resumed");
    assert_eq!(state.seen_ms, Some(t0 + 40_000));
}

#[tokio::test]
async fn time_outs_let_a_bot_play_the_turn_and_the_third_gives_the_seat_to_a_bot() {
    let s = server_on_paused_time("clock-timeouts", "tiny=1").await;
    let mut c = Client::guest(&s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}], "clock": "tiny"});
    let t = c.post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let mut state = ws.subscribe(&id, None).await;
    assert_eq!(state["bots"], json!([false, true]));
    // On paused time: nobody plays seat 0, and when one of its turns starts the test lets its
    // whole second pass (the bot's turns and the time-outs' moves take no time).
    let _frozen = freeze();
    let mut notices = Vec::new();
    let mut was_mine = false;
    loop {
        let mine = state["to_move"] == 0 && state["bots"][0] == false;
        if mine && !was_mine {
            advance(std::time::Duration::from_secs(2)).await;
        }
        was_mine = mine;
        let msg = next_untimed(&mut ws).await;
        if msg["type"] == "notice" {
            notices.push(msg.clone());
        }
        if msg["type"] == "state" {
            if msg["finished"] == true {
                break;
            }
            state = msg;
        }
    }
    // Every notice is about seat 0, counts its time-outs, and the third hands it to a bot.
    let counted: Vec<(String, u64)> = notices
        .iter()
        .map(|n| {
            assert_eq!(
                (n["seat"].as_u64(), n["bot_after"].as_u64()),
                (Some(0), Some(3))
            );
            (
                n["kind"].as_str().unwrap().to_string(),
                n["timeouts"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counted.first(), Some(&("timeout_bot_move".to_string(), 1)));
    // The moves of the turns that timed out once and twice say so; every move of the third
    // says the seat is handed to a bot, and no notice comes after that turn.
    let handed = counted
        .iter()
        .position(|(kind, _)| kind == "seat_to_bot")
        .expect("the seat was handed to a bot");
    assert!(
        counted[..handed]
            .iter()
            .all(|(kind, n)| kind == "timeout_bot_move" && *n < 3),
        "{counted:?}"
    );
    assert!(
        counted[handed..]
            .iter()
            .all(|(kind, n)| kind == "seat_to_bot" && *n == 3),
        "{counted:?}"
    );
    let turns_seen: std::collections::BTreeSet<u64> =
        counted[..handed].iter().map(|(_, n)| *n).collect();
    assert_eq!(turns_seen, [1, 2].into(), "{counted:?}");
    let last = ws.log.iter().rev().find(|m| m["type"] == "state").unwrap();
    assert_eq!(last["bots"], json!([true, true]));
    assert_eq!(last["clock"]["timeouts"][0], 3);
    // A bot plays that seat to the end: it is nobody's move in the "your move" list.
    let turns = c.get("/api/me/turns").await;
    assert_eq!(turns.body["games"], json!([]));
}

#[tokio::test]
async fn the_player_to_move_is_told_and_listed_and_the_list_follows() {
    let (s, _) = server_with_clocks("clock-turns", "day=86400").await;
    let (mut a, mut b, id) = two_player_table(&s, "day").await;
    let mut sockets = [a.socket().await, b.socket().await];
    let opening = sockets[0].subscribe(&id, None).await;
    let first = opening["to_move"].as_u64().unwrap() as usize;
    let clients = [&mut a, &mut b];
    let listed = clients[first].get("/api/me/turns").await;
    assert_eq!(
        listed.body["games"][0]["id"],
        id.as_str(),
        "{}",
        listed.text
    );
    assert_eq!(listed.body["games"][0]["to_move"], first as u64);
    let left = listed.body["games"][0]["remaining_ms"].as_i64().unwrap();
    assert!(left > 86_000_000 && left <= 86_400_000, "{left}");
    let other = clients[1 - first].get("/api/me/turns").await;
    assert_eq!(other.body["games"], json!([]));

    play_one_turn(&mut sockets, &id, opening).await;
    // The waiting player's every connection hears that it is their move now.
    let pushed = loop {
        let m = sockets[1 - first].next_of("turn").await;
        if m["your_turn"] == true {
            break m;
        }
    };
    assert_eq!(pushed["game"], id.as_str());
    let now_theirs = clients[1 - first].get("/api/me/turns").await;
    assert_eq!(now_theirs.body["games"][0]["id"], id.as_str());
    let mine = clients[first].get("/api/me/turns").await;
    assert_eq!(mine.body["games"], json!([]));
}

#[tokio::test]
async fn the_lobby_is_told_of_new_tables_and_seat_changes() {
    let (s, _) = server_with_clocks("lobby-push", "day=86400").await;
    let watcher = Client::guest(&s).await;
    let mut ws = watcher.socket().await;
    ws.send(json!({"type": "watch_lobby"})).await;
    ws.send(json!({"type": "ping", "id": 1})).await;
    ws.next_of("pong").await;
    let (_, _, id) = two_player_table(&s, "day").await;
    let created = ws.next_of("table").await;
    assert_eq!(created["table"]["id"], id.as_str());
    assert_eq!(created["table"]["status"], "open");
    assert!(
        created["table"].get("invite").is_none(),
        "the lobby never sees an invite"
    );
    let started = ws.next_of("table").await;
    assert_eq!(started["table"]["status"], "live");
    assert_eq!(started["table"]["seats"][1]["type"], "human");
    // After unwatching, nothing reaches the lobby watcher; an unlisted table never does, but
    // its seated players hear of its changes (their waiting page follows).
    ws.send(json!({"type": "unwatch_lobby"})).await;
    let mut c = Client::guest(&s).await;
    let mut seated = c.socket().await;
    let unlisted = c
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2}, "listed": false,
                   "seats": [{"type": "me"}, {"type": "invite"}]}),
        )
        .await;
    let (hidden, invite) = (
        unlisted.body["id"].as_str().unwrap().to_string(),
        unlisted.body["invite"].as_str().unwrap().to_string(),
    );
    let mut d = Client::guest(&s).await;
    let joined = d
        .post(
            &format!("/api/tables/{hidden}/join"),
            json!({ "invite": invite }),
        )
        .await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    let created = seated.next_of("table").await;
    assert_eq!(created["table"]["status"], "open");
    let told = seated.next_of("table").await;
    assert_eq!(
        (
            told["table"]["id"].as_str(),
            told["table"]["status"].as_str()
        ),
        (Some(hidden.as_str()), Some("live"))
    );
    assert!(told["table"].get("invite").is_none());
    ws.send(json!({"type": "ping", "id": 2})).await;
    let next = ws.next().await;
    assert_eq!(next["type"], "pong", "{next}");
}

#[tokio::test]
async fn clock_profiles_are_listed_and_an_unknown_one_is_refused() {
    let s = start_sqlite("clock-list").await;
    let mut c = Client::guest(&s).await;
    let list = c.get("/api/clocks").await;
    let keys: Vec<&str> = list.body["clocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["fast", "normal", "slow", "day", "three-days"]);
    assert_eq!(list.body["bot_after"], 3);
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}], "clock": "blitz"});
    let refused = c.post("/api/tables", body).await;
    assert_eq!((refused.status, refused.code()), (400, "unknown_clock"));
    let old = json!({"game": "pyramids", "options": {"players": 2},
                     "seats": [{"type": "me"}, {"type": "open"}], "move_seconds": 30});
    assert_eq!(c.post("/api/tables", old).await.code(), "bad_request");
}

/// A live table made before clocks per turn (`move_seconds`, migrations 0001–0002) keeps its
/// clock as a turn-based profile of that many seconds.
#[tokio::test]
async fn a_table_from_before_clocks_per_turn_keeps_its_time_per_turn() {
    let dir = temp_dir("old-clock");
    let url = sqlite_url(&dir);
    {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let migrations = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        // The first schema, as a database made before sqlx migrations holds it.
        let sql = std::fs::read_to_string(migrations.join("0001_initial.sql")).unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
            .execute(&pool)
            .await
            .unwrap();
        for stmt in [
            "INSERT INTO users (id, name, password_hash, guest, created_at) VALUES ('u1', NULL, NULL, 1, 1)",
            "INSERT INTO games (id, kind, options, seed, status, listed, invite, move_seconds, created_by, result, created_at, finished_at)
             VALUES ('old', 'pyramids', '{\"players\":2}', 7, 'live', 1, 'i', 30, 'u1', NULL, 1, NULL)",
            "INSERT INTO seats (game_id, seat, kind, user_id, bot_level) VALUES ('old', 0, 'human', 'u1', NULL)",
            "INSERT INTO seats (game_id, seat, kind, user_id, bot_level) VALUES ('old', 1, 'bot', NULL, 'greedy')",
        ] {
            sqlx::query(sqlx::AssertSqlSafe(stmt)).execute(&pool).await.unwrap();
        }
        pool.close().await;
    }
    let s = start(url, |_| {}).await;
    let row = s.state.store.game("old").await.unwrap().unwrap();
    let clock = row.clock.expect("the old clock is kept");
    assert_eq!(
        (clock.key.as_str(), clock.turn_ms, clock.bank_ms),
        ("30s", 30_000, 0)
    );
    let state = row
        .clock_state
        .expect("its clock started when the game was read");
    assert_eq!(state.timeouts, vec![0, 0]);
    let mut watcher = Client::new(&s).socket().await;
    let seen = watcher.subscribe("old", None).await;
    assert_eq!(seen["clock"]["profile"]["turn_ms"], 30_000);
    let left = seen["clock"]["remaining_ms"][0].as_i64().unwrap();
    assert!(left > 20_000 && left <= 30_000, "{left}");
}

/// Bots' moves are paced (`Config::bot_pace`): each is published no sooner than the pace after
/// the move before it, so people see them one by one. On paused time: with the game's time
/// held just short of the pace, the bot (which thinks on its own threads, in real time) has
/// a tenth of a second to answer and must not be heard; a millisecond later it is.
#[tokio::test]
async fn bot_moves_wait_for_the_pace_after_the_move_before() {
    let pace = std::time::Duration::from_millis(400);
    let s = start(sqlite_url(&temp_dir("bot-pace")), |c| {
        c.bot_pace = pace;
        let long = crate::common::paused::LONG;
        let l = &mut c.limits;
        (l.ws_ping_every, l.ws_idle_timeout, l.ws_send_timeout) = (long, long, long);
        (l.header_timeout, l.body_timeout, l.sweep_every, l.room_idle) = (long, long, long, long);
    })
    .await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let mut state = ws.subscribe(&id, None).await;
    let _frozen = freeze();
    let mut bot_moves = 0;
    while bot_moves < 4 {
        let sid = state["state_id"].as_u64().unwrap();
        if state["to_move"] == 0 {
            let mv = state["legal"][0]["text"].as_str().unwrap().to_string();
            ws.play(&id, sid, &mv).await;
        } else {
            advance(pace - std::time::Duration::from_millis(1)).await;
            let_threads_run(100).await;
            for early in ready_messages(&mut ws) {
                assert!(
                    early["type"] != "state" || early["state_id"].as_u64() <= Some(sid),
                    "a bot move before the pace: {early}"
                );
            }
            advance(std::time::Duration::from_millis(1)).await;
        }
        // The next state, letting the game's time run a millisecond at a time meanwhile (the
        // server may wait on a timer of its own).
        state = 'next: loop {
            for msg in ready_messages(&mut ws) {
                if msg["type"] == "state" && msg["state_id"].as_u64() > Some(sid) {
                    break 'next msg;
                }
            }
            advance(std::time::Duration::from_millis(1)).await;
            let_threads_run(1).await;
        };
        if state["last_move"]["seat"] == 1 {
            bot_moves += 1;
        }
    }
}

/// A game nobody follows leaves memory while its clock is far from running out (turn-based
/// games wait for days), and is brought back before it runs out, so the time-out is played
/// on time. On paused time: the rooms' clock follows tokio's, and the test moves it.
#[tokio::test]
async fn an_untouched_game_leaves_memory_and_comes_back_before_its_clock_runs_out() {
    let profiles = parse_profiles("t35=35").unwrap();
    let room_clock = pyramidion_server::wall_clock::WallClock::following_tokio(
        pyramidion_server::wall_clock::now_ms(),
    );
    let s = start(sqlite_url(&temp_dir("clock-wake")), |c| {
        c.clocks = profiles;
        c.room_clock = room_clock.clone();
        c.limits.room_idle = std::time::Duration::from_millis(100);
        let long = crate::common::paused::LONG;
        let l = &mut c.limits;
        (l.ws_ping_every, l.ws_idle_timeout, l.ws_send_timeout) = (long, long, long);
        (l.header_timeout, l.body_timeout, l.sweep_every) = (long, long, long);
    })
    .await;
    let mut c = Client::guest(&s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}], "clock": "t35"});
    let id = c.post("/api/tables", body).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let _frozen = freeze();
    let rooms = s.state.rooms.clone();
    // Moves time on by `step` until `done` holds (the room's own work, on other threads and
    // the database's, takes no time of the game's); at most `limit` of it.
    async fn until(
        step: std::time::Duration,
        limit: std::time::Duration,
        what: &str,
        mut done: impl FnMut() -> bool,
    ) -> std::time::Duration {
        let mut moved = std::time::Duration::ZERO;
        while !done() {
            assert!(moved < limit, "{what} within {limit:?}");
            advance(step).await;
            moved += step;
            // Let the woken tasks and the database's threads answer.
            let_threads_run(2).await;
        }
        moved
    }
    let step = std::time::Duration::from_millis(100);
    until(
        step,
        std::time::Duration::from_secs(5),
        "the room leaves memory",
        || rooms.running(&id).is_none(),
    )
    .await;
    // 35 s per turn: within 30 s of running out (the sweep runs every 5 s), it is back.
    let gone_at = room_clock.now_ms();
    until(
        step,
        std::time::Duration::from_secs(20),
        "the room comes back",
        || rooms.running(&id).is_some(),
    )
    .await;
    let back_at = room_clock.now_ms();
    let row = s.state.store.game(&id).await.unwrap().unwrap();
    let state = row.clock_state.unwrap();
    let deadline = state.turn_started_ms + 35_000;
    assert!(deadline - back_at > 0, "back before the deadline");
    assert!(
        deadline - back_at <= 30_000 && back_at > gone_at,
        "back within 30 s of the deadline, not before: {} s left",
        (deadline - back_at) / 1000
    );
}
