//! Durable storage behind one `sqlx::Any` code path: an embedded SQLite file by default, or
//! PostgreSQL by URL. Only portable SQL (`$n` parameters, TEXT and BIGINT columns).
//!
//! A game is stored as its record: the `games` row (kind, options, seed) plus one `moves` row
//! per accepted move, inserted and committed before the move is acknowledged or broadcast.
//! Reads use a pool; every write goes through the one writer of `crate::db::writer`.
use crate::db::error::{Result, StoreError};
use crate::db::rows::{
    GameRow, SEATS_OF_GAME, SeatKind, StoredGame, StoredSeat, StoredUser, TurnWrite, UserRow,
    insert_game, insert_seat, read_games, read_seats,
};
use crate::db::writer::{Writer, WriterOptions};
use crate::metrics::Metrics;
use crate::wall_clock::now_ms;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyConnection, AnyPool, Connection, Executor, Row};
use std::sync::Arc;

/// Migrations: `crates/server/migrations/*.sql`, embedded at build time and applied in order
/// once each (tracked by sqlx in `_sqlx_migrations`).
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Store {
    /// Reads.
    pub pool: AnyPool,
    pub backend: Backend,
    /// Every write goes through this one writer, which commits them in groups.
    pub(crate) writer: Writer,
    /// Where reads report how long they waited for a connection.
    pub(crate) metrics: Arc<Metrics>,
}

/// The page cache of each SQLite reader connection (SQLite's default is about 2 MiB).
/// Why smaller: in WAL mode a reader drops its cache whenever another connection committed
/// since its last read, which the writer does many times a second under load, so a large
/// cache is rarely reused, while its memory stays with the allocator. The writer, whose
/// cache stays valid (nothing else writes), keeps the default.
const READER_CACHE: &str = "PRAGMA cache_size = -512";

