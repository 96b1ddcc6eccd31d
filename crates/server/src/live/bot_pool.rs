//! Bot thinking on a bounded pool of threads.
//!
//! A search bot thinks for up to a second per move; on tokio's blocking pool (up to 512
//! threads) a hundred games of bots would take every core from the rooms that serve humans.
//! The pool has a fixed number of dedicated threads: bot moves wait their turn, human moves
//! do not wait for them. The turn is fair (see `fair_queue`): users take turns, quick bots
//! and time-out stand-ins go first and have a thread of their own, analyses go last (but
//! take a guaranteed share of the searching threads while they wait).
//!
//! The threads also run at the lowest scheduling priority (nice 19 on Linux): they take all the
//! CPU nobody else wants, but a core they share with the rooms, the writer or the HTTP
//! handlers goes to those first, so a human's move does not queue behind a bot's search.
//!
//! A bot that panics never stalls its game: the panic is caught, logged, and a fallback move
//! is played (the greedy bot's, or the first legal move if greedy fails too).
use crate::live::fair_queue::{FairQueue, Lane, Worker};
use pyramidion_ai::level::BotLevel;
use pyramidion_games::AnyGame;
use pyramidion_games::bots::choose_any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use tokio::sync::oneshot;

/// A job, with whom its CPU time is charged to.
struct Job {
    group: String,
    owner: String,
    run: Box<dyn FnOnce() + Send + 'static>,
}

/// Who a job is for: the lane it waits in, and the user and game it is shared fairly by.
#[derive(Clone, Debug)]
pub struct Ticket {
    pub lane: Lane,
    /// The user the work is done for (a table's creator, an analysis's asker).
    pub owner: String,
    pub game: String,
}

struct Shared {
    queue: Mutex<FairQueue<Job>>,
    origins: Origins,
    ready: Condvar,
    closed: AtomicBool,
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, FairQueue<Job>> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next job for `worker`, waiting for one; `None` once the pool is dropped.
    fn next(&self, worker: Worker) -> Option<Job> {
        let mut queue = self.queue();
        loop {
            if let Some((_, job)) = queue.pop(worker) {
                return Some(job);
            }
            if self.closed.load(Ordering::Acquire) {
                return None;
            }
            queue = self.ready.wait(queue).unwrap_or_else(|p| p.into_inner());
        }
    }
}

pub struct BotPool {
    shared: Arc<Shared>,
    threads: usize,
}

impl BotPool {
    /// A pool of `threads` threads that take any work (fast moves first, then searches, then
    /// analyses) and one more that takes only fast moves. `threads` may be 0 (a test seam:
    /// nothing but fast moves is ever served).
    pub fn new(threads: usize) -> BotPool {
        let shared = Arc::new(Shared {
            queue: Mutex::new(FairQueue::default()),
            origins: Origins::default(),
            ready: Condvar::new(),
            closed: AtomicBool::new(false),
        });
        let workers =
            std::iter::once(Worker::Fast).chain(std::iter::repeat_n(Worker::Any, threads));
        for (i, worker) in workers.enumerate() {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("bot-{i}"))
                .spawn(move || {
                    lower_priority();
                    // The lock is held only to take one job, not while it runs.
                    while let Some(job) = shared.next(worker) {
                        let started = thread_cpu_seconds();
                        (job.run)();
                        let spent = thread_cpu_seconds() - started;
                        shared.queue().charge(&job.group, &job.owner, spent);
                    }
                })
                .expect("spawn a bot thread");
        }
        BotPool { shared, threads }
    }

    /// The threads that take any work (the fast-only thread is not counted).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Jobs waiting in `lane` (for `/metrics`).
    pub fn waiting(&self, lane: Lane) -> usize {
        self.shared.queue().waiting(lane)
    }

    /// The waiting jobs per lane, by lane name (for `/metrics`).
    pub fn waiting_by_lane(&self) -> [(&'static str, usize); 3] {
        let queue = self.shared.queue();
        [
            (Lane::Fast, "fast"),
            (Lane::Search, "search"),
            (Lane::Analysis, "analysis"),
        ]
        .map(|(lane, name)| (name, queue.waiting(lane)))
    }

    /// Notes that `user` was last seen at `ip`: its work shares with the others of that
    /// address (see `fair_queue`).
    pub fn note_origin(&self, user: &str, ip: std::net::IpAddr) {
        self.shared.origins.note(user, ip);
    }

    fn submit(&self, ticket: &Ticket, run: Box<dyn FnOnce() + Send + 'static>) {
        let group = self.shared.origins.group_of(&ticket.owner);
        let job = Job {
            group: group.clone(),
            owner: ticket.owner.clone(),
            run,
        };
        self.shared
            .queue()
            .push_in(ticket.lane, &group, &ticket.owner, &ticket.game, job);
        // Every thread: the one woken must be one that may take this lane.
        self.shared.ready.notify_all();
    }

    /// The move (as text) a bot of `level` plays in `game`; never fails while `game` has a
    /// legal move (see [`choose_or_fallback`]).
    pub async fn choose(
        &self,
        ticket: Ticket,
        game: AnyGame,
        level: BotLevel,
        seed: u64,
    ) -> Option<String> {
        let (tx, rx) = oneshot::channel();
        let job: Box<dyn FnOnce() + Send> = Box::new(move || {
            let _ = tx.send(choose_or_fallback(&game, level, seed));
        });
        self.submit(&ticket, job);
        rx.await.ok().flatten()
    }

    /// Runs other bot work (e.g. a chunk of a game's analysis) on the pool in `ticket`'s
    /// lane. `None` if `f` panicked (the panic is logged).
    pub async fn run<T: Send + 'static>(
        &self,
        ticket: Ticket,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let job: Box<dyn FnOnce() + Send> = Box::new(move || match catch_unwind(AssertUnwindSafe(f)) {
            Ok(v) => {
                let _ = tx.send(v);
            }
            Err(panic) => tracing::error!(panic = panic_text(&panic), "bot pool job panicked"),
        });
        self.submit(&ticket, job);
        rx.await.ok()
    }
}

