//! `pyramidion serve`: the game server, on an embedded SQLite database by default.
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "PYRAMIDION_BIND")]
    pub bind: String,
    /// Database URL: `postgres://…` for PostgreSQL; default: SQLite in the data directory.
    #[arg(long, env = "PYRAMIDION_DATABASE")]
    pub database: Option<String>,
    /// Where the embedded SQLite database lives.
    #[arg(long, default_value = "data", env = "PYRAMIDION_DATA")]
    pub data_dir: PathBuf,
    /// Extra allowed browser origins for WebSockets (e.g. behind a proxy), comma separated.
    #[arg(long, value_delimiter = ',')]
    pub allow_origin: Vec<String>,
    /// HTTP requests per second allowed per client IP (burst: 4×).
    #[arg(long, default_value_t = 50.0)]
    pub http_rate: f64,
    /// WebSocket messages per second allowed per client address, shared by all of its
    /// sockets (burst: 2×); more get `rate_limited` errors.
    #[arg(long, default_value_t = 200.0, env = "PYRAMIDION_WS_RATE")]
    pub ws_rate: f64,
    /// Playouts one finished game's analysis may spend in all (its CPU budget): each decision
    /// gets the judge's budget (4 × the game's `max` level) or this shared among the game's
    /// decisions, whichever is smaller.
    #[arg(long, default_value_t = 600_000, env = "PYRAMIDION_ANALYSIS_BUDGET")]
    pub analysis_budget: u64,
    /// Playouts the puzzle miner may spend on one finished public game (both judge runs);
    /// 0 mines nothing (docs/puzzles.md).
    #[arg(long, default_value_t = 600_000, env = "PYRAMIDION_PUZZLE_BUDGET")]
    pub puzzle_budget: u64,
    /// Analyses a signed-in player may ask for in a day, of public games they did not play in.
    #[arg(long, default_value_t = 5, env = "PYRAMIDION_ANALYSIS_QUOTA")]
    pub analysis_quota: u32,
    /// Password hashes computed at once (default: the number of cores).
    #[arg(long, env = "PYRAMIDION_HASH_CONCURRENCY")]
    pub hash_concurrency: Option<usize>,
    /// Seconds a sign-in waits for a hashing slot before `503 unavailable`.
    #[arg(long, default_value_t = 5, env = "PYRAMIDION_HASH_WAIT")]
    pub hash_wait: u64,
    /// Open connections in all; more are answered `503 unavailable` (default: 4096, or what the
    /// open-file limit allows; a larger value than the limit allows refuses to start).
    #[arg(long, env = "PYRAMIDION_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Open connections per client address; more are closed at once.
    #[arg(long, default_value_t = 128, env = "PYRAMIDION_CONNECTIONS_PER_IP")]
    pub connections_per_ip: usize,
    /// Seconds for a request's headers to arrive.
    #[arg(long, default_value_t = 10, env = "PYRAMIDION_HEADER_TIMEOUT")]
    pub header_timeout: u64,
    /// Seconds for a request's body to arrive.
    #[arg(long, default_value_t = 10, env = "PYRAMIDION_BODY_TIMEOUT")]
    pub body_timeout: u64,
    /// Seconds between pings on a WebSocket.
    #[arg(long, default_value_t = 20, env = "PYRAMIDION_WS_PING")]
    pub ws_ping: u64,
    /// Seconds without any frame (a pong included) after which a WebSocket is closed.
    #[arg(long, default_value_t = 60, env = "PYRAMIDION_WS_IDLE_TIMEOUT")]
    pub ws_idle_timeout: u64,
    /// Messages queued for one WebSocket.
    #[arg(long, default_value_t = 256, env = "PYRAMIDION_WS_QUEUE")]
    pub ws_queue: usize,
    /// Seconds a WebSocket may take to accept one message before it is closed.
    #[arg(long, default_value_t = 10, env = "PYRAMIDION_WS_SEND_TIMEOUT")]
    pub ws_send_timeout: u64,
    /// New guests per client address per hour.
    #[arg(long, default_value_t = 30, env = "PYRAMIDION_GUESTS_PER_IP")]
    pub guests_per_ip: u32,
    /// Open or live tables a guest may have created.
    #[arg(long, default_value_t = 5, env = "PYRAMIDION_TABLES_PER_GUEST")]
    pub tables_per_guest: usize,
    /// Days a session lasts.
    #[arg(long, default_value_t = 30, env = "PYRAMIDION_SESSION_DAYS")]
    pub session_days: u64,
    /// Seconds between sweeps (expired sessions and guests, idle rate-limiter entries).
    #[arg(long, default_value_t = 300, env = "PYRAMIDION_SWEEP_EVERY")]
    pub sweep_every: u64,
    /// Tables per page of the lobby list.
    #[arg(long, default_value_t = 50, env = "PYRAMIDION_LOBBY_PAGE")]
    pub lobby_page: usize,
    /// Seconds an untouched game stays in memory.
    #[arg(long, default_value_t = 600, env = "PYRAMIDION_ROOM_IDLE")]
    pub room_idle: u64,
    /// Days after which an untouched game against bots only is abandoned by the server.
    #[arg(long, default_value_t = 14, env = "PYRAMIDION_ABANDON_DAYS")]
    pub abandon_days: u64,
    /// Clock profiles tables may use, comma separated: `key=BANK+BONUS` (real time: a bank of
    /// seconds plus a bonus per turn) or `key=SECONDS` (turn-based: seconds per turn).
    #[arg(
        long,
        env = "PYRAMIDION_CLOCKS",
        default_value = "fast=180+2,normal=600+5,slow=1800+15,day=86400,three-days=259200"
    )]
    pub clocks: String,
    /// Milliseconds a bot's move waits after the move before it, so that people can follow.
    #[arg(long, default_value_t = 700, env = "PYRAMIDION_BOT_PACE_MS")]
    pub bot_pace_ms: u64,
    /// Bot pool threads that search and analyse (default: the number of cores but one, at
    /// least one); one more thread plays only quick bots and time-out stand-ins.
    #[arg(long, env = "PYRAMIDION_BOT_THREADS")]
    pub bot_threads: Option<usize>,
    /// Search-bot seats one user may have at the open and live tables they created.
    #[arg(long, default_value_t = 8, env = "PYRAMIDION_SEARCH_BOTS_PER_USER")]
    pub search_bots_per_user: usize,
    /// Analyses one user may have queued or running.
    #[arg(long, default_value_t = 2, env = "PYRAMIDION_ANALYSES_PER_USER")]
    pub analyses_per_user: usize,
    /// Analyses queued or running asked from one client address (an IPv6 /64).
    #[arg(long, default_value_t = 4, env = "PYRAMIDION_ANALYSES_PER_ADDRESS")]
    pub analyses_per_address: usize,
    /// Analyses queued or running on the server.
    #[arg(long, default_value_t = 32, env = "PYRAMIDION_MAX_ANALYSES")]
    pub max_analyses: usize,
    /// Seconds after a day's end (midnight UTC) by which a daily attempt must finish to rank;
    /// the day's deals and records stay hidden until then.
    #[arg(long, default_value_t = 3600, env = "PYRAMIDION_DAILY_GRACE")]
    pub daily_grace: u64,
    /// Games one WebSocket may follow at once.
    #[arg(long, default_value_t = 32, env = "PYRAMIDION_ROOMS_PER_SOCKET")]
    pub rooms_per_socket: usize,
    /// New accounts per client address per hour.
    #[arg(long, default_value_t = 5, env = "PYRAMIDION_REGISTRATIONS_PER_IP")]
    pub registrations_per_ip: u32,
    /// Open or live tables an account may have created.
    #[arg(long, default_value_t = 20, env = "PYRAMIDION_TABLES_PER_ACCOUNT")]
    pub tables_per_account: usize,
    /// Open or live games a user (guest or account) may hold a seat at.
    #[arg(long, default_value_t = 40, env = "PYRAMIDION_SEATS_PER_USER")]
    pub seats_per_user: usize,
    /// Games in memory at once (live games, and finished ones being watched); past it a new
    /// game is refused `503 unavailable` with `Retry-After`.
    #[arg(long, default_value_t = 20_000, env = "PYRAMIDION_MAX_LIVE_GAMES")]
    pub max_live_games: usize,
    /// Chat messages one user may send in 24 hours, all games together (`chat_daily_cap`).
    #[arg(long, default_value_t = 500, env = "PYRAMIDION_CHAT_PER_DAY")]
    pub chat_per_day: usize,
    /// Chat messages an account may report in 24 hours (`429 rate_limited`).
    #[arg(long, default_value_t = 20, env = "PYRAMIDION_REPORTS_PER_DAY")]
    pub reports_per_day: usize,
    /// Chat messages a guest may report in 24 hours.
    #[arg(long, default_value_t = 3, env = "PYRAMIDION_GUEST_REPORTS_PER_DAY")]
    pub guest_reports_per_day: usize,
    /// Chat messages reported from one client address (an IPv6 /64) in 24 hours.
    #[arg(long, default_value_t = 30, env = "PYRAMIDION_REPORTS_PER_ADDRESS")]
    pub reports_per_address: usize,
    /// Reverse proxies (CIDR, comma separated) whose `X-Forwarded-For` names the client;
    /// nobody else's is believed.
    #[arg(long, value_delimiter = ',', env = "PYRAMIDION_TRUSTED_PROXY")]
    pub trusted_proxy: Vec<String>,
    /// Client addresses (CIDR, repeatable or comma separated) that may read `/metrics`;
    /// anyone else gets `404`. Default: loopback only. Behind a `--trusted-proxy` the
    /// forwarded client is checked, never the proxy.
    #[arg(
        long,
        value_delimiter = ',',
        env = "PYRAMIDION_METRICS_ALLOW",
        default_value = "127.0.0.0/8,::1/128"
    )]
    pub metrics_allow: Vec<String>,
    /// Serve `/metrics` only on a listener of its own at this address (`host:port`; bind it
    /// to loopback or a private network: whoever reaches it reads it); the public port then
    /// answers `/metrics` with `404`.
    #[arg(long, env = "PYRAMIDION_METRICS_LISTEN")]
    pub metrics_listen: Option<String>,
    /// This instance's id among several on one PostgreSQL database (default: drawn at
    /// start; see docs/deploy.md).
    #[arg(long, env = "PYRAMIDION_INSTANCE")]
    pub instance: Option<String>,
    /// Where the other instances reach this one, `http://host:port` (default: the address it
    /// listens on).
    #[arg(long, env = "PYRAMIDION_ADVERTISE")]
    pub advertise: Option<String>,
    /// Serve the cluster's `/internal/` routes (the link between instances) on this address
    /// only, `host:port`, never on the public one (see docs/deploy.md); the other instances
    /// reach this one there (`--advertise` then names it; default: the address bound).
    #[arg(long, env = "PYRAMIDION_INTERNAL_LISTEN")]
    pub internal_listen: Option<String>,
    /// Session cookies get `Secure` (set when clients reach the server over HTTPS; behind a
    /// proxy that sends `X-Forwarded-Proto: https` this is automatic).
    #[arg(long, env = "PYRAMIDION_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// SMTP server for e-mail notifications, as a URL: `smtp://user:pass@host:587?tls=required`
    /// or `smtps://user:pass@host`. Without it, e-mail is off.
    #[arg(long, env = "PYRAMIDION_SMTP")]
    pub smtp: Option<String>,
    /// The sender of notification mails.
    #[arg(
        long,
        default_value = "Pyramidion <pyramidion@localhost>",
        env = "PYRAMIDION_MAIL_FROM"
    )]
    pub mail_from: String,
    /// The site's address as players reach it, for links in mails (and, when `https://`, the
    /// Web Push VAPID contact; else `mailto:` the sender); default: `http://` + `--bind`.
    #[arg(long, env = "PYRAMIDION_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Browsers (push subscriptions) one user may have; a new one replaces the oldest.
    #[arg(long, default_value_t = 10, env = "PYRAMIDION_PUSH_DEVICES")]
    pub push_devices: usize,
    /// Accept push endpoints on plain `http://` and on loopback (a local push service in
    /// tests and development; browsers' push services are always public HTTPS). Not for
    /// production.
    #[arg(long, env = "PYRAMIDION_PUSH_ALLOW_HTTP")]
    pub push_allow_http: bool,
    /// Push endpoints the server may reach though they are not public (comma separated): a
    /// host name (reached wherever it resolves), or an address or CIDR network. By default
    /// only public addresses are reached.
    #[arg(long, value_delimiter = ',', env = "PYRAMIDION_PUSH_ALLOW_HOST")]
    pub push_allow_host: Vec<String>,
    /// Seconds one push may take, connecting included; a slow push service holds only its
    /// own user's notices meanwhile.
    #[arg(long, default_value_t = 10, env = "PYRAMIDION_PUSH_TIMEOUT")]
    pub push_timeout: u64,
    /// Users whose notifications are delivered at once (each user's in order).
    #[arg(long, default_value_t = 32, env = "PYRAMIDION_PUSH_WORKERS")]
    pub push_workers: usize,
    /// Notification mails to one address an hour, whatever games they are about; more wait
    /// in their batches until the hour leaves room.
    #[arg(long, default_value_t = 10, env = "PYRAMIDION_MAIL_PER_ADDRESS")]
    pub mail_per_address: usize,
    /// Hours between two rematch offers of one asker mailed to one address (a rematch loop
    /// is one conversation: later offers are pushed and shown, not mailed).
    #[arg(long, default_value_t = 24, env = "PYRAMIDION_OFFER_MAIL_HOURS")]
    pub offer_mail_hours: u64,
    /// Verification mails to one address in 24 hours, whoever asks.
    #[arg(long, default_value_t = 3, env = "PYRAMIDION_VERIFY_MAILS_PER_ADDRESS")]
    pub verify_mails_per_address: usize,
    /// Verification mails one account may ask for in 24 hours.
    #[arg(long, default_value_t = 5, env = "PYRAMIDION_VERIFY_MAILS_PER_USER")]
    pub verify_mails_per_user: usize,
}

