//! The one database writer (group commit). Every write of the server — moves, and the few
//! writes of the HTTP API (guests, sessions, tables, seats) — is queued here, and the writer
//! commits whatever has queued up in a single transaction: one disk flush serves them all, and
//! nobody hears of a write before its flush.
//!
//! Why one writer for everything: SQLite has one writer at a time. Writers on several
//! connections wait in SQLite's busy handler, which sleeps 1, 2, 5, 10… ms between attempts;
//! writers queued on one connection each pay a flush, and 500 clients creating their guest
//! and table at once held the moves of the games already running for up to a second. Here an
//! HTTP write costs a few statements in the next batch instead.
//!
//! After a storage error (a full disk, a failing device, a lost PostgreSQL connection) the
//! batch's connection is closed, never reused: SQLite may already have rolled the transaction
//! back, and a connection that believes a transaction is still open would turn every later
//! "commit" into a savepoint release inside a transaction that never commits. The next batch
//! opens a fresh connection; while the storage fails, a probe write is retried every
//! `probe_every`, so the health turns back to ok by itself once the fault goes away.
use crate::db::error::{MoveRefused, Result, StoreError};
use crate::db::rows::TurnWrite;
use crate::metrics::Metrics;
use futures_util::future::BoxFuture;
use sqlx::{AnyConnection, AnyPool, AssertSqlSafe, Connection};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// A statement for [`Writer::execute`]: `sqlx::query(…)` with its values bound (they are
/// copied in as they are bound, so the statement owns everything it needs).
pub type Statement = sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments>;

/// Most writes committed by one transaction.
const GROUP_COMMIT: usize = 512;

/// A test seam: lets a test make commits fail deterministically. Asked once per group commit
/// (and per recovery probe) just before `COMMIT`; `Some(reason)` makes the writer roll back
/// and treat the batch exactly as a failed commit.
pub trait FaultInjector: Send + Sync {
    fn fail_commit(&self) -> Option<String>;
}

/// Called once the batch holding a write is committed (or has failed).
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
/// An HTTP-side write: runs inside the batch's transaction (in its own savepoint) and returns
/// what to deliver once the batch is committed, and an error if the transaction itself broke
/// (its savepoint could not be released or rolled back).
type Job =
    Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, (Deliver, Result<()>)> + Send>;

enum Write {
    Move(PendingMove),
    Job(Job),
}

/// What a move of a game run by one instance among several must still hold when it commits:
/// the game's lease, at the epoch its room started with (see `crate::cluster`).
#[derive(Clone, Debug)]
pub struct Fence {
    pub owner: String,
    pub epoch: i64,
}

/// One accepted move to store.
pub struct NewMove<'a> {
    pub game_id: &'a str,
    pub ply: u32,
    /// The engine's notation of the move.
    pub text: &'a str,
    pub by_bot: bool,
    /// The outcome, when this move ends the game: the status changes in the same commit.
    pub result: Option<String>,
    /// The seat to move and the clock after this move, when they changed.
    pub turn: Option<TurnWrite>,
    /// Checked in the move's transaction; none on a single instance (SQLite).
    pub fence: Option<Fence>,
}

struct PendingMove {
    game_id: String,
    /// Checked in the move's transaction; none on a single instance (SQLite).
    fence: Option<Fence>,
    ply: u32,
    text: String,
    by_bot: bool,
    /// The outcome, when this move ends the game: the status changes in the same commit.
    result: Option<String>,
    /// The seat to move and the clock after this move, when they changed.
    turn: Option<TurnWrite>,
    done: oneshot::Sender<Result<(), MoveRefused>>,
}

#[derive(Clone)]
pub struct Writer {
    queue: mpsc::Sender<Write>,
}

/// How the writer meets storage faults.
#[derive(Clone)]
pub struct WriterOptions {
    /// While the storage fails, a probe write is tried this often (and the health turns back
    /// to ok when one succeeds).
    pub probe_every: Duration,
    pub faults: Option<Arc<dyn FaultInjector>>,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            probe_every: Duration::from_secs(2),
            faults: None,
        }
    }
}

impl Writer {
    /// Starts the writer task on `pool` (which should hold one connection: nothing else
    /// writes).
    pub fn spawn(pool: AnyPool, metrics: Arc<Metrics>, options: WriterOptions) -> Writer {
        let (queue, rx) = mpsc::channel(4 * GROUP_COMMIT);
        tokio::spawn(write(pool, rx, metrics, options));
        Writer { queue }
    }