impl Drop for BotPool {
    /// The threads end once the queue is empty.
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Release);
        self.shared.ready.notify_all();
    }
}

/// The processor time the calling thread has used, in seconds (0 where it cannot be read:
/// the work is then shared as if it cost nothing, i.e. by turns).
fn thread_cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(target_os = "linux"))]
    {
        0.0
    }
}

/// The client address each user was last seen at, by its `rate_limits::address_key`: the
/// bot pool's work is shared by address first (ten guests made from one address share what
/// one would get). A user never seen (a room adopted from another instance, a restart) is a
/// group of its own until its next request.
#[derive(Default)]
struct Origins(Mutex<std::collections::HashMap<String, std::net::IpAddr>>);

impl Origins {
    /// Users remembered at most (an address is a hint for fairness, not a record: past this,
    /// the map starts again).
    const KEPT: usize = 100_000;

    fn note(&self, user: &str, ip: std::net::IpAddr) {
        let key = crate::rate_limits::address_key(ip);
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if map.get(user) == Some(&key) {
            return;
        }
        if map.len() >= Self::KEPT {
            map.clear();
        }
        map.insert(user.to_string(), key);
    }

    fn group_of(&self, user: &str) -> String {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match map.get(user) {
            Some(ip) => format!("ip:{ip}"),
            None => format!("user:{user}"),
        }
    }
}

/// The lane of a bot of `level`: bots that do not search are fast.
pub fn lane_of(level: BotLevel) -> Lane {
    match level {
        BotLevel::Random | BotLevel::Greedy => Lane::Fast,
        BotLevel::Ladder(_) | BotLevel::Search(_) | BotLevel::Spec(_) => Lane::Search,
    }
}

/// The default number of threads that search: one per core but one (at least one), so that
/// a core stays for the rooms and the database whatever the bots do.
pub fn default_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).max(1)
}

/// The nice value of a bot thread, the lowest: the kernel gives it about 1.5 % of the CPU
/// time of a default thread it competes with, and all of a core nobody else wants. Measured
/// (docs/performance.md, "Human moves while bots think"): a server pinned to one core with
/// its bot thinking all the time answered humans' moves at p99 13–16 ms at nice 19,
/// 16–17 ms at nice 10, 20–21 ms at nice 0, and the bots played as many moves at each.
pub const BOT_NICE: i32 = 19;

/// Lowers the calling thread's priority to [`BOT_NICE`] (never raises it: a server started
/// with `nice` keeps its bots below it); on failure (or another OS) the bot runs at the
/// default priority, which is only slower for the humans, and says so.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // On Linux the nice value is per thread: `setpriority` on a thread id lowers only it.
        use rustix::process::{getpriority_process, setpriority_process};
        let me = Some(rustix::thread::gettid());
        let lowered =
            getpriority_process(me).and_then(|nice| setpriority_process(me, nice.max(BOT_NICE)));
        if let Err(e) = lowered {
            tracing::warn!(error = %e, "cannot lower a bot thread's priority");
        }
    }
}

/// The nice value of the calling thread (Linux), for tests.
#[cfg(all(test, target_os = "linux"))]
fn current_nice() -> i32 {
    rustix::process::getpriority_process(Some(rustix::thread::gettid())).expect("getpriority")
}

