//! One task per live game (after lichess): it owns the game, takes commands in order, persists
//! every accepted move before acknowledging or publishing it, and runs bots off the runtime.
use crate::db::room_store::RoomStore;
use crate::db::rows::SeatKind;
use crate::live::bot_pool::BotPool;
use crate::live::clock::Clock;
use crate::live::hub::Hub;
use crate::live::protocol::{SeenMove, ServerMsg};
use crate::live::room_cmd::{Outbox, RoomCmd, RoomHandle};
use crate::metrics::Metrics;
use crate::wall_clock::WallClock;
use pyramidion_core::{Seat, ToMove};
use pyramidion_games::{AnyGame, PlayedMove};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod acting;
mod moving;
use moving::ApplyError;
mod played;
use played::Played;
mod chatting;
#[cfg(test)]
mod endings_tests;
#[cfg(test)]
mod memory_store;
mod scheduling;
#[cfg(test)]
mod tests;
mod undoing;
mod vacationing;

/// How soon the deadline sweep (`Rooms::wake_due`, every `rooms::WAKE_EVERY`) brings back a
/// room whose turn's time runs out: a room whose deadline is further away than this (plus its
/// idle time) may leave memory.
pub const WAKE_AHEAD: Duration = Duration::from_secs(30);

/// Longest wait for a room's reading of its lease (`Room::lease_lost`).
const LEASE_READ_WAIT: Duration = Duration::from_secs(2);

struct Subscriber {
    conn: u64,
    seat: Option<u8>,
    /// Every seat of the subscriber's user: one who holds several (hot seat) views the one to
    /// move after every move.
    held: Vec<u8>,
    out: Outbox,
    /// The state (its id, and the seat whose view it showed) last sent to this subscriber:
    /// the next one is sent as a patch of it when it follows on (`crate::live::patch`).
    sent: (u64, Option<u8>),
}

pub struct Room {
    pub id: String,
    game: AnyGame,
    /// Every move played, as each viewer may see it; its length is the ply (`event`).
    moves: Vec<Played>,
    /// Steps taken back in this game so far (`undone_moves`): with the ply they make the
    /// state id (`Room::state_id`).
    undos: u64,
    seats: Vec<SeatKind>,
    seed: u64,
    clock: Option<Clock>,
    /// Where every move, resignation and chat message is made durable before it is told.
    store: Arc<dyn RoomStore>,
    /// The time of day the clocks read (tokio's clock in the room's tests).
    wall: WallClock,
    metrics: Arc<Metrics>,
    hub: Arc<Hub>,
    subscribers: Vec<Subscriber>,
    me: crate::queue::Sender<RoomCmd>,
    /// The state a bot is thinking about, so it is asked once per state.
    bot_asked: Option<u64>,
    deadline: Option<(u64, tokio::time::Instant)>,
    /// The seat whose time ran out, whose turn a bot is playing, and whether that time-out
    /// is already counted (and stored) in the clock.
    covering: Option<(u8, bool)>,
    /// Dropped from memory after this long untouched (see `Limits::room_idle`).
    idle_after: Duration,
    /// A bot's move is published no sooner than this after the previous move.
    bot_pace: Duration,
    last_move_at: tokio::time::Instant,
    /// When the running turn was last marked seen and stored (`Clock::seen`): it is marked
    /// again `Clock::seen_every` later while a person's clock runs.
    seen_at: tokio::time::Instant,
    /// The pool bots think on, and the user whose turn in it this game's bots take.
    bots: Arc<BotPool>,
    owner: String,
    /// Hidden moves stay hidden when the game ends (a daily challenge's deal is everyone's
    /// until its day is over: `live::daily_embargo`).
    reveal_at_end: bool,
    /// A daily game whose end is sealed (`reveal_at_end` false): its challenge and when the
    /// end opens, said in its finished state.
    sealed: Option<crate::live::protocol::SealedEnd>,
    /// Seats resigned, in order (a bot plays them on while the game goes on).
    resigned: Vec<u8>,
    /// Why the game ended before its rules said so (`resigned`, `abandoned`, `claimed`).
    ending: Option<String>,
    /// A finished game's absent seats, as stored (`RoomSetup::absent`).
    stored_absent: Option<Vec<u8>>,
    /// Each user's chat rate limit in this game.
    chat_limits: std::collections::HashMap<String, crate::rate_limits::Bucket>,
    /// The storage already holds a move at this room's next ply: the room is stale and is
    /// dropped, to be rebuilt from storage (`crate::live::bot_retry::stale_room`).
    stale: bool,
    /// This instance's hold on the game among several (`crate::cluster`): every move is
    /// fenced with it, and it is let go when the room ends.
    lease: Option<crate::cluster::Lease>,
    /// What each followed seat was last sent, for the next state's patch.
    shown: crate::live::patch::Shown,
}

