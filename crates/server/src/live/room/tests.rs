//! The room on paused time and an in-memory store (`memory_store`): what it promises, stated
//! without a database or a wall clock. Time moves only when a test advances it: a blocking
//! task held open for each test keeps tokio's auto-advance off, which would otherwise jump
//! to the next timer while the room waits on the bot pool's thread.
use super::memory_store::{MemoryStore, StoredMove};
use super::{Room, RoomSetup};
use crate::db::rows::SeatKind;
use crate::live::bot_pool::{BotPool, Ticket};
use crate::live::clock::Clock;
use crate::live::fair_queue::Lane;
use crate::live::hub::Hub;
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::{RoomCmd, RoomHandle};
use crate::metrics::Metrics;
use crate::time_control::{ClockProfile, ClockState};
use crate::wall_clock::WallClock;
use pyramidion_core::ToMove;
use pyramidion_games::{AnyGame, GameKind};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The time of day when each test starts (ms since the epoch).
pub(super) const T0: i64 = 1_800_000_000_000;
pub(super) const SEED: u64 = 7;

/// Keeps tokio's auto-advance off until dropped (see the module's documentation).
#[must_use]
pub(super) fn hold_time() -> std::sync::mpsc::Sender<()> {
    let (guard, dropped) = std::sync::mpsc::channel::<()>();
    tokio::task::spawn_blocking(move || {
        let _ = dropped.recv();
    });
    guard
}

fn new_game() -> AnyGame {
    AnyGame::new(GameKind::ALL[0], &json!({"players": 2}), SEED).expect("a two-player game")
}

fn seat_to_move(game: &AnyGame) -> Option<u8> {
    match game.to_move() {
        ToMove::Seat(s) => Some(s.0),
        ToMove::Over => None,
    }
}

/// A room for users `a` (seat 0) and `b` (seat 1) on `store`, its clocks on tokio's time.
fn spawn(store: &Arc<MemoryStore>, clock: Option<Clock>) -> RoomHandle {
    spawn_with(store, clock, Arc::new(BotPool::new(0)))
}

/// [`spawn`], its bots thinking on `bots`.
fn spawn_with(store: &Arc<MemoryStore>, clock: Option<Clock>, bots: Arc<BotPool>) -> RoomHandle {
    Room::spawn(setup(store, clock, bots))
}

/// What [`spawn_with`] starts a room from.
fn setup(store: &Arc<MemoryStore>, clock: Option<Clock>, bots: Arc<BotPool>) -> RoomSetup {
    RoomSetup {
        id: "g1".into(),
        game: new_game(),
        moves: Vec::new(),
        undos: 0,
        seats: vec![SeatKind::Human("a".into()), SeatKind::Human("b".into())],
        seed: SEED,
        clock,
        store: store.clone(),
        wall: WallClock::following_tokio(T0),
        metrics: Arc::new(Metrics::default()),
        hub: Arc::new(Hub::default()),
        idle_after: Duration::from_secs(24 * 3600),
        bot_pace: Duration::ZERO,
        bots,
        owner: "a".into(),
        reveal_at_end: true,
        sealed: None,
        resigned: Vec::new(),
        ending: None,
        absent: None,
        lease: None,
    }
}

/// Follows the room as connection `conn` of `user` (none: a spectator); returns its queue,
/// the first state (event `at`) already read.
async fn follow(
    room: &RoomHandle,
    conn: u64,
    user: Option<&str>,
    at: u64,
) -> crate::queue::Receiver<ServerMsg> {
    let (out, mut rx) = crate::queue::channel(64);
    let user = user.map(str::to_string);
    let subscribe = RoomCmd::Subscribe {
        conn,
        user,
        out,
        last_event: None,
    };
    assert!(room.tx.send(subscribe).await.is_ok(), "the room runs");
    let first = json_of(&rx.recv().await.expect("the first state"));
    assert_eq!(
        (first["type"].as_str(), first["event"].as_u64()),
        (Some("state"), Some(at))
    );
    rx
}

pub(super) fn json_of(msg: &ServerMsg) -> Value {
    serde_json::to_value(msg).expect("a message serializes")
}

fn user_of(seat: u8) -> &'static str {
    ["a", "b"][seat as usize]
}

