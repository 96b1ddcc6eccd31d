//! Who plays the next turn: a bot seat's bot, a greedy bot for a seat whose time ran out, or
//! a person against their clock; and what happens when a bot's move is refused.
//!
//! A game nobody plays any more does not keep the pool searching: once every human seat of a
//! game with a clock has been handed to a bot (each ran out of time on
//! `clock::TIMEOUTS_TO_BOT` turns), its bot seats play greedy too, in the pool's fast lane,
//! so the game plays itself to its end in milliseconds of CPU a move and its result stands
//! (a rated one included: the players' ratings move as for any finished game). A game without
//! a clock never runs a bot for an absent person: it waits.
use super::{ApplyError, Room};
use crate::db::rows::SeatKind;
use crate::live::bot_pool::{Ticket, lane_of};
use crate::live::clock::Clock;
use crate::live::room_cmd::{BotChoice, RoomCmd};
use pyramidion_ai::level::BotLevel;
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
                let level = if humans_gone(&self.seats, self.clock.as_ref()) {
                    BotLevel::Greedy
                } else {
                    *level
                };
                self.ask_bot(level, None);
            }
            _ => {
                if let Some(deadline) = self.clock.as_ref().and_then(Clock::deadline) {
                    // The deadline is wall-clock time (it survives restarts); it is slept
                    // as a monotonic instant.
                    let wait = Duration::from_millis((deadline - self.wall.now_ms()).max(0) as u64);
                    self.deadline = Some((self.state_id(), tokio::time::Instant::now() + wait));
                }
            }
        }
    }

    /// Marks the running turn seen now and stores it (`Clock::seen`).
    pub(super) async fn mark_seen(&mut self) {
        self.seen_at = tokio::time::Instant::now();
        let now = self.wall.now_ms();
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        let before = clock.state.seen_ms;
        clock.seen(now);
        if clock.state.seen_ms == before {
            return;
        }
        if let Err(e) = self.store_turn().await {
            tracing::warn!(game = %self.id, error = %e, "cannot mark a running clock seen");
        }
    }

    /// The room leaves memory while the game stays playable: its running turn is stored
    /// unseen (`Clock::unseen`), charged until a room is built again. Whether the room may go
    /// (nothing to store, or stored).
    pub(super) async fn let_clock_go(&mut self) -> bool {
        let playing = self.to_move().is_some();
        let Some(clock) = self.clock.as_mut() else {
            return true;
        };
        if clock.state.seen_ms.is_none() || !playing {
            return true;
        }
        let kept = clock.state.seen_ms;
        clock.unseen();
        match self.store_turn().await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(game = %self.id, error = %e, "cannot let a running clock go: the room stays");
                if let Some(clock) = self.clock.as_mut() {
                    clock.state.seen_ms = kept;
                }
                false
            }
        }
    }

    /// Stores the seat to move and the clock as they are, outside a move (fenced as one).
    pub(super) async fn store_turn(&self) -> Result<(), crate::db::error::StoreError> {
        let Some(clock) = self.clock.as_ref() else {
            return Ok(());
        };
        let turn = crate::db::rows::TurnWrite {
            to_move: self.to_move(),
            clock_state: serde_json::to_string(&clock.state).ok(),
            deadline_at: clock.deadline(),
        };
        let fence = self.lease.as_ref().map(crate::cluster::Lease::fence);
        self.store.set_turn(&self.id, turn, fence).await
    }

    fn ask_bot(&mut self, level: BotLevel, timeout_seat: Option<u8>) {
        let state_id = self.state_id();
        if self.bot_asked == Some(state_id) {
            return;
        }
        self.bot_asked = Some(state_id);
        let game = self.game.clone();
        // Seeded by the ply, not the state id: a bot's choice depends on the game only, not
        // on how many steps were taken back on the way.
        let seed = pyramidion_ai::seed::decision_seed(self.seed, self.moves.len() as u64);
        let tx = self.me.clone();
        let not_before = self.last_move_at + self.bot_pace;
        let bots = self.bots.clone();
        let ticket = Ticket {
            lane: lane_of(level),
            owner: self.owner.clone(),
            game: self.id.clone(),
        };
        tokio::spawn(async move {
            // Bots think on the bounded bot pool, off the async runtime; a bot that panics
            // is logged there and a fallback move comes back instead.
            if let Some(text) = bots.choose(ticket, game, level, seed).await {
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

/// Whether every person at a table with a clock has been handed to a bot (see the module's
/// documentation); false for a table without a person or without a clock.
pub(super) fn humans_gone(seats: &[SeatKind], clock: Option<&Clock>) -> bool {
    let Some(clock) = clock else { return false };
    let mut humans = seats
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, SeatKind::Human(_)))
        .peekable();
    humans.peek().is_some() && humans.all(|(i, _)| clock.bot_plays(i as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::clock::TIMEOUTS_TO_BOT;
    use crate::time_control::ClockProfile;

    #[test]
    fn a_game_is_left_to_greedy_bots_once_every_person_is_handed_over() {
        let max: BotLevel = "max".parse().unwrap();
        let seats = vec![
            SeatKind::Human("a".into()),
            SeatKind::Bot(max),
            SeatKind::Human("b".into()),
        ];
        let mut clock = Clock::start(ClockProfile::legacy(10), 3, Some(0), 0);
        assert!(!humans_gone(&seats, None), "no clock: the game waits");
        assert!(!humans_gone(&seats, Some(&clock)));
        for _ in 0..TIMEOUTS_TO_BOT {
            clock.count_timeout(0);
        }
        assert!(!humans_gone(&seats, Some(&clock)), "b still plays");
        for _ in 0..TIMEOUTS_TO_BOT {
            clock.count_timeout(2);
        }
        assert!(humans_gone(&seats, Some(&clock)));
        let bots_only = [SeatKind::Bot(max), SeatKind::Bot(max)];
        assert!(!humans_gone(&bots_only, Some(&clock)));
    }
}