impl Store {
    /// Opens (creating if needed) the database at `url` and applies migrations.
    pub async fn open(url: &str, metrics: Arc<Metrics>, writer: WriterOptions) -> Result<Store> {
        install_default_drivers();
        let backend = if url.starts_with("postgres") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        // `reader`: a connection of the read pool (see READER_CACHE).
        let options = |max, reader: bool| {
            let pool = AnyPoolOptions::new()
                .max_connections(max)
                // A broken database fails fast instead of retrying for the default 30 s.
                .acquire_timeout(std::time::Duration::from_secs(10));
            // A SQLite connection is a local file: it does not drop or go stale as a network
            // one does, so every connection opens at the start and stays, and a read need not
            // ping it first. (Then no read waits on the database thread inside the acquire's
            // timeout, which a test on paused time would see run out at once.)
            let pool = match backend {
                Backend::Sqlite => pool
                    .min_connections(max)
                    .test_before_acquire(false)
                    .idle_timeout(None)
                    .max_lifetime(None),
                Backend::Postgres => pool,
            };
            pool.after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL: readers never block the writer; FULL: a commit survives
                        // power loss, which "persist before acknowledging" relies on.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        if reader {
                            conn.execute(READER_CACHE).await?;
                        }
                    }
                    Ok(())
                })
            })
        };
        let open = |max, reader| async move {
            options(max, reader)
                .connect(url)
                .await
                .map_err(|error| StoreError::Open {
                    url: url.to_string(),
                    error,
                })
        };
        // One plain connection first: a database that cannot be opened (corrupt, unreadable,
        // unreachable) is reported at once with its own error, not as a pool timeout.
        {
            let mut first =
                AnyConnection::connect(url)
                    .await
                    .map_err(|error| StoreError::Open {
                        url: url.to_string(),
                        error,
                    })?;
            if backend == Backend::Sqlite {
                first
                    .execute("PRAGMA journal_mode = WAL")
                    .await
                    .map_err(|error| StoreError::Open {
                        url: url.to_string(),
                        error,
                    })?;
            }
            first
                .execute("SELECT 1")
                .await
                .map_err(|error| StoreError::Read {
                    url: url.to_string(),
                    error,
                })?;
            first.close().await?;
        }
        // The writer's own connection: nothing else writes (migrations run before it starts).
        let writes = open(1, false).await?;
        migrate(&writes).await?;
        fill_name_keys(&writes).await?;
        fill_club_keys(&writes).await?;
        // Readers connect once the schema is migrated: a SQLite connection opened before a
        // migration added columns prepares `SELECT *` with the old columns, and sqlx then
        // reads rows with more values than the columns it knows (a panic in its worker).
        let pool = open(if backend == Backend::Sqlite { 8 } else { 16 }, true).await?;
        // A read-only file or directory opens and reads fine: find out now, not at the first
        // move, that nothing could be stored.
        let mut probe = writes.begin().await?;
        sqlx::query("UPDATE probe SET at = $1 WHERE id = 1")
            .bind(now_ms())
            .execute(&mut *probe)
            .await
            .and(Ok(()))
            .map_err(StoreError::NotWritable)?;
        probe.commit().await.map_err(StoreError::NotWritable)?;
        Ok(Store {
            pool,
            backend,
            writer: Writer::spawn(writes, metrics.clone(), writer),
            metrics,
        })
    }

    /// A read connection of the pool; the wait is measured (`pyramidion_pool_wait_seconds`),
    /// failed waits included: a database outage shows as reads waiting out the acquire
    /// timeout.
    pub async fn read(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Any>> {
        let started = std::time::Instant::now();
        let conn = self.pool.acquire().await;
        self.metrics.observe_pool_wait(started.elapsed());
        Ok(conn?)
    }

    /// Whether the database answers a trivial query within `within` (the readiness check):
    /// the error (for the log) when it does not.
    pub async fn ping(&self, within: std::time::Duration) -> std::result::Result<(), String> {
        let probe = async {
            let mut conn = self.read().await?;
            sqlx::query("SELECT 1").execute(&mut *conn).await?;
            Ok::<_, StoreError>(())
        };
        match tokio::time::timeout(within, probe).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {within:?}")),
        }
    }

    // ---- users and sessions -------------------------------------------------------------

    pub async fn create_user(
        &self,
        id: &str,
        name: Option<&str>,
        password_hash: Option<&str>,
        guest: bool,
    ) -> Result<()> {
        self.writer
            .execute(
                sqlx::query("INSERT INTO users (id, name, password_hash, guest, created_at, name_key) VALUES ($1, $2, $3, $4, $5, $6)")
                    .bind(id)
                    .bind(name)
                    .bind(password_hash)
                    .bind(guest as i64)
                    .bind(now_ms())
                    .bind(name.map(crate::names::key)),
            )
            .await
    }

    /// Turns a guest into an account, keeping its id (and so its games). False if the name (or
    /// a look-alike) is taken.
    pub async fn upgrade_guest(&self, id: &str, name: &str, password_hash: &str) -> Result<bool> {
        let (id, name, hash) = (id.to_string(), name.to_string(), password_hash.to_string());
        let key = crate::names::key(&name);
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let taken = sqlx::query("SELECT id FROM users WHERE name = $1 OR name_key = $2")
                        .bind(&name)
                        .bind(&key)
                        .fetch_optional(&mut *c)
                        .await?;
                    if taken.is_some() {
                        return Ok(false);
                    }
                    let done = sqlx::query(
                        "UPDATE users SET name = $1, password_hash = $2, guest = 0, name_key = $4 WHERE id = $3 AND guest = 1",
                    )
                    .bind(name)
                    .bind(hash)
                    .bind(id)
                    .bind(key)
                    .execute(c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                })
            })
            .await
    }

    pub async fn set_password_hash(&self, user_id: &str, password_hash: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
                    .bind(password_hash)
                    .bind(user_id),
            )
            .await
    }

    /// The user with that name, or a name that looks like it (see `crate::names`; the exact
    /// name first). Its `name` is the one stored, which may be the look-alike.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>> {
        let row = sqlx::query_as::<_, StoredUser>(
            "SELECT id, name, password_hash, guest FROM users WHERE name = $1 OR name_key = $2 \
             ORDER BY CASE WHEN name = $1 THEN 0 ELSE 1 END LIMIT 1",
        )
        .bind(name)
        .bind(crate::names::key(name))
        .fetch_optional(&mut *self.read().await?)
        .await?;
        Ok(row.map(UserRow::from))
    }

    pub async fn user(&self, id: &str) -> Result<Option<UserRow>> {
        let row = sqlx::query_as::<_, StoredUser>(
            "SELECT id, name, password_hash, guest FROM users WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        Ok(row.map(UserRow::from))
    }

    pub async fn create_session(&self, token_hash: &str, user_id: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO sessions (token_hash, user_id, created_at) VALUES ($1, $2, $3)",
                )
                .bind(token_hash)
                .bind(user_id)
                .bind(now_ms()),
            )
            .await
    }

    /// The user of a session started after `started_after` (ms; older ones have expired).
    pub async fn session_user(
        &self,
        token_hash: &str,
        started_after: i64,
    ) -> Result<Option<String>> {
        let row =
            sqlx::query("SELECT user_id FROM sessions WHERE token_hash = $1 AND created_at > $2")
                .bind(token_hash)
                .bind(started_after)
                .fetch_optional(&mut *self.read().await?)
                .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("user_id")?),
            None => None,
        })
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<()> {
        self.writer
            .execute(sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash))
            .await
    }

    /// Deletes the sessions started before `expired_before` (ms), then the guests left with
    /// no session who sit at no open or live table. Returns how many of each.
    pub async fn sweep(&self, expired_before: i64) -> Result<(u64, u64)> {
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let sessions = sqlx::query("DELETE FROM sessions WHERE created_at <= $1")
                        .bind(expired_before)
                        .execute(&mut *c)
                        .await?
                        .rows_affected();
                    let guests = sqlx::query(
                        "DELETE FROM users WHERE guest = 1 AND created_at <= $1
                           AND NOT EXISTS (SELECT 1 FROM sessions WHERE sessions.user_id = users.id)
                           AND NOT EXISTS (SELECT 1 FROM seats JOIN games ON games.id = seats.game_id
                                           WHERE seats.user_id = users.id
                                             AND games.status IN ('open', 'live'))",
                    )
                    .bind(expired_before)
                    .execute(&mut *c)
                    .await?
                    .rows_affected();
                    Ok((sessions, guests))
                })
            })
            .await
    }

    // ---- games --------------------------------------------------------------------------

    /// Open or live tables created by `user_id`.
    pub async fn active_tables_of(&self, user_id: &str) -> Result<i64> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE created_by = $1 AND status IN ('open', 'live')",
        )
        .bind(user_id)
        .fetch_one(&mut *self.read().await?)
        .await?;
        Ok(n)
    }

    /// Seats `user_id` holds at open or live games.
    pub async fn seats_held_by(&self, user_id: &str) -> Result<i64> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id \
             WHERE s.user_id = $1 AND s.kind = 'human' AND g.status IN ('open', 'live')",
        )
        .bind(user_id)
        .fetch_one(&mut *self.read().await?)
        .await?;
        Ok(n)
    }

    /// Up to `limit` open listed tables, oldest first, after the table (`created_at`, `id`)
    /// of `after` if given.
    pub async fn open_tables_page(
        &self,
        limit: usize,
        after: Option<(i64, String)>,
    ) -> Result<Vec<GameRow>> {
        let (at, id) = after.unwrap_or((i64::MIN, String::new()));
        let rows = sqlx::query_as::<_, StoredGame>(
            "SELECT * FROM games WHERE status = 'open' AND listed = 1
               AND (created_at > $1 OR (created_at = $1 AND id > $2))
             ORDER BY created_at, id LIMIT $3",
        )
        .bind(at)
        .bind(id)
        .bind(limit as i64)
        .fetch_all(&mut *self.read().await?)
        .await?;
        read_games(rows)
    }

    pub async fn create_game(&self, g: &GameRow, seats: &[SeatKind]) -> Result<()> {
        let (g, seats) = (g.clone(), seats.to_vec());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    insert_game(c, &g, None).await?;
                    for (i, seat) in seats.iter().enumerate() {
                        insert_seat(c, &g.id, i, seat).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    pub async fn set_seat(&self, game_id: &str, seat: usize, kind: &SeatKind) -> Result<()> {
        let (game_id, kind) = (game_id.to_string(), kind.clone());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM seats WHERE game_id = $1 AND seat = $2")
                        .bind(&game_id)
                        .bind(seat as i64)
                        .execute(&mut *c)
                        .await?;
                    insert_seat(c, &game_id, seat, &kind).await
                })
            })
            .await
    }

    pub async fn set_status(
        &self,
        game_id: &str,
        status: crate::game_status::GameStatus,
        result: Option<&str>,
    ) -> Result<()> {
        let finished = (status == crate::game_status::GameStatus::Finished).then(now_ms);
        self.writer
            .execute(
                sqlx::query(
                    "UPDATE games SET status = $1, result = $2, finished_at = $3 WHERE id = $4",
                )
                .bind(status.as_str())
                .bind(result)
                .bind(finished)
                .bind(game_id),
            )
            .await
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>> {
        let row = sqlx::query_as::<_, StoredGame>("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        row.map(GameRow::try_from).transpose()
    }

    pub async fn games_with_status(
        &self,
        status: crate::game_status::GameStatus,
    ) -> Result<Vec<GameRow>> {
        let rows = sqlx::query_as::<_, StoredGame>(
            "SELECT * FROM games WHERE status = $1 ORDER BY created_at",
        )
        .bind(status.as_str())
        .fetch_all(&mut *self.read().await?)
        .await?;
        read_games(rows)
    }

    /// Games a user sits at, newest first.
    pub async fn games_of_user(&self, user_id: &str) -> Result<Vec<GameRow>> {
        let rows = sqlx::query_as::<_, StoredGame>(
            "SELECT games.* FROM games JOIN seats ON seats.game_id = games.id
             WHERE seats.user_id = $1 ORDER BY games.created_at DESC",
        )
        .bind(user_id)
        .fetch_all(&mut *self.read().await?)
        .await?;
        read_games(rows)
    }

    pub async fn seats(&self, game_id: &str) -> Result<Vec<SeatKind>> {
        let rows = sqlx::query_as::<_, StoredSeat>(SEATS_OF_GAME)
            .bind(game_id)
            .fetch_all(&mut *self.read().await?)
            .await?;
        read_seats(rows)
    }

    /// Appends one accepted move (and, with `result`, marks the game finished); it is
    /// committed when this returns. Moves of every game, and every other write, go through
    /// one writer that commits whatever has queued up in a single transaction (group commit):
    /// one disk flush serves many moves, and no move is acknowledged before its flush.
    pub async fn append_move(&self, m: crate::db::writer::NewMove<'_>) -> Result<()> {
        self.writer.append_move(m).await
    }

    /// [`Store::set_turn`] from a room of one instance among several: never once it lost the
    /// game (`crate::cluster`).
    pub async fn set_turn_fenced(
        &self,
        game_id: &str,
        turn: TurnWrite,
        fence: Option<crate::db::fence::Fence>,
    ) -> Result<()> {
        let game_id = game_id.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    crate::db::fence::hold_fence(c, &game_id, fence.as_ref()).await?;
                    sqlx::query(
                        "UPDATE games SET to_move = $1, clock_state = $2, deadline_at = $3 WHERE id = $4",
                    )
                    .bind(turn.to_move.map(i64::from))
                    .bind(turn.clock_state)
                    .bind(turn.deadline_at)
                    .bind(&game_id)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                })
            })
            .await
    }

    /// Stores the seat to move and the clock outside a move (when a game is first read: a new
    /// game, or one from before clocks per turn).
    pub async fn set_turn(&self, game_id: &str, turn: TurnWrite) -> Result<()> {
        self.set_turn_fenced(game_id, turn, None).await
    }

    /// When `game_id`'s running turn's time runs out (ms since the epoch), if it has a clock
    /// and is live (what a "your move" mail tells).
    pub async fn deadline_of(&self, game_id: &str) -> Result<Option<i64>> {
        let row = sqlx::query("SELECT deadline_at FROM games WHERE id = $1 AND status = 'live'")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<Option<i64>, _>("deadline_at")?,
            None => None,
        })
    }

    /// Live games whose running turn's time runs out by `before` (ms since the epoch).
    pub async fn games_due(&self, before: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'live' AND deadline_at <= $1 ORDER BY deadline_at",
        )
        .bind(before)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Live games where `user_id` sits at the seat to move, the longest waiting first.
    pub async fn turns_of_user(&self, user_id: &str) -> Result<Vec<GameRow>> {
        let rows = sqlx::query_as::<_, StoredGame>(
            "SELECT games.* FROM games JOIN seats
               ON seats.game_id = games.id AND seats.seat = games.to_move
             WHERE games.status = 'live' AND seats.kind = 'human' AND seats.user_id = $1
             ORDER BY games.created_at",
        )
        .bind(user_id)
        .fetch_all(&mut *self.read().await?)
        .await?;
        read_games(rows)
    }

    pub async fn moves(&self, game_id: &str) -> Result<Vec<String>> {
        let rows = sqlx::query("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game_id)
            .fetch_all(&mut *self.read().await?)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("text")?)).collect()
    }
}

