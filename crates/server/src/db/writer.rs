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
use crate::db::fence::Fence;
use crate::db::rows::TurnWrite;
use crate::metrics::Metrics;
use futures_util::future::BoxFuture;
use sqlx::{AnyConnection, AnyPool, Connection};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

mod move_rows;

/// A statement for [`Writer::execute`]: `sqlx::query(…)` with its values bound (they are
/// copied in as they are bound, so the statement owns everything it needs).
pub type Statement = sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments>;

use crate::db::fence::FENCED_OUT;

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
    /// When it was handed to the writer (the queue's share of its persist time).
    queued: Instant,
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
            queued: Instant::now(),
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
                Write::Move(m) => {
                    metrics.observe_queue(started.duration_since(m.queued));
                    moves.push(m);
                }
                Write::Job(j) => jobs.push(j),
            }
        }
        metrics.jobs_committed(jobs.len() as u64);
        let (result, delivers, move_errors) = commit(&pool, &moves, jobs, &options).await;
        let result = result.map_err(|e| e.to_string());
        match &result {
            Ok(()) => {
                metrics.storage.succeeded();
                metrics.observe_commit(started.elapsed());
            }
            Err(e) => metrics.storage.failed(e),
        }
        let (mut committed, mut fenced) = (0, 0);
        for (m, own) in moves.into_iter().zip(move_errors) {
            let r = match (&result, own) {
                (Err(e), _) => Err(MoveRefused::batch(e.clone())),
                (Ok(()), Some(e)) => {
                    if e.message == FENCED_OUT {
                        fenced += 1;
                    }
                    Err(e)
                }
                (Ok(()), None) => {
                    committed += 1;
                    Ok(())
                }
            };
            let _ = m.done.send(r);
        }
        metrics.moves_committed(committed);
        if fenced > 0 {
            metrics.fenced(fenced);
        }
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
        let mut kept_errors = move_rows::insert_moves(&mut tx, &kept).await?.into_iter();
        move_errors = fenced
            .iter()
            .map(|&f| {
                if f {
                    Some(MoveRefused {
                        message: FENCED_OUT.into(),
                        duplicate: true,
                        batch: false,
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
        let held = crate::db::fence::holds(conn, &m.game_id, fence).await?;
        if !held {
            tracing::warn!(game = %m.game_id, ply = m.ply, epoch = fence.epoch, "a move of a game this instance no longer owns was refused");
        }
        out.push(!held);
    }
    Ok(out)
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
