//! The HTTP surface: every route of the API, the health check, and the layers every request
//! passes (the per-address rate limit, the body limit and timeout, JSON errors, tracing). The
//! handlers live in `http`, `live`, `reach` and `cluster`; this is the one place that says
//! which path reaches which.
use crate::{AppState, analysis, error, error_code, http, live, puzzles};
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

/// How long the readiness check waits for the database's answer to a trivial query.
pub const READY_DB_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);
/// A readiness answer is reused this long: a flood of checks costs one query per period.
const READY_CACHE: std::time::Duration = std::time::Duration::from_millis(500);

/// `/readyz`: whether this instance should be sent players now. `200 ready`, or `503` with
/// `unavailable` (and `Retry-After`) while it starts (resuming its games), while it drains,
/// while it is not a member of its cluster
/// (its heartbeat failed past its life: the others take its games over), while writes fail,
/// or while the database does not answer a trivial query within [`READY_DB_TIMEOUT`]. The
/// load balancer checks this; `/healthz` stays the liveness check (the process answers).
/// The reason is in the answer's message; the database's own error only in the log.
async fn readyz(State(state): State<AppState>) -> Response {
    let reason = {
        let cached = state.metrics.readiness.lock().await;
        match &*cached {
            Some((at, reason)) if at.elapsed() < READY_CACHE => Some(*reason),
            _ => None,
        }
    };
    let reason = match reason {
        Some(r) => r,
        None => {
            // One check at a time: the others wait for its answer.
            let mut cached = state.metrics.readiness.lock().await;
            match &*cached {
                Some((at, reason)) if at.elapsed() < READY_CACHE => *reason,
                _ => {
                    let reason = not_ready(&state).await;
                    *cached = Some((std::time::Instant::now(), reason));
                    reason
                }
            }
        }
    };
    match reason {
        None => "ready".into_response(),
        Some(reason) => (
            error_code::ApiErrorCode::Unavailable.status(),
            [(axum::http::header::RETRY_AFTER, error::RETRY_AFTER)],
            axum::Json(Degraded {
                status: "not_ready",
                error: error::ErrorDetail {
                    code: error_code::ApiErrorCode::Unavailable.into(),
                    message: reason,
                },
            }),
        )
            .into_response(),
    }
}

/// Why this instance is not ready (see [`readyz`]), if it is not; a change is logged once.
async fn not_ready(state: &AppState) -> Option<&'static str> {
    let reason = if *state.draining.borrow() {
        Some("this instance drains")
    } else if !state.started.load(std::sync::atomic::Ordering::Relaxed) {
        Some("this instance is starting: it resumes its games")
    } else if let Some(why) = state.cluster.as_ref().and_then(|c| c.not_member()) {
        Some(why)
    } else if state.metrics.storage.degraded().is_some() {
        Some("writes to the database fail")
    } else {
        match state.store.ping(READY_DB_TIMEOUT).await {
            Ok(()) => None,
            Err(e) => {
                tracing::debug!(error = %e, "readiness: the database does not answer");
                Some("the database cannot be reached")
            }
        }
    };
    let was_ready = state
        .metrics
        .ready
        .swap(reason.is_none(), std::sync::atomic::Ordering::Relaxed);
    match reason {
        Some(why) if was_ready => {
            tracing::warn!(why, "not ready: the load balancer should send no one here")
        }
        None if !was_ready => tracing::info!("ready again"),
        _ => {}
    }
    reason
}

