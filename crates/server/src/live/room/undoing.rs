//! Undo inside the room (issue 46 item 9, Board Game Arena's policy): the seat to move takes
//! back the last step of its own turn, one step a request, as long as the game's rules said
//! that step may be (`Rules::undoable`, kept on each move: it revealed nothing, drew nothing
//! at random, affected nobody and left the turn with its seat). The game is rebuilt by
//! replaying its record without the step, the step leaves the stored record (kept aside in
//! `undone_moves`: `crate::db::undo_store`) before anyone is told, and every follower gets
//! the new state. The clock is untouched: a step that may be taken back never ends a turn,
//! so the turn's time runs on as it did; a game's result and ratings cannot be reached
//! through an undo (the end of a game ends its last turn).
use super::Room;
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::live::endings::{Answer, Done};
use axum::http::StatusCode;
use pyramidion_games::AnyGame;

impl Room {
    /// Whether `seat` may take back the last step now: it is to move and plays its seat
    /// itself (no bot covers its turn), and the last step is its own and undoable.
    pub(super) fn may_undo(&self, seat: u8) -> bool {
        self.to_move() == Some(seat)
            && !self.bot_plays(seat)
            && self.covering.is_none_or(|(s, _)| s != seat)
            && self
                .moves
                .last()
                .is_some_and(|m| m.seat.0 == seat && m.undoable)
    }

    /// `mine` (the user's seats) asks to take back the last step of the state `state_id`.
    pub(super) async fn undo(&mut self, mine: &[u8], state_id: u64) -> Answer {
        let refuse = |code: ApiErrorCode, message: String| {
            Err(ApiError::with_status(StatusCode::CONFLICT, code, message))
        };
        if state_id != self.state_id() {
            return refuse(
                ApiErrorCode::StaleState,
                format!("the game is at state {}", self.state_id()),
            );
        }
        let Some(seat) = self.to_move().filter(|s| mine.contains(s)) else {
            return refuse(
                ApiErrorCode::CannotUndo,
                "only the player to move may take back a step of their turn".into(),
            );
        };
        if !self.may_undo(seat) {
            return refuse(
                ApiErrorCode::CannotUndo,
                "the last step may not be taken back".into(),
            );
        }
        let keep = self.moves.len() - 1;
        // The game without the step, from its record: what a replay of the stored record
        // will read once the step leaves it.
        let rebuilt =
            AnyGame::new(self.game.kind(), &self.game.options(), self.seed).and_then(|mut g| {
                for m in &self.moves[..keep] {
                    g.play_text(m.text())?;
                }
                Ok(g)
            });
        let game = match rebuilt {
            Ok(game) => game,
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "cannot replay a game to undo a step");
                return Err(ApiError::internal(e));
            }
        };
        let fence = self.lease.as_ref().map(crate::cluster::Lease::fence);
        if let Err(e) = self.store.undo_moves(&self.id, keep as u32, fence).await {
            tracing::error!(game = %self.id, error = %e, "cannot store an undo");
            self.stale = crate::live::bot_retry::stale_room(&e);
            return Err(ApiError::new(
                ApiErrorCode::StorageFailing,
                "it could not be saved; nothing changed",
            ));
        }
        self.game = game;
        self.moves.truncate(keep);
        self.undos += 1;
        self.publish();
        self.schedule();
        Ok(Done::Undone {
            state_id: self.state_id(),
        })
    }
}
