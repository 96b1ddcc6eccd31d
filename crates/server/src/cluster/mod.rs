//! Several instances on one PostgreSQL database (issue 28). No home-made consensus: the
//! database is the one authority, and every decision is one of its transactions.
//!
//! - Each instance has a row in `instances`, kept alive by a heartbeat in database time (the
//!   instances' own clocks never enter a decision). The rooms' clocks read the database's
//!   clock too (`Cluster::database_clock`, its offset read at every heartbeat).
//! - A live game is run by one instance at a time, the owner in `game_leases`; taking a game
//!   over increments its epoch, and a move commits only with its room's epoch (`writer`'s
//!   fence, checked in the move's transaction under a shared lock on the lease row). An
//!   instance paused past its lease (`SIGSTOP`) or cut off may take a move in, but never
//!   commits it once another instance owns the game: the move is refused, not acknowledged.
//! - A game is taken over only when its owner is no longer alive (or let it go), and only when
//!   something needs it: a player subscribes, its clock runs out (`Rooms::wake_due`), or the
//!   `adopt` sweep finds it orphaned. Other instances forward their players' commands to the
//!   owner over one internal WebSocket per pair of instances (`link`), and pushes that are
//!   not about one game (your turn, lobby) reach every instance through `LISTEN/NOTIFY`
//!   (`fanout`).
//!
//! SQLite has one instance (its data directory is locked) and no cluster.
use error::ClusterError;

/// Results of the cluster's operations.
pub type Result<T, E = ClusterError> = std::result::Result<T, E>;
use sqlx::{AnyPool, Row};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod error;
pub mod pairing;

/// How often an instance renews its life…
pub const HEARTBEAT: Duration = Duration::from_secs(1);
/// …and how long past its last renewal it counts as alive. A dead instance's games are free
/// within this; the `adopt` sweep (every `rooms::WAKE_EVERY`) takes them over after it.
pub const LIFE: Duration = Duration::from_secs(4);

/// The `NOTIFY` channel on which a draining instance says it left (`Cluster::retire`).
pub const DEPARTURES: &str = "pyramidion_departures";

/// Every this many heartbeats the leases of this instance's rooms are compared with the
/// database's even when its life never lapsed: a room that lost its game some other way
/// (an operator's hand on `game_leases`) stops serving it within this.
const LEASE_CHECK_EVERY: u32 = 30;
/// Heartbeats after a lapse of this instance's life that still compare its leases: a
/// take-over decided just before the lapse was seen may commit just after the first
/// comparison read the leases.
const LEASE_CHECKS_AFTER_LAPSE: u32 = 3;

/// The database's clock in ms since the epoch: the one clock every instance agrees on.
const DB_NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// A reading of the database's clock that took longer than this (a pool wait, a slow
/// database) is not used to set this instance's offset to it: it could be off by half of it.
const CLOCK_READ_MAX_MS: i64 = 200;

/// Header carrying the cluster's secret on the internal link (drawn once, kept in
/// `server_secrets`: only instances of this database know it).
pub const SECRET_HEADER: &str = "x-pyramidion-cluster";

/// Whether `headers` carry the cluster's `secret` ([`SECRET_HEADER`]), compared in constant
/// time: how long a refusal takes says nothing of how much of a guess was right.
pub fn carries_secret(headers: &axum::http::HeaderMap, secret: &str) -> bool {
    use subtle::ConstantTimeEq;
    headers
        .get(SECRET_HEADER)
        .is_some_and(|v| bool::from(v.as_bytes().ct_eq(secret.as_bytes())))
}

pub struct Cluster {
    /// This instance's id.
    pub me: String,
    /// Where the other instances reach this one (`http://host:port`).
    pub address: String,
    pub secret: String,
    pool: AnyPool,
    /// The instances alive at the last heartbeat (this one included while it lives).
    alive: Mutex<HashSet<String>>,
    /// Set when draining: the heartbeat stops and every game is let go.
    retired: std::sync::atomic::AtomicBool,
    /// Woken when another instance drains (its `retire` notice, heard by `fanout`): its games
    /// are free at once, and waiting for the next sweep would freeze them for seconds.
    pub departures: Arc<tokio::sync::Notify>,
    /// Changes of this instance's open connections per user, applied in order (`presence`).
    presence: tokio::sync::mpsc::UnboundedSender<(String, i64)>,
    /// Heartbeats and take-overs are counted there.
    metrics: Arc<crate::metrics::Metrics>,
    /// When the last heartbeat that found this instance alive all along began: until
    /// `LIFE - HEARTBEAT` after it, nobody can have taken a game of this instance over
    /// (`Cluster::surely_alive`).
    standing: Mutex<tokio::time::Instant>,
    /// The leases this instance holds by the database (game → epoch), read by the heartbeat
    /// after its life lapsed (a stall, a database outage) and every `LEASE_CHECK_EVERY`
    /// beats: the rooms whose epoch is not among them check theirs and stop serving a game
    /// run elsewhere now (`Rooms::check_leases`).
    held: tokio::sync::watch::Sender<Arc<HashMap<String, i64>>>,
    /// The database's clock less this instance's (ms), read at every heartbeat: the rooms'
    /// clocks follow the database's (`database_clock`), as leases do (issue 53).
    db_offset: Arc<std::sync::atomic::AtomicI64>,
}

