//! The Pyramidion game server: accounts and guests, a lobby, live games over one WebSocket
//! per client, every move made durable before it is acknowledged. See docs/protocol.md.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod cluster;
pub mod db;
pub mod error;
pub mod error_code;
pub mod fd_limit;
pub mod game_status;
pub mod http;
pub mod live;
pub mod metrics;
pub mod names;
pub mod queue;
pub mod reach;
pub mod start_error;
pub mod wall_clock;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
pub use start_error::StartError;
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
    pub hash_cost: http::auth::HashCost,
    pub http_per_second: f64,
    pub http_burst: f64,
    pub ws_messages_per_second: f64,
    pub ws_burst: f64,
    /// Session cookies carry `Secure` (the server is reached over HTTPS, e.g. behind a TLS
    /// proxy); without it, only requests with `X-Forwarded-Proto: https` get `Secure` cookies.
    pub secure_cookies: bool,
    /// How the database writer meets storage faults (its probe interval; a test seam).
    pub writer: db::writer::WriterOptions,
    pub limits: Limits,
    /// The clock profiles tables may be created with (`GET /api/clocks`).
    pub clocks: Vec<live::clock::ClockProfile>,
    /// A bot's move is published no sooner than this after the move before it, so that
    /// people can follow (bots otherwise answer within milliseconds).
    pub bot_pace: Duration,
    /// Threads of the bot pool that search and analyse (besides its one thread for quick
    /// bots and time-out stand-ins). 0 serves nothing but quick bots (a test seam).
    pub bot_threads: usize,
    /// The time of day of the daily challenges (a test sets it).
    pub wall_clock: wall_clock::WallClock,
    /// How players away are reached: Web Push, and e-mail when an SMTP server is set.
    pub reach: reach::ReachConfig,
    /// Reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); empty:
    /// every client is its socket's peer.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// This instance's id among several on one PostgreSQL database (`--instance`; default:
    /// drawn at start). Unused on SQLite.
    pub instance: Option<String>,
    /// Where the other instances reach this one (`--advertise`, `http://host:port`; default:
    /// the address it listens on).
    pub advertise: Option<String>,
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
    /// Open connections (HTTP and WebSocket); more are answered `503 unavailable` (up to 64
    /// at once; beyond, they wait to be accepted).
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
    /// Search-bot seats (levels that search) one user may have at open or live tables they
    /// created (`429 too_many_bot_seats`).
    pub search_bots_per_user: usize,
    /// Analyses one user may have queued or running (`429 too_many_analyses`)…
    pub analyses_per_user: usize,
    /// …and the server (`503 analysis_queue_full`).
    pub max_analyses: usize,
    /// A daily challenge's attempt ranks if it finishes by the end of its day plus this; the
    /// day's deals and records stay hidden until then.
    pub daily_grace: Duration,
    /// Browsers (push subscriptions) one user may have; a new one replaces the oldest.
    pub push_devices_per_user: usize,
    /// A game against bots only that nobody moved in for this long is abandoned by the
    /// sweep (it leaves "Your move").
    pub abandon_after: Duration,
    /// Games one WebSocket may follow at once (each keeps a room in memory).
    pub rooms_per_socket: usize,
    /// New accounts per client address per hour (also the burst).
    pub registrations_per_ip_per_hour: u32,
    /// Open or live tables one account may have created.
    pub tables_per_account: usize,
    /// Open or live games a user (guest or account) may hold a seat at.
    pub seats_per_user: usize,
    /// Games in memory (rooms) at once; past it a new game is `503 unavailable`
    /// (`crate::live::capacity`).
    pub max_live_games: usize,
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
            search_bots_per_user: 8,
            analyses_per_user: 2,
            max_analyses: 32,
            daily_grace: Duration::from_secs(3600),
            push_devices_per_user: 10,
            abandon_after: Duration::from_secs(14 * 24 * 3600),
            rooms_per_socket: 32,
            registrations_per_ip_per_hour: 5,
            tables_per_account: 20,
            seats_per_user: 40,
            max_live_games: 20_000,
        }
    }
}

