//! When a daily challenge's games may be seen: each is its player's alone until the day is
//! over for every attempt (the day's end and a grace for games still running), and then
//! everyone's. The live socket, the chat, the replay and the analysis all ask here.
use crate::LiveContext as Context;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::live::visibility::plausible_id;
use sqlx::Row;

/// A day, in ms.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// The time of day the daily challenges read (ms since the epoch).
pub fn now(state: &Context) -> i64 {
    state.config.wall_clock.now_ms()
}

/// The first ms after `day` (`YYYY-MM-DD`, UTC); `None` for a text that is not a day
/// (Howard Hinnant's `days_from_civil`).
pub fn day_end_ms(day: &str) -> Option<i64> {
    let mut parts = day.splitn(3, '-').map(str::parse::<i64>);
    let (y, m, d) = (
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    );
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days + 1) * DAY_MS)
}

/// When `day`'s deals and records become public: its end plus the grace window. Attempts
/// that finished later do not rank.
pub fn public_at(state: &Context, day: &str) -> i64 {
    let grace = state.config.limits.daily_grace.as_millis() as i64;
    // A day that does not parse was never a challenge's: nothing of it is kept hidden.
    day_end_ms(day).map_or(i64::MIN, |end| end + grace)
}

/// Whether `day` is over for every attempt (see [`public_at`]).
pub fn day_is_public(state: &Context, day: &str) -> bool {
    now(state) >= public_at(state, day)
}

/// Refuses a daily game to anyone but its player until its day is over for everyone
/// (`public_at`): its player may follow it live and read its record as their seat saw it
/// (see [`sealed`] for what even they wait for).
pub(crate) async fn embargo(state: &Context, game_id: &str, viewer: Option<&str>) -> ApiResult<()> {
    match under_embargo(state, game_id).await? {
        Some(player) if viewer != Some(player.as_str()) => Err(in_progress()),
        _ => Ok(()),
    }
}

/// Refuses what would show a daily game's deal (its seed, its replay with every hidden move,
/// its analysis) to everyone, its player included, until its day is over for everyone.
pub(crate) async fn sealed(state: &Context, game_id: &str) -> ApiResult<()> {
    match under_embargo(state, game_id).await? {
        Some(_) => Err(in_progress()),
        None => Ok(()),
    }
}

/// The player of a daily game whose day is not yet over for everyone; `None` for any other
/// game.
pub(crate) async fn under_embargo(state: &Context, game_id: &str) -> ApiResult<Option<String>> {
    // An id no game can have (e.g. with a NUL) names no daily game: its lookup, not this
    // check, answers.
    if !plausible_id(game_id) {
        return Ok(None);
    }
    let Some((day, player)) = state.store.daily_of_game(game_id).await? else {
        return Ok(None);
    };
    Ok((!day_is_public(state, &day)).then_some(player))
}

/// The daily games of `user` whose day is not yet over for everyone (one query, for lists of
/// a user's games).
pub(crate) async fn embargoed_games_of(
    state: &Context,
    user: &str,
) -> ApiResult<std::collections::HashSet<String>> {
    let rows = sqlx::query("SELECT game_id, day FROM daily_attempts WHERE user_id = $1")
        .bind(user)
        .fetch_all(&mut *state.store.read().await?)
        .await
        .map_err(ApiError::database)?;
    let mut out = std::collections::HashSet::new();
    for r in &rows {
        let day: String = r.try_get("day").map_err(ApiError::internal)?;
        if !day_is_public(state, &day) {
            out.insert(r.try_get("game_id").map_err(ApiError::internal)?);
        }
    }
    Ok(out)
}

fn in_progress() -> ApiError {
    ApiError::conflict(
        ApiErrorCode::DailyInProgress,
        "a daily challenge's games are shown once its day is over for everyone",
    )
}