    /// Appends one accepted move (and, with `result`, marks the game finished); it is
    /// committed when this returns.
    pub async fn append_move(&self, m: NewMove<'_>) -> Result<()> {
        let (done, committed) = oneshot::channel();
        let pending = PendingMove {
            game_id: m.game_id.to_string(),
            fence: m.fence,
            ply: m.ply,
            text: m.text.to_string(),
            by_bot: m.by_bot,
            result: m.result,
            turn: m.turn,
            done,
        };
        self.send(Write::Move(pending)).await?;
        committed
            .await
            .map_err(|_| StoreError::Stopped)?
            .map_err(StoreError::from)
    }

    /// Runs `f` in the next batch, in a savepoint of its own (its failure undoes only its own
    /// statements), and returns its answer once the batch is committed.
    pub async fn run<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T>> + Send + 'static,
    {
        let (done, answer) = oneshot::channel::<Result<T>>();
        let job: Job = Box::new(move |conn| {
            Box::pin(async move {
                let (out, broken) = match in_savepoint(conn, f).await {
                    Ok(out) => (out, Ok(())),
                    Err(broken) => (Err(StoreError::Batch(broken.to_string())), Err(broken)),
                };
                let deliver = Box::new(move |committed: Result<(), String>| {
                    let _ = done.send(committed.map_err(StoreError::Batch).and(out));
                }) as Deliver;
                (deliver, broken)
            })
        });
        self.send(Write::Job(job)).await?;
        answer.await.map_err(|_| StoreError::Stopped)?
    }

    /// [`Writer::run`] for one statement, values bound, whose result is not needed.
    pub async fn execute(&self, statement: Statement) -> Result<()> {
        self.run(move |c| {
            Box::pin(async move {
                statement.execute(c).await?;
                Ok(())
            })
        })
        .await
    }

    async fn send(&self, write: Write) -> Result<()> {
        self.queue
            .send(write)
            .await
            .map_err(|_| StoreError::Stopped)
    }
}

/// Runs `f` in a savepoint. The outer error means the transaction itself is broken (the
/// savepoint could not be opened, released or rolled back: e.g. SQLite rolled the whole
/// transaction back on a full disk), the inner one is `f`'s own failure, undone.
async fn in_savepoint<T, F>(conn: &mut AnyConnection, f: F) -> Result<Result<T>>
where
    F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T>>,
{
    let mut savepoint = conn.begin().await?;
    match f(&mut savepoint).await {
        Ok(v) => {
            savepoint.commit().await?;
            Ok(Ok(v))
        }
        Err(e) => {
            savepoint.rollback().await?;
            Ok(Err(e))
        }
    }
}

async fn write(
    pool: AnyPool,
    mut queue: mpsc::Receiver<Write>,
    metrics: Arc<Metrics>,
    options: WriterOptions,
) {
    let mut batch = Vec::with_capacity(GROUP_COMMIT);
    loop {
        let received = if metrics.storage.degraded().is_some() {
            tokio::select! {
                n = queue.recv_many(&mut batch, GROUP_COMMIT) => n,
                _ = tokio::time::sleep(options.probe_every) => {
                    probe(&pool, &metrics, &options).await;
                    continue;
                }
            }
        } else {
            queue.recv_many(&mut batch, GROUP_COMMIT).await
        };
        if received == 0 {
            break;
        }
        let started = Instant::now();
        let mut moves = Vec::new();
        let mut jobs = Vec::new();
        for w in batch.drain(..) {
            match w {
                Write::Move(m) => moves.push(m),
                Write::Job(j) => jobs.push(j),
            }
        }
        let (result, delivers, move_errors) = commit(&pool, &moves, jobs, &options).await;
        let result = result.map_err(|e| e.to_string());
        match &result {
            Ok(()) => {
                metrics.storage.succeeded();
                metrics.observe_commit(started.elapsed());
            }
            Err(e) => metrics.storage.failed(e),
        }
        let mut committed = 0;
        for (m, own) in moves.into_iter().zip(move_errors) {
            let r = match (&result, own) {
                (Err(e), _) => Err(MoveRefused::other(e.clone())),
                (Ok(()), Some(e)) => Err(e),
                (Ok(()), None) => {
                    committed += 1;
                    Ok(())
                }
            };
            let _ = m.done.send(r);
        }
        metrics.moves_committed(committed);
        for deliver in delivers {
            deliver(result.clone());
        }
    }
}

