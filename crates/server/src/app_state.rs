//! The state every request and room shares ([`AppState`]): the store, the rooms, the rate
//! limiters, the hub, the bots, the reach of players away and the cluster; how it is opened
//! (resuming unfinished games and analyses, starting the timers) and swept. Apart from the
//! configuration it is built from (`crate::config`) and the routes that serve it
//! (`crate::routes`).
use crate::{Config, StartError, analysis, cluster, db, http, live, metrics, reach, wall_clock};
use std::sync::Arc;

/// What every handler and room reaches: cheap to clone (everything is shared).
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: db::store::Store,
    pub rooms: Arc<live::rooms::Rooms>,
    pub metrics: Arc<metrics::Metrics>,
    pub http_limit: Arc<crate::rate_limits::PerIp>,
    /// New guests per client address.
    pub guest_limit: Arc<crate::rate_limits::PerIp>,
    /// New accounts per client address.
    pub register_limit: Arc<crate::rate_limits::PerIp>,
    /// WebSocket messages per client address, shared by all of that address's sockets.
    pub ws_limit: Arc<crate::rate_limits::PerIp>,
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
    /// Set once [`AppState::start`] has resumed the unfinished games: until then `/readyz`
    /// answers 503 (the instance serves, for the other instances' links, but takes no players
    /// from the load balancer yet).
    pub started: Arc<std::sync::atomic::AtomicBool>,
    /// Set once this instance has stored the shipped puzzles the store lacked
    /// ([`AppState::shipped_puzzles_stored`]), on the first puzzle page asked for: the puzzle
    /// pages wait for it, or a game's next or daily puzzle would be chosen among a part of them.
    pub shipped_puzzles: Arc<tokio::sync::OnceCell<()>>,
    /// The Watch list's last answers (`http::watch_cache`).
    pub watch_cache: Arc<http::watch_cache::WatchCache>,
    /// What the live layer reaches (the same store, rooms, bots, hub, cluster, metrics and
    /// drain flag as above): the rooms, links and sockets take this, not the whole state.
    pub live: live::context::Context,
}

/// Handlers of the live layer (the internal link) take its context as their axum state.
impl axum::extract::FromRef<AppState> for live::context::Context {
    fn from_ref(state: &AppState) -> Self {
        state.live.clone()
    }
}

impl AppState {
    /// Opens the database and resumes every unfinished game.
    pub async fn new(config: Config) -> Result<AppState, StartError> {
        let state = AppState::open(config).await?;
        state.start().await?;
        Ok(state)
    }

    /// Opens the database and, on PostgreSQL, joins the cluster, claiming no game: an
    /// instance claims games ([`AppState::start`]) only once its port takes connections,
    /// or the others, sent to it by the games' leases, would meet a refusal
    /// (`crate::serve_opened`).
    pub async fn open(mut config: Config) -> Result<AppState, StartError> {
        let metrics = Arc::<metrics::Metrics>::default();
        let store =
            db::store::Store::open(&config.database_url, metrics.clone(), config.writer.clone())
                .await?;
        let http_limit = crate::rate_limits::PerIp::new(crate::rate_limits::Rate {
            per_second: config.http_per_second,
            burst: config.http_burst,
        });
        let guests = config.limits.guests_per_ip_per_hour as f64;
        let guest_limit = crate::rate_limits::PerIp::new(crate::rate_limits::Rate {
            per_second: guests / 3600.0,
            burst: guests,
        });
        let registrations = config.limits.registrations_per_ip_per_hour as f64;
        let register_limit = crate::rate_limits::PerIp::new(crate::rate_limits::Rate {
            per_second: registrations / 3600.0,
            burst: registrations,
        });
        let ws_limit = crate::rate_limits::PerIp::new(crate::rate_limits::Rate {
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
                    .unwrap_or_else(|| format!("i-{}", crate::secret::random_hex(6)));
                let address = config
                    .advertise
                    .clone()
                    .unwrap_or_else(|| "http://127.0.0.1:0".to_string());
                let cluster = cluster::Cluster::join(&store, me.clone(), address).await?;
                // The rooms' clocks follow the database's, as leases do: one clock for every
                // instance (issue 53; a test's own room clock is kept).
                if config.room_clock.is_system() {
                    config.room_clock = cluster.database_clock();
                }
                let fanout = live::fanout::start(
                    &config.database_url,
                    store.pool.clone(),
                    me,
                    hub.clone(),
                    metrics.clone(),
                    cluster.departures.clone(),
                )
                .await?;
                hub.fan_out_with(fanout);
                hub.in_cluster(cluster.clone());
                Some(cluster)
            }
            db::store::Backend::Sqlite => None,
        };
        let config = Arc::new(config);
        let rooms = Arc::<live::rooms::Rooms>::default();
        let draining = tokio::sync::watch::channel(false).0;
        let live = live::context::Context {
            config: config.clone(),
            store: store.clone(),
            rooms: rooms.clone(),
            metrics: metrics.clone(),
            hub: hub.clone(),
            bots: bots.clone(),
            cluster: cluster.clone(),
            links: Arc::default(),
            draining: draining.clone(),
        };
        let state = AppState {
            config,
            store,
            rooms,
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
            draining,
            started: Arc::default(),
            shipped_puzzles: Arc::default(),
            watch_cache: Arc::default(),
            live,
        };
        // Each reading of this instance's leases by the heartbeat (after a lapse of its
        // life, and now and then) stops the rooms that lost their game.
        if let Some(cluster) = &state.cluster {
            let mut held = cluster.held_changes();
            let rooms = state.rooms.clone();
            tokio::spawn(async move {
                while held.changed().await.is_ok() {
                    let leases = held.borrow_and_update().clone();
                    rooms.check_leases(&leases);
                }
            });
        }
        Ok(state)
    }

