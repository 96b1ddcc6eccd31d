//! The Pyramidion game server: accounts and guests, a lobby, live games over one WebSocket
//! per client, every move made durable before it is acknowledged. See docs/protocol.md.
#![forbid(unsafe_code)]

pub mod api;
pub mod auth;
pub mod bot_pool;
pub mod error;
pub mod limits;
pub mod metrics;
pub mod protocol;
pub mod room;
pub mod rooms;
pub mod store;
pub mod web;
pub mod writer;
pub mod ws;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::sync::Arc;

/// Largest HTTP request body.
pub const MAX_BODY: usize = 16 * 1024;

#[derive(Clone, Debug)]
pub struct Config {
    pub database_url: String,
    /// Browser origins allowed besides the server's own (e.g. a reverse proxy's).
    pub allowed_origins: Vec<String>,
    pub hash_cost: auth::HashCost,
    pub http_per_second: f64,
    pub http_burst: f64,
    pub ws_messages_per_second: f64,
    pub ws_burst: f64,
}

impl Config {
    pub fn new(database_url: impl Into<String>) -> Config {
        Config {
            database_url: database_url.into(),
            allowed_origins: Vec::new(),
            hash_cost: auth::HashCost::default(),
            http_per_second: 50.0,
            http_burst: 200.0,
            // Far above any human (a move takes a click), low enough to stop a flood.
            ws_messages_per_second: 200.0,
            ws_burst: 400.0,
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: store::Store,
    pub rooms: Arc<rooms::Rooms>,
    pub metrics: Arc<metrics::Metrics>,
    pub http_limit: Arc<limits::PerIp>,
    /// Serialises seat changes (join/leave), so two players never take the same seat.
    pub lobby_lock: Arc<tokio::sync::Mutex<()>>,
}

impl AppState {
    /// Opens the database and resumes every unfinished game.
    pub async fn new(config: Config) -> anyhow::Result<AppState> {
        let metrics = Arc::<metrics::Metrics>::default();
        let store = store::Store::open(&config.database_url, metrics.clone()).await?;
        let http_limit = limits::PerIp::new(limits::Rate {
            per_second: config.http_per_second,
            burst: config.http_burst,
        });
        let state = AppState {
            config: Arc::new(config),
            store,
            rooms: Arc::default(),
            metrics,
            http_limit: Arc::new(http_limit),
            lobby_lock: Arc::default(),
        };
        let resumed = state.rooms.resume_all(&state).await?;
        tracing::info!(resumed, "unfinished games resumed");
        Ok(state)
    }
}

async fn rate_limit(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    if !state.http_limit.allow(addr.ip()) {
        return error::ApiError::rate_limited().into_response();
    }
    next.run(req).await
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route(
            "/metrics",
            get(|State(s): State<AppState>| async move { s.metrics.render() }),
        )
        .route("/api/me", get(api::me))
        .route("/api/me/games", get(api::my_games))
        .route("/api/register", post(api::register))
        .route("/api/login", post(api::login))
        .route("/api/logout", post(api::logout))
        .route("/api/games", get(api::games))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/tables", get(api::open_tables).post(api::create_table))
        .route("/api/tables/{id}", get(api::table))
        .route("/api/tables/{id}/join", post(api::join))
        .route("/api/tables/{id}/leave", post(api::leave))
        .route("/ws", get(ws::upgrade))
        .fallback(get(web::static_file))
        .layer(middleware::from_fn_with_state(state.clone(), rate_limit))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Serves until the process is stopped.
pub async fn serve(config: Config, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    let state = AppState::new(config).await?;
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app).await?;
    Ok(())
}