/// While the storage fails and nothing is queued: one small real write, to notice recovery.
async fn probe(pool: &AnyPool, metrics: &Metrics, options: &WriterOptions) {
    let touch: Job = Box::new(|conn| {
        Box::pin(async move {
            let r = sqlx::query("UPDATE probe SET at = $1 WHERE id = 1")
                .bind(crate::wall_clock::now_ms())
                .execute(&mut *conn)
                .await
                .map(|_| ())
                .map_err(StoreError::from);
            (Box::new(|_| {}) as Deliver, r)
        })
    });
    match commit(pool, &[], vec![touch], options).await.0 {
        Ok(()) => metrics.storage.succeeded(),
        Err(e) => metrics.storage.failed(&e.to_string()),
    }
}

/// One transaction for the whole batch: the HTTP jobs, then the moves. Returns the batch's
/// result, what to deliver to each job, and each move's own error (a move that the database
/// refuses fails alone: the others of its batch are still committed).
async fn commit(
    pool: &AnyPool,
    moves: &[PendingMove],
    jobs: Vec<Job>,
    options: &WriterOptions,
) -> (Result<()>, Vec<Deliver>, Vec<Option<MoveRefused>>) {
    let mut delivers = Vec::with_capacity(jobs.len());
    let mut move_errors = vec![None; moves.len()];
    let mut conn = match pool.acquire().await {
        Ok(c) => c,
        Err(e) => return (Err(e.into()), delivers, move_errors),
    };
    let result = async {
        let mut tx = conn.begin().await?;
        for job in jobs {
            let (deliver, broken) = job(&mut tx).await;
            delivers.push(deliver);
            broken?;
        }
        // A move whose instance no longer owns its game is refused alone, as stale: its
        // room is dropped, and its players resubscribe to the game's owner.
        let fenced = fenced_out(&mut tx, moves).await?;
        let kept: Vec<&PendingMove> = moves
            .iter()
            .zip(&fenced)
            .filter(|(_, f)| !**f)
            .map(|(m, _)| m)
            .collect();
        let mut kept_errors = insert_moves(&mut tx, &kept).await?.into_iter();
        move_errors = fenced
            .iter()
            .map(|&f| {
                if f {
                    Some(MoveRefused {
                        message: "this instance no longer runs this game".into(),
                        duplicate: true,
                    })
                } else {
                    kept_errors.next().flatten()
                }
            })
            .collect();
        if let Some(reason) = options.faults.as_ref().and_then(|f| f.fail_commit()) {
            return Err(StoreError::Injected(reason));
        }
        tx.commit().await?;
        Ok(())
    }
    .await;
    if result.is_err() {
        // Never reuse a connection whose transaction state is unknown.
        conn.close_on_drop();
    }
    (result, delivers, move_errors)
}

/// Whether this instance still holds `game_id` at `fence`'s epoch, under a shared lock on
/// the lease row until the transaction ends (see [`fenced_out`]); an error to return from a
/// job that must not commit otherwise.
pub async fn hold_fence(
    conn: &mut AnyConnection,
    game_id: &str,
    fence: Option<&Fence>,
) -> Result<()> {
    match fence {
        Some(fence) if !holds(conn, game_id, fence).await? => {
            Err(StoreError::MoveRefused(MoveRefused {
                message: "this instance no longer runs this game".into(),
                duplicate: true,
            }))
        }
        _ => Ok(()),
    }
}

/// Whether the lease of `game_id` is still `fence`'s, read under a shared lock that lasts
/// until the transaction ends.
async fn holds(conn: &mut AnyConnection, game_id: &str, fence: &Fence) -> Result<bool> {
    let held = sqlx::query(
        "SELECT 1 FROM game_leases WHERE game_id = $1 AND owner = $2 AND epoch = $3 FOR SHARE",
    )
    .bind(game_id)
    .bind(&fence.owner)
    .bind(fence.epoch)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(held.is_some())
}