/// Sends `text` as the move of the seat to move in `mirror` at `state_id`.
async fn play(room: &RoomHandle, mirror: &AnyGame, state_id: u64, text: &str) {
    let seat = seat_to_move(mirror).expect("the game runs");
    let cmd = RoomCmd::Move {
        conn: 1 + seat as u64,
        user: user_of(seat).into(),
        state_id,
        text: text.into(),
        received: Instant::now(),
    };
    assert!(room.tx.send(cmd).await.is_ok(), "the room runs");
}

/// Keeps the pool's one thread (`BotPool::new(0)`: quick bots only) busy until the returned
/// sender is used or dropped: a bot asked meanwhile waits its turn, so that the test sees the
/// room between a time-out and the bot's move.
pub(super) async fn occupy(bots: &Arc<BotPool>) -> std::sync::mpsc::Sender<()> {
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel();
    let ticket = Ticket {
        lane: Lane::Fast,
        owner: "test".into(),
        game: "other".into(),
    };
    let bots = bots.clone();
    tokio::spawn(async move {
        bots.run(ticket, move || {
            let _ = started.send(());
            let _ = wait.recv();
        })
        .await
    });
    running.await.expect("the pool runs the job");
    release
}

/// What the room answers `seat`'s move at a state long gone: `stale_state`, or `time_out`
/// once the turn's time ran out and a bot plays it (the state changes in neither case).
async fn probe(room: &RoomHandle, out: &mut crate::queue::Receiver<ServerMsg>, seat: u8) -> String {
    // Every due timer is handled by then: the room goes from a command to its next select,
    // where a due deadline is ready, without yielding.
    handled(room).await;
    let cmd = RoomCmd::Move {
        conn: 1 + seat as u64,
        user: user_of(seat).into(),
        state_id: 999,
        text: "whatever".into(),
        received: Instant::now(),
    };
    assert!(room.tx.send(cmd).await.is_ok(), "the room runs");
    loop {
        let msg = json_of(&out.recv().await.expect("an answer"));
        if msg["type"] == "error" {
            return msg["code"].as_str().unwrap_or_default().to_string();
        }
    }
}

/// A point after which every command sent before has been handled.
pub(super) async fn handled(room: &RoomHandle) -> (u8, u64) {
    let (reply, answer) = tokio::sync::oneshot::channel();
    assert!(
        room.tx.send(RoomCmd::Progress(reply)).await.is_ok(),
        "the room runs"
    );
    answer.await.expect("the room answers")
}

fn stored_clock(m: &StoredMove) -> ClockState {
    let turn = m.turn.as_ref().expect("the turn is stored with the move");
    serde_json::from_str(turn.clock_state.as_deref().expect("a clock")).expect("clock JSON")
}

#[tokio::test(start_paused = true)]
async fn moves_are_stored_then_published_in_order_with_numbered_events() {
    let _time = hold_time();
    let store = Arc::new(MemoryStore::default());
    let room = spawn(&store, None);
    let mut a = follow(&room, 1, Some("a"), 0).await;
    let mut b = follow(&room, 2, Some("b"), 0).await;
    let mut watcher = follow(&room, 3, None, 0).await;
    let mut mirror = new_game();
    let mut texts = Vec::new();
    for state_id in 0..12 {
        let Some(m) = mirror.legal_moves().first().cloned() else {
            break;
        };
        play(&room, &mirror, state_id, &m.text).await;
        let played = mirror.play_text(&m.text).expect("a legal move");
        texts.push(played.full.text.clone());
    }
    assert!(texts.len() >= 2, "the game runs for a few moves");
    for out in [&mut a, &mut b, &mut watcher] {
        for event in 1..=texts.len() as u64 {
            let msg = json_of(&out.recv().await.expect("a published state"));
            assert!(
                matches!(msg["type"].as_str(), Some("state" | "patch")),
                "{msg}"
            );
            assert_eq!(msg["event"].as_u64(), Some(event), "{msg}");
            assert_eq!(msg["state_id"].as_u64(), Some(event), "{msg}");
        }
        assert!(out.try_recv().is_err(), "one message per move");
    }
    let stored = store.moves();
    let plies: Vec<u32> = stored.iter().map(|m| m.ply).collect();
    assert_eq!(plies, (0..texts.len() as u32).collect::<Vec<_>>());
    let stored_texts: Vec<String> = stored.iter().map(|m| m.text.clone()).collect();
    assert_eq!(
        stored_texts, texts,
        "the engine's text of each move, in order"
    );
    assert!(stored.iter().all(|m| !m.by_bot && m.result.is_none()));
}