/// Who runs a live game now.
pub enum Owner {
    /// This instance, from this epoch on.
    Me(i64),
    /// Another, alive instance, reached at `address`.
    Other { id: String, address: String },
}

/// How [`Cluster::take`] treats a lease this instance already holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renewal {
    /// A new epoch at every claim: a game's room claims once, when it is built, and a newer
    /// room of the same instance must fence out an older one.
    NewEpoch,
    /// The same epoch while the holder stays: the pairing queue confirms its hold at every ask,
    /// and a seating under way must not be fenced out by the next ask on the same instance.
    KeepEpoch,
}

/// A game this instance owns; let go when dropped (its room ended), so that whichever
/// instance a player reaches next may take it at once.
pub struct Lease {
    pub cluster: Arc<Cluster>,
    pub game: String,
    pub epoch: i64,
}

impl Lease {
    /// Whether this instance still holds the game at this lease's epoch, by the database.
    pub async fn held(&self) -> Result<bool> {
        self.cluster.holds(&self.game, self.epoch).await
    }

    /// Whether another instance may have taken the game over since this instance's last
    /// heartbeat (its life may have lapsed): then [`Lease::held`] says.
    pub fn doubtful(&self) -> bool {
        !self.cluster.surely_alive()
    }

    /// What the writer checks before committing a move of this game.
    pub fn fence(&self) -> crate::db::fence::Fence {
        crate::db::fence::Fence {
            owner: self.cluster.me.clone(),
            epoch: self.epoch,
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let (cluster, game, epoch) = (self.cluster.clone(), self.game.clone(), self.epoch);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = cluster.release(&game, epoch).await {
                    tracing::warn!(game, error = %e, "cannot let a game go (it is taken over when this instance's life ends)");
                }
            });
        }
    }
}

