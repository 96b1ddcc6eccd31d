//! The live-games cap (`--max-live-games`): a game in memory (a room) costs memory and a
//! task, so past the cap a new game is refused `503 unavailable` (with `Retry-After`) and a
//! game that would have to be brought back into memory is refused with an `unavailable`
//! WebSocket error, instead of the server failing in ways nobody sees. Games already in
//! memory play on; what the server itself brings back (a restart's unfinished games, a clock
//! running out) is never refused.
use crate::LiveContext as Context;
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::live::protocol::ServerMsg;
use std::sync::atomic::Ordering;

/// Whether the rooms in memory are at the cap.
fn full(state: &Context) -> bool {
    state.metrics.games_live.load(Ordering::Relaxed) as usize >= state.config.limits.max_live_games
}

/// `503 unavailable` when a new game may not start now.
pub fn admit_game(state: &Context) -> Result<(), ApiError> {
    if full(state) {
        return Err(ApiError::unavailable(format!(
            "the server runs its most live games ({}): try again shortly",
            state.config.limits.max_live_games
        )));
    }
    Ok(())
}

/// An `unavailable` error when `game`, not in memory, may not be brought back now.
pub fn refuse_room(state: &Context, game: &str) -> Option<ServerMsg> {
    if state.rooms.running(game).is_some() || !full(state) {
        return None;
    }
    tracing::warn!(
        game,
        "game not opened: at the live-games cap (--max-live-games)"
    );
    Some(ServerMsg::error(
        ApiErrorCode::Unavailable,
        "the server runs its most live games: try again shortly",
        Some(game),
    ))
}
