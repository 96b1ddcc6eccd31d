//! How a server is set up: its configuration (`pyramidion serve`'s flags become a
//! [`Config`]) and the bounds on what clients may do ([`Limits`]), with their defaults. Kept
//! apart from the state they build (`crate::app_state`): this is what an operator sets.
use crate::{db, http, live, reach, time_control, wall_clock};
use std::time::Duration;

/// Everything a server is started with.
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
    pub clocks: Vec<time_control::ClockProfile>,
    /// A bot's move is published no sooner than this after the move before it, so that
    /// people can follow (bots otherwise answer within milliseconds).
    pub bot_pace: Duration,
    /// Threads of the bot pool that search and analyse (besides its one thread for quick
    /// bots and time-out stand-ins). 0 serves nothing but quick bots (a test seam).
    pub bot_threads: usize,
    /// The time of day of the daily challenges (a test sets it).
    pub wall_clock: wall_clock::WallClock,
    /// The time of day of the rooms' clocks: the banks and turn starts stored with moves, and
    /// the sweep that wakes games whose turn runs out. The system's; a test makes it follow
    /// tokio's paused clock (apart from `wall_clock`: a fixed day must not stop the clocks).
    pub room_clock: wall_clock::WallClock,
    /// How players away are reached: Web Push, and e-mail when an SMTP server is set.
    pub reach: reach::ReachConfig,
    /// Reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); empty:
    /// every client is its socket's peer.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Client addresses `/metrics` is served to (`--metrics-allow`; default: loopback only);
    /// anyone else is answered `404`. Behind a `--trusted-proxy` the forwarded client is
    /// checked, never the proxy.
    pub metrics_allow: Vec<ipnet::IpNet>,
    /// Where `/metrics` is served apart (`--metrics-listen`, `http::metrics_listener`); the
    /// public listener then answers it `404`. `None`: on the public listener, as above.
    pub metrics_listen: Option<String>,
    /// This instance's id among several on one PostgreSQL database (`--instance`; default:
    /// drawn at start). Unused on SQLite.
    pub instance: Option<String>,
    /// Where the other instances reach this one (`--advertise`, `http://host:port`; default:
    /// the address it listens on).
    pub advertise: Option<String>,
    /// Whether the cluster's `/internal/` routes are served on a listener of their own
    /// (`--internal-listen`, `crate::serve_internal`): the public listener then answers them
    /// `404`, rate-limited like any other path.
    pub internal_listener: bool,
    /// Playouts a finished game's analysis may spend in all (the operator's CPU budget per
    /// game): each decision gets the judge's budget (4 × `max`) or this shared among the
    /// game's decisions, whichever is smaller.
    pub analysis_game_budget: u64,
    /// Playouts the puzzle miner may spend on one finished game, both judge runs together
    /// (`--puzzle-budget`); 0 (the default here, and in tests) mines nothing.
    pub puzzle_game_budget: u64,
    /// Analyses a signed-in player may ask for in a day of games they did not play in.
    pub analysis_daily_quota: u32,
}

/// Bounds on what clients may hold, start or make the server do; every one is documented with
/// its default in docs/server.md ("Limits") and settable with a `pyramidion serve` flag.
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
    /// How often a WebSocket checks that its session still exists (before a move, a
    /// subscription or a chat message): a sign-out on another instance, or an expiry, is
    /// noticed within this.
    pub session_recheck: Duration,
    /// How often expired sessions and guests are deleted and the rate limiters forget idle
    /// addresses.
    pub sweep_every: Duration,
    /// Tables per page of the lobby list (at most 4× this with `?limit=`).
    pub lobby_page: usize,
    /// A room (a started game in memory) that nobody follows and that waits for nobody's
    /// clock or bot is dropped after this long untouched; it is rebuilt from storage when
    /// needed again.
    pub room_idle: Duration,
    /// How often the games whose clock runs out soon are brought back into memory and the
    /// games of dead instances taken over (`Rooms::wake_due`, `Rooms::adopt_orphans`). A
    /// drained instance's games are taken at once, on its notice (`Cluster::departures`).
    pub wake_every: Duration,
    /// Search-bot seats (levels that search) one user may have at open or live tables they
    /// created (`429 too_many_bot_seats`).
    pub search_bots_per_user: usize,
    /// Analyses one user may have queued or running (`429 too_many_analyses`)…
    pub analyses_per_user: usize,
    /// …from one client address, an IPv6 client by its /64 (`429 too_many_analyses_here`):
    /// guests made from one address are one asker…
    pub analyses_per_address: usize,
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
    /// Chat messages one user may send in 24 hours, all games together (`chat_daily_cap`).
    pub chat_per_day: usize,
    /// Chat messages an account may report in 24 hours (`429 rate_limited`)…
    pub reports_per_day: usize,
    /// …a guest…
    pub guest_reports_per_day: usize,
    /// …and one client address, an IPv6 client by its /64 (`crate::live::chat_reports`).
    pub reports_per_address: usize,
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
            session_recheck: Duration::from_secs(10),
            sweep_every: Duration::from_secs(300),
            lobby_page: 50,
            room_idle: Duration::from_secs(600),
            wake_every: crate::live::rooms::WAKE_EVERY,
            search_bots_per_user: 8,
            analyses_per_user: 2,
            analyses_per_address: 4,
            max_analyses: 32,
            daily_grace: Duration::from_secs(3600),
            push_devices_per_user: 10,
            abandon_after: Duration::from_secs(14 * 24 * 3600),
            rooms_per_socket: 32,
            registrations_per_ip_per_hour: 5,
            tables_per_account: 20,
            seats_per_user: 40,
            max_live_games: 20_000,
            chat_per_day: 500,
            reports_per_day: 20,
            guest_reports_per_day: 3,
            reports_per_address: 30,
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
            clocks: time_control::ClockProfile::defaults(),
            bot_pace: Duration::from_millis(700),
            bot_threads: live::bot_pool::default_threads(),
            wall_clock: wall_clock::WallClock::default(),
            room_clock: wall_clock::WallClock::default(),
            reach: reach::ReachConfig {
                smtp: None,
                mail_from: "Pyramidion <pyramidion@localhost>".to_string(),
                public_url: "http://localhost:8080".to_string(),
                allow_http_push: false,
                push_allow: reach::push::AllowList::default(),
                push_timeout: Duration::from_secs(10),
                push_workers: 32,
                mail_limits: reach::MailLimits::default(),
            },
            trusted_proxies: Vec::new(),
            metrics_allow: vec![
                "127.0.0.0/8".parse().expect("a network"),
                "::1/128".parse().expect("a network"),
            ],
            metrics_listen: None,
            instance: None,
            advertise: None,
            internal_listener: false,
            // The full judge for a 2-player game of every registered game (the longest has
            // about 150 decisions of 4,000 playouts); longer games get less per decision.
            analysis_game_budget: 600_000,
            puzzle_game_budget: 0,
            analysis_daily_quota: 5,
        }
    }
}
