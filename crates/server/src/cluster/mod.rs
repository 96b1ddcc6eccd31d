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
//!   owner over one internal WebSocket per game (`link`), and pushes that are not about one
//!   game (your turn, lobby) reach every instance through `LISTEN/NOTIFY` (`fanout`).
//!
//! SQLite has one instance (its data directory is locked) and no cluster.
use error::ClusterError;

/// Results of the cluster's operations.
pub type Result<T, E = ClusterError> = std::result::Result<T, E>;
use sqlx::{AnyPool, Row};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod error;
pub mod pairing;

/// How often an instance renews its life…
pub const HEARTBEAT: Duration = Duration::from_secs(1);
/// …and how long past its last renewal it counts as alive. A dead instance's games are free
/// within this; the `adopt` sweep (every `rooms::WAKE_EVERY`) takes them over after it.
pub const LIFE: Duration = Duration::from_secs(4);

/// The database's clock in ms since the epoch: the one clock every instance agrees on.
const DB_NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// A reading of the database's clock that took longer than this (a pool wait, a slow
/// database) is not used to set this instance's offset to it: it could be off by half of it.
const CLOCK_READ_MAX_MS: i64 = 200;

/// Header carrying the cluster's secret on the internal link (drawn once, kept in
/// `server_secrets`: only instances of this database know it).
pub const SECRET_HEADER: &str = "x-pyramidion-cluster";

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
    /// Changes of this instance's open connections per user, applied in order (`presence`).
    presence: tokio::sync::mpsc::UnboundedSender<(String, i64)>,
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
            me,
            address,
            secret,
            pool,
            retired: Default::default(),
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
            loop {
                every.tick().await;
                if beating.retired.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                if let Err(e) = beating.beat().await {
                    tracing::warn!(error = %e, "heartbeat failed: this instance's games will be taken over if it keeps failing");
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

    async fn beat(&self) -> Result<()> {
        if let Err(e) = self.read_database_clock().await {
            tracing::warn!(error = %e, "cannot read the database's clock");
        }
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE instances SET alive_until = {DB_NOW_MS} + $1 WHERE id = $2"
        )))
        .bind(LIFE.as_millis() as i64)
        .bind(&self.me)
        .execute(&self.pool)
        .await?;
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
        Ok(())
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
            let taken = sqlx::query(sqlx::AssertSqlSafe(format!(
                "INSERT INTO game_leases (game_id, owner, epoch) VALUES ($1, $2, 1)
                 ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = {epoch}
                 WHERE game_leases.owner = EXCLUDED.owner OR game_leases.owner = ''
                    OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = game_leases.owner
                                   AND i.alive_until > {DB_NOW_MS})
                 RETURNING epoch"
            )))
            .bind(lease)
            .bind(&self.me)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(row) = taken {
                return Ok(Owner::Me(row.try_get("epoch")?));
            }
            let owner = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT l.owner, i.address FROM game_leases l JOIN instances i ON i.id = l.owner
                 WHERE l.game_id = $1 AND i.alive_until > {DB_NOW_MS}"
            )))
            .bind(lease)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(row) = owner {
                let id: String = row.try_get("owner")?;
                // Alive now by the database, whatever the last heartbeat saw.
                self.alive
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id.clone());
                return Ok(Owner::Other {
                    id,
                    address: row.try_get("address")?,
                });
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