#[tokio::test(start_paused = true)]
async fn nothing_is_acknowledged_or_published_before_the_move_is_durable() {
    let _time = hold_time();
    let store = Arc::new(MemoryStore::default());
    let room = spawn(&store, None);
    let mut a = follow(&room, 1, Some("a"), 0).await;
    let mut watcher = follow(&room, 3, None, 0).await;
    let mut mirror = new_game();

    // A write in flight: nobody hears of the move until it commits.
    let release = store.hold_next();
    let first = mirror.legal_moves()[0].text.clone();
    play(&room, &mirror, 0, &first).await;
    store.arrived.notified().await;
    tokio::task::yield_now().await;
    assert!(a.try_recv().is_err() && watcher.try_recv().is_err());
    assert!(store.moves().is_empty());
    release.send(()).expect("the write waits");
    let msg = json_of(&watcher.recv().await.expect("published once durable"));
    assert_eq!(msg["event"].as_u64(), Some(1));
    assert_eq!(store.moves().len(), 1);
    mirror.play_text(&first).expect("a legal move");
    let _ = a.recv().await;

    // The storage refuses the next one: the mover is told it was not played, nobody else
    // hears anything, and the game stays where it was.
    store.refuse(true);
    let second = mirror.legal_moves()[0].text.clone();
    let mover = seat_to_move(&mirror).expect("the game runs");
    let mut mover_out = if mover == 0 {
        a
    } else {
        follow(&room, 2, Some("b"), 1).await
    };
    play(&room, &mirror, 1, &second).await;
    let refused = json_of(&mover_out.recv().await.expect("an answer"));
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "unavailable", "{refused}");
    assert_eq!(refused["state_id"].as_u64(), Some(1), "{refused}");
    assert_eq!(handled(&room).await.1, 1, "still at state 1");
    assert!(
        watcher.try_recv().is_err(),
        "a refused move is not published"
    );
    assert_eq!(store.moves().len(), 1);

    // Once the storage takes writes again, the same move at the same state is played.
    store.refuse(false);
    play(&room, &mirror, 1, &second).await;
    let msg = json_of(&watcher.recv().await.expect("published"));
    assert_eq!(msg["event"].as_u64(), Some(2));
    assert_eq!(store.moves().len(), 2);
    assert!(mover_out.recv().await.is_some());
}

