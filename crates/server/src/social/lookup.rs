//! Finding a player from a page's address: a user id, else an account name (or a look-alike
//! of it). Below the HTTP handlers, so that any of them (profiles, follows, challenges at
//! table creation, clubs' moderation) finds players the same way without using another.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::live::visibility::plausible_id;

/// The id of the user `key` (a user id, else an account name). Ids first: a name never
/// takes over the page of the user whose id it spells (names that look like ids are refused
/// too, but older accounts may have one).
pub async fn user_by_id_or_name(state: &AppState, key: &str) -> ApiResult<String> {
    let missing = || ApiError::not_found("no such player");
    if !plausible_id(key) {
        return Err(missing());
    }
    if state.store.user(key).await?.is_some() {
        return Ok(key.to_string());
    }
    match state.store.user_by_name(key).await? {
        Some(user) => Ok(user.id),
        None => Err(missing()),
    }
}