impl Config {
    pub fn new(database_url: impl Into<String>) -> Config {
        Config {
            database_url: database_url.into(),
            allowed_origins: Vec::new(),
            hash_cost: http::auth::HashCost::default(),
            http_per_second: 50.0,
            http_burst: 200.0,
            // Far above any human (a move takes a click), low enough to stop a flood.
            ws_messages_per_second: 200.0,
            ws_burst: 400.0,
            secure_cookies: false,
            writer: db::writer::WriterOptions::default(),
            limits: Limits::default(),
            clocks: live::clock::ClockProfile::defaults(),
            bot_pace: Duration::from_millis(700),
            bot_threads: live::bot_pool::default_threads(),
            wall_clock: wall_clock::WallClock::default(),
            reach: reach::ReachConfig {
                smtp: None,
                mail_from: "Pyramidion <pyramidion@localhost>".to_string(),
                public_url: "http://localhost:8080".to_string(),
                allow_http_push: false,
            },
            trusted_proxies: Vec::new(),
            instance: None,
            advertise: None,
            // The full judge for a 2-player game of every registered game (the longest has
            // about 150 decisions of 4,000 playouts); longer games get less per decision.
            analysis_game_budget: 600_000,
            analysis_daily_quota: 5,
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: db::store::Store,
    pub rooms: Arc<live::rooms::Rooms>,
    pub metrics: Arc<metrics::Metrics>,
    pub http_limit: Arc<http::limits::PerIp>,
    /// New guests per client address.
    pub guest_limit: Arc<http::limits::PerIp>,
    /// New accounts per client address.
    pub register_limit: Arc<http::limits::PerIp>,
    /// WebSocket messages per client address, shared by all of that address's sockets.
    pub ws_limit: Arc<http::limits::PerIp>,
    /// Open connections (and WebSockets) per client address.
    pub connections: Arc<http::listen::PerIpConnections>,
    /// Password hashes computed at once (argon2 takes ~19 MiB and tens of ms each).
    pub hashing: Arc<tokio::sync::Semaphore>,
    /// Serialises seat changes (join/leave), so two players never take the same seat.
    pub lobby_lock: Arc<tokio::sync::Mutex<()>>,
    /// Hashes of the session tokens just ended: the WebSockets opened with them close.
    pub signed_out: tokio::sync::broadcast::Sender<String>,
    /// Turn and lobby pushes (see `hub`).
    pub hub: Arc<live::hub::Hub>,
    /// Where bots think and analyses run (fairly shared: see `fair_queue`).
    pub bots: Arc<live::bot_pool::BotPool>,
    /// The analyses queued or running in this process.
    pub analyses: Arc<analysis::Queue>,
    /// Push and e-mail to players away (see `reach`).
    pub reach: Arc<reach::Reach>,
    /// This instance among several on one PostgreSQL database (see `cluster`); none on
    /// SQLite.
    pub cluster: Option<Arc<cluster::Cluster>>,
    /// Set when the instance drains (SIGTERM): every WebSocket is closed so that its client
    /// reconnects to another instance.
    pub draining: tokio::sync::watch::Sender<bool>,
}

impl AppState {
    /// Opens the database and resumes every unfinished game.
    pub async fn new(config: Config) -> Result<AppState, StartError> {
        let metrics = Arc::<metrics::Metrics>::default();
        let store =
            db::store::Store::open(&config.database_url, metrics.clone(), config.writer.clone())
                .await?;
        let http_limit = http::limits::PerIp::new(http::limits::Rate {
            per_second: config.http_per_second,
            burst: config.http_burst,
        });
        let guests = config.limits.guests_per_ip_per_hour as f64;
        let guest_limit = http::limits::PerIp::new(http::limits::Rate {
            per_second: guests / 3600.0,
            burst: guests,
        });
        let registrations = config.limits.registrations_per_ip_per_hour as f64;
        let register_limit = http::limits::PerIp::new(http::limits::Rate {
            per_second: registrations / 3600.0,
            burst: registrations,
        });
        let ws_limit = http::limits::PerIp::new(http::limits::Rate {
            per_second: config.ws_messages_per_second,
            burst: config.ws_burst,
        });
        let hashing = tokio::sync::Semaphore::new(config.limits.hash_concurrency.max(1));
        let bots = Arc::new(live::bot_pool::BotPool::new(config.bot_threads));
        let (reach, away) = reach::Reach::start(config.reach.clone(), store.clone()).await?;
        let hub = Arc::<live::hub::Hub>::default();
        hub.reach_with(away);
        // On PostgreSQL every instance is one of a cluster (of one, or of several).
        let cluster = match store.backend {
            db::store::Backend::Postgres => {
                let me = config
                    .instance
                    .clone()
                    .unwrap_or_else(|| format!("i-{}", http::auth::random_hex(6)));
                let address = config
                    .advertise
                    .clone()
                    .unwrap_or_else(|| "http://127.0.0.1:0".to_string());
                let cluster = cluster::Cluster::join(&store, me.clone(), address).await?;
                let fanout = cluster::fanout::start(
                    &config.database_url,
                    store.pool.clone(),
                    me,
                    hub.clone(),
                )
                .await?;
                hub.fan_out_with(fanout);
                hub.in_cluster(cluster.clone());
                Some(cluster)
            }
            db::store::Backend::Sqlite => None,
        };
        let state = AppState {
            config: Arc::new(config),
            store,
            rooms: Arc::default(),
            metrics,
            http_limit: Arc::new(http_limit),
            guest_limit: Arc::new(guest_limit),
            register_limit: Arc::new(register_limit),
            ws_limit: Arc::new(ws_limit),
            connections: Arc::default(),
            hashing: Arc::new(hashing),
            lobby_lock: Arc::default(),
            signed_out: tokio::sync::broadcast::channel(256).0,
            hub,
            bots,
            analyses: Arc::default(),
            reach,
            cluster,
            draining: tokio::sync::watch::channel(false).0,
        };
        let resumed = state.rooms.resume_all(&state).await?;
        tracing::info!(resumed, "unfinished games resumed");
        let analyses = analysis::resume_queued(&state).await?;
        tracing::info!(analyses, "analyses cut short by a restart queued again");
        let waker = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(live::rooms::WAKE_EVERY);
            loop {
                every.tick().await;
                if let Err(e) = waker.rooms.wake_due(&waker).await {
                    tracing::warn!(error = %e, "cannot read the games whose clock runs out");
                }
                if let Err(e) = waker.rooms.adopt_orphans(&waker).await {
                    tracing::warn!(error = %e, "cannot read the games of dead instances");
                }
                // A dead instance's analyses are run again by one of the others.
                if waker.cluster.as_ref().is_some_and(|c| !c.retired())
                    && let Err(e) = analysis::resume_queued(&waker).await
                {
                    tracing::warn!(error = %e, "cannot read the analyses of dead instances");
                }
            }
        });
        let sweeper = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(sweeper.config.limits.sweep_every);
            every.tick().await;
            loop {
                every.tick().await;
                sweeper.sweep(wall_clock::now_ms()).await;
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
        if let Err(e) = self
            .store
            .sweep_subscriptions(now, reach::mail::BATCH_MS)
            .await
        {
            tracing::warn!(error = %e, "cannot sweep the notifications' storage");
        }
        self.http_limit.sweep();
        self.guest_limit.sweep();
        let untouched = now - self.config.limits.abandon_after.as_millis() as i64;
        match http::endings::abandon_stale(self, untouched).await {
            Ok(0) => {}
            Ok(games) => tracing::info!(games, "untouched games against bots abandoned"),
            Err(e) => tracing::warn!(error = %e, "cannot abandon untouched games"),
        }
        self.register_limit.sweep();
        self.ws_limit.sweep();
    }
}

/// `200 ok`, or `503` with a code while writes fail (nothing is acknowledged then; the status
/// turns back to ok as soon as a write succeeds again). The storage error itself (paths, SQL,
/// the OS's words) is for the operator: it is logged and shown in `/metrics`, not here.
/// `/healthz` while writes fail: an error answer with a `status`.
#[derive(serde::Serialize)]
struct Degraded {
    status: &'static str,
    error: error::ErrorDetail<'static>,
}

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
    let ip = http::client_ip::client_ip(&state.config.trusted_proxies, addr.ip(), req.headers());
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
        .route("/api/notify", get(reach::api::get).put(reach::api::set))
        .route(
            "/api/notify/unsubscribe/{token}",
            post(reach::api::one_click_unsubscribe),
        )
        .route("/api/push/subscribe", post(reach::api::subscribe))
        .route("/api/push/unsubscribe", post(reach::api::unsubscribe))
        .route(
            "/api/me/email",
            post(reach::api::set_email).delete(reach::api::delete_email),
        )
        .route("/api/me/email/verify", post(reach::api::verify_email))
        .route("/ws", get(live::ws::upgrade))
        .route("/internal/link/{id}", get(cluster::link::accept))
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

/// Takes the data directory for this process: a second server on the same directory would
/// write the same games from two places. The lock (an advisory lock on the database's
/// `pyramidion.db.lock`) lasts as long as the returned file is open, and is released by the OS
/// when the process ends, however it ends.
pub fn lock_data_dir(dir: &std::path::Path) -> Result<std::fs::File, StartError> {
    lock_sqlite_file(&dir.join("pyramidion.db"))
}

/// The same guard for a SQLite database named by URL (`--database sqlite://PATH`). `None` for
/// other databases (PostgreSQL guards itself) and for in-memory SQLite, which no second
/// process can open.
pub fn lock_sqlite_url(url: &str) -> Result<Option<std::fs::File>, StartError> {
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return Ok(None);
    };
    let path = rest.trim_start_matches("//");
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() || path.contains(":memory:") {
        return Ok(None);
    }
    lock_sqlite_file(std::path::Path::new(path)).map(Some)
}