/// `/metrics`, for the addresses of `--metrics-allow` only (anyone else: `404`, as if there
/// were none; everyone with `--metrics-listen`, which serves it apart). The client checked is the one `--trusted-proxy` names (never the proxy
/// itself); a request forwarded by a proxy that is not trusted has no known client and is
/// refused, unless every address is allowed.
async fn metrics(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    http::client_ip::ClientIp(client): http::client_ip::ClientIp,
    headers: axum::http::HeaderMap,
) -> Response {
    // Served on a listener of its own (`http::metrics_listener`): never here.
    if state.config.metrics_listen.is_some() {
        return error::ApiError::not_found("no such page").into_response();
    }
    let allow = &state.config.metrics_allow;
    let forwarded_by_stranger = !http::client_ip::trusted(&state.config.trusted_proxies, peer.ip())
        && (headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded"));
    let everyone = allow.iter().any(|n| n.prefix_len() == 0);
    let allowed = http::client_ip::trusted(allow, client) && (everyone || !forwarded_by_stranger);
    if !allowed {
        tracing::debug!(%peer, %client, "/metrics refused: not an allowed address");
        return error::ApiError::not_found("no such page").into_response();
    }
    state
        .metrics
        .render(&state.bots.waiting_by_lane())
        .into_response()
}

async fn rate_limit(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    // Health checks come from the load balancer itself, as often as it likes: limited, a
    // flood from anyone counted at the balancer's address would get every instance marked
    // down. `/healthz` reads no client's data and costs an atomic load; `/readyz` one
    // trivial query at most every `READY_CACHE`, however many ask.
    if matches!(req.uri().path(), "/healthz" | "/readyz") {
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
    // Other instances of the cluster carry many players' requests from one address: theirs
    // (with the cluster's secret) are not counted (`http::internal_gate`).
    let internal = match http::internal_gate::gate(&state, &req) {
        http::internal_gate::Gate::Refused => {
            return error::ApiError::not_found("no such page").into_response();
        }
        gate => gate == http::internal_gate::Gate::Exempt,
    };
    if !internal && !state.http_limit.allow(ip) {
        return error::ApiError::rate_limited().into_response();
    }
    next.run(req).await
}

/// The routes of the other instances of the cluster (their secret checked by each handler).
fn internal_routes() -> Router<AppState> {
    Router::new()
        .route("/internal/link", get(live::link::accept))
        .route(
            "/internal/pairing",
            get(http::pairing_internal::accept)
                .post(http::pairing_internal::accept)
                .delete(http::pairing_internal::accept),
        )
}

/// What the internal listener serves (`--internal-listen`): only the cluster's routes.
pub fn internal_router(state: AppState) -> Router {
    internal_routes()
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(
            state.metrics.clone(),
            error::json_errors,
        ))
        .with_state(state)
}

pub fn router(state: AppState) -> Router {
    // The cluster's routes are on the public listener only when the instance has no
    // internal one.
    let internal = match state.config.internal_listener {
        // Nothing here, whatever the method (not the files' `405`).
        true => Router::new().route(
            "/internal/{*rest}",
            axum::routing::any(|| async { axum::http::StatusCode::NOT_FOUND }),
        ),
        false => internal_routes(),
    };
    Router::new()
        .merge(internal)
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/me", get(http::accounts::me))
        .route("/api/me/games", get(http::history::my_games))
        .route("/api/me/turns", get(http::turns::my_turns))
        .route(
            "/api/me/vacation",
            get(http::vacation::get_vacation)
                .post(http::vacation::start_vacation)
                .delete(http::vacation::end_vacation),
        )
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
        .route("/api/games/{id}/undo", post(http::endings::undo))
        .route("/api/games/{id}/chat", get(http::chat::list))
        .route(
            "/api/games/{id}/note",
            get(http::notes::get_note).put(http::notes::put_note),
        )
        .route("/api/chat/{id}/report", post(http::chat::report))
        // Interactive tutorials (issue 48).
        .route("/api/tutorials", get(http::tutorials::list))
        .route("/api/tutorials/{game}", get(http::tutorials::get))
        .route(
            "/api/tutorials/{game}/progress",
            get(http::tutorials::get_progress).put(http::tutorials::put_progress),
        )
        .route(
            "/api/tutorials/{game}/{lesson}/{step}/try",
            post(http::tutorials::try_move),
        )
        .route(
            "/api/puzzles/opt-out",
            get(puzzles::api::get_opt_out).put(puzzles::api::put_opt_out),
        )
        .route("/api/puzzles/{key}", get(puzzles::api::get))
        .route("/api/puzzles/{key}/next", get(puzzles::api::next))
        .route("/api/puzzles/{key}/daily", get(puzzles::api::daily))
        .route("/api/puzzles/{key}/history", get(puzzles::api::history))
        .route("/api/puzzles/{key}/attempt", post(puzzles::api::attempt))
        .route(
            "/api/pairing",
            get(http::meet::waiting)
                .post(http::meet::ask)
                .delete(http::meet::cancel),
        )
        .route("/api/watch", get(http::meet::watch))
        .route("/api/users/{id}", get(http::profiles::profile))
        // Friends, clubs and profiles (issue 49).
        .route("/api/users", get(http::profile_stats::search))
        .route("/api/users/{id}/stats", get(http::profile_stats::stats))
        .route(
            "/api/users/{id}/follow",
            post(http::friends::follow).delete(http::friends::unfollow),
        )
        .route("/api/me/friends", get(http::friends::list))
        .route("/api/me/clubs", get(http::clubs::mine))
        .route(
            "/api/clubs",
            get(http::clubs::list).post(http::clubs::create),
        )
        .route(
            "/api/clubs/{id}",
            get(http::clubs::page)
                .patch(http::club_owner::rename)
                .delete(http::club_owner::delete),
        )
        .route("/api/clubs/{id}/owner", post(http::club_owner::transfer))
        .route("/api/clubs/{id}/join", post(http::clubs::join))
        .route("/api/clubs/{id}/leave", post(http::clubs::leave))
        .route(
            "/api/clubs/{id}/members/{user}",
            post(http::clubs::moderate),
        )
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
        .route(
            "/api/tournaments",
            get(http::tournaments::list).post(http::tournaments::create),
        )
        .route("/api/tournaments/{id}", get(http::tournaments::get))
        .route("/api/tournaments/{id}/join", post(http::tournaments::join))
        .route(
            "/api/tournaments/{id}/leave",
            post(http::tournaments::leave),
        )
        .route(
            "/api/tournaments/{id}/start",
            post(http::tournaments::start),
        )
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
        // Games played offline in the page (issue 50); a long record is over `MAX_BODY`.
        .route(
            "/api/offline-games",
            post(http::offline_games::upload)
                .layer(DefaultBodyLimit::max(http::offline_games::MAX_UPLOAD)),
        )
        .route("/ws", get(http::ws::upgrade))
        // The site's files compressed (brotli or gzip, as the browser accepts): the engines'
        // module is 717 KB as it is, about a third of that compressed (docs/client.md). Only
        // them: API answers are small, and the socket is not an HTTP body.
        .fallback(
            get(http::web::static_file).layer(tower_http::compression::CompressionLayer::new()),
        )
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