/// Everything a room starts from.
pub struct RoomSetup {
    pub id: String,
    pub game: AnyGame,
    /// The moves played so far (the game is already past them).
    pub moves: Vec<PlayedMove>,
    /// How many steps were taken back in this game (`Room::undos`).
    pub undos: u64,
    pub seats: Vec<SeatKind>,
    pub seed: u64,
    pub clock: Option<Clock>,
    pub store: Arc<dyn RoomStore>,
    /// The time of day the clocks read: the system's (a test: one that follows paused time).
    pub wall: WallClock,
    pub metrics: Arc<Metrics>,
    pub hub: Arc<Hub>,
    pub idle_after: Duration,
    pub bot_pace: Duration,
    pub bots: Arc<BotPool>,
    /// The table's creator: its bots' work is shared fairly by this user (`fair_queue`).
    pub owner: String,
    pub reveal_at_end: bool,
    /// A daily game under embargo: its challenge and when its end opens (`Room::sealed`).
    pub sealed: Option<crate::live::protocol::SealedEnd>,
    pub resigned: Vec<u8>,
    pub ending: Option<String>,
    /// A finished game's absent seats as its stored result lists them: its ranking is the
    /// stored one, whatever the clock says or the rule became since (`Room::absent`).
    pub absent: Option<Vec<u8>>,
    pub lease: Option<crate::cluster::Lease>,
}

impl Room {
    /// Starts the task of a game rebuilt from (or created as) `moves` on top of `game`.
    pub fn spawn(setup: RoomSetup) -> RoomHandle {
        let (tx, rx) = crate::queue::channel(1024);
        // A turn a bot was playing for a time-out when the room left memory (or the server
        // stopped) goes on being played by the bot, without counting the time-out again.
        let covering = setup
            .clock
            .as_ref()
            .filter(|c| c.state.covered)
            .and_then(|c| c.state.running)
            .map(|seat| (seat, true));
        let epoch = setup.lease.as_ref().map(|l| l.epoch);
        // A turn that ran when the game's last room stopped runs again from now, charged
        // what it had used then (`Clock::resume`): the time without a room is not charged.
        // Now is when the room is built, not when its task first runs.
        let mut clock = setup.clock;
        let playing = setup.ending.is_none() && matches!(setup.game.to_move(), ToMove::Seat(_));
        let resumed = playing
            && clock
                .as_mut()
                .is_some_and(|c| c.resume(setup.wall.now_ms()));
        let room = Room {
            id: setup.id,
            game: setup.game,
            moves: setup.moves.iter().map(Played::new).collect(),
            undos: setup.undos,
            seats: setup.seats,
            seed: setup.seed,
            clock,
            store: setup.store,
            wall: setup.wall,
            metrics: setup.metrics,
            hub: setup.hub,
            subscribers: Vec::new(),
            me: tx.clone(),
            bot_asked: None,
            deadline: None,
            covering,
            idle_after: setup.idle_after,
            bot_pace: setup.bot_pace,
            last_move_at: tokio::time::Instant::now(),
            seen_at: tokio::time::Instant::now(),
            bots: setup.bots,
            owner: setup.owner,
            reveal_at_end: setup.reveal_at_end,
            sealed: setup.sealed,
            resigned: setup.resigned,
            ending: setup.ending,
            stored_absent: setup.absent,
            chat_limits: Default::default(),
            stale: false,
            lease: setup.lease,
            shown: Default::default(),
        };
        tokio::spawn(room.run(rx, resumed));
        RoomHandle {
            tx,
            local: true,
            epoch,
        }
    }

    /// The number of the state players act on: it grows by one with every move and every
    /// undo, so it never repeats (each undo takes one move off and adds two), and a stale
    /// message (another tab's, sent before an undo) never lands on a later position that
    /// happens to have as many moves. It is the server's event counter, not the rules': the
    /// record (game, options, seed, moves) replays without it, and the ply (`event`, the
    /// length of the move log) is still the number of moves.
    fn state_id(&self) -> u64 {
        self.moves.len() as u64 + 2 * self.undos
    }