/// Locks `DB.lock` beside the database file, named by its canonical path: however the file is
/// named (the data directory, a URL, a relative path, `..`, a symbolic link), one database has
/// one lock.
fn lock_sqlite_file(db: &std::path::Path) -> Result<std::fs::File, StartError> {
    let canonical = match db.canonicalize() {
        Ok(path) => path,
        // Not created yet: its directory's canonical path and its name.
        Err(_) => {
            let parent = db
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            let name = db
                .file_name()
                .ok_or_else(|| StartError::NoDatabaseFile(db.to_path_buf()))?;
            parent
                .canonicalize()
                .map_err(|error| StartError::File {
                    action: "open",
                    path: parent.to_path_buf(),
                    error,
                })?
                .join(name)
        }
    };
    let mut lock = canonical.clone().into_os_string();
    lock.push(".lock");
    lock_file(
        std::path::Path::new(&lock),
        &format!("the database {}", canonical.display()),
    )
}

fn lock_file(path: &std::path::Path, what: &str) -> Result<std::fs::File, StartError> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|error| StartError::File {
            action: "open",
            path: path.to_path_buf(),
            error,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StartError::InUse {
            what: what.to_string(),
            lock: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(error)) => Err(StartError::File {
            action: "lock",
            path: path.to_path_buf(),
            error,
        }),
    }
}

