//! One task per live game (after lichess): it owns the game, takes commands in order, persists
//! every accepted move before acknowledging or publishing it, and runs bots off the runtime.
use crate::metrics::Metrics;
use crate::protocol::{SeenMove, ServerMsg};
use crate::store::{SeatKind, Store};
use pyramidion_ai::any::BotLevel;
use pyramidion_core::{Seat, ToMove};
use pyramidion_games::{AnyGame, PlayedMove};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

pub type Outbox = mpsc::Sender<ServerMsg>;

pub enum RoomCmd {
    Subscribe {
        conn: u64,
        user: Option<String>,
        out: Outbox,
        last_event: Option<u64>,
    },
    Unsubscribe {
        conn: u64,
    },
    Move {
        conn: u64,
        user: String,
        state_id: u64,
        text: String,
        received: Instant,
    },
    /// A bot's choice for the state `state_id` (ignored if the state moved on).
    BotMove {
        state_id: u64,
        text: String,
        timeout_seat: Option<u8>,
    },
}

struct Subscriber {
    conn: u64,
    seat: Option<u8>,
    out: Outbox,
}

pub struct Room {
    pub id: String,
    game: AnyGame,
    /// Every move played, as each viewer may see it; its length is the state id.
    moves: Vec<PlayedMove>,
    seats: Vec<SeatKind>,
    seed: u64,
    move_seconds: u32,
    store: Store,
    metrics: Arc<Metrics>,
    subscribers: Vec<Subscriber>,
    me: mpsc::Sender<RoomCmd>,
    /// The state a bot is thinking about, so it is asked once per state.
    bot_asked: Option<u64>,
    deadline: Option<(u64, tokio::time::Instant)>,
    /// Dropped from memory after this long untouched (see `Limits::room_idle`).
    idle_after: Duration,
}

#[derive(Clone)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<RoomCmd>,
}

impl Room {
    /// Starts the task of a game rebuilt from (or created as) `moves` on top of `game`.
    #[allow(clippy::too_many_arguments)]
    pub fn spawn(
        id: String,
        game: AnyGame,
        moves: Vec<PlayedMove>,
        seats: Vec<SeatKind>,
        seed: u64,
        move_seconds: u32,
        store: Store,
        metrics: Arc<Metrics>,
        idle_after: Duration,
    ) -> RoomHandle {
        let (tx, rx) = mpsc::channel(1024);
        let room = Room {
            id,
            game,
            moves,
            seats,
            seed,
            move_seconds,
            store,
            metrics,
            subscribers: Vec::new(),
            me: tx.clone(),
            bot_asked: None,
            deadline: None,
            idle_after,
        };
        tokio::spawn(room.run(rx));
        RoomHandle { tx }
    }

