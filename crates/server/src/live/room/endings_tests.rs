//! Issue 46's ranking matrix: every registered game, at every seat count from 2 to 4 it
//! allows, ended by a resignation, a claim or time-outs at several points of the game. Each
//! time the ranking is the same everywhere it is said: the live `state` message (`outcome`
//! or `ending`), the view inside it (which the end screen drew from), a resigner's own page,
//! the stored result (which the history, the profiles and the ratings read through
//! `endings::stored_ranks`), and the replay's last position (`endings::replayed_outcome`).
//! And the rule holds: a seat that resigned or was absent never ranks above one that stayed.
//!
//! The test plays every move itself, the first legal one, whoever's seat it is: a person's
//! as a move, a bot's (resigned, absent, or a turn that ran out) as the bot's choice, the bot
//! pool being kept busy so that no real bot answers. The moves are thus the same in every
//! scenario of a game, and the rules' ranking at the end is known beforehand.
use super::memory_store::MemoryStore;
use super::tests::{SEED, T0, handled, hold_time, json_of, occupy};
use super::{Room, RoomSetup};
use crate::db::rows::SeatKind;
use crate::live::bot_pool::BotPool;
use crate::live::clock::{Clock, TIMEOUTS_TO_BOT};
use crate::live::endings::{Action, replayed_outcome, stored_ranks};
use crate::live::hub::Hub;
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::{BotChoice, RoomCmd, RoomHandle};
use crate::metrics::Metrics;
use crate::time_control::parse_profiles;
use crate::wall_clock::WallClock;
use pyramidion_core::ToMove;
use pyramidion_games::{AnyGame, GameKind};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a scenario ends the game for its target seat.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ending {
    /// The target resigns.
    Resign,
    /// The target's turn runs out once (real time), then another player claims.
    Claim,
    /// The target's turns run out until a bot has its seat; the game is played out.
    TimeOut,
}

fn user(seat: u8) -> String {
    format!("p{seat}")
}

fn to_move(game: &AnyGame) -> Option<u8> {
    match game.to_move() {
        ToMove::Seat(s) => Some(s.0),
        ToMove::Over => None,
    }
}

fn new_game(kind: GameKind, seats: u8) -> AnyGame {
    AnyGame::new(kind, &json!({ "players": seats }), SEED).expect("a game of that many seats")
}

/// The whole game as the test plays it (the first legal move every time): its moves and the
/// rules' final ranks.
fn dry_run(kind: GameKind, seats: u8) -> (Vec<String>, Vec<u8>) {
    let mut game = new_game(kind, seats);
    let mut moves = Vec::new();
    while to_move(&game).is_some() {
        let text = game.legal_moves()[0].text.clone();
        game.play_text(&text).expect("a legal move");
        moves.push(text);
    }
    (moves, game.outcome().expect("finished").ranks)
}

fn spawn(store: &Arc<MemoryStore>, kind: GameKind, seats: u8, bots: Arc<BotPool>) -> RoomHandle {
    let game = new_game(kind, seats);
    // Real time: it may be claimed after one time-out (`Clock::claimable`).
    let profile = parse_profiles("fast=60+5").expect("a profile").remove(0);
    let clock = Clock::start(profile, seats as usize, to_move(&game), T0);
    Room::spawn(RoomSetup {
        id: "g".into(),
        game,
        moves: Vec::new(),
        undos: 0,
        seats: (0..seats).map(|s| SeatKind::Human(user(s))).collect(),
        seed: SEED,
        clock: Some(clock),
        store: store.clone(),
        wall: WallClock::following_tokio(T0),
        metrics: Arc::new(Metrics::default()),
        hub: Arc::new(Hub::default()),
        idle_after: Duration::from_secs(24 * 3600),
        bot_pace: Duration::ZERO,
        bots,
        owner: user(0),
        reveal_at_end: true,
        sealed: None,
        resigned: Vec::new(),
        ending: None,
        absent: None,
        lease: None,
    })
}

async fn subscribe(
    room: &RoomHandle,
    conn: u64,
    who: Option<String>,
) -> crate::queue::Receiver<ServerMsg> {
    let (out, rx) = crate::queue::channel(1024);
    let cmd = RoomCmd::Subscribe {
        conn,
        user: who,
        out,
        last_event: None,
    };
    assert!(room.tx.send(cmd).await.is_ok(), "the room runs");
    rx
}

/// The last whole `state` message queued on `rx` (a finished game's is always whole).
fn last_state(rx: &mut crate::queue::Receiver<ServerMsg>) -> Option<Value> {
    let mut last = None;
    while let Ok(msg) = rx.try_recv() {
        let msg = json_of(&msg);
        if msg["type"] == "state" {
            last = Some(msg);
        }
    }
    last
}

async fn act(room: &RoomHandle, seat: u8, action: Action) -> Value {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let cmd = RoomCmd::Act {
        user: Some(user(seat)),
        action,
        reply,
    };
    assert!(room.tx.send(cmd).await.is_ok(), "the room runs");
    match answer.await.expect("the room answers") {
        Ok(done) => serde_json::to_value(done).expect("an answer serialises"),
        Err(e) => panic!("{action:?} by seat {seat} refused: {e:?}"),
    }
}