/// Which of `moves` are fenced out: their instance no longer holds their game at their
/// epoch. The lease row is read under a shared lock, so that a takeover (which updates it)
/// waits for this transaction: the new owner then reads every move committed here.
async fn fenced_out(conn: &mut AnyConnection, moves: &[PendingMove]) -> Result<Vec<bool>> {
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let Some(fence) = &m.fence else {
            out.push(false);
            continue;
        };
        let held = holds(conn, &m.game_id, fence).await?;
        if !held {
            tracing::warn!(game = %m.game_id, ply = m.ply, epoch = fence.epoch, "a move of a game this instance no longer owns was refused");
        }
        out.push(!held);
    }
    Ok(out)
}

/// Rows per multi-row INSERT: powers of two up to 64, so that a batch of any size takes a
/// handful of statements (231 = 64+64+64+32+4+2+1) drawn from seven prepared ones.
const INSERT_ROWS: [usize; 7] = [64, 32, 16, 8, 4, 2, 1];

/// `INSERT INTO moves … VALUES (…), (…)` for `rows` rows.
fn insert_moves_sql(rows: usize) -> &'static str {
    static SQL: LazyLock<Vec<String>> = LazyLock::new(|| {
        INSERT_ROWS
            .iter()
            .map(|&rows| {
                let values: Vec<String> = (0..rows)
                    .map(|r| {
                        let p = 5 * r;
                        format!(
                            "(${}, ${}, ${}, ${}, ${})",
                            p + 1,
                            p + 2,
                            p + 3,
                            p + 4,
                            p + 5
                        )
                    })
                    .collect();
                format!(
                    "INSERT INTO moves (game_id, ply, text, by_bot, created_at) VALUES {}",
                    values.join(", ")
                )
            })
            .collect()
    });
    let i = INSERT_ROWS
        .iter()
        .position(|&r| r == rows)
        .expect("a listed row count");
    &SQL[i]
}

/// Inserts `moves` in as few statements as possible, in a savepoint; if the database refuses
/// that, each move is inserted in a savepoint of its own, so that only the refused ones fail.
/// The outer error means the transaction is broken; the vector holds each move's own error.
async fn insert_moves(
    conn: &mut AnyConnection,
    moves: &[&PendingMove],
) -> Result<Vec<Option<MoveRefused>>> {
    if moves.is_empty() {
        return Ok(Vec::new());
    }
    let all = insert_in_savepoint(conn, moves).await?;
    let Err(e) = all else {
        return Ok(vec![None; moves.len()]);
    };
    tracing::warn!(error = %e, moves = moves.len(), "a batch of moves was refused: inserting them one by one");
    let mut errors = Vec::with_capacity(moves.len());
    for m in moves {
        let one = insert_in_savepoint(conn, std::slice::from_ref(m)).await?;
        errors.push(one.err().map(|e| {
            tracing::error!(game = %m.game_id, ply = m.ply, error = %e, "a move was refused by the database");
            MoveRefused {
                message: e.to_string(),
                duplicate: e.is_unique_violation(),
            }
        }));
    }
    Ok(errors)
}

async fn insert_in_savepoint(
    conn: &mut AnyConnection,
    moves: &[&PendingMove],
) -> Result<Result<()>> {
    let mut savepoint = conn.begin().await?;
    match insert_rows(&mut savepoint, moves).await {
        Ok(()) => {
            savepoint.commit().await?;
            Ok(Ok(()))
        }
        Err(e) => {
            savepoint.rollback().await?;
            Ok(Err(e))
        }
    }
}