impl Cluster {
    /// Joins the cluster of the database behind `pool` as `me`, reachable at `address`, and
    /// starts the heartbeat.
    pub async fn join(
        store: &crate::db::store::Store,
        me: String,
        address: String,
    ) -> Result<Arc<Self>> {
        let pool = store.pool.clone();
        let joining = tokio::time::Instant::now();
        let secret = match store.secret("cluster_link").await? {
            Some(s) => s,
            None => {
                store
                    .add_secret("cluster_link", &crate::secret::random_hex(32))
                    .await?;
                store
                    .secret("cluster_link")
                    .await?
                    .ok_or(ClusterError::NoSecret)?
            }
        };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO instances (id, address, alive_until, started_at)
             VALUES ($1, $2, {DB_NOW_MS} + $3, {DB_NOW_MS})
             ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address,
                 alive_until = EXCLUDED.alive_until, started_at = EXCLUDED.started_at"
        )))
        .bind(&me)
        .bind(&address)
        .bind(LIFE.as_millis() as i64)
        .execute(&pool)
        .await
        .map_err(ClusterError::Join)?;
        // Connections of a previous life of this instance are long closed.
        sqlx::query("DELETE FROM presence WHERE instance = $1")
            .bind(&me)
            .execute(&pool)
            .await?;
        let (presence, deltas) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(keep_presence(pool.clone(), me.clone(), deltas));
        let cluster = Arc::new(Cluster {
            presence,
            alive: Mutex::new(HashSet::from([me.clone()])),
            metrics: store.metrics.clone(),
            me,
            address,
            secret,
            pool,
            retired: Default::default(),
            departures: Default::default(),
            standing: Mutex::new(joining),
            held: tokio::sync::watch::channel(Arc::default()).0,
            db_offset: Default::default(),
        });
        // Read before any room is built here (`resume_all`), then at every heartbeat.
        if let Err(e) = cluster.read_database_clock().await {
            tracing::warn!(error = %e, "cannot read the database's clock: the rooms' clocks follow this instance's until a heartbeat reads it");
        }
        let beating = cluster.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(HEARTBEAT);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let (mut beats, mut checks) = (0u32, 0u32);
            loop {
                every.tick().await;
                if beating.retired.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                beats = beats.wrapping_add(1);
                let beat = beating.beat().await;
                beating.metrics.heartbeat(beat.is_ok());
                match beat {
                    Ok(true) => {
                        tracing::warn!(
                            "this instance's life lapsed (a stall, or the database out of reach): its games may run elsewhere now"
                        );
                        checks = LEASE_CHECKS_AFTER_LAPSE;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "heartbeat failed: this instance's games will be taken over if it keeps failing");
                        continue;
                    }
                }
                if checks > 0 || beats.is_multiple_of(LEASE_CHECK_EVERY) {
                    match beating.held_leases().await {
                        Ok(held) => {
                            checks = checks.saturating_sub(1);
                            beating.held.send_replace(Arc::new(held));
                        }
                        Err(e) => tracing::warn!(error = %e, "cannot read this instance's leases"),
                    }
                }
            }
        });
        tracing::info!(instance = %cluster.me, address = %cluster.address, "joined the cluster");
        Ok(cluster)
    }

    /// The time of day the rooms of this instance read: the database's, so that a game's
    /// clock reads the same on every instance whatever their own wall clocks say (the room
    /// clock's default; a test's own clock is kept).
    pub fn database_clock(&self) -> crate::wall_clock::WallClock {
        crate::wall_clock::WallClock::corrected(self.db_offset.clone())
    }

    /// Reads the database's clock and keeps its offset to this instance's (the midpoint of
    /// the read), unless the read took too long to be trusted.
    async fn read_database_clock(&self) -> Result<()> {
        let before = crate::wall_clock::now_ms();
        let db: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {DB_NOW_MS}")))
            .fetch_one(&self.pool)
            .await?;
        let after = crate::wall_clock::now_ms();
        if after - before <= CLOCK_READ_MAX_MS {
            self.db_offset.store(
                db - (before + after) / 2,
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        Ok(())
    }

    /// Renews this instance's life; whether it had lapsed (by the database's clock) since the
    /// last renewal, in which case other instances may have taken its games over.
    async fn beat(&self) -> Result<bool> {
        if let Err(e) = self.read_database_clock().await {
            tracing::warn!(error = %e, "cannot read the database's clock");
        }
        let started = tokio::time::Instant::now();
        // The CTE reads the row as it was before the update (one snapshot for the statement).
        let renewed = sqlx::query(sqlx::AssertSqlSafe(format!(
            "WITH before AS (SELECT alive_until FROM instances WHERE id = $2)
             UPDATE instances SET alive_until = {DB_NOW_MS} + $1 WHERE id = $2
             RETURNING (SELECT alive_until FROM before) AS was, {DB_NOW_MS} AS now"
        )))
        .bind(LIFE.as_millis() as i64)
        .bind(&self.me)
        .fetch_optional(&self.pool)
        .await?;
        // No row: this instance's row is gone, as good as dead.
        let lapsed = match renewed {
            Some(row) => row.try_get::<i64, _>("was")? <= row.try_get::<i64, _>("now")?,
            None => true,
        };
        if !lapsed {
            *self.standing.lock().unwrap_or_else(|e| e.into_inner()) = started;
        }
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT id FROM instances WHERE alive_until > {DB_NOW_MS}"
        )))
        .fetch_all(&self.pool)
        .await?;
        let alive = rows
            .iter()
            .map(|r| r.try_get::<String, _>("id"))
            .collect::<Result<HashSet<_>, _>>()?;
        *self.alive.lock().unwrap_or_else(|e| e.into_inner()) = alive;
        Ok(lapsed)
    }

    /// Whether this instance's life surely has not lapsed since its last heartbeat, by its
    /// own monotonic clock (which runs on while the process is stopped): its life reaches
    /// `LIFE` past that heartbeat's start, and a heartbeat's margin is left for the clocks'
    /// drift. When not, a game may have been taken over without this instance knowing yet.
    pub fn surely_alive(&self) -> bool {
        self.standing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
            < LIFE - HEARTBEAT
    }

    /// Every lease this instance holds now, by the database: game → epoch.
    async fn held_leases(&self) -> Result<HashMap<String, i64>> {
        let rows = sqlx::query("SELECT game_id, epoch FROM game_leases WHERE owner = $1")
            .bind(&self.me)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("game_id")?, r.try_get("epoch")?)))
            .collect()
    }

    /// The leases this instance held at the heartbeat's last reading of them; changes when
    /// it reads them again (see `Cluster::held`).
    pub fn held_changes(&self) -> tokio::sync::watch::Receiver<Arc<HashMap<String, i64>>> {
        self.held.subscribe()
    }

    /// Whether this instance holds `game` at `epoch`, by the database.
    pub async fn holds(&self, game: &str, epoch: i64) -> Result<bool> {
        let row = sqlx::query(
            "SELECT 1 FROM game_leases WHERE game_id = $1 AND owner = $2 AND epoch = $3",
        )
        .bind(game)
        .bind(&self.me)
        .bind(epoch)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// The alive instance that holds `game`'s lease now and its address, by the database;
    /// none when it is free or its holder is dead.
    pub async fn holder(&self, game: &str) -> Result<Option<(String, String)>> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT l.owner, i.address FROM game_leases l JOIN instances i ON i.id = l.owner
             WHERE l.game_id = $1 AND i.alive_until > {DB_NOW_MS}"
        )))
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => Ok(Some((row.try_get("owner")?, row.try_get("address")?))),
            None => Ok(None),
        }
    }

    /// Why this instance is not a member of the cluster now, if it is not: drained, or no
    /// heartbeat has found it alive for so long that its life may have lapsed (the others may
    /// take its games over: `surely_alive`). The readiness check (`/readyz`) answers 503 then.
    pub fn not_member(&self) -> Option<&'static str> {
        if self.retired() {
            return Some("this instance drains: it left the cluster");
        }
        if !self.surely_alive() {
            return Some("this instance's heartbeat fails: the cluster may count it dead");
        }
        None
    }

    /// Tells the others where to reach this instance (once its listener is bound).
    pub async fn advertise(&self, address: &str) -> Result<()> {
        sqlx::query("UPDATE instances SET address = $1 WHERE id = $2")
            .bind(address)
            .bind(&self.me)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// `user` opened (`+1`) or closed (`-1`) a connection on this instance.
    pub fn connections_changed(&self, user: &str, delta: i64) {
        let _ = self.presence.send((user.to_string(), delta));
    }

    /// Whether `user` has an open connection on any alive instance.
    pub async fn present(&self, user: &str) -> Result<bool> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT 1 FROM presence p JOIN instances i ON i.id = p.instance
             WHERE p.user_id = $1 AND p.conns > 0 AND i.alive_until > {DB_NOW_MS}"
        )))
        .bind(user)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Whether `instance` was alive at the last heartbeat.
    pub fn is_alive(&self, instance: &str) -> bool {
        self.alive
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(instance)
    }

    /// Takes `game` if it is free (never owned, let go, or its owner is dead), or confirms
    /// this instance's hold with a new epoch; otherwise names its alive owner.
    pub async fn claim(&self, game: &str) -> Result<Owner> {
        self.take(game, Renewal::NewEpoch).await
    }

    /// Takes the lease row `lease` (a game's, or a service's such as the pairing queue's) if it
    /// is free (never held, let go, or its holder is dead), or confirms this instance's hold as
    /// `renewal` says; otherwise names its alive holder. The epoch grows whenever the holder
    /// changes.
    pub async fn take(&self, lease: &str, renewal: Renewal) -> Result<Owner> {
        let epoch = match renewal {
            Renewal::NewEpoch => "game_leases.epoch + 1",
            Renewal::KeepEpoch => {
                "CASE WHEN game_leases.owner = EXCLUDED.owner THEN game_leases.epoch
                      ELSE game_leases.epoch + 1 END"
            }
        };
        for _ in 0..3 {
            // `previous`: the holder before this statement (the CTE reads the row as it was),
            // to count take-overs.
            let taken = sqlx::query(sqlx::AssertSqlSafe(format!(
                "WITH before AS (SELECT owner FROM game_leases WHERE game_id = $1)
                 INSERT INTO game_leases (game_id, owner, epoch) VALUES ($1, $2, 1)
                 ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = {epoch}
                 WHERE game_leases.owner = EXCLUDED.owner OR game_leases.owner = ''
                    OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = game_leases.owner
                                   AND i.alive_until > {DB_NOW_MS})
                 RETURNING epoch, COALESCE((SELECT owner FROM before), $2) AS previous"
            )))
            .bind(lease)
            .bind(&self.me)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(row) = taken {
                // A take-over: the lease named another instance, dead (or drained). A fresh
                // lease, one let go (`''`) or this instance's own is not one.
                let previous: String = row.try_get("previous")?;
                if !previous.is_empty() && previous != self.me {
                    self.metrics.lease_taken_over();
                }
                return Ok(Owner::Me(row.try_get("epoch")?));
            }
            if let Some((id, address)) = self.holder(lease).await? {
                // Alive now by the database, whatever the last heartbeat saw.
                self.alive
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id.clone());
                return Ok(Owner::Other { id, address });
            }
            // Its holder died between the two statements: try again.
        }
        Err(ClusterError::Contended(format!(
            "{lease} changes holder too often to be held"
        )))
    }

    /// Takes the queued analysis of `game` to run it here, unless an alive instance runs it.
    pub async fn claim_analysis(&self, game: &str) -> Result<bool> {
        let claimed = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE analyses SET runner = $2 WHERE game_id = $1 AND status = 'queued'
               AND (runner IS NULL OR runner = $2
                    OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = analyses.runner
                                   AND i.alive_until > {DB_NOW_MS}))"
        )))
        .bind(game)
        .bind(&self.me)
        .execute(&self.pool)
        .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Lets `game` go, if this instance still holds it at `epoch`.
    pub async fn release(&self, game: &str, epoch: i64) -> Result<()> {
        sqlx::query(
            "UPDATE game_leases SET owner = '' WHERE game_id = $1 AND owner = $2 AND epoch = $3",
        )
        .bind(game)
        .bind(&self.me)
        .bind(epoch)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Live games whose owner is dead: nobody runs their clocks or bots until one takes them.
    pub async fn orphans(&self) -> Result<Vec<String>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT l.game_id FROM game_leases l JOIN games g ON g.id = l.game_id
             WHERE g.status = 'live' AND l.owner <> ''
               AND NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = l.owner
                               AND i.alive_until > {DB_NOW_MS})"
        )))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>("game_id").map_err(Into::into))
            .collect()
    }

    /// Drains: this instance stops living, so the others take its games over at once (a move
    /// of its still running rooms is then refused by the fence, never committed twice).
    pub async fn retire(&self) -> Result<()> {
        self.retired
            .store(true, std::sync::atomic::Ordering::Relaxed);
        sqlx::query("UPDATE instances SET alive_until = 0 WHERE id = $1")
            .bind(&self.me)
            .execute(&self.pool)
            .await?;
        // The others take its games now rather than at their next sweep (issue 53: a drain
        // hands over within a second). Only a hint: the sweep still finds them.
        if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(DEPARTURES)
            .bind(&self.me)
            .execute(&self.pool)
            .await
        {
            tracing::warn!(error = %e, "cannot tell the others that this instance leaves: they take its games at their next sweep");
        }
        Ok(())
    }

    pub fn retired(&self) -> bool {
        self.retired.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Applies the changes of this instance's connections per user to `presence`, in order.
async fn keep_presence(
    pool: AnyPool,
    me: String,
    mut deltas: tokio::sync::mpsc::UnboundedReceiver<(String, i64)>,
) {
    while let Some((user, delta)) = deltas.recv().await {
        let applied = async {
            sqlx::query(
                "INSERT INTO presence (user_id, instance, conns) VALUES ($1, $2, $3)
                 ON CONFLICT (user_id, instance) DO UPDATE SET conns = presence.conns + EXCLUDED.conns",
            )
            .bind(&user)
            .bind(&me)
            .bind(delta)
            .execute(&pool)
            .await?;
            sqlx::query("DELETE FROM presence WHERE user_id = $1 AND instance = $2 AND conns <= 0")
                .bind(&user)
                .bind(&me)
                .execute(&pool)
                .await?;
            Ok::<_, sqlx::Error>(())
        };
        if let Err(e) = applied.await {
            tracing::warn!(error = %e, "cannot record a connection's presence");
        }
    }
}

#[cfg(test)]
mod secret_tests {
    use super::{SECRET_HEADER, carries_secret};
    use axum::http::{HeaderMap, HeaderValue};

    #[test]
    fn only_the_whole_secret_is_carried() {
        let mut h = HeaderMap::new();
        assert!(!carries_secret(&h, "s3cret"));
        for (sent, ok) in [
            ("s3cret", true),
            ("s3cre", false),
            ("s3cret!", false),
            ("S3cret", false),
            ("", false),
        ] {
            h.insert(SECRET_HEADER, HeaderValue::from_static(sent));
            assert_eq!(carries_secret(&h, "s3cret"), ok, "{sent:?}");
        }
    }
}
