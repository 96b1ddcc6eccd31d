//! A cap on the search bots one user keeps busy: each search-bot seat asks the pool for up to
//! a second of a core a move, so a user's open and live tables may hold at most
//! `Limits::search_bots_per_user` of them (`429 too_many_bot_seats`). Quick bots (`random`,
//! `greedy`) cost milliseconds and are not counted. A table's bots count for its creator.
use crate::AppState;
use crate::db::rows::SeatKind;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use pyramidion_ai::level::BotLevel;
use sqlx::Row;

/// Whether a bot of `level` (a stored level name) searches.
pub fn searches(level: &str) -> bool {
    // A level that does not parse is played by greedy (see `room::scheduling`).
    level
        .parse::<BotLevel>()
        .is_ok_and(|l| crate::live::bot_pool::lane_of(l) == crate::live::fair_queue::Lane::Search)
}

/// Refuses a new table of `user` whose `seats` would take the user's search-bot seats over
/// the limit. The caller holds the lobby lock, so two tables at once do not both pass.
pub async fn check(state: &AppState, user: &str, seats: &[SeatKind]) -> ApiResult<()> {
    let new = seats
        .iter()
        .filter(|s| matches!(s, SeatKind::Bot(level) if searches(level)))
        .count();
    if new == 0 {
        return Ok(());
    }
    let rows = sqlx::query(
        "SELECT seats.bot_level FROM seats JOIN games ON games.id = seats.game_id
          WHERE games.created_by = $1 AND games.status IN ('open', 'live')
            AND seats.kind = 'bot'",
    )
    .bind(user)
    .fetch_all(&state.store.pool)
    .await
    .map_err(ApiError::internal)?;
    let mut held = 0;
    for r in &rows {
        let level: Option<String> = r.try_get("bot_level").map_err(ApiError::internal)?;
        held += usize::from(level.as_deref().is_some_and(searches));
    }
    let limit = state.config.limits.search_bots_per_user;
    if held + new > limit {
        return Err(ApiError::new(
            ApiErrorCode::TooManyBotSeats,
            format!(
                "your open and live tables may hold at most {limit} search bots \
                 ({held} now): finish a game, or choose random or greedy bots"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_searching_levels_count() {
        assert!(!super::searches("random"));
        assert!(!super::searches("greedy"));
        assert!(super::searches("max"));
        assert!(super::searches("easy"));
        assert!(super::searches("search:10"));
        assert!(!super::searches("no-such-level"));
    }
}
