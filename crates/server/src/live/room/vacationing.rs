//! A player's vacation inside one of their games' rooms (`crate::live::vacation`): the clock
//! of a turn-based game pauses for their seats, stored before anyone is told, and every
//! follower's next `state` shows the seats on vacation (their clocks say until when).
use super::Room;
use crate::db::rows::TurnWrite;
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::live::endings::{Answer, Done};
use axum::http::StatusCode;

impl Room {
    /// `mine` (the user's seats) is on vacation until `until` (ms since the epoch); an
    /// `until` already past is the player's return ("I'm back": `Clock::back`).
    pub(super) async fn vacation(&mut self, mine: &[u8], until: i64) -> Answer {
        let Some(mut clock) = self.clock.clone().filter(|c| c.profile.turn_based()) else {
            return Err(ApiError::with_status(
                StatusCode::CONFLICT,
                ApiErrorCode::BadRequest,
                "only the clocks of turn-based games pause for a vacation",
            ));
        };
        let now = self.wall.now_ms();
        let seats: Vec<u8> = mine
            .iter()
            .copied()
            .filter(|s| !self.resigned.contains(s))
            .collect();
        let back = until <= now;
        for &s in &seats {
            if back {
                clock.back(s, now);
            } else {
                clock.pause(s, now, until);
            }
        }
        let turn = TurnWrite {
            to_move: self.to_move(),
            clock_state: serde_json::to_string(&clock.state).ok(),
            deadline_at: clock.deadline(),
        };
        let fence = self.lease.as_ref().map(crate::cluster::Lease::fence);
        if let Err(e) = self.store.set_turn(&self.id, turn, fence).await {
            tracing::error!(game = %self.id, error = %e, "cannot store a vacation");
            return Err(ApiError::new(
                ApiErrorCode::StorageFailing,
                "it could not be saved; nothing changed",
            ));
        }
        self.clock = Some(clock);
        // The other players away hear of it as of any event (`crate::reach`); those at the
        // table see it on the clock.
        // A return is seen on the clock only: nobody is called away for it.
        let mut told: Vec<&str> = Vec::new();
        for (i, seat) in self.seats.iter().enumerate().filter(|_| !back) {
            if let crate::db::rows::SeatKind::Human(user) = seat
                && !mine.contains(&(i as u8))
                && !told.contains(&user.as_str())
            {
                told.push(user);
                self.hub.away(user, &self.id, crate::reach::Kind::Vacation);
            }
        }
        self.publish();
        self.schedule();
        Ok(Done::Paused {
            paused: seats,
            until,
        })
    }
}
