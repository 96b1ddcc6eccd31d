//! A cap on the search bots one user keeps busy: each search-bot seat asks the pool for up to
//! a second of a core a move, so a user's open and live tables may hold at most
//! `Limits::search_bots_per_user` of them (`429 too_many_bot_seats`). Quick bots (`random`,
//! `greedy`) cost milliseconds and are not counted. A table's bots count for its creator.
use crate::LiveContext as Context;
use crate::db::error::StoreError;
use crate::db::rows::{SeatKind, StoredSeat, read_seats};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use pyramidion_ai::level::BotLevel;

/// Whether a bot of `level` searches.
pub fn searches(level: BotLevel) -> bool {
    crate::live::bot_pool::lane_of(level) == crate::live::fair_queue::Lane::Search
}

/// How many of `seats` are search bots.
fn search_bots(seats: &[SeatKind]) -> usize {
    seats
        .iter()
        .filter(|s| matches!(s, SeatKind::Bot(level) if searches(*level)))
        .count()
}

/// Refuses a new table of `user` whose `seats` would take the user's search-bot seats over
/// the limit. The caller holds the lobby lock, so two tables at once do not both pass.
pub async fn check(state: &Context, user: &str, seats: &[SeatKind]) -> ApiResult<()> {
    let new = search_bots(seats);
    if new == 0 {
        return Ok(());
    }
    let rows = sqlx::query_as::<_, StoredSeat>(
        "SELECT seats.kind, seats.user_id, seats.bot_level
           FROM seats JOIN games ON games.id = seats.game_id
          WHERE games.created_by = $1 AND games.status IN ('open', 'live')
            AND seats.kind = 'bot'",
    )
    .bind(user)
    .fetch_all(&mut *state.store.read().await?)
    .await
    .map_err(StoreError::from)?;
    let held = search_bots(&read_seats(rows)?);
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
        let searches = |name: &str| super::searches(name.parse().unwrap());
        assert!(!searches("random"));
        assert!(!searches("greedy"));
        assert!(searches("max"));
        assert!(searches("easy"));
        assert!(searches("search:10"));
    }
}
