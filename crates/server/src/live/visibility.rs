//! Who may see a game that is not in the lobby. An unlisted table (made to be shared by its
//! invite link, or a rematch between its players) is followed live, listed on profiles and
//! exported only to its players and to whoever holds its invite. Daily challenge games have
//! their own rule (`crate::live::daily_embargo`) and are public once their day is over.
//!
//! Also the pages of a user's public games (profiles and the NDJSON export read one page per
//! request, never all of a user's games).
use crate::LiveContext as Context;
use crate::db::rows::{GameRow, SeatKind, StoredGame, read_games};
use crate::error::{ApiError, ApiResult};

/// Games per page of a profile's recent games and of an NDJSON export.
pub const PAGE: usize = 50;
/// The most one page may hold (`?limit=`).
pub const MAX_PAGE: usize = 500;

/// Whether `user` (if any), holding `invite` (if any), may see the started game `row`.
pub async fn may_see(
    state: &Context,
    row: &GameRow,
    user: Option<&str>,
    invite: Option<&str>,
) -> ApiResult<bool> {
    if row.listed || invite.is_some_and(|i| i == row.invite) {
        return Ok(true);
    }
    if let Some(user) = user {
        let seats = state.store.seats(&row.id).await?;
        if seats
            .iter()
            .any(|s| matches!(s, SeatKind::Human(u) | SeatKind::Reserved(u) if u.as_str() == user))
        {
            return Ok(true);
        }
    }
    is_daily(state, &row.id).await
}

async fn is_daily(state: &Context, game: &str) -> ApiResult<bool> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM daily_attempts WHERE game_id = $1")
        .bind(game)
        .fetch_one(&mut *state.store.read().await?)
        .await
        .map_err(ApiError::database)?;
    Ok(n > 0)
}

/// Where a page starts: after the game (`created_at`, `id`) that ended the previous one.
pub fn parse_cursor(cursor: Option<&str>) -> ApiResult<Option<(i64, String)>> {
    let Some(cursor) = cursor else {
        return Ok(None);
    };
    let bad = || ApiError::bad_request("`before` is the `next` of a previous page");
    let (at, id) = cursor.split_once('-').ok_or_else(bad)?;
    if !plausible_id(id) {
        return Err(bad());
    }
    Ok(Some((
        at.parse::<i64>().map_err(|_| bad())?,
        id.to_string(),
    )))
}

/// The cursor of the page after `rows`, when it was full (there may be more).
pub fn next_cursor(rows: &[GameRow], limit: usize) -> Option<String> {
    (rows.len() == limit)
        .then(|| rows.last().map(|r| format!("{}-{}", r.created_at, r.id)))
        .flatten()
}

/// The games of user `$1` that viewer `$2` may see on a profile or in an export.
macro_rules! visible {
    () => {
        "games.id IN (SELECT game_id FROM seats WHERE user_id = $1) \
         AND games.status IN ('live', 'finished') \
         AND (games.listed = 1 \
              OR EXISTS (SELECT 1 FROM daily_attempts d WHERE d.game_id = games.id) \
              OR EXISTS (SELECT 1 FROM seats v WHERE v.game_id = games.id AND v.user_id = $2))"
    };
}

/// Up to `limit` started (live or finished) games of `user`, newest first, before `before`,
/// that `viewer` may see: listed ones, daily ones, and unlisted ones `viewer` sits at.
pub async fn public_games_page(
    state: &Context,
    user: &str,
    viewer: Option<&str>,
    limit: usize,
    before: Option<(i64, String)>,
) -> ApiResult<Vec<GameRow>> {
    // No user has an empty id: an anonymous viewer sits nowhere.
    let viewer = viewer.unwrap_or("").to_string();
    let rows = match before {
        None => {
            sqlx::query_as::<_, StoredGame>(concat!(
                "SELECT games.* FROM games WHERE ",
                visible!(),
                " ORDER BY games.created_at DESC, games.id DESC LIMIT $3"
            ))
            .bind(user)
            .bind(viewer)
            .bind(limit as i64)
            .fetch_all(&mut *state.store.read().await?)
            .await
        }
        Some((at, id)) => {
            sqlx::query_as::<_, StoredGame>(concat!(
                "SELECT games.* FROM games WHERE ",
                visible!(),
                " AND (games.created_at < $3 OR (games.created_at = $3 AND games.id < $4))",
                " ORDER BY games.created_at DESC, games.id DESC LIMIT $5"
            ))
            .bind(user)
            .bind(viewer)
            .bind(at)
            .bind(id)
            .bind(limit as i64)
            .fetch_all(&mut *state.store.read().await?)
            .await
        }
    }
    .map_err(ApiError::database)?;
    Ok(read_games(rows)?)
}

/// Whether `id` could name a game: a lookup is worth making (an id with a control character,
/// or of more than 64 bytes, names none).
pub fn plausible_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && !id.chars().any(char::is_control)
}
