//! Quick pairing among several instances: one queue, on the instance that holds the pairing
//! lease (a row of `game_leases` named [`LEASE`], taken over like a game's when its holder
//! dies); the others forward their players' pairing requests to it over HTTP. Its "waiting"
//! and "seated" pushes reach the players' own instances through `fanout`. The queue is in
//! memory: when its instance dies, the players waiting there ask again (the page does when its
//! socket reconnects) and the next instance to be asked holds the queue.
use super::{Owner, SECRET_HEADER};
use crate::AppState;
use crate::error_code::ApiErrorCode;
use crate::http::auth::Identity;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// The lease row of the pairing queue (no game id starts with `~`).
pub const LEASE: &str = "~pairing";
const USER_HEADER: &str = "x-pyramidion-user";
const GUEST_HEADER: &str = "x-pyramidion-guest";

/// Forwards a pairing request to the instance that holds the queue, unless it is this one
/// (or there is one instance): its answer, or `None` to answer here.
pub async fn elsewhere(
    state: &AppState,
    method: &str,
    user: Option<&Identity>,
    body: Option<Value>,
) -> Option<Response> {
    let cluster = state.cluster.as_ref()?;
    let address = match cluster.claim(LEASE).await {
        Ok(Owner::Me(_)) => return None,
        Ok(Owner::Other { address, .. }) => address,
        Err(e) => {
            tracing::error!(error = %e, "cannot find the instance that holds the pairing queue");
            return Some(unavailable());
        }
    };
    let client = reqwest::Client::new();
    let method = Method::from_bytes(method.as_bytes()).ok()?;
    let mut request = client
        .request(method, format!("{address}/internal/pairing"))
        .header(SECRET_HEADER, &cluster.secret)
        .timeout(std::time::Duration::from_secs(5));
    if let Some(user) = user {
        request = request
            .header(USER_HEADER, &user.user_id)
            .header(GUEST_HEADER, if user.guest { "1" } else { "0" });
    }
    if let Some(body) = body {
        request = request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
    }
    match request.send().await {
        Ok(answer) => {
            let status =
                StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            let body = answer.bytes().await.unwrap_or_default();
            Some(
                (
                    status,
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    body,
                )
                    .into_response(),
            )
        }
        Err(e) => {
            tracing::warn!(error = %e, %address, "cannot reach the instance that holds the pairing queue");
            Some(unavailable())
        }
    }
}

fn unavailable() -> Response {
    crate::error::ApiError::new(
        ApiErrorCode::Unavailable,
        "quick pairing is moving to another server: try again in a few seconds",
    )
    .into_response()
}

/// `/internal/pairing`: another instance's player's pairing request, run on this instance's
/// queue. Only instances of the cluster (they know its secret) may ask.
pub async fn accept(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(cluster) = state.cluster.as_ref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let secret = headers.get(SECRET_HEADER).and_then(|v| v.to_str().ok());
    if secret != Some(cluster.secret.as_str()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let user = headers
        .get(USER_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|id| Identity {
            user_id: id.to_string(),
            name: None,
            guest: headers.get(GUEST_HEADER).is_some_and(|g| g == "1"),
        });
    match (method, user) {
        (Method::GET, _) => crate::http::meet::waiting_here(&state).into_response(),
        (Method::DELETE, Some(user)) => {
            crate::http::meet::cancel_here(&state, &user).into_response()
        }
        (Method::POST, Some(user)) => match serde_json::from_slice(&body) {
            Ok(ask) => crate::http::meet::ask_here(&state, &user, ask)
                .await
                .into_response(),
            Err(e) => {
                crate::error::ApiError::bad_request(format!("malformed JSON: {e}")).into_response()
            }
        },
        _ => StatusCode::BAD_REQUEST.into_response(),
    }
}