async fn migrate(pool: &AnyPool) -> Result<()> {
    Ok(MIGRATOR.run(pool).await?)
}

/// Gives the clubs whose look-alike key migration 0020 marked stale their new key, oldest
/// first; a club whose new key an older club holds keeps its mark (unique by its id): it
/// keeps its name and blocks nobody.
async fn fill_club_keys(pool: &AnyPool) -> Result<()> {
    fill_keys(
        pool,
        "clubs",
        "SELECT id, name FROM clubs WHERE name_key LIKE '~stale:%' ORDER BY created_at, id",
    )
    .await
}

/// Fills in the look-alike key of accounts named before keys existed (migration 0005) or
/// whose key changed (migration 0020). Of two look-alike names, the first keeps the key:
/// the second keeps its name and its sign-in, and blocks nobody.
async fn fill_name_keys(pool: &AnyPool) -> Result<()> {
    fill_keys(
        pool,
        "users",
        "SELECT id, name FROM users WHERE name IS NOT NULL AND name_key IS NULL ORDER BY created_at, id",
    )
    .await
}

/// Gives each row `pending` selects (`id`, `name`, oldest first) of `table` the look-alike key
/// of its name, unless an older row holds that key already (then it keeps no new key).
async fn fill_keys(pool: &AnyPool, table: &'static str, pending: &'static str) -> Result<()> {
    let rows = sqlx::query(pending).fetch_all(pool).await?;
    let update = format!(
        "UPDATE {table} SET name_key = $1 WHERE id = $2 \
         AND NOT EXISTS (SELECT 1 FROM {table} WHERE name_key = $1)"
    );
    for row in rows {
        let (id, name): (String, String) = (row.try_get("id")?, row.try_get("name")?);
        let key = crate::names::key(&name);
        let done = sqlx::query(sqlx::AssertSqlSafe(update.as_str()))
            .bind(&key)
            .bind(&id)
            .execute(pool)
            .await?;
        if done.rows_affected() == 0 {
            tracing::warn!(table, id = %id, name = %name, "an older row's name looks like this one's: it keeps no key");
        }
    }
    Ok(())
}
