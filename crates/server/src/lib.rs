//! The Pyramidion game server: accounts and guests, a lobby, live games over one WebSocket
//! per client, every move made durable before it is acknowledged. See docs/protocol.md.
#![forbid(unsafe_code)]

pub mod accounts;
mod after_game_store;
pub mod analysis;
pub mod api;
pub mod auth;
pub mod bot_pool;
pub mod bot_retry;
pub mod clock;
pub mod daily;
pub mod error;
pub mod export;
pub mod history;
pub mod hub;
pub mod limits;
pub mod listen;
pub mod metrics;
pub mod moves;
pub mod profiles;
pub mod protocol;
pub mod ratings;
pub mod rematch;
pub mod replay;
pub mod room;
pub mod rooms;
pub mod store;
pub mod turns;
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
use std::time::Duration;

/// Largest HTTP request body.
pub const MAX_BODY: usize = 16 * 1024;

#[derive(Clone)]
pub struct Config {
    pub database_url: String,
    /// Browser origins allowed besides the server's own (e.g. a reverse proxy's).
    pub allowed_origins: Vec<String>,
    pub hash_cost: auth::HashCost,
    pub http_per_second: f64,
    pub http_burst: f64,
    pub ws_messages_per_second: f64,
    pub ws_burst: f64,
    /// Session cookies carry `Secure` (the server is reached over HTTPS, e.g. behind a TLS
    /// proxy); without it, only requests with `X-Forwarded-Proto: https` get `Secure` cookies.
    pub secure_cookies: bool,
    /// How the database writer meets storage faults (its probe interval; a test seam).
    pub writer: writer::WriterOptions,
    pub limits: Limits,
    /// The clock profiles tables may be created with (`GET /api/clocks`).
    pub clocks: Vec<clock::ClockProfile>,
    /// A bot's move is published no sooner than this after the move before it, so that
    /// people can follow (bots otherwise answer within milliseconds).
    pub bot_pace: Duration,
    /// Playouts a finished game's analysis may spend in all (the operator's CPU budget per
    /// game): each decision gets the judge's budget (4 × `max`) or this shared among the
    /// game's decisions, whichever is smaller.
    pub analysis_game_budget: u64,
    /// Analyses a signed-in player may ask for in a day of games they did not play in.
    pub analysis_daily_quota: u32,
}

