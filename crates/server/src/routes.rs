//! The HTTP surface: every route of the API, the health check, and the layers every request
//! passes (the per-address rate limit, the body limit and timeout, JSON errors, tracing). The
//! handlers live in `http`, `live`, `reach` and `cluster`; this is the one place that says
//! which path reaches which.
use crate::{AppState, analysis, error, error_code, http, live};
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::SocketAddr;

/// Largest HTTP request body.
pub const MAX_BODY: usize = 16 * 1024;

/// `/healthz` while writes fail: an error answer with a `status`.
#[derive(serde::Serialize)]
struct Degraded {
    status: &'static str,
    error: crate::error::ErrorDetail<'static>,
}

/// `200 ok`, or `503` with a code while writes fail (nothing is acknowledged then; the status
/// turns back to ok as soon as a write succeeds again). The storage error itself (paths, SQL,
/// the OS's words) is for the operator: it is logged and shown in `/metrics`, not here.
async fn healthz(State(state): State<AppState>) -> Response {
    match state.metrics.storage.degraded() {
        None => "ok".into_response(),
        Some(_) => (
            error_code::ApiErrorCode::StorageFailing.status(),
            axum::Json(Degraded {
                status: "degraded",
                error: error::ErrorDetail {
                    code: error_code::ApiErrorCode::StorageFailing.into(),
                    message: "writes to the database fail: nothing is acknowledged until they succeed again",
                },
            }),
        )
            .into_response(),
    }
}

async fn rate_limit(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    // Health checks come from the load balancer itself, as often as it likes: limited, a
    // flood from anyone counted at the balancer's address would get every instance marked
    // down. `/healthz` reads no client's data and costs an atomic load.
    if req.uri().path() == "/healthz" {
        return next.run(req).await;
    }
    let ip =
        match http::client_ip::client_ip(&state.config.trusted_proxies, addr.ip(), req.headers()) {
            Ok(ip) => ip,
            Err(e) => {
                tracing::debug!(peer = %addr, "refused: {e}");
                return error::ApiError::from(e).into_response();
            }
        };
    req.extensions_mut().insert(http::client_ip::ClientIp(ip));
    // Other instances of the cluster carry many players' requests from one address; an
    // `/internal/` request without the cluster's secret is answered 404 at once.
    let internal = state.cluster.is_some() && req.uri().path().starts_with("/internal/");
    if !internal && !state.http_limit.allow(ip) {
        return error::ApiError::rate_limited().into_response();
    }
    next.run(req).await
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route(
            "/metrics",
            get(|State(s): State<AppState>| async move {
                s.metrics.render(&s.bots.waiting_by_lane())
            }),
        )
        .route("/api/me", get(http::accounts::me))
        .route("/api/me/games", get(http::history::my_games))
        .route("/api/me/turns", get(http::turns::my_turns))
        .route("/api/clocks", get(http::turns::clocks))
        .route("/api/register", post(http::accounts::register))
        .route("/api/login", post(http::accounts::login))
        .route("/api/logout", post(http::accounts::logout))
        .route("/api/games", get(http::api::games))
        .route("/api/games/{id}/record", get(http::export::record))
        .route("/api/games/{id}/replay", get(http::replay::replay))
        .route("/api/games/{id}/rematch", post(http::rematch::rematch))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get).post(analysis::request),
        )
        .route("/api/games/{id}/replay/{ply}", get(http::replay::at_ply))
        // Playing with people (issue 27).
        .route("/api/games/{id}/resign", post(http::endings::resign))
        .route("/api/games/{id}/abandon", post(http::endings::abandon))
        .route("/api/games/{id}/claim", post(http::endings::claim))
        .route("/api/games/{id}/back", post(http::endings::back))
        .route("/api/games/{id}/chat", get(live::chat::list))
        .route("/api/chat/{id}/report", post(live::chat::report))
        .route(
            "/api/pairing",
            get(http::meet::waiting)
                .post(http::meet::ask)
                .delete(http::meet::cancel),
        )
        .route("/api/watch", get(http::meet::watch))
        .route("/api/users/{id}", get(http::profiles::profile))
        .route(
            "/api/users/{id}/games.ndjson",
            get(http::export::user_games_ndjson),
        )
        .route("/api/leaderboards/{game}", get(http::profiles::leaderboard))
        .route("/api/daily", get(http::daily::today))
        .route("/api/daily/{id}", post(http::daily::start))
        .route("/api/daily/{id}/leaderboard", get(http::daily::leaderboard))
        .route(
            "/api/tables",
            get(http::api::open_tables).post(http::api::create_table),
        )
        .route("/api/tables/{id}", get(http::api::table))
        .route("/api/tables/{id}/join", post(http::api::join))
        .route("/api/tables/{id}/leave", post(http::api::leave))
        .route("/api/notify", get(http::notify::get).put(http::notify::set))
        .route(
            "/api/notify/unsubscribe/{token}",
            post(http::notify::one_click_unsubscribe),
        )
        .route("/api/push/subscribe", post(http::notify::subscribe))
        .route("/api/push/unsubscribe", post(http::notify::unsubscribe))
        .route(
            "/api/me/email",
            post(http::notify::set_email).delete(http::notify::delete_email),
        )
        .route("/api/me/email/verify", post(http::notify::verify_email))
        .route("/ws", get(http::ws::upgrade))
        .route("/internal/link/{id}", get(live::link::accept))
        .route(
            "/internal/pairing",
            get(http::pairing_internal::accept)
                .post(http::pairing_internal::accept)
                .delete(http::pairing_internal::accept),
        )
        .fallback(get(http::web::static_file))
        .layer(middleware::from_fn_with_state(state.clone(), rate_limit))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            state.config.limits.body_timeout,
        ))
        .layer(middleware::from_fn_with_state(
            state.metrics.clone(),
            error::json_errors,
        ))
        // A span per request (method, path, status, latency) at debug level: `RUST_LOG=debug`
        // (or `tower_http=debug`) shows every request; failures are logged where they happen.
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}