#[tokio::test(start_paused = true)]
async fn a_turn_times_out_at_its_deadline_to_the_millisecond_and_a_bot_plays_it() {
    let _time = hold_time();
    let store = Arc::new(MemoryStore::default());
    let first = seat_to_move(&new_game()).expect("the game runs");
    let other = 1 - first;
    let profile = ClockProfile::legacy(60);
    let clock = Clock::start(profile, 2, Some(first), T0);
    let bots = Arc::new(BotPool::new(0));
    let room = spawn_with(&store, Some(clock), bots.clone());
    let mut watcher = follow(&room, 3, None, 0).await;
    let mut player = follow(&room, 1 + first as u64, Some(user_of(first)), 0).await;
    let busy = occupy(&bots).await;

    tokio::time::advance(Duration::from_millis(59_999)).await;
    assert_eq!(probe(&room, &mut player, first).await, "stale_state");
    assert!(
        store.moves().is_empty(),
        "a millisecond before the deadline"
    );
    assert!(watcher.try_recv().is_err());

    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(probe(&room, &mut player, first).await, "time_out");
    assert!(store.moves().is_empty(), "the bot has not played yet");
    drop(busy);
    // A bot plays the whole turn (several moves in some games), each move announced; the
    // time does not move while it thinks.
    let mut events = 0;
    let passed = loop {
        let msg = json_of(&watcher.recv().await.expect("the bot's move"));
        match msg["type"].as_str() {
            Some("state" | "patch") => {
                events += 1;
                assert_eq!(msg["event"].as_u64(), Some(events), "{msg}");
            }
            Some("notice") => {
                assert_eq!(msg["kind"], "timeout_bot_move", "{msg}");
                assert_eq!(msg["seat"].as_u64(), Some(first as u64), "{msg}");
                assert_eq!(msg["timeouts"].as_u64(), Some(1), "{msg}");
                // The notice's own move: the bot may have stored more since.
                let ply = msg["move"]["ply"].as_u64().expect("a ply") as usize;
                let stored = store.moves();
                let told = stored.get(ply).expect("stored before it is told");
                if told.turn.as_ref().is_some_and(|t| t.to_move == Some(other)) {
                    break stored[..=ply].to_vec();
                }
            }
            _ => panic!("unexpected {msg}"),
        }
    };
    assert!(passed.iter().all(|m| m.by_bot), "the bot played the turn");
    let state = stored_clock(passed.last().expect("a move"));
    assert_eq!(state.running, Some(other));
    assert_eq!(
        state.turn_started_ms,
        T0 + 60_000,
        "the next turn starts at the deadline"
    );
    assert_eq!(state.timeouts[first as usize], 1);
    assert_eq!(state.timeouts[other as usize], 0);
    let turn = passed.last().and_then(|m| m.turn.as_ref()).expect("a turn");
    assert_eq!(turn.deadline_at, Some(T0 + 120_000));

    // The next seat's time runs from there: not a millisecond early.
    let at = passed.len() as u64;
    let mut next = follow(&room, 1 + other as u64, Some(user_of(other)), at).await;
    let busy = occupy(&bots).await;
    tokio::time::advance(Duration::from_millis(59_999)).await;
    assert_eq!(probe(&room, &mut next, other).await, "stale_state");
    assert_eq!(store.moves().len(), passed.len());
    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(probe(&room, &mut next, other).await, "time_out");
    drop(busy);
    loop {
        let msg = json_of(&watcher.recv().await.expect("the bot's move"));
        if msg["type"] == "notice" {
            assert_eq!(msg["seat"].as_u64(), Some(other as u64), "{msg}");
            break;
        }
    }
    assert!(store.moves().len() > passed.len());
}

/// A room for `clock` as stored, built when its own wall clock reads `now` (a restart, or a
/// take-over by an instance whose clock says `now`).
fn rebuilt(store: &Arc<MemoryStore>, clock: Clock, now: i64, bots: Arc<BotPool>) -> RoomHandle {
    Room::spawn(RoomSetup {
        wall: WallClock::following_tokio(now),
        ..setup(store, Some(clock), bots)
    })
}

fn remaining_of(state: &Value, seat: u8) -> i64 {
    state["clock"]["remaining_ms"][seat as usize]
        .as_i64()
        .expect("a clock in the state")
}

/// Issue 46: a 30 s restart took 30 s off a 10+5 bank. The turn had used 30 s when its room
/// last marked it seen; the server was down 40 s; the rebuilt room charges the 30 s only.
#[tokio::test(start_paused = true)]
async fn a_room_rebuilt_after_a_restart_does_not_charge_the_downtime() {
    let _time = hold_time();
    let store = Arc::new(MemoryStore::default());
    let first = seat_to_move(&new_game()).expect("the game runs");
    let profile = crate::time_control::parse_profiles("ten=600+5")
        .unwrap()
        .remove(0);
    let mut clock = Clock::start(profile, 2, Some(first), T0 - 40_000);
    clock.seen(T0 - 10_000);
    let bots = Arc::new(BotPool::new(0));
    let room = rebuilt(&store, clock, T0 + 30_000, bots.clone());
    let mut player = follow_state(&room, 1 + first as u64, Some(user_of(first))).await;
    let state = player.1;
    assert_eq!(
        remaining_of(&state, first),
        570_000,
        "600 s less the 30 s used before the restart, not the 40 s the server was down"
    );
    assert_eq!(remaining_of(&state, 1 - first), 600_000);
    // Stored as resumed: the deadline the sweep wakes the game for is the new one.
    let turn = store
        .turns()
        .last()
        .cloned()
        .expect("the resumed clock is stored");
    assert_eq!(turn.deadline_at, Some(T0 + 30_000 + 570_000));
    let stored: ClockState =
        serde_json::from_str(turn.clock_state.as_deref().expect("a clock")).expect("clock JSON");
    assert_eq!(stored.seen_ms, Some(T0 + 30_000));
    // The turn runs out 570 s after the rebuild, to the millisecond; the room marks the turn
    // seen meanwhile.
    let busy = occupy(&bots).await;
    tokio::time::advance(Duration::from_millis(569_999)).await;
    assert_eq!(probe(&room, &mut player.0, first).await, "stale_state");
    let seen: Vec<Option<i64>> = store
        .turns()
        .iter()
        .map(|t| {
            serde_json::from_str::<ClockState>(t.clock_state.as_deref().unwrap())
                .unwrap()
                .seen_ms
        })
        .collect();
    assert!(
        seen.len() >= 2 && seen.last().unwrap().unwrap() > T0 + 30_000,
        "marked seen while it runs: {seen:?}"
    );
    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(probe(&room, &mut player.0, first).await, "time_out");
    drop(busy);
}