    fn state_id(&self) -> u64 {
        self.moves.len() as u64
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
        match self.game.to_move() {
            ToMove::Seat(s) => Some(s.0),
            ToMove::Over => None,
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        self.metrics
            .games_live
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.schedule();
        loop {
            let deadline = self.deadline.map(|(_, at)| at);
            // Nobody follows it and it waits for no clock or bot: it may leave memory.
            let idle = (self.subscribers.is_empty()
                && self.deadline.is_none()
                && self.bot_asked.is_none())
            .then(|| tokio::time::Instant::now() + self.idle_after);
            let cmd = tokio::select! {
                cmd = rx.recv() => match cmd { Some(c) => c, None => break },
                _ = sleep_until_opt(deadline) => {
                    self.on_timeout();
                    continue;
                }
                _ = sleep_until_opt(idle) => {
                    crate::moves::evict(&self.id, &mut rx);
                    break;
                }
            };
            match cmd {
                RoomCmd::Subscribe {
                    conn,
                    user,
                    out,
                    last_event,
                } => self.subscribe(conn, user, out, last_event),
                RoomCmd::Unsubscribe { conn } => self.subscribers.retain(|s| s.conn != conn),
                RoomCmd::Move {
                    conn,
                    user,
                    state_id,
                    text,
                    received,
                } => {
                    self.human_move(conn, &user, state_id, &text, received)
                        .await
                }
                RoomCmd::BotMove {
                    state_id,
                    text,
                    timeout_seat,
                } => {
                    if state_id == self.state_id() {
                        self.bot_asked = None;
                        if let Err(e) = self.apply(&text, true, Instant::now()).await {
                            tracing::error!(game = %self.id, error = %e, "bot move failed");
                        } else if let Some(seat) = timeout_seat {
                            self.broadcast_notice(seat);
                        }
                    }
                }
            }
            if self.to_move().is_none() && self.subscribers.is_empty() {
                break;
            }
        }
        self.metrics
            .games_live
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn subscribe(&mut self, conn: u64, user: Option<String>, out: Outbox, last_event: Option<u64>) {
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
        let missed = match last_event {
            Some(e) if (e as usize) <= self.moves.len() => (e as usize..self.moves.len())
                .map(|ply| self.seen(ply, seat))
                .collect(),
            _ => Vec::new(),
        };
        let msg = self.state_for(seat, missed);
        let _ = out.try_send(msg);
        self.subscribers.push(Subscriber { conn, seat, out });
    }

    /// Move `ply` as the connection of `seat` may see it.
    fn seen(&self, ply: usize, seat: Option<u8>) -> SeenMove {
        let played = &self.moves[ply];
        SeenMove {
            ply: ply as u32,
            seat: played.seat.0,
            info: played
                .seen_by(seat.map(Seat), self.to_move().is_none())
                .clone(),
        }
    }

    fn state_for(&self, seat: Option<u8>, missed: Vec<SeenMove>) -> ServerMsg {
        let to_move = self.to_move();
        let legal = if seat.is_some() && seat == to_move {
            self.game.legal_moves()
        } else {
            Vec::new()
        };
        ServerMsg::State {
            game: self.id.clone(),
            state_id: self.state_id(),
            event: self.state_id(),
            seat,
            to_move,
            last_move: self
                .moves
                .len()
                .checked_sub(1)
                .map(|ply| self.seen(ply, seat)),
            missed,
            view: self.game.view_json(seat.map(Seat)),
            legal,
            finished: to_move.is_none(),
            outcome: self.game.outcome(),
        }
    }

    fn reply(&self, conn: u64, msg: ServerMsg) {
        if let Some(s) = self.subscribers.iter().find(|s| s.conn == conn) {
            let _ = s.out.try_send(msg);
        }
    }

    async fn human_move(
        &mut self,
        conn: u64,
        user: &str,
        state_id: u64,
        text: &str,
        received: Instant,
    ) {
        let (game_id, current) = (self.id.clone(), self.state_id());
        let error = move |code, message: String| ServerMsg::Error {
            code,
            message,
            game: Some(game_id.clone()),
            reason: None,
            state_id: Some(current),
        };
        let Some(to_move) = self.to_move() else {
            return self.reply(conn, error("game_over", "the game is over".into()));
        };
        if !self.seat_of(user).contains(&to_move) {
            return self.reply(
                conn,
                error("not_your_turn", format!("seat {to_move} is to move")),
            );
        }
        if state_id != self.state_id() {
            return self.reply(
                conn,
                error(
                    "stale_state",
                    format!("the game is at state {}", self.state_id()),
                ),
            );
        }
        // A subscriber who holds the seat to move now views it (hot seat).
        if let Some(sub) = self.subscribers.iter_mut().find(|s| s.conn == conn) {
            sub.seat = Some(to_move);
        }
        if let Err(message) = crate::moves::check_length(text) {
            return self.reply(conn, error("bad_request", message));
        }
        match self.apply(text, false, received).await {
            Ok(()) => {}
            Err(ApplyError::Illegal(code, message)) => {
                self.metrics
                    .rejected_moves
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.reply(
                    conn,
                    ServerMsg::Error {
                        code: "illegal_move",
                        message,
                        game: Some(self.id.clone()),
                        reason: Some(code),
                        state_id: Some(self.state_id()),
                    },
                );
            }
            Err(ApplyError::Storage(e)) => {
                tracing::error!(game = %self.id, error = %e, "cannot persist a move");
                self.reply(
                    conn,
                    error(
                        "internal",
                        "the move could not be saved; it was not played".into(),
                    ),
                );
            }
        }
    }

    /// Plays `text` on a copy, persists it, then makes it the state and publishes it.
    async fn apply(
        &mut self,
        text: &str,
        by_bot: bool,
        received: Instant,
    ) -> Result<(), ApplyError> {
        let mut next = self.game.clone();
        let played = next
            .play_text(text)
            .map_err(|e| ApplyError::Illegal(e.code, e.message))?;
        // What is stored is the engine's notation of the move, not what the client typed.
        let text = played.full.text.as_str();
        let ply = self.moves.len() as u32;
        // A game's last move and its result are committed together: a crash between two
        // commits would otherwise leave a finished record marked live.
        let outcome = next.outcome();
        let result = outcome
            .as_ref()
            .map(|o| serde_json::to_string(o).unwrap_or_default());
        let persisting = Instant::now();
        self.store
            .append_move(&self.id, ply, text, by_bot, result)
            .await
            .map_err(ApplyError::Storage)?;
        self.metrics.persist_latency.observe(persisting.elapsed());
        self.game = next;
        self.moves.push(played);
        if outcome.is_some() {
            self.metrics
                .games_finished
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.publish();
        self.metrics.observe_move(received.elapsed());
        self.schedule();
        Ok(())
    }

    fn publish(&mut self) {
        let mut gone = Vec::new();
        for s in &self.subscribers {
            let msg = self.state_for(s.seat, Vec::new());
            if s.out.try_send(msg).is_err() {
                gone.push(s.conn);
            }
        }
        // A subscriber that cannot keep up is dropped, and told: it resubscribes with its
        // last event.
        for s in self.subscribers.iter().filter(|s| gone.contains(&s.conn)) {
            crate::moves::tell_dropped(&s.out, &self.id, Some(self.state_id()));
        }
        self.subscribers.retain(|s| !gone.contains(&s.conn));
    }

    /// Tells every subscriber that a bot played the last move for `seat`, whose time ran out.
    fn broadcast_notice(&self, seat: u8) {
        let Some(last) = self.moves.len().checked_sub(1) else {
            return;
        };
        for s in &self.subscribers {
            let _ = s.out.try_send(ServerMsg::Notice {
                game: self.id.clone(),
                kind: "timeout_bot_move",
                seat,
                played: self.seen(last, s.seat),
            });
        }
    }

    /// Asks a bot when a bot seat is to move; arms the clock when a human is.
    fn schedule(&mut self) {
        self.deadline = None;
        let Some(seat) = self.to_move() else { return };
        match &self.seats[seat as usize] {
            SeatKind::Bot(level) => {
                // Levels are checked when a table is created; one that no longer parses
                // (renamed since) is said in the log, and greedy plays rather than stall.
                let level = level.parse().unwrap_or_else(|e| {
                    tracing::error!(game = %self.id, error = %e, "unknown bot level, greedy plays");
                    BotLevel::Greedy
                });
                self.ask_bot(level, None);
            }
            _ if self.move_seconds > 0 => {
                let at =
                    tokio::time::Instant::now() + Duration::from_secs(self.move_seconds as u64);
                self.deadline = Some((self.state_id(), at));
            }
            _ => {}
        }
    }

    fn ask_bot(&mut self, level: BotLevel, timeout_seat: Option<u8>) {
        let state_id = self.state_id();
        if self.bot_asked == Some(state_id) {
            return;
        }
        self.bot_asked = Some(state_id);
        let game = self.game.clone();
        let seed = self.seed ^ state_id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let tx = self.me.clone();
        tokio::spawn(async move {
            // Bots think on the bounded bot pool, off the async runtime; a bot that panics
            // is logged there and a fallback move comes back instead.
            if let Some(text) = crate::bot_pool::global().choose(game, level, seed).await {
                let _ = tx
                    .send(RoomCmd::BotMove {
                        state_id,
                        text,
                        timeout_seat,
                    })
                    .await;
            }
        });
    }

    fn on_timeout(&mut self) {
        let Some((state_id, _)) = self.deadline.take() else {
            return;
        };
        if state_id != self.state_id() {
            return;
        }
        if let Some(seat) = self.to_move() {
            self.ask_bot(BotLevel::Greedy, Some(seat));
        }
    }
}

enum ApplyError {
    Illegal(&'static str, String),
    Storage(anyhow::Error),
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::Illegal(code, message) => write!(f, "{code}: {message}"),
            ApplyError::Storage(e) => write!(f, "storage: {e}"),
        }
    }
}

async fn sleep_until_opt(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