/// The bot's move; if the bot panics, the panic is logged and the greedy bot's move is played,
/// and if that panics too, the first legal move. `None` only when there is no legal move.
pub fn choose_or_fallback(game: &AnyGame, level: BotLevel, seed: u64) -> Option<String> {
    match catch_unwind(AssertUnwindSafe(|| choose_any(game, level, seed))) {
        Ok(text) => return Some(text),
        Err(panic) => tracing::error!(
            level = %level,
            panic = panic_text(&panic),
            "bot panicked; playing a fallback move"
        ),
    }
    if level != BotLevel::Greedy
        && let Ok(text) = catch_unwind(AssertUnwindSafe(|| {
            choose_any(game, BotLevel::Greedy, seed)
        }))
    {
        return Some(text);
    }
    game.legal_texts().into_iter().next()
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-text panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_games::GameKind;

    /// A 2-player game of every registered kind.
    fn two_player_games(seed: u64) -> Vec<AnyGame> {
        GameKind::ALL
            .iter()
            .filter(|k| k.descriptor().seats.contains(2))
            .map(|&k| AnyGame::new(k, &serde_json::json!({"players": 2}), seed).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn the_pool_plays_legal_moves_with_bounded_threads() {
        let pool = BotPool::new(2);
        assert_eq!(pool.threads(), 2);
        for game in two_player_games(3) {
            let legal = game.legal_texts();
            let mut waits = Vec::new();
            for seed in 0..4 {
                let ticket = Ticket {
                    lane: Lane::Search,
                    owner: "u".into(),
                    game: "g".into(),
                };
                waits.push(pool.choose(ticket, game.clone(), BotLevel::Search(4), seed));
            }
            for w in waits {
                let m = w.await.expect("a move");
                assert!(legal.contains(&m), "{m}");
            }
        }
    }

    /// Every thread that searches is busy (here: one search that waits for the test); a
    /// greedy move and a time-out stand-in are still answered, by the fast thread.
    #[tokio::test]
    async fn quick_bots_never_wait_behind_a_search() {
        let pool = std::sync::Arc::new(BotPool::new(1));
        let (started_tx, started_rx) = oneshot::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let search = Ticket {
            lane: Lane::Search,
            owner: "flooder".into(),
            game: "t1".into(),
        };
        let busy = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(search, move || {
                    let _ = started_tx.send(());
                    let _ = release_rx.recv();
                })
                .await
            })
        };
        started_rx.await.expect("the search thread took the search");
        // Another search of the flooder waits: the only search thread is busy.
        let queued = Ticket {
            lane: Lane::Search,
            owner: "flooder".into(),
            game: "t2".into(),
        };
        let waiting = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(queued, || "second search").await })
        };
        while pool.waiting(Lane::Search) == 0 {
            tokio::task::yield_now().await;
        }
        for game in two_player_games(5) {
            let legal = game.legal_texts();
            let ticket = Ticket {
                lane: lane_of(BotLevel::Greedy),
                owner: "victim".into(),
                game: "v".into(),
            };
            let answer = tokio::time::timeout(
                std::time::Duration::from_secs(60),
                pool.choose(ticket, game, BotLevel::Greedy, 1),
            )
            .await
            .expect("the greedy bot is not stuck behind the search")
            .expect("a move");
            assert!(legal.contains(&answer), "{answer}");
        }
        assert_eq!(
            pool.waiting(Lane::Search),
            1,
            "the second search still waits"
        );
        release_tx.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Some(()));
        assert_eq!(waiting.await.unwrap(), Some("second search"));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn bots_think_at_a_lower_priority_than_the_rooms() {
        let mine = current_nice();
        let pool = BotPool::new(1);
        let ticket = Ticket {
            lane: Lane::Analysis,
            owner: "u".into(),
            game: "g".into(),
        };
        let theirs = pool.run(ticket, current_nice).await.expect("the job runs");
        assert_eq!(theirs, mine.max(BOT_NICE));
        assert_eq!(current_nice(), mine, "only the bot threads are lowered");
    }

    #[test]
    fn a_finished_game_gives_no_move_instead_of_a_panic() {
        // A bot asked to move in a finished game may panic; the fallback finds no legal move
        // either, and says so instead of stalling or crashing the pool.
        for mut game in two_player_games(1) {
            while let Some(m) = game.legal_texts().into_iter().next() {
                game.play_text(&m).unwrap();
            }
            assert_eq!(choose_or_fallback(&game, BotLevel::Greedy, 1), None);
        }
    }
}
