//! Resign, abandon, claim and "I'm back" over HTTP (`POST /api/games/{id}/…`), and the sweep
//! that abandons forgotten games against bots: each asks the game's room, which decides
//! (`crate::live::endings`, `crate::live::room`).
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use crate::live::endings::Action;
use crate::live::endings::Done;
use crate::live::room_cmd::RoomCmd;
use axum::Json;
use axum::extract::{Path, State};
use tokio::sync::oneshot;

pub(crate) async fn ask(
    state: &AppState,
    user: &str,
    game: &str,
    action: Action,
) -> ApiResult<Json<Done>> {
    if !crate::live::visibility::plausible_id(game) {
        return Err(not_found());
    }
    for _ in 0..3 {
        let room = state
            .rooms
            .get(&state.live, game)
            .await?
            .ok_or_else(not_found)?;
        let (reply, answer) = oneshot::channel();
        let cmd = RoomCmd::Act {
            user: Some(user.to_string()),
            action,
            reply,
        };
        if room.tx.send(cmd).await.is_err() {
            continue; // The room just ended: rebuilt and asked again.
        }
        match answer.await {
            Ok(answer) => return answer.map(Json),
            Err(_) => continue,
        }
    }
    Err(ApiError::internal("the game's room does not answer"))
}

fn not_found() -> ApiError {
    ApiError::new(ApiErrorCode::NotFound, "no started game with that id")
}

/// `POST /api/games/{id}/resign`.
pub async fn resign(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Done>> {
    ask(&state, &identity.user_id, &id, Action::Resign).await
}

/// `POST /api/games/{id}/abandon`.
pub async fn abandon(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Done>> {
    ask(&state, &identity.user_id, &id, Action::Abandon).await
}

/// `POST /api/games/{id}/claim`.
pub async fn claim(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Done>> {
    ask(&state, &identity.user_id, &id, Action::Claim).await
}

/// `POST /api/games/{id}/back`.
pub async fn back(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Done>> {
    ask(&state, &identity.user_id, &id, Action::Back).await
}

/// What `POST /api/games/{id}/undo` is sent: the state the step to take back led to.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    pub state_id: u64,
}

/// `POST /api/games/{id}/undo`: takes back the last step of the user's own turn.
pub async fn undo(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
    crate::http::api::ApiJson(body): crate::http::api::ApiJson<UndoBody>,
) -> ApiResult<Json<Done>> {
    let action = Action::Undo {
        state_id: body.state_id,
    };
    ask(&state, &identity.user_id, &id, action).await
}

/// Abandons every live game against bots only that nobody moved in since `before` (ms since
/// the epoch). Returns how many. Run by the sweep (`Limits::abandon_after`).
pub async fn abandon_stale(
    state: &AppState,
    before: i64,
) -> Result<usize, crate::live::load_error::LoadError> {
    let mut done = 0;
    for id in state.store.stale_bot_games(before).await? {
        let Some(room) = state.rooms.get(&state.live, &id).await? else {
            continue;
        };
        let (reply, answer) = oneshot::channel();
        let cmd = RoomCmd::Act {
            user: None,
            action: Action::Abandon,
            reply,
        };
        if room.tx.send(cmd).await.is_ok() && matches!(answer.await, Ok(Ok(_))) {
            done += 1;
        }
    }
    Ok(done)
}