    /// Resumes every unfinished game (claiming those free among several instances) and the
    /// analyses cut short, and starts the timers.
    pub async fn start(&self) -> Result<(), StartError> {
        let state = self.clone();
        let resumed = state.rooms.resume_all(&state.live).await?;
        tracing::info!(resumed, "unfinished games resumed");
        let analyses = analysis::resume_queued(&state).await?;
        tracing::info!(analyses, "analyses cut short by a restart queued again");
        if state.config.puzzle_game_budget > 0 {
            tokio::spawn(crate::puzzles::miner::run(state.clone()));
        }
        state
            .started
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let waker = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(waker.config.limits.wake_every);
            let departures = waker.cluster.as_ref().map(|c| c.departures.clone());
            loop {
                // Also at once when an instance drains: its games wait for nobody then.
                tokio::select! {
                    _ = every.tick() => {}
                    _ = async {
                        match &departures {
                            Some(notice) => notice.notified().await,
                            None => std::future::pending().await,
                        }
                    } => {}
                }
                if let Err(e) = waker.rooms.wake_due(&waker.live).await {
                    tracing::warn!(error = %e, "cannot read the games whose clock runs out");
                }
                if let Err(e) = waker.rooms.adopt_orphans(&waker.live).await {
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
        // Tournaments are stepped by whichever instance holds each one's lease.
        tokio::spawn(crate::tournament::director::run(state.clone()));
        let sweeper = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(sweeper.config.limits.sweep_every);
            every.tick().await;
            loop {
                every.tick().await;
                sweeper.sweep(wall_clock::now_ms()).await;
            }
        });
        Ok(())
    }

    /// Stores the shipped puzzles the store lacks, once in this instance's life: on the first
    /// puzzle page asked for, not at start. Reading and storing them is seconds of CPU in a
    /// debug build (1,774 puzzles, 13.6 MB of JSON): every server a test starts paid them at
    /// start, in a fresh database, whether it served a puzzle or not; a release build takes a
    /// fraction of a second, once. Concurrent callers wait for one load; a failed or
    /// cancelled one is tried again by the next caller (it stores by id, so a part stored
    /// stays and is not stored twice).
    pub async fn shipped_puzzles_stored(&self) -> crate::db::error::Result<()> {
        self.shipped_puzzles
            .get_or_try_init::<crate::db::error::StoreError, _, _>(|| async {
                let shipped =
                    crate::puzzles::seed_data::load(&self.store, wall_clock::now_ms()).await?;
                tracing::info!(shipped, "shipped puzzles stored");
                Ok(())
            })
            .await?;
        Ok(())
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
        // No bound on mail looks further back than a day or the rematch offers' period.
        let mail_window =
            (self.reach.config.mail_limits.offer_every.as_millis() as i64).max(24 * 3600 * 1000);
        if let Err(e) = self.store.sweep_mail_log(now - mail_window).await {
            tracing::warn!(error = %e, "cannot sweep the mails counted");
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