/// Issue 53: with one instance an hour ahead, taking a game over turned the running seat's
/// 181 s into 0 (and an hour behind, the clock stood). What is charged is the duration the
/// turn's own room measured; the new room counts on from its own clock.
#[tokio::test(start_paused = true)]
async fn a_skewed_wall_clock_does_not_empty_or_stop_a_bank_on_take_over() {
    let _time = hold_time();
    let first = seat_to_move(&new_game()).expect("the game runs");
    let profile = crate::time_control::parse_profiles("fast=180+2")
        .unwrap()
        .remove(0);
    // The dead owner's clock: the turn started at T0 - 100 s, last seen at T0 - 1 s.
    let mut clock = Clock::start(profile, 2, Some(first), T0 - 100_000);
    clock.seen(T0 - 1_000);
    for skew in [3_600_000, -3_600_000] {
        let store = Arc::new(MemoryStore::default());
        let room = rebuilt(&store, clock.clone(), T0 + skew, Arc::new(BotPool::new(0)));
        let (_out, state) = follow_state(&room, 1 + first as u64, Some(user_of(first))).await;
        assert_eq!(remaining_of(&state, first), 81_000, "skew {skew}");
        tokio::time::advance(Duration::from_secs(1)).await;
        let (_out, later) = follow_state(&room, 10, None).await;
        assert_eq!(
            remaining_of(&later, first),
            80_000,
            "skew {skew}: the clock runs on"
        );
    }
}

/// A room that leaves memory while a long turn runs lets the turn go unseen: the game stays
/// playable, so a room built later charges the time in between.
#[tokio::test(start_paused = true)]
async fn a_room_leaving_memory_has_its_running_turn_charged_until_it_is_back() {
    let _time = hold_time();
    let store = Arc::new(MemoryStore::default());
    let first = seat_to_move(&new_game()).expect("the game runs");
    let clock = Clock::start(ClockProfile::legacy(3600), 2, Some(first), T0);
    let room = Room::spawn(RoomSetup {
        idle_after: Duration::from_secs(1),
        ..setup(&store, Some(clock.clone()), Arc::new(BotPool::new(0)))
    });
    handled(&room).await;
    tokio::time::advance(Duration::from_secs(2)).await;
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    let turn = store
        .turns()
        .last()
        .cloned()
        .expect("the clock let go is stored");
    let state: ClockState = serde_json::from_str(turn.clock_state.as_deref().unwrap()).unwrap();
    assert_eq!(state.seen_ms, None);
    assert_eq!(state.turn_started_ms, T0);
    assert!(room.tx.is_closed(), "the room left memory");
    // Back ten minutes later: ten minutes are charged.
    let back = Clock { state, ..clock };
    let room = rebuilt(&store, back, T0 + 600_000, Arc::new(BotPool::new(0)));
    let (_out, state) = follow_state(&room, 10, None).await;
    assert_eq!(remaining_of(&state, first), 3_000_000);
}

/// Follows the room as connection `conn` of `user`; returns its queue and the first state.
async fn follow_state(
    room: &RoomHandle,
    conn: u64,
    user: Option<&str>,
) -> (crate::queue::Receiver<ServerMsg>, Value) {
    let (out, mut rx) = crate::queue::channel(64);
    let subscribe = RoomCmd::Subscribe {
        conn,
        user: user.map(str::to_string),
        out,
        last_event: None,
    };
    assert!(room.tx.send(subscribe).await.is_ok(), "the room runs");
    let first = json_of(&rx.recv().await.expect("the first state"));
    assert_eq!(first["type"], "state", "{first}");
    (rx, first)
}
