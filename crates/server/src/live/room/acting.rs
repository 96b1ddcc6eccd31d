//! Resign, abandon, claim and "I'm back" inside the room (see `crate::live::endings`): each is
//! stored before it is said to anyone, like a move.
use super::Room;
use crate::db::room_store::Resignation;
use crate::db::rows::{SeatKind, TurnWrite};
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::live::endings::{Action, Answer, Done, early_result, final_ranks};
use axum::http::StatusCode;

fn refuse(status: StatusCode, code: ApiErrorCode, message: &str) -> Answer {
    Err(ApiError::with_status(status, code, message))
}

impl Room {
    /// `user` (none: the server) asks `action` of this game.
    pub(super) async fn act(&mut self, user: Option<&str>, action: Action) -> Answer {
        if self.to_move().is_none() {
            return refuse(
                StatusCode::CONFLICT,
                ApiErrorCode::GameOver,
                "the game is over",
            );
        }
        let mine = user.map(|u| self.seat_of(u)).unwrap_or_default();
        if user.is_some() && mine.is_empty() {
            return refuse(
                StatusCode::FORBIDDEN,
                ApiErrorCode::NotSeated,
                "only a player of this game may do that",
            );
        }
        match action {
            Action::Back => return self.back(&mine).await,
            Action::Undo { state_id } => return self.undo(&mine, state_id).await,
            Action::Vacation { until } => return self.vacation(&mine, until).await,
            Action::Adjudicate => {
                // Asked by the server (a tournament's round deadline), never by a player.
                if user.is_some() {
                    return refuse(
                        StatusCode::FORBIDDEN,
                        ApiErrorCode::NotSeated,
                        "only the server adjudicates a game",
                    );
                }
                // The seat to move is the one holding the game up: it ranks last, every
                // other seat left shares the first rank (`final_ranks` of an early end).
                let seats: Vec<u8> = self.to_move().into_iter().collect();
                return self.end_early(seats, "adjudicated", true).await;
            }
            Action::Resign => {
                let seats: Vec<u8> = mine
                    .into_iter()
                    .filter(|s| !self.resigned.contains(s))
                    .collect();
                if seats.is_empty() {
                    return refuse(
                        StatusCode::CONFLICT,
                        ApiErrorCode::AlreadyResigned,
                        "you have already resigned this game",
                    );
                }
                self.end_early(seats, "resigned", false).await
            }
            Action::Abandon => {
                // Against bots only: every other seat is a bot (a solo game has none).
                let bots_only = self.seats.iter().enumerate().all(|(i, s)| match s {
                    SeatKind::Bot(_) => true,
                    SeatKind::Human(_) => user.is_none() || mine.contains(&(i as u8)),
                    _ => false,
                });
                if !bots_only {
                    return refuse(
                        StatusCode::CONFLICT,
                        ApiErrorCode::NotBotOnly,
                        "only a game against bots may be abandoned: resign instead",
                    );
                }
                let seats: Vec<u8> = (0..self.seats.len() as u8)
                    .filter(|&s| matches!(self.seats[s as usize], SeatKind::Human(_)))
                    .filter(|s| !self.resigned.contains(s))
                    .collect();
                self.end_early(seats, "abandoned", false).await
            }
            Action::Claim => {
                // The seats whose player is away (`Clock::claimable`): a bot took them after
                // too many time-outs, or in real time their last turn ran out. Real-time
                // games may be claimed too (as lichess's "claim victory"); a game without a
                // clock has no time-outs, so nobody in it is ever away.
                let away: Vec<u8> = self
                    .away()
                    .into_iter()
                    .filter(|s| !mine.contains(s))
                    .collect();
                if away.is_empty() {
                    return refuse(
                        StatusCode::CONFLICT,
                        ApiErrorCode::NobodyAway,
                        "no player of this game is away past the time-out policy",
                    );
                }
                self.end_early(away, "claimed", false).await
            }
        }
    }