/// Serves until the process is stopped; SIGTERM or Ctrl-C drains it first (`drain`).
pub async fn serve(
    mut config: Config,
    listener: tokio::net::TcpListener,
) -> Result<(), StartError> {
    if config.advertise.is_none() {
        config.advertise = Some(format!("http://{}", listener.local_addr()?));
    }
    serve_state(AppState::new(config).await?, listener).await
}

/// Serves an opened state (its storage is open and writable) until the process is stopped;
/// SIGTERM or Ctrl-C drains it first (`drain`).
pub async fn serve_state(
    state: AppState,
    listener: tokio::net::TcpListener,
) -> Result<(), StartError> {
    if let Some(cluster) = &state.cluster
        && state.config.advertise.is_none()
    {
        cluster
            .advertise(&format!("http://{}", listener.local_addr()?))
            .await?;
    }
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    // Ctrl-C in a terminal is the same request to stop as a service manager's SIGTERM.
    let interrupt = tokio::signal::ctrl_c();
    tokio::select! {
        served = http::listen::serve(state.clone(), listener) => Ok(served?),
        _ = terminate.recv() => {
            live::drain::drain(&state).await;
            Ok(())
        }
        _ = interrupt => {
            live::drain::drain(&state).await;
            Ok(())
        }
    }
}
