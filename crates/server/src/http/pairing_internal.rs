//! `/internal/pairing`: the quick-pairing requests other instances of a cluster forward to
//! the one that holds the queue (`crate::cluster::pairing`), answered here as this
//! instance's own players' are (`crate::http::meet`).
use crate::AppState;
use crate::cluster::pairing::{GUEST_HEADER, USER_HEADER, fence_here, unavailable};
use crate::http::coded_field::read_body;
use crate::identity::Identity;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};

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
    if !crate::cluster::carries_secret(&headers, &cluster.secret) {
        return StatusCode::NOT_FOUND.into_response();
    }
    // The asker's view of the holder may be stale: only the holder works the queue.
    let fence = match fence_here(&state).await {
        Ok(fence) => fence,
        Err(_) => return unavailable(),
    };
    let user = headers
        .get(USER_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|id| Identity {
            user_id: id.to_string(),
            name: None,
            guest: headers.get(GUEST_HEADER).is_some_and(|g| g == "1"),
        });
    match (method, user) {
        (Method::GET, _) => crate::http::meet::waiting_here(&state)
            .await
            .into_response(),
        (Method::DELETE, Some(user)) => crate::http::meet::cancel_here(&state, &user)
            .await
            .into_response(),
        // Read as its asker's instance read it: a game this one does not register (built
        // without its feature) is `unknown_game` here too.
        (Method::POST, Some(user)) => match serde_json::from_slice(&body)
            .map_err(|e| crate::error::ApiError::bad_request(format!("malformed JSON: {e}")))
            .and_then(|ask| read_body(ask, |e| format!("malformed JSON: {e}")))
        {
            Ok(ask) => crate::http::meet::ask_here(&state, &user, ask, fence)
                .await
                .into_response(),
            Err(e) => e.into_response(),
        },
        _ => StatusCode::BAD_REQUEST.into_response(),
    }
}