/// Plays one scenario and checks that every place says the same ranking, and the rule.
async fn scenario(
    kind: GameKind,
    seats: u8,
    game: &(Vec<String>, Vec<u8>),
    ending: Ending,
    at: usize,
) {
    let what = format!("{} {seats} seats, {ending:?} at ply {at}", kind.key());
    let (moves, engine) = game;
    // The target: the seat the rules rank first, so that ranking it by the rules would
    // crown someone who left.
    let target = (0..seats)
        .find(|&s| engine[s as usize] == 0)
        .expect("a winner");
    let store = Arc::new(MemoryStore::default());
    let bots = Arc::new(BotPool::new(0));
    // No real bot ever answers (the test plays the bots' moves): its thread stays taken.
    std::mem::forget(occupy(&bots).await);
    let room = spawn(&store, kind, seats, bots);
    let mut watcher = subscribe(&room, 100, None).await;
    let mut mirror = new_game(kind, seats);
    let wanted = match ending {
        Ending::Resign => 0,
        Ending::Claim => 1,
        Ending::TimeOut => TIMEOUTS_TO_BOT,
    };
    let (mut resigned, mut timeouts, mut covering) = (false, 0u32, false);
    let mut previous: Option<u8> = None;
    let mut watched = None;
    for (ply, text) in moves.iter().enumerate() {
        if ply == at && ending == Ending::Resign {
            let done = act(&room, target, Action::Resign).await;
            resigned = true;
            if done["ended"] == true {
                break;
            }
        }
        let seat = to_move(&mirror).expect("the game runs");
        if seat != target {
            covering = false;
        }
        if ending == Ending::Claim && timeouts == 1 && !covering && !resigned {
            // The target's turn ran out and it has not played since: claimable at once.
            let done = act(&room, (target + 1) % seats, Action::Claim).await;
            assert_eq!(done["resigned"], json!([target]), "{what}");
            resigned = true;
            if done["ended"] == true {
                break;
            }
        }
        let turn_starts = previous != Some(seat);
        previous = Some(seat);
        let mut timed_out = false;
        if seat == target && ply >= at && turn_starts && timeouts < wanted && !resigned {
            // Far past any bank: the room's deadline fires and a bot covers the turn.
            tokio::time::advance(Duration::from_secs(3600)).await;
            handled(&room).await;
            (timeouts, timed_out, covering) = (timeouts + 1, true, true);
        }
        let by_bot = seat == target && (resigned || covering || timeouts >= TIMEOUTS_TO_BOT);
        let state_id = ply as u64;
        let cmd = if by_bot {
            RoomCmd::BotMove(BotChoice {
                state_id,
                text: text.clone(),
                timeout_seat: timed_out.then_some(seat),
                failures: 0,
            })
        } else {
            RoomCmd::Move {
                conn: 1 + seat as u64,
                user: user(seat),
                state_id,
                text: text.clone(),
                received: Instant::now(),
            }
        };
        assert!(room.tx.send(cmd).await.is_ok(), "the room runs");
        let (_, now) = handled(&room).await;
        assert_eq!(now, state_id + 1, "{what}: move {ply} ({text}) was refused");
        mirror.play_text(text).expect("a legal move");
        // Kept drained: a follower that cannot keep up is dropped.
        watched = last_state(&mut watcher).or(watched);
    }
    if ending == Ending::Claim {
        assert!(resigned, "{what}: the claim was made");
    }
    // Everything said by now.
    handled(&room).await;
    let mut mine = subscribe(&room, 1 + target as u64, Some(user(target))).await;
    handled(&room).await;
    let live = last_state(&mut mine).expect("the target's page");
    let played = store.moves().len();
    assert_eq!(live["finished"], true, "{what}: {live}");
    // A spectator's page says the same (its last state: a finished game's is whole).
    let watched = last_state(&mut watcher)
        .or(watched)
        .expect("the spectator's last state");
    assert_eq!(watched["finished"], true, "{what}: {watched}");
    for field in ["outcome", "ending"] {
        assert_eq!(
            watched[field]["ranks"], live[field]["ranks"],
            "{what}: {field}"
        );
    }

    // The ranking as each place says it.
    let (said, stored): (Vec<u8>, Value) = if live["ending"].is_null() {
        assert_eq!(played, moves.len(), "{what}: played out");
        let said: Vec<u8> = serde_json::from_value(live["outcome"]["ranks"].clone()).unwrap();
        let view: Vec<u8> =
            serde_json::from_value(live["view"]["outcome"]["ranks"].clone()).unwrap();
        assert_eq!(view, said, "{what}: the view's outcome is the server's");
        let result = store.moves().last().and_then(|m| m.result.clone());
        let stored: Value = serde_json::from_str(&result.expect("a stored result")).unwrap();
        let replayed = replayed_outcome(mirror.outcome().expect("finished"), &stored);
        assert_eq!(replayed.ranks, said, "{what}: the replay's end");
        (said, stored)
    } else {
        assert!(live["outcome"].is_null(), "{what}");
        let said: Vec<u8> = serde_json::from_value(live["ending"]["ranks"].clone()).unwrap();
        let (_, result) = store.ends().pop().expect("the ending is stored");
        (said, serde_json::from_str(&result).unwrap())
    };
    assert_eq!(stored_ranks(&stored), Some(said.clone()), "{what}: stored");

    // The rule: the target left (resigned, claimed against, or absent behind a bot), so it
    // ranks last, alone; the others keep the rules' order among themselves.
    let left = resigned || timeouts >= TIMEOUTS_TO_BOT;
    if at == 0 {
        assert!(
            left,
            "{what}: from the start, every scenario has the target leave"
        );
    }
    if left {
        assert_eq!(said[target as usize], seats - 1, "{what}: {said:?}");
        assert!(
            (0..seats)
                .filter(|&s| s != target)
                .all(|s| said[s as usize] < seats - 1),
            "{what}: {said:?}"
        );
    }
    if live["ending"].is_null() {
        for a in (0..seats as usize).filter(|&s| s != target as usize || !left) {
            for b in (0..seats as usize).filter(|&s| s != target as usize || !left) {
                if engine[a] < engine[b] {
                    assert!(said[a] < said[b], "{what}: {said:?} against {engine:?}");
                }
            }
        }
    } else if said[target as usize] == seats - 1 {
        // Ended early: everyone still in shares the first rank.
        assert!(
            (0..seats)
                .filter(|&s| s != target)
                .all(|s| said[s as usize] == 0)
        );
    }
    assert!(said.contains(&0), "{what}: someone ranks first");
}

