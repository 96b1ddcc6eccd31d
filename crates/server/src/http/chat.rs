//! The chat's HTTP side (issue 27, item 4): a table's messages as the asker may read them,
//! and reports of a message (`crate::live::chat` keeps the chat itself).
use crate::AppState;
use crate::db::chat_message::ChatMessage;
use crate::db::rows::SeatKind;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;

/// Whether `user` sits at a human seat of the game.
fn is_player(seats: &[SeatKind], user: Option<&str>) -> bool {
    seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if Some(u.as_str()) == user))
}

/// `GET /api/games/{id}/chat`: the messages the asker may read (players: the players'
/// channel; anyone else, and everyone once the game is over: both).
pub async fn list(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<ChatLog>> {
    let identity = Identity::from_headers(&state, &headers).await?;
    let row = match crate::live::visibility::plausible_id(&id) {
        true => state.store.game(&id).await?,
        false => None,
    };
    let Some(row) = row.filter(|r| {
        matches!(
            r.status,
            crate::game_status::GameStatus::Live | crate::game_status::GameStatus::Finished
        )
    }) else {
        return Err(ApiError::new(
            ApiErrorCode::NotFound,
            "no started game with that id",
        ));
    };
    let user = identity.as_ref().map(|i| i.user_id.as_str());
    // A daily challenge's game is its player's alone until its day is over.
    crate::live::daily_embargo::embargo(&state.live, &id, user).await?;
    let seats = state.store.seats(&id).await?;
    let spectators =
        row.status == crate::game_status::GameStatus::Finished || !is_player(&seats, user);
    let messages = state.store.chat(&id, spectators).await?;
    Ok(Json(ChatLog { messages }))
}

/// A table's chat as the asker may read it, oldest first.
#[derive(Serialize)]
pub struct ChatLog {
    pub messages: Vec<ChatMessage>,
}

/// The answer of a report: the message reported.
#[derive(Serialize)]
pub struct Reported {
    pub reported: String,
}

/// `POST /api/chat/{message_id}/report`: stores a report of a message the asker can read,
/// within the report caps (`chat_reports`).
pub async fn report(
    State(state): State<AppState>,
    crate::rate_limits::ClientIp(ip): crate::rate_limits::ClientIp,
    identity: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Reported>> {
    let not_found = || ApiError::new(ApiErrorCode::NotFound, "no such message");
    if !crate::live::visibility::plausible_id(&id) {
        return Err(not_found());
    }
    let message = state.store.chat_message(&id).await?.ok_or_else(not_found)?;
    if message.channel == "spectators" {
        // Players do not read the spectators' channel while the game runs.
        let row = state.store.game(&message.game).await?;
        let seats = state.store.seats(&message.game).await?;
        let over = row.is_some_and(|r| r.status == crate::game_status::GameStatus::Finished);
        if !over && is_player(&seats, Some(&identity.user_id)) {
            return Err(not_found());
        }
    }
    let reporter = crate::live::chat_reports::Reporter::new(&identity, ip);
    crate::live::chat_reports::within_caps(&state.live, &reporter).await?;
    state.store.report_chat(&id, &reporter).await?;
    Ok(Json(Reported { reported: id }))
}
