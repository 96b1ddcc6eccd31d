//! A move inside the room: a person's checked (their turn, the state they saw), then any
//! move played on a copy of the game, made durable, and only then made the state and
//! published. Nothing is acknowledged before it is durable.
use super::{Room, played::Played};
use crate::db::rows::TurnWrite;
use crate::db::writer::NewMove;
use crate::error_code::ApiErrorCode;
use crate::live::clock::Clock;
use crate::live::protocol::ServerMsg;
use pyramidion_core::ToMove;
use std::time::Instant;

impl Room {
    pub(super) async fn human_move(
        &mut self,
        conn: u64,
        user: &str,
        state_id: u64,
        text: &str,
        received: Instant,
    ) {
        let (game_id, current) = (self.id.clone(), self.state_id());
        let error = move |code: ApiErrorCode, message: String| ServerMsg::Error {
            code: code.into(),
            message,
            game: Some(game_id.clone()),
            reason: None,
            state_id: Some(current),
        };
        let Some(to_move) = self.to_move() else {
            return self.reply(
                conn,
                error(ApiErrorCode::GameOver, "the game is over".into()),
            );
        };
        if !self.seat_of(user).contains(&to_move) || self.bot_plays(to_move) {
            return self.reply(
                conn,
                error(
                    ApiErrorCode::NotYourTurn,
                    format!("seat {to_move} is to move"),
                ),
            );
        }
        if self.covering.is_some_and(|(seat, _)| seat == to_move) {
            return self.reply(
                conn,
                error(
                    ApiErrorCode::TimeOut,
                    "the time of this turn ran out: a bot plays it".into(),
                ),
            );
        }
        if state_id != self.state_id() {
            return self.reply(
                conn,
                error(
                    ApiErrorCode::StaleState,
                    format!("the game is at state {}", self.state_id()),
                ),
            );
        }
        // A subscriber who holds the seat to move now views it (hot seat).
        if let Some(sub) = self.subscribers.iter_mut().find(|s| s.conn == conn) {
            sub.seat = Some(to_move);
        }
        if let Err(too_long) = crate::live::moves::check_length(text) {
            return self.reply(conn, error(ApiErrorCode::BadRequest, too_long.to_string()));
        }
        match self.apply(text, false, received).await {
            Ok(()) => {}
            Err(ApplyError::Illegal(code, message)) => {
                self.metrics.move_refused(self.game.kind().key(), code);
                self.reply(
                    conn,
                    ServerMsg::Error {
                        code: ApiErrorCode::IllegalMove.into(),
                        message,
                        game: Some(self.id.clone()),
                        reason: Some(code),
                        state_id: Some(self.state_id()),
                    },
                );
            }
            Err(ApplyError::Storage(e)) => {
                tracing::error!(game = %self.id, error = %e, "cannot persist a move");
                self.stale = crate::live::bot_retry::stale_room(&e);
                // The database out of reach passes: `unavailable` says to play it again
                // shortly (as HTTP answers 503), anything else is the server's fault.
                let code = if e.is_outage() {
                    ApiErrorCode::Unavailable
                } else {
                    ApiErrorCode::Internal
                };
                self.reply(
                    conn,
                    error(
                        code,
                        "the move could not be saved; it was not played".into(),
                    ),
                );
            }
        }
    }

    /// Plays `text` on a copy, persists it, then makes it the state and publishes it.
    pub(super) async fn apply(
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
        // The clock after this move, stored with it.
        let before = self.to_move();
        let after = match next.to_move() {
            ToMove::Seat(s) => Some(s.0),
            ToMove::Over => None,
        };
        let covered = self.covering.filter(|_| by_bot);
        let mut clock = self.clock.clone();
        if let Some(c) = &mut clock {
            if let Some((seat, false)) = covered {
                c.count_timeout(seat);
            }
            c.after_move(after, self.wall.now_ms(), covered.is_some());
        }
        // Ranked as the `state` messages will say it (`Room::outcome`), with the seats absent
        // as of this move's clock (the time-out it covers may be the one that hands a seat to
        // its bot).
        let absent = self.absent(clock.as_ref());
        let outcome = next
            .outcome()
            .map(|o| crate::live::endings::final_outcome(o, &self.resigned, &absent));
        let result = outcome.as_ref().map(|o| {
            let stored = crate::live::endings::FinishedResult {
                outcome: o,
                resigned: &self.resigned,
                absent: &absent,
            };
            serde_json::to_string(&stored).unwrap_or_default()
        });
        // Stored when it changed: the seat to move or the clock (a time-out counted, a turn
        // ended). A move within a turn, or any move of a solo game, writes the move alone.
        let turn = (before != after || clock != self.clock).then(|| TurnWrite {
            to_move: after,
            clock_state: clock
                .as_ref()
                .map(|c| serde_json::to_string(&c.state).unwrap_or_default()),
            deadline_at: clock.as_ref().and_then(Clock::deadline),
        });
        let persisting = Instant::now();
        self.store
            .append_move(NewMove {
                game_id: &self.id,
                ply,
                text,
                by_bot,
                result,
                turn,
                fence: self.lease.as_ref().map(crate::cluster::Lease::fence),
            })
            .await
            .map_err(ApplyError::Storage)?;
        self.metrics.observe_persist(persisting.elapsed());
        self.game = next;
        self.moves.push(Played::new(&played));
        self.clock = clock;
        self.covering = match covered {
            Some((seat, _)) if after == Some(seat) => Some((seat, true)),
            _ if before != after => None,
            keep => keep.or(self.covering),
        };
        self.last_move_at = tokio::time::Instant::now();
        if before != after {
            // The next turn starts now, seen (`Clock::after_move`).
            self.seen_at = self.last_move_at;
        }
        if outcome.is_some() {
            self.metrics.game_finished(self.game.kind().key());
        }
        self.publish();
        self.metrics
            .observe_move(self.game.kind().key(), received.elapsed());
        if before != after {
            self.tell_turns(true);
        }
        self.schedule();
        Ok(())
    }
}

pub(super) enum ApplyError {
    Illegal(&'static str, String),
    Storage(crate::db::error::StoreError),
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::Illegal(code, message) => write!(f, "{code}: {message}"),
            ApplyError::Storage(e) => write!(f, "storage: {e}"),
        }
    }
}