    /// Resigns `seats` (in this order), and ends the game when fewer than two seats, or no
    /// person, are left in it, or when `end` says so (an adjudication). Stored first, then
    /// published.
    async fn end_early(&mut self, seats: Vec<u8>, ending: &str, end: bool) -> Answer {
        let mut resigned = self.resigned.clone();
        resigned.extend(&seats);
        let left: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|s| !resigned.contains(s))
            .collect();
        let person_left = left
            .iter()
            .any(|&s| matches!(self.seats[s as usize], SeatKind::Human(_)));
        let ends = end || left.len() < 2 || !person_left;
        let result = ends.then(|| {
            // The seats absent: as `Room::state_for` ranks this ending (`Room::absent`).
            let absent: Vec<u8> = self
                .absent(self.clock.as_ref())
                .into_iter()
                .filter(|s| !resigned.contains(s))
                .collect();
            let ranks = final_ranks(None, self.seats.len(), &resigned, &absent);
            serde_json::to_string(&early_result(ending, &ranks, &resigned, &absent))
                .expect("an early result serialises")
        });
        let first = self.resigned.len();
        let rows: Vec<(u8, usize)> = seats
            .iter()
            .enumerate()
            .map(|(k, &s)| (s, first + k))
            .collect();
        let stored = self
            .store
            .resign(Resignation {
                game_id: &self.id,
                seats: rows,
                ply: self.moves.len() as i64,
                end: result.as_ref().map(|r| (ending.to_string(), r.clone())),
                fence: self.lease.as_ref().map(crate::cluster::Lease::fence),
            })
            .await;
        if let Err(e) = stored {
            tracing::error!(game = %self.id, error = %e, "cannot store a resignation");
            return Err(ApiError::new(
                ApiErrorCode::StorageFailing,
                "it could not be saved; nothing changed",
            ));
        }
        self.resigned = resigned;
        if ends {
            self.ending = Some(ending.to_string());
            self.deadline = None;
            self.bot_asked = None;
            self.metrics.game_finished(self.game.kind().key());
        }
        self.publish();
        // The turn may pass to someone away: announced as any move's would be.
        self.tell_turns(true);
        self.schedule();
        Ok(Done::Resigned {
            ended: ends,
            resigned: self.resigned.clone(),
        })
    }

    /// Takes back the seats of `mine` a bot took after too many time-outs: their time-outs
    /// start again from none, and a running turn starts afresh.
    async fn back(&mut self, mine: &[u8]) -> Answer {
        let Some(mut clock) = self.clock.clone() else {
            return refuse(
                StatusCode::CONFLICT,
                ApiErrorCode::NotAway,
                "no bot plays your seat",
            );
        };
        let taken: Vec<u8> = mine
            .iter()
            .copied()
            .filter(|&s| clock.bot_plays(s) && !self.resigned.contains(&s))
            .collect();
        if taken.is_empty() {
            return refuse(
                StatusCode::CONFLICT,
                ApiErrorCode::NotAway,
                "no bot plays your seat",
            );
        }
        let now = self.wall.now_ms();
        for &s in &taken {
            clock.take_back(s, now);
        }
        let turn = TurnWrite {
            to_move: self.to_move(),
            clock_state: serde_json::to_string(&clock.state).ok(),
            deadline_at: clock.deadline(),
        };
        let fence = self.lease.as_ref().map(crate::cluster::Lease::fence);
        if let Err(e) = self.store.set_turn(&self.id, turn, fence).await {
            tracing::error!(game = %self.id, error = %e, "cannot store a seat taken back");
            return Err(ApiError::new(
                ApiErrorCode::StorageFailing,
                "it could not be saved; nothing changed",
            ));
        }
        self.clock = Some(clock);
        self.seen_at = tokio::time::Instant::now();
        if self.covering.is_some_and(|(s, _)| taken.contains(&s)) {
            self.covering = None;
        }
        // A bot move already asked for is ignored when it comes (the seat is a person's).
        self.bot_asked = None;
        self.publish();
        // The player is back at the table: nothing to announce to them.
        self.tell_turns(false);
        self.schedule();
        Ok(Done::Back { seats: taken })
    }
}