/// Bounds on what clients may hold, start or make the server do; every one is documented with
/// its default in the README ("Limits") and settable with a `pyramidion serve` flag.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Password hashes (register, login) computed at once.
    pub hash_concurrency: usize,
    /// How long a password check waits for its turn before `503 unavailable`.
    pub hash_wait: Duration,
    /// Open connections (HTTP and WebSocket); more wait to be accepted.
    pub max_connections: usize,
    /// Open connections per client address; more are closed at once.
    pub connections_per_ip: usize,
    /// Time for a request's headers to arrive (also the first byte of a new connection, and
    /// the next request on a keep-alive one).
    pub header_timeout: Duration,
    /// Time for a request's body to arrive (`408 request_timeout`).
    pub body_timeout: Duration,
    /// A WebSocket is pinged this often…
    pub ws_ping_every: Duration,
    /// …and closed when nothing (not even a pong) arrived for this long.
    pub ws_idle_timeout: Duration,
    /// Messages queued for one WebSocket; a subscriber whose queue is full is dropped from
    /// its games (and told so).
    pub ws_queue: usize,
    /// A WebSocket that does not take a message within this time (it does not read) is closed.
    pub ws_send_timeout: Duration,
    /// New guests per client address per hour (also the burst).
    pub guests_per_ip_per_hour: u32,
    /// Open or live tables one guest may have created.
    pub tables_per_guest: usize,
    /// A session ends this long after it started; a guest with no session left, sitting at no
    /// open or live table, is deleted by the sweep.
    pub session_ttl: Duration,
    /// How often expired sessions and guests are deleted and the rate limiters forget idle
    /// addresses.
    pub sweep_every: Duration,
    /// Tables per page of the lobby list (at most 4× this with `?limit=`).
    pub lobby_page: usize,
    /// A room (a started game in memory) that nobody follows and that waits for nobody's
    /// clock or bot is dropped after this long untouched; it is rebuilt from storage when
    /// needed again.
    pub room_idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            hash_concurrency: std::thread::available_parallelism().map_or(2, |n| n.get()),
            hash_wait: Duration::from_secs(5),
            max_connections: 4096,
            connections_per_ip: 128,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            ws_ping_every: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            ws_queue: 256,
            ws_send_timeout: Duration::from_secs(10),
            guests_per_ip_per_hour: 30,
            tables_per_guest: 5,
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            sweep_every: Duration::from_secs(300),
            lobby_page: 50,
            room_idle: Duration::from_secs(600),
        }
    }
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
            secure_cookies: false,
            writer: writer::WriterOptions::default(),
            limits: Limits::default(),
            clocks: clock::ClockProfile::defaults(),
            bot_pace: Duration::from_millis(700),
            // The full judge for a 2-player game of every game (about 150 decisions of
            // 4,000 playouts in Pyramido); longer games get less per decision.
            analysis_game_budget: 600_000,
            analysis_daily_quota: 5,
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
    /// New guests per client address.
    pub guest_limit: Arc<limits::PerIp>,
    /// Password hashes computed at once (argon2 takes ~19 MiB and tens of ms each).
    pub hashing: Arc<tokio::sync::Semaphore>,
    /// Serialises seat changes (join/leave), so two players never take the same seat.
    pub lobby_lock: Arc<tokio::sync::Mutex<()>>,
    /// Hashes of the session tokens just ended: the WebSockets opened with them close.
    pub signed_out: tokio::sync::broadcast::Sender<String>,
    /// Turn and lobby pushes (see `hub`).
    pub hub: Arc<hub::Hub>,
}

impl AppState {
    /// Opens the database and resumes every unfinished game.
    pub async fn new(config: Config) -> anyhow::Result<AppState> {
        let metrics = Arc::<metrics::Metrics>::default();
        let store =
            store::Store::open(&config.database_url, metrics.clone(), config.writer.clone())
                .await?;
        let http_limit = limits::PerIp::new(limits::Rate {
            per_second: config.http_per_second,
            burst: config.http_burst,
        });
        let guests = config.limits.guests_per_ip_per_hour as f64;
        let guest_limit = limits::PerIp::new(limits::Rate {
            per_second: guests / 3600.0,
            burst: guests,
        });
        let hashing = tokio::sync::Semaphore::new(config.limits.hash_concurrency.max(1));
        let state = AppState {
            config: Arc::new(config),
            store,
            rooms: Arc::default(),
            metrics,
            http_limit: Arc::new(http_limit),
            guest_limit: Arc::new(guest_limit),
            hashing: Arc::new(hashing),
            lobby_lock: Arc::default(),
            signed_out: tokio::sync::broadcast::channel(256).0,
            hub: Arc::default(),
        };
        let resumed = state.rooms.resume_all(&state).await?;
        tracing::info!(resumed, "unfinished games resumed");
        let analyses = analysis::resume_queued(&state).await?;
        tracing::info!(analyses, "analyses cut short by a restart queued again");
        let waker = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(rooms::WAKE_EVERY);
            loop {
                every.tick().await;
                if let Err(e) = waker.rooms.wake_due(&waker).await {
                    tracing::warn!(error = %e, "cannot read the games whose clock runs out");
                }
            }
        });
        let sweeper = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(sweeper.config.limits.sweep_every);
            every.tick().await;
            loop {
                every.tick().await;
                sweeper.sweep(store::now_ms()).await;
            }
        });
        Ok(state)
    }

    /// Deletes expired sessions and guests (as of `now`, in ms) and lets the rate limiters
    /// forget idle addresses. Run every `sweep_every`.
    pub async fn sweep(&self, now: i64) {
        let ttl = self.config.limits.session_ttl.as_millis() as i64;
        match self.store.sweep(now - ttl).await {
            Ok((sessions, guests)) if sessions + guests > 0 => {
                tracing::info!(sessions, guests, "expired sessions and guests deleted")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "sweep failed"),
        }
        self.http_limit.sweep();
        self.guest_limit.sweep();
    }
}