/// Resign at the start, in the middle, and one move before the end; claim and time-outs
/// from the start and from the middle.
async fn matrix(kind: GameKind) {
    let range = &kind.descriptor().seats;
    for seats in range.min.max(2)..=range.max.min(4) {
        let game = dry_run(kind, seats);
        let plies = game.0.len();
        for at in [0, plies / 2, plies - 1] {
            scenario(kind, seats, &game, Ending::Resign, at).await;
        }
        for at in [0, plies / 2] {
            scenario(kind, seats, &game, Ending::Claim, at).await;
            scenario(kind, seats, &game, Ending::TimeOut, at).await;
        }
    }
}

/// Every registered game (a game added later is in it at once).
#[tokio::test(start_paused = true)]
async fn every_ending_of_every_game_ranks_the_same_everywhere() {
    let _time = hold_time();
    for &kind in GameKind::ALL {
        matrix(kind).await;
    }
}

/// A finished game's room (rebuilt to be shown again) says the ranking its stored result
/// holds: the absent seats it lists, not those its clock would make today. A game stored
/// before absences counted keeps its ranking; one stored since keeps its absent seat last.
#[tokio::test(start_paused = true)]
async fn a_finished_game_rebuilt_says_its_stored_ranking() {
    let _time = hold_time();
    let kind = GameKind::ALL[0];
    let (moves, engine) = dry_run(kind, 2);
    let winner = (0..2u8)
        .find(|&s| engine[s as usize] == 0)
        .expect("a winner");
    let mut game = new_game(kind, 2);
    let played: Vec<_> = moves
        .iter()
        .map(|m| game.play_text(m).expect("a legal move"))
        .collect();
    let profile = parse_profiles("fast=60+5").expect("a profile").remove(0);
    let mut clock = Clock::start(profile, 2, None, T0);
    // The winner's seat was played by a bot to the end.
    clock.state.timeouts[winner as usize] = TIMEOUTS_TO_BOT;
    for (stored, ranks) in [
        (Vec::new(), engine.clone()),
        (vec![winner], {
            let mut r = vec![0, 0];
            r[winner as usize] = 1;
            r
        }),
    ] {
        let room = Room::spawn(RoomSetup {
            id: "g".into(),
            game: game.clone(),
            moves: played.clone(),
            undos: 0,
            seats: (0..2).map(|s| SeatKind::Human(user(s))).collect(),
            seed: SEED,
            clock: Some(clock.clone()),
            store: Arc::new(MemoryStore::default()),
            wall: WallClock::following_tokio(T0),
            metrics: Arc::new(Metrics::default()),
            hub: Arc::new(Hub::default()),
            idle_after: Duration::from_secs(24 * 3600),
            bot_pace: Duration::ZERO,
            bots: Arc::new(BotPool::new(0)),
            owner: user(0),
            reveal_at_end: true,
            sealed: None,
            resigned: Vec::new(),
            ending: None,
            absent: Some(stored.clone()),
            lease: None,
        });
        let mut rx = subscribe(&room, 1, None).await;
        handled(&room).await;
        let state = last_state(&mut rx).expect("the state");
        assert_eq!(
            state["outcome"]["ranks"],
            json!(ranks),
            "stored absent: {stored:?}"
        );
        assert_eq!(state["view"]["outcome"]["ranks"], json!(ranks));
    }
}
