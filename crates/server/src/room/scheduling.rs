//! Who plays the next turn: a bot seat's bot, a greedy bot for a seat whose time ran out, or
//! a person against their clock; and what happens when a bot's move is refused.
use super::{ApplyError, Room, RoomCmd};
use crate::bot_retry::BotChoice;
use crate::clock::Clock;
use crate::store::{SeatKind, now_ms};
use pyramidion_ai::any::BotLevel;
use std::time::Duration;

impl Room {
    /// Asks a bot when a bot seat is to move (or a seat whose time ran out); arms the clock
    /// when a human is.
    pub(super) fn schedule(&mut self) {
        self.deadline = None;
        let Some(seat) = self.to_move() else { return };
        if let Some((covered, _)) = self.covering
            && covered == seat
        {
            return self.ask_bot(BotLevel::Greedy, Some(seat));
        }
        if self.clock.as_ref().is_some_and(|c| c.bot_plays(seat)) || self.resigned.contains(&seat) {
            return self.ask_bot(BotLevel::Greedy, None);
        }
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
            _ => {
                if let Some(deadline) = self.clock.as_ref().and_then(Clock::deadline) {
                    // The deadline is wall-clock time (it survives restarts); it is slept
                    // as a monotonic instant.
                    let wait = Duration::from_millis((deadline - now_ms()).max(0) as u64);
                    self.deadline = Some((self.state_id(), tokio::time::Instant::now() + wait));
                }
            }
        }
    }

    fn ask_bot(&mut self, level: BotLevel, timeout_seat: Option<u8>) {
        let state_id = self.state_id();
        if self.bot_asked == Some(state_id) {
            return;
        }
        self.bot_asked = Some(state_id);
        let game = self.game.clone();
        let seed = pyramidion_ai::seed::decision_seed(self.seed, state_id);
        let tx = self.me.clone();
        let not_before = self.last_move_at + self.bot_pace;
        tokio::spawn(async move {
            // Bots think on the bounded bot pool, off the async runtime; a bot that panics
            // is logged there and a fallback move comes back instead.
            if let Some(text) = crate::bot_pool::global().choose(game, level, seed).await {
                // Paced, so that people see each bot move (see `Config::bot_pace`). No
                // timer when the pace has passed already (a timer rounds up to the next ms).
                if not_before > tokio::time::Instant::now() {
                    tokio::time::sleep_until(not_before).await;
                }
                let _ = tx
                    .send(RoomCmd::BotMove(BotChoice {
                        state_id,
                        text,
                        timeout_seat,
                        failures: 0,
                    }))
                    .await;
            }
        });
    }

    /// A bot move the rules refuse (a bug in a bot) must not stall the game: it is logged and
    /// the first legal move is played in its place.
    pub(super) fn refused_bot_move(&mut self, choice: BotChoice, error: ApplyError) {
        tracing::error!(game = %self.id, error = %error, text = %choice.text, "bot move refused; the first legal move is played instead");
        let Some(first) = self.game.legal_texts().into_iter().next() else {
            return;
        };
        if first == choice.text {
            return;
        }
        let tx = self.me.clone();
        tokio::spawn(async move {
            let _ = tx
                .send(RoomCmd::BotMove(BotChoice {
                    text: first,
                    ..choice
                }))
                .await;
        });
    }

    pub(super) fn on_timeout(&mut self) {
        let Some((state_id, _)) = self.deadline.take() else {
            return;
        };
        if state_id != self.state_id() {
            return;
        }
        if let Some(seat) = self.to_move() {
            self.covering = Some((seat, false));
            self.ask_bot(BotLevel::Greedy, Some(seat));
        }
    }
}