/// `200 ok`, or `503` with the last storage error while writes fail (nothing is acknowledged
/// then; the status turns back to ok as soon as a write succeeds again).
async fn healthz(State(state): State<AppState>) -> Response {
    match state.metrics.storage.degraded() {
        None => "ok".into_response(),
        Some(error) => (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            axum::Json(serde_json::json!({
                "status": "degraded",
                "error": { "code": "storage_failing", "message": error },
            })),
        )
            .into_response(),
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
        .route("/healthz", get(healthz))
        .route(
            "/metrics",
            get(|State(s): State<AppState>| async move { s.metrics.render() }),
        )
        .route("/api/me", get(accounts::me))
        .route("/api/me/games", get(history::my_games))
        .route("/api/me/turns", get(turns::my_turns))
        .route("/api/clocks", get(turns::clocks))
        .route("/api/register", post(accounts::register))
        .route("/api/login", post(accounts::login))
        .route("/api/logout", post(accounts::logout))
        .route("/api/games", get(api::games))
        .route("/api/games/{id}/record", get(export::record))
        .route("/api/games/{id}/replay", get(replay::replay))
        .route("/api/games/{id}/rematch", post(rematch::rematch))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get).post(analysis::request),
        )
        .route("/api/games/{id}/replay/{ply}", get(replay::at_ply))
        .route("/api/users/{id}", get(profiles::profile))
        .route(
            "/api/users/{id}/games.ndjson",
            get(export::user_games_ndjson),
        )
        .route("/api/leaderboards/{game}", get(profiles::leaderboard))
        .route("/api/daily", get(daily::today))
        .route("/api/daily/{id}", post(daily::start))
        .route("/api/daily/{id}/leaderboard", get(daily::leaderboard))
        .route("/api/tables", get(api::open_tables).post(api::create_table))
        .route("/api/tables/{id}", get(api::table))
        .route("/api/tables/{id}/join", post(api::join))
        .route("/api/tables/{id}/leave", post(api::leave))
        .route("/ws", get(ws::upgrade))
        .fallback(get(web::static_file))
        .layer(middleware::from_fn_with_state(state.clone(), rate_limit))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            state.config.limits.body_timeout,
        ))
        .layer(middleware::from_fn(error::json_errors))
        .with_state(state)
}

/// Takes the data directory for this process: a second server on the same directory would
/// write the same games from two places. The lock (an advisory lock on `pyramidion.lock`)
/// lasts as long as the returned file is open, and is released by the OS when the process
/// ends, however it ends.
pub fn lock_data_dir(dir: &std::path::Path) -> anyhow::Result<std::fs::File> {
    lock_file(
        &dir.join("pyramidion.lock"),
        &format!("the data directory {}", dir.display()),
    )
}

/// The same guard for a SQLite database named by URL (`--database sqlite://PATH`): the lock
/// file sits beside it (`PATH.lock`). `None` for other databases (PostgreSQL guards itself)
/// and for in-memory SQLite, which no second process can open.
pub fn lock_sqlite_url(url: &str) -> anyhow::Result<Option<std::fs::File>> {
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return Ok(None);
    };
    let path = rest.trim_start_matches("//");
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() || path.contains(":memory:") {
        return Ok(None);
    }
    let lock = std::path::PathBuf::from(format!("{path}.lock"));
    lock_file(&lock, &format!("the database {path}")).map(Some)
}

fn lock_file(path: &std::path::Path, what: &str) -> anyhow::Result<std::fs::File> {
    use anyhow::Context;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
            "{what} is in use by another Pyramidion server (it holds {}): \
             two servers must not share one database",
            path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

/// Serves until the process is stopped.
pub async fn serve(config: Config, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    serve_state(AppState::new(config).await?, listener).await
}

/// Serves an opened state (its storage is open and writable) until the process is stopped.
pub async fn serve_state(state: AppState, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    listen::serve(state, listener).await
}
