//! What one user may hold at once: tables created (guests and accounts each have their own
//! bound) and seats at open or live games. Checked under the lobby lock, so two requests of
//! one user at once cannot both pass and go one over.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;

/// One more open or live table created by `identity`?
pub async fn may_create_table(state: &AppState, identity: &Identity) -> ApiResult<()> {
    let limits = &state.config.limits;
    let (limit, who) = if identity.guest {
        (limits.tables_per_guest, "a guest")
    } else {
        (limits.tables_per_account, "an account")
    };
    if state.store.active_tables_of(&identity.user_id).await? >= limit as i64 {
        let hint = if identity.guest { ", or sign in" } else { "" };
        return Err(ApiError::new(
            ApiErrorCode::TooManyTables,
            format!("{who} has at most {limit} open or live tables: finish one{hint}"),
        ));
    }
    Ok(())
}

/// `more` more seats at open or live games for `user`?
pub async fn may_take_seats(state: &AppState, user: &str, more: usize) -> ApiResult<()> {
    let limit = state.config.limits.seats_per_user;
    let held = state.store.seats_held_by(user).await?;
    if held + more as i64 > limit as i64 {
        return Err(ApiError::new(
            ApiErrorCode::TooManySeats,
            format!("one player sits at at most {limit} open or live games: finish one"),
        ));
    }
    Ok(())
}