pub fn run(args: ServeArgs) -> Result<()> {
    for (flag, rate) in [("--http-rate", args.http_rate), ("--ws-rate", args.ws_rate)] {
        if !(rate > 0.0 && rate.is_finite()) {
            bail!("{flag} must be a positive number of messages per second, not {rate}");
        }
    }
    if args.bot_threads == Some(0) {
        bail!("--bot-threads must be at least 1: no other thread searches or analyses");
    }
    if args.analysis_budget == 0 {
        bail!("--analysis-budget must be at least 1 playout");
    }
    let trusted_proxies = pyramidion_server::http::client_ip::parse_networks(&args.trusted_proxy)
        .map_err(|e| anyhow::anyhow!("--trusted-proxy: {e}"))?;
    let metrics_allow = pyramidion_server::http::client_ip::parse_networks(&args.metrics_allow)
        .map_err(|e| anyhow::anyhow!("--metrics-allow: {e}"))?;
    let push_allow = pyramidion_server::reach::push::AllowList::parse(&args.push_allow_host)
        .map_err(|e| anyhow::anyhow!("--push-allow-host: {e}"))?;
    if args.push_timeout == 0 || args.push_workers == 0 {
        bail!("--push-timeout and --push-workers must be at least 1");
    }
    // Logs on stderr: stdout carries the one "serving" line that scripts and tests read.
    // `RUST_LOG` chooses what is logged (e.g. `RUST_LOG=debug` for every request); info by
    // default.
    // Colours only on a terminal: a log file or a journal gets plain lines (and `NO_COLOR`
    // turns them off anywhere).
    use std::io::IsTerminal;
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    tracing_subscriber::fmt()
        .with_ansi(colour)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_target(false)
        .with_writer(std::io::stderr)
        .init();
    // Every connection is an open file: a server that could not hold --max-connections of
    // them would fail at accept (and on its own database) instead.
    let max_connections = pyramidion_server::fd_limit::fit(args.max_connections)?;
    // Held until the process ends: a second server on this data directory refuses to start.
    let mut _lock = None;
    let url = match args.database {
        Some(url) => {
            _lock = pyramidion_server::lock_sqlite_url(&url)?;
            url
        }
        None => {
            std::fs::create_dir_all(&args.data_dir)
                .with_context(|| format!("cannot create {}", args.data_dir.display()))?;
            _lock = Some(pyramidion_server::lock_data_dir(&args.data_dir)?);
            format!(
                "sqlite://{}?mode=rwc",
                args.data_dir.join("pyramidion.db").display()
            )
        }
    };
    let mut config = pyramidion_server::Config::new(url.clone());
    config.allowed_origins = args.allow_origin;
    config.http_per_second = args.http_rate;
    config.http_burst = args.http_rate * 4.0;
    config.ws_messages_per_second = args.ws_rate;
    config.ws_burst = args.ws_rate * 2.0;
    config.analysis_game_budget = args.analysis_budget;
    config.puzzle_game_budget = args.puzzle_budget;
    config.analysis_daily_quota = args.analysis_quota;
    config.secure_cookies = args.secure_cookies;
    config.clocks = pyramidion_server::time_control::parse_profiles(&args.clocks)
        .map_err(|e| anyhow::anyhow!("--clocks: {e}"))?;
    config.bot_pace = std::time::Duration::from_millis(args.bot_pace_ms);
    config.trusted_proxies = trusted_proxies;
    config.metrics_allow = metrics_allow;
    config.metrics_listen = args.metrics_listen.clone();
    config.instance = args.instance;
    // Said by the address to bind when it names one; otherwise the address bound, before
    // the cluster is joined (below).
    // With an internal listener, the address it binds (the one the others reach).
    let internal_listen = args.internal_listen.clone();
    config.advertise = args.advertise.or_else(|| {
        let bind = internal_listen.as_deref().unwrap_or(&args.bind);
        let addr: std::net::SocketAddr = bind.parse().ok()?;
        (addr.port() != 0 && !addr.ip().is_unspecified()).then(|| format!("http://{addr}"))
    });
    let secs = std::time::Duration::from_secs;
    let limits = &mut config.limits;
    if let Some(n) = args.hash_concurrency {
        limits.hash_concurrency = n;
    }
    limits.hash_wait = secs(args.hash_wait);
    limits.max_connections = max_connections;
    limits.connections_per_ip = args.connections_per_ip;
    limits.header_timeout = secs(args.header_timeout);
    limits.body_timeout = secs(args.body_timeout);
    limits.ws_ping_every = secs(args.ws_ping);
    limits.ws_idle_timeout = secs(args.ws_idle_timeout);
    limits.ws_queue = args.ws_queue;
    limits.ws_send_timeout = secs(args.ws_send_timeout);
    limits.guests_per_ip_per_hour = args.guests_per_ip;
    limits.tables_per_guest = args.tables_per_guest;
    limits.session_ttl = secs(args.session_days * 24 * 3600);
    limits.sweep_every = secs(args.sweep_every.max(1));
    limits.lobby_page = args.lobby_page;
    limits.room_idle = secs(args.room_idle);
    limits.search_bots_per_user = args.search_bots_per_user;
    limits.analyses_per_user = args.analyses_per_user;
    limits.analyses_per_address = args.analyses_per_address;
    limits.max_analyses = args.max_analyses;
    limits.daily_grace = secs(args.daily_grace);
    if let Some(n) = args.bot_threads {
        config.bot_threads = n;
    }
    limits.push_devices_per_user = args.push_devices.max(1);
    config.reach.smtp = args.smtp.clone();
    config.reach.mail_from = args.mail_from.clone();
    config.reach.allow_http_push = args.push_allow_http;
    config.reach.push_allow = push_allow;
    config.reach.push_timeout = secs(args.push_timeout);
    config.reach.push_workers = args.push_workers;
    config.reach.mail_limits = pyramidion_server::reach::MailLimits {
        per_address_hour: args.mail_per_address,
        offer_every: secs(args.offer_mail_hours * 3600),
        verify_per_address_day: args.verify_mails_per_address,
        verify_per_user_day: args.verify_mails_per_user,
    };
    config.reach.public_url = args
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", args.bind));
    limits.abandon_after = secs(args.abandon_days.max(1) * 24 * 3600);
    limits.rooms_per_socket = args.rooms_per_socket;
    limits.registrations_per_ip_per_hour = args.registrations_per_ip;
    limits.tables_per_account = args.tables_per_account;
    limits.seats_per_user = args.seats_per_user;
    limits.max_live_games = args.max_live_games;
    limits.chat_per_day = args.chat_per_day;
    limits.reports_per_day = args.reports_per_day;
    limits.guest_reports_per_day = args.guest_reports_per_day;
    limits.reports_per_address = args.reports_per_address;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let mut config = config;
        // A mistyped mail setting is said as such, before the storage is opened.
        if let Some(url) = &config.reach.smtp {
            pyramidion_server::reach::mail::Mailer::new(url, &config.reach)?;
        }
        // The port first, then the storage, then the games: an instance joins the cluster
        // knowing the address it is reached at, and claims the games it resumes only while
        // it serves (`serve_opened`), so another instance sent to it for one of them never
        // meets a closed port. A missing, read-only or corrupt database still ends the
        // process at once, before "serving" is said.
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        let metrics_listener = match &args.metrics_listen {
            Some(at) => Some(
                tokio::net::TcpListener::bind(at)
                    .await
                    .with_context(|| format!("cannot listen on {at} (--metrics-listen)"))?,
            ),
            None => None,
        };
        // The internal listener is bound with the public one: the others reach this
        // instance there as soon as it claims a game.
        let internal = match &internal_listen {
            Some(bind) => Some(
                tokio::net::TcpListener::bind(bind)
                    .await
                    .with_context(|| format!("cannot listen on {bind} (--internal-listen)"))?,
            ),
            None => None,
        };
        if config.advertise.is_none() {
            let reached = match &internal {
                Some(l) => l.local_addr()?,
                None => addr,
            };
            config.advertise = Some(format!("http://{reached}"));
        }
        config.internal_listener = internal.is_some();
        // Issue 54: the cluster's routes on a public address are reachable by whoever reaches
        // it; said once at start, on stderr (the log), so that an operator sees it.
        if internal.is_none() && url.starts_with("postgres") && !addr.ip().is_loopback() {
            eprintln!(
                "warning: the cluster's /internal/ routes are served on the public listener                  {addr} (only with the cluster's secret, never through a proxy): give                  --internal-listen an address only the instances reach (docs/deploy.md)"
            );
        }
        let state = pyramidion_server::AppState::open(config)
            .await
            .with_context(|| format!("cannot open the storage at {url}"))?;
        if let Some(internal) = internal {
            // On stderr: the first line on stdout is the public address (scripts and tests
            // read it).
            eprintln!(
                "Pyramidion serves the other instances on http://{}",
                internal.local_addr()?
            );
            let serving = state.clone();
            tokio::spawn(async move {
                if let Err(e) = pyramidion_server::serve_internal(serving, internal).await {
                    eprintln!("the internal listener stopped: {e}");
                }
            });
        }
        println!("Pyramidion is serving on http://{addr}");
        if let Some(listener) = metrics_listener {
            println!(
                "/metrics is served on http://{}/metrics",
                listener.local_addr()?
            );
            let state = state.clone();
            tokio::spawn(async move {
                if let Err(e) =
                    pyramidion_server::http::metrics_listener::serve(state, listener).await
                {
                    eprintln!("the metrics listener stopped: {e}");
                }
            });
        }
        Ok(pyramidion_server::serve_opened(state, listener).await?)
    })
}