/// Each statement is a round trip to SQLite's worker thread, which a busy machine may be slow
/// to schedule: moves go in as few multi-row statements as possible.
async fn insert_rows(conn: &mut AnyConnection, moves: &[&PendingMove]) -> Result<()> {
    let now = crate::wall_clock::now_ms();
    let mut rest = moves;
    while !rest.is_empty() {
        let rows = INSERT_ROWS
            .into_iter()
            .find(|&r| r <= rest.len())
            .expect("1 divides everything");
        let (chunk, tail) = rest.split_at(rows);
        let mut insert = sqlx::query(AssertSqlSafe(insert_moves_sql(rows)));
        for m in chunk {
            insert = insert
                .bind(&m.game_id)
                .bind(m.ply as i64)
                .bind(&m.text)
                .bind(m.by_bot as i64)
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
        rest = tail;
    }
    for m in moves {
        // The clock and the seat to move change with the move, in the same commit: after a
        // restart the clocks read what they read before.
        if let Some(turn) = &m.turn {
            sqlx::query(
                "UPDATE games SET to_move = $1, clock_state = $2, deadline_at = $3 WHERE id = $4",
            )
            .bind(turn.to_move.map(i64::from))
            .bind(&turn.clock_state)
            .bind(turn.deadline_at)
            .bind(&m.game_id)
            .execute(&mut *conn)
            .await?;
        }
        if let Some(result) = &m.result {
            sqlx::query(
                "UPDATE games SET status = 'finished', result = $1, finished_at = $2 WHERE id = $3",
            )
            .bind(result)
            .bind(now)
            .bind(&m.game_id)
            .execute(&mut *conn)
            .await?;
            // Ratings move in the transaction that ends the game: never one without the other.
            crate::db::ratings::on_game_end(conn, &m.game_id, result).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Executor;
    use sqlx::any::{AnyPoolOptions, install_default_drivers};

    /// The columns of `games` and `moves` the writer touches.
    const GAMES_AND_MOVES: &str = "CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT, status TEXT,
        result TEXT, finished_at BIGINT, rated BIGINT NOT NULL DEFAULT 0, to_move BIGINT,
        clock_state TEXT, deadline_at BIGINT);
        CREATE TABLE moves (game_id TEXT, ply BIGINT, text TEXT, by_bot BIGINT, created_at BIGINT,
        PRIMARY KEY (game_id, ply));";

    /// Writes queued together share a transaction, yet a failing one undoes only itself.
    #[tokio::test]
    async fn a_failed_write_spoils_nothing_else_in_its_batch() {
        install_default_drivers();
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        pool.execute(GAMES_AND_MOVES).await.unwrap();
        pool.execute(
            "CREATE TABLE names (name TEXT PRIMARY KEY);
             INSERT INTO games (id, status) VALUES ('g', 'live')",
        )
        .await
        .unwrap();
        let writer = Writer::spawn(pool.clone(), Arc::default(), WriterOptions::default());
        let mut tasks = Vec::new();
        for i in 0..100u32 {
            let w = writer.clone();
            tasks.push(tokio::spawn(async move {
                if i % 2 == 0 {
                    let result = (i == 98).then(|| "{}".to_string());
                    w.append_move(NewMove {
                        game_id: "g",
                        ply: i / 2,
                        text: "m",
                        by_bot: false,
                        result,
                        turn: Some(TurnWrite::default()),
                        fence: None,
                    })
                    .await
                } else {
                    // Every name twice: one of each pair breaks the primary key.
                    let name = format!("n{}", i / 4);
                    w.execute(sqlx::query("INSERT INTO names (name) VALUES ($1)").bind(name))
                        .await
                }
            }));
        }
        let mut failed = 0;
        for (i, t) in tasks.into_iter().enumerate() {
            let r = t.await.unwrap();
            if r.is_err() {
                assert_eq!(i % 2, 1, "move {i} failed: {r:?}");
                failed += 1;
            }
        }
        assert_eq!(failed, 25);
        let count = |sql: &'static str| {
            let pool = pool.clone();
            async move {
                sqlx::query_scalar::<_, i64>(sql)
                    .fetch_one(&pool)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(count("SELECT COUNT(*) FROM moves").await, 50);
        assert_eq!(count("SELECT COUNT(*) FROM names").await, 25);
        assert_eq!(
            count("SELECT COUNT(*) FROM games WHERE status = 'finished'").await,
            1
        );
    }

    /// Moves committed together: the ones the database refuses fail alone.
    #[tokio::test]
    async fn a_refused_move_fails_alone() {
        install_default_drivers();
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        pool.execute(GAMES_AND_MOVES).await.unwrap();
        let writer = Writer::spawn(pool.clone(), Arc::default(), WriterOptions::default());
        // 100 moves, and 10 of their plies a second time: the writer is only polled once
        // they are all queued, so they share a batch.
        let tasks: Vec<_> = (0..110u32)
            .map(|i| {
                let w = writer.clone();
                tokio::spawn(async move {
                    w.append_move(NewMove {
                        game_id: "g",
                        ply: i % 100,
                        text: "m",
                        by_bot: false,
                        result: None,
                        turn: None,
                        fence: None,
                    })
                    .await
                })
            })
            .collect();
        let mut failed = 0;
        for t in tasks {
            failed += t.await.unwrap().is_err() as u32;
        }
        assert_eq!(failed, 10);
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(stored, 100);
    }
}
