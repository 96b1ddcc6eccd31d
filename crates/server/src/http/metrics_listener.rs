//! `/metrics` on a listener of its own (`serve --metrics-listen ADDR`, issue 54): the
//! operator's figures (and the storage's raw error while it fails) never go out on the
//! public port, whatever a proxy forwards. The public listener then answers `/metrics` with
//! `404`, as if there were none; this listener serves nothing else. Whoever reaches its
//! address reads it (`--metrics-allow` is for the shared port): bind it to loopback or a
//! private network. Without the flag `/metrics` stays on the public port for the allowed
//! addresses (`routes::metrics`), as the load tool and the tests read it.
use crate::AppState;
use axum::Router;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::get;

/// The metrics listener's routes: `/metrics` only (anything else is `404`).
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(state)
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    state.metrics.render(&state.bots.waiting_by_lane())
}

/// Serves [`router`] on `listener` until the process stops.
pub async fn serve(state: AppState, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    axum::serve(listener, router(state)).await
}
