//! Vacation mode over HTTP (`GET`/`POST /api/me/vacation`, issue 46 item 10): a player away
//! for a few days pauses the clocks of their turn-based games, within an allowance of
//! [`ALLOWANCE_DAYS`] days in any [`WINDOW_DAYS`] (Board Game Arena's vacation mode is of that
//! order; a longer absence is a time-out, and the game may be claimed). The vacation starts
//! at once, by the rooms' clock (in a cluster the database's). Each turn-based live game's
//! room pauses its clock (`crate::live::vacation`); the other players see it on its clock, and
//! a turn-based game that starts during the vacation starts paused (`crate::live::rooms`).
//! Real-time games are not paused. "I'm back" (`DELETE`) cuts it short: it ends now, the days
//! not used return to the allowance (a day begun counts as used), and the games run again.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::game_status::GameStatus;
use crate::http::api::ApiJson;
use crate::identity::Identity;
use crate::live::endings::Action;
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};

/// Days of vacation an account may take in any [`WINDOW_DAYS`].
pub const ALLOWANCE_DAYS: i64 = 21;
/// The window the allowance is counted over, in days.
pub const WINDOW_DAYS: i64 = 365;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// A vacation: from when until when (ms since the epoch).
#[derive(Clone, Debug, Serialize)]
pub struct Span {
    pub starts_at: i64,
    pub ends_at: i64,
}

/// What `GET /api/me/vacation` answers (and `POST`, with `paused`).
#[derive(Debug, Serialize)]
pub struct VacationStatus {
    /// The vacation running now, if any.
    pub active: Option<Span>,
    /// Whole days the user may still take now.
    pub days_left: i64,
    pub allowance_days: i64,
    pub window_days: i64,
    /// `POST`: the games whose clock paused; `DELETE`: the games whose clock runs again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VacationBody {
    pub days: i64,
}

async fn status(state: &AppState, user: &str, now: i64) -> ApiResult<VacationStatus> {
    let since = now - WINDOW_DAYS * DAY_MS;
    let taken = state.store.vacations_since(user, since).await?;
    // Days counted within the window: a vacation that began before it counts from its start.
    let used: i64 = taken
        .iter()
        .map(|&(starts, ends)| (ends - starts.max(since)).max(0))
        .sum();
    let active = taken
        .iter()
        .find(|&&(starts, ends)| starts <= now && now < ends)
        .map(|&(starts_at, ends_at)| Span { starts_at, ends_at });
    Ok(VacationStatus {
        active,
        days_left: (ALLOWANCE_DAYS * DAY_MS - used).max(0) / DAY_MS,
        allowance_days: ALLOWANCE_DAYS,
        window_days: WINDOW_DAYS,
        paused: None,
    })
}

/// `GET /api/me/vacation`.
pub async fn get_vacation(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<VacationStatus>> {
    let now = state.config.room_clock.now_ms();
    Ok(Json(status(&state, &identity.user_id, now).await?))
}

/// `POST /api/me/vacation` `{"days"}`: a vacation from now for `days` whole days.
pub async fn start_vacation(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<VacationBody>,
) -> ApiResult<Json<VacationStatus>> {
    let user = identity.user_id.as_str();
    let now = state.config.room_clock.now_ms();
    let before = status(&state, user, now).await?;
    if before.active.is_some() {
        return Err(ApiError::new(
            ApiErrorCode::VacationActive,
            "a vacation is running already",
        ));
    }
    if body.days < 1 || body.days > before.days_left {
        return Err(ApiError::new(
            ApiErrorCode::VacationTooLong,
            format!("from 1 to {} days", before.days_left),
        ));
    }
    let until = now + body.days * DAY_MS;
    state.store.add_vacation(user, now, until).await?;
    let paused = tell_games(&state, user, until).await?;
    let mut after = status(&state, user, now).await?;
    after.paused = Some(paused);
    Ok(Json(after))
}

/// `DELETE /api/me/vacation`: "I'm back", the running vacation ends now.
pub async fn end_vacation(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<VacationStatus>> {
    let user = identity.user_id.as_str();
    let now = state.config.room_clock.now_ms();
    let Some(active) = status(&state, user, now).await?.active else {
        return Err(ApiError::new(
            ApiErrorCode::NoVacation,
            "no vacation is running",
        ));
    };
    state
        .store
        .end_vacation(user, active.starts_at, active.ends_at, now)
        .await?;
    let resumed = tell_games(&state, user, now).await?;
    let mut after = status(&state, user, now).await?;
    after.paused = Some(resumed);
    Ok(Json(after))
}

/// Tells the rooms of `user`'s live turn-based games that they are away until `until` (back,
/// when it is now): how many of them took it.
async fn tell_games(state: &AppState, user: &str, until: i64) -> ApiResult<usize> {
    let mut games: Vec<String> = state
        .store
        .games_of_user(user)
        .await?
        .into_iter()
        .filter(|g| {
            g.status == GameStatus::Live && g.clock.as_ref().is_some_and(|c| c.turn_based())
        })
        .map(|g| g.id)
        .collect();
    games.sort();
    games.dedup();
    let mut paused = 0;
    for id in &games {
        // A game whose room could not pause it (its storage failing) runs on: logged, and
        // not counted in `paused`.
        match crate::http::endings::ask(state, user, id, Action::Vacation { until }).await {
            Ok(_) => paused += 1,
            Err(e) => {
                tracing::warn!(game = %id, error = %e.message, "a game's clock did not pause for a vacation")
            }
        }
    }
    Ok(paused)
}