    fn seat_of(&self, user: &str) -> Vec<u8> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, SeatKind::Human(u) if u == user))
            .map(|(i, _)| i as u8)
            .collect()
    }

    fn to_move(&self) -> Option<u8> {
        if self.ending.is_some() {
            return None;
        }
        match self.game.to_move() {
            ToMove::Seat(s) => Some(s.0),
            ToMove::Over => None,
        }
    }

    async fn run(mut self, mut rx: crate::queue::Receiver<RoomCmd>, resumed: bool) {
        self.metrics
            .games_live
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // A room rebuilt (a restart, or back from idle) tells whose turn it is again, but a
        // player away heard of it when the turn began; a new game's players away hear that
        // their table filled (`reach::Kind::TableFull`).
        self.tell_turns(false);
        if resumed {
            // Run as resumed even if it cannot be stored: the next stored turn stores it.
            if let Err(e) = Box::pin(self.store_turn()).await {
                tracing::warn!(game = %self.id, error = %e, "cannot store a resumed clock");
            }
        }
        self.schedule();
        loop {
            let deadline = self.deadline.map(|(_, at)| at);
            // A person's clock runs: it is marked seen now and then, so that a failure of
            // this instance charges it no more than the time it had a room.
            let seen_due = self
                .deadline
                .and(self.clock.as_ref())
                .map(|c| self.seen_at + c.seen_every());
            // Nobody follows it and it waits for no clock or bot: it may leave memory.
            // A clock far from running out does not hold the room: the deadline sweep
            // (`Rooms::wake_due`) brings it back in time.
            let clock_far = self.deadline.is_none_or(|(_, at)| {
                at > tokio::time::Instant::now() + self.idle_after + WAKE_AHEAD
            });
            let idle = (self.subscribers.is_empty() && clock_far && self.bot_asked.is_none())
                .then(|| tokio::time::Instant::now() + self.idle_after);
            let cmd = tokio::select! {
                cmd = rx.recv() => match cmd { Some(c) => c, None => break },
                _ = sleep_until_opt(deadline) => {
                    self.on_timeout();
                    continue;
                }
                _ = sleep_until_opt(seen_due) => {
                    Box::pin(self.mark_seen()).await;
                    continue;
                }
                _ = sleep_until_opt(idle) => {
                    // The game stays playable without its room: its running turn is charged
                    // until a room is built again. Kept in memory if that cannot be stored.
                    if !Box::pin(self.let_clock_go()).await {
                        continue;
                    }
                    crate::live::moves::evict(&self.id, &mut rx);
                    break;
                }
            };
            // The steps that await (storage) are boxed: inline, they would make every room's
            // task as large as its largest step, idle or not.
            match cmd {
                RoomCmd::Subscribe {
                    conn,
                    user,
                    out,
                    last_event,
                } => {
                    // A room that may have lost its game (this instance's life may have
                    // lapsed) serves a new follower only once the lease says it still runs
                    // it: else the follower would see a state the game has left behind.
                    if self.lease.as_ref().is_some_and(|l| l.doubtful())
                        && Box::pin(self.lease_lost()).await
                    {
                        crate::live::moves::tell_dropped(&out, &self.id, None);
                    } else {
                        self.subscribe(conn, user, out, last_event)
                    }
                }
                RoomCmd::CheckLease => {
                    Box::pin(self.lease_lost()).await;
                }
                RoomCmd::Unsubscribe { conn } => self.subscribers.retain(|s| s.conn != conn),
                RoomCmd::Move {
                    conn,
                    user,
                    state_id,
                    text,
                    received,
                } => Box::pin(self.human_move(conn, &user, state_id, &text, received)).await,
                RoomCmd::Chat(cmd) => Box::pin(self.chat(cmd)).await,
                RoomCmd::Progress(reply) => {
                    let _ = reply.send((self.game.stage_number(), self.state_id()));
                }
                RoomCmd::Act {
                    user,
                    action,
                    reply,
                } => {
                    let answer = Box::pin(self.act(user.as_deref(), action)).await;
                    let _ = reply.send(answer);
                }
                RoomCmd::BotMove(choice) => {
                    // A seat taken back ("I'm back") since the bot was asked is the person's.
                    let bot_turn = self.to_move().is_some_and(|s| {
                        self.bot_plays(s) || self.covering.is_some_and(|(c, _)| c == s)
                    });
                    if choice.state_id == self.state_id() && bot_turn {
                        self.bot_asked = None;
                        match Box::pin(self.apply(&choice.text, true, Instant::now())).await {
                            Ok(()) => {
                                if let Some(seat) = choice.timeout_seat {
                                    self.broadcast_notice(seat);
                                }
                            }
                            Err(ApplyError::Storage(e))
                                if crate::live::bot_retry::stale_room(&e) =>
                            {
                                tracing::warn!(game = %self.id, error = %e, "a bot move met a stored one: the room is stale");
                                self.stale = true;
                            }
                            Err(ApplyError::Storage(e)) => {
                                // Nobody would play this turn again: the same move is tried
                                // later, until the storage takes it.
                                self.bot_asked = Some(choice.state_id);
                                crate::live::bot_retry::persist_later(
                                    &self.id, &e, &self.me, choice,
                                );
                            }
                            Err(e) => self.refused_bot_move(choice, e),
                        }
                    }
                }
            }
            if self.stale {
                // Rebuilt from storage at the next command; every follower resubscribes.
                for s in &self.subscribers {
                    crate::live::moves::tell_dropped(&s.out, &self.id, None);
                }
                crate::live::moves::evict(&self.id, &mut rx);
                break;
            }
            if self.to_move().is_none() && self.subscribers.is_empty() {
                break;
            }
        }
        self.metrics
            .games_live
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the game is known to run elsewhere now (its lease moved on from this room's
    /// epoch); then the room is stale, and is dropped once this command is done: its
    /// followers subscribe again and reach whoever runs the game now. A database that
    /// cannot say leaves the room serving: the heartbeat compares the leases again once it
    /// answers.
    async fn lease_lost(&mut self) -> bool {
        let Some(lease) = &self.lease else {
            return false;
        };
        // Bounded: with the database out of reach a read waits for the pool (10 s and more),
        // and the room would keep every command of its players waiting that long.
        match tokio::time::timeout(LEASE_READ_WAIT, lease.held()).await {
            Ok(Ok(true)) => false,
            Ok(Ok(false)) => {
                tracing::warn!(game = %self.id, epoch = lease.epoch, "this instance no longer owns this game: its room stops serving it");
                self.stale = true;
                true
            }
            Ok(Err(e)) => {
                tracing::warn!(game = %self.id, error = %e, "cannot read this game's lease");
                false
            }
            Err(_) => {
                tracing::warn!(game = %self.id, "the database did not say in time whether this instance still runs this game");
                false
            }
        }
    }

    fn subscribe(&mut self, conn: u64, user: Option<String>, out: Outbox, last_event: Option<u64>) {
        let held = user.as_deref().map(|u| self.seat_of(u)).unwrap_or_default();
        let seat = user.as_deref().and_then(|u| {
            let seats = self.seat_of(u);
            // A user holding several seats (hot seat) follows the one to move.
            seats
                .iter()
                .copied()
                .find(|s| Some(*s) == self.to_move())
                .or(seats.first().copied())
        });
        self.subscribers.retain(|s| s.conn != conn);
        // A daily game's sealed end (issue 54): the moves its player missed are not handed
        // again once it is over, or a second account's socket would list the day's deal, every
        // draw in order, before the day is over for everyone (its record is sealed too).
        let sealed_end = !self.reveal_at_end && self.to_move().is_none();
        let missed = match last_event {
            _ if sealed_end => Vec::new(),
            Some(e) if (e as usize) <= self.moves.len() => (e as usize..self.moves.len())
                .map(|ply| self.seen(ply, seat))
                .collect(),
            _ => Vec::new(),
        };
        let msg = self.state_for(seat, missed);
        self.shown.whole(seat, &msg);
        let _ = out.try_send(msg);
        self.subscribers.push(Subscriber {
            conn,
            seat,
            held,
            out,
            sent: (self.state_id(), seat),
        });
    }

    /// Move `ply` as the connection of `seat` may see it.
    fn seen(&self, ply: usize, seat: Option<u8>) -> SeenMove {
        let played = &self.moves[ply];
        SeenMove {
            ply: ply as u32,
            seat: played.seat.0,
            info: played.seen_by(
                seat.map(Seat),
                self.reveal_at_end && self.to_move().is_none(),
            ),
        }
    }

    /// The view `seat` is shown. A finished game whose end may not be revealed yet (a daily
    /// challenge before its day is over for everyone: `reveal_at_end` false) shows the
    /// position before its last move: a game's end may reveal what was hidden (another seat's
    /// tomb), and the deal is everyone's until the day is over. Nothing is shown rather than
    /// too much if that position cannot be rebuilt.
    fn view_for(&self, seat: Option<Seat>) -> Box<serde_json::value::RawValue> {
        let Some(last) = self.moves.len().checked_sub(1) else {
            return self.game.view_json(seat);
        };
        if self.reveal_at_end || self.to_move().is_some() {
            return self.game.view_json(seat);
        }
        let before =
            AnyGame::new(self.game.kind(), &self.game.options(), self.seed).and_then(|mut game| {
                for m in &self.moves[..last] {
                    game.play_text(m.text())?;
                }
                Ok(game)
            });
        match before {
            Ok(game) => game.view_json(seat),
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "cannot rebuild the position before the end");
                serde_json::value::RawValue::from_string("null".to_string()).expect("null is JSON")
            }
        }
    }

    fn state_for(&self, seat: Option<u8>, missed: Vec<SeenMove>) -> ServerMsg {
        let to_move = self.to_move();
        let outcome = self.outcome();
        let legal = if seat.is_some() && seat == to_move && !seat.is_some_and(|s| self.bot_plays(s))
        {
            self.game.legal_json()
        } else {
            serde_json::value::RawValue::from_string("[]".to_string()).expect("[] is JSON")
        };
        ServerMsg::State(Box::new(crate::live::protocol::StateMsg {
            game: self.id.clone(),
            state_id: self.state_id(),
            event: self.moves.len() as u64,
            seat,
            to_move,
            last_move: self
                .moves
                .len()
                .checked_sub(1)
                .map(|ply| self.seen(ply, seat)),
            missed,
            // The view's own `outcome` is the rules'; it says the server's, as `outcome` does.
            view: crate::live::endings::ranked_view(
                self.view_for(seat.map(Seat)),
                outcome.as_ref(),
            ),
            legal,
            finished: to_move.is_none(),
            outcome,
            resigned: self.resigned.clone(),
            ending: self.ending.as_ref().map(|e| {
                let absent = self.absent(self.clock.as_ref());
                let ranks = crate::live::endings::final_ranks(
                    None,
                    self.seats.len(),
                    &self.resigned,
                    &absent,
                );
                crate::live::endings::early_result(e, &ranks, &self.resigned, &absent)
            }),
            away: self.away(),
            sealed: if to_move.is_none() && !self.reveal_at_end {
                self.sealed.clone()
            } else {
                None
            },
            clock: self
                .clock
                .as_ref()
                .map(|c| Box::new(c.view(self.wall.now_ms()))),
            bots: (0..self.seats.len() as u8)
                .map(|s| self.bot_plays(s))
                .collect(),
            undo: seat.is_some_and(|s| self.may_undo(s)),
        }))
    }

    /// The outcome by the rules as the server ranks it (`endings::final_outcome`: absent
    /// and resigned seats last); none while the game runs or when it ended early (`ending`).
    fn outcome(&self) -> Option<pyramidion_core::Outcome> {
        if self.ending.is_some() {
            return None;
        }
        let outcome = self.game.outcome()?;
        Some(crate::live::endings::final_outcome(
            outcome,
            &self.resigned,
            &self.absent(self.clock.as_ref()),
        ))
    }

    /// The seats whose player is absent with `clock`: a person's seat (not resigned) that a
    /// stand-in bot plays after too many time-outs. At the end they rank below every seat
    /// still played by its own player (`endings::final_ranks`).
    fn absent(&self, clock: Option<&Clock>) -> Vec<u8> {
        if let Some(stored) = &self.stored_absent {
            return stored.clone();
        }
        let Some(clock) = clock else {
            return Vec::new();
        };
        (0..self.seats.len() as u8)
            .filter(|&s| matches!(self.seats[s as usize], SeatKind::Human(_)))
            .filter(|s| !self.resigned.contains(s) && clock.bot_plays(*s))
            .collect()
    }

    /// The seats the others may claim the game against now (`Clock::claimable`): a person's,
    /// not resigned, while the game runs.
    fn away(&self) -> Vec<u8> {
        let Some(clock) = self.clock.as_ref().filter(|_| self.to_move().is_some()) else {
            return Vec::new();
        };
        (0..self.seats.len() as u8)
            .filter(|&s| matches!(self.seats[s as usize], SeatKind::Human(_)))
            .filter(|s| !self.resigned.contains(s) && clock.claimable(*s))
            .collect()
    }

    /// Whether a bot plays `seat`: a bot seat, a resigned one, or one that timed out too often.
    fn bot_plays(&self, seat: u8) -> bool {
        matches!(self.seats.get(seat as usize), Some(SeatKind::Bot(_)))
            || self.resigned.contains(&seat)
            || self.clock.as_ref().is_some_and(|c| c.bot_plays(seat))
    }

    /// Tells every seated user whether it is to move here now (for their "your move" list
    /// and notifications).
    fn tell_turns(&self, announce: bool) {
        let to_move = self.to_move();
        let mut told: Vec<&str> = Vec::new();
        for seat in &self.seats {
            let SeatKind::Human(user) = seat else {
                continue;
            };
            if told.contains(&user.as_str()) {
                continue;
            }
            told.push(user);
            let your_turn = to_move.is_some_and(|s| {
                matches!(&self.seats[s as usize], SeatKind::Human(u) if u == user)
                    && !self.bot_plays(s)
            });
            // Turn-based games reach a player away from the site (`crate::reach`).
            if self
                .clock
                .as_ref()
                .is_some_and(|c| c.profile.turn_ms >= crate::reach::TURN_BASED_MS)
            {
                self.hub.turn_based(user, &self.id, your_turn, announce);
            }
            self.hub.to_user(
                user,
                &ServerMsg::Turn {
                    game: self.id.clone(),
                    your_turn,
                    finished: to_move.is_none(),
                },
            );
        }
    }

    fn reply(&self, conn: u64, msg: ServerMsg) {
        if let Some(s) = self.subscribers.iter().find(|s| s.conn == conn) {
            let _ = s.out.try_send(msg);
        }
    }

    /// Sends every subscriber the new state: as a patch of the one it last got when it
    /// holds the state the patch is from (same seat), else whole (`crate::live::patch`).
    fn publish(&mut self) {
        if let Some(to_move) = self.to_move() {
            for s in &mut self.subscribers {
                if s.held.len() > 1 && s.held.contains(&to_move) {
                    s.seat = Some(to_move);
                }
            }
        }
        let mut seats: Vec<Option<u8>> = self.subscribers.iter().map(|s| s.seat).collect();
        seats.sort_unstable();
        seats.dedup();
        self.shown.keep(&seats);
        // A finished game may show another position than its last (`view_for`): whole.
        let finished = self.to_move().is_none();
        let mut gone = Vec::new();
        for seat in seats {
            let state = self.state_for(seat, Vec::new());
            let (whole, patch) = self.shown.publish(seat, state);
            for s in self.subscribers.iter().filter(|s| s.seat == seat) {
                let msg = match &patch {
                    Some((from, patch)) if !finished && s.sent == (*from, seat) => patch.clone(),
                    _ => whole.clone(),
                };
                if s.out.try_send(msg).is_err() {
                    gone.push(s.conn);
                }
            }
        }
        let now = self.state_id();
        for s in &mut self.subscribers {
            s.sent = (now, s.seat);
        }
        // A subscriber that cannot keep up is dropped, and told: it resubscribes with its
        // last event.
        for s in self.subscribers.iter().filter(|s| gone.contains(&s.conn)) {
            crate::live::moves::tell_dropped(&s.out, &self.id, Some(self.state_id()));
        }
        self.subscribers.retain(|s| !gone.contains(&s.conn));
    }

    /// Tells every subscriber that a bot played the last move for `seat`, whose time ran out.
    fn broadcast_notice(&self, seat: u8) {
        let Some(last) = self.moves.len().checked_sub(1) else {
            return;
        };
        let timeouts = self
            .clock
            .as_ref()
            .and_then(|c| c.state.timeouts.get(seat as usize).copied())
            .unwrap_or(0);
        // The time-out that hands the seat to a bot for good is said as such (on every move
        // the bot plays in that turn).
        let kind = if self.bot_plays(seat) {
            "seat_to_bot"
        } else {
            "timeout_bot_move"
        };
        for s in &self.subscribers {
            let _ = s.out.try_send(ServerMsg::Notice {
                game: self.id.clone(),
                kind,
                seat,
                played: self.seen(last, s.seat),
                timeouts,
                bot_after: crate::live::clock::TIMEOUTS_TO_BOT,
            });
        }
    }
}

async fn sleep_until_opt(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
