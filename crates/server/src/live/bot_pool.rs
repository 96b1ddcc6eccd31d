//! Bot thinking on a bounded pool of threads.
//!
//! A search bot thinks for up to a second per move; on tokio's blocking pool (up to 512
//! threads) a hundred games of bots would take every core from the rooms that serve humans.
//! The pool has a fixed number of dedicated threads: bot moves wait their turn, human moves
//! do not wait for them. The turn is fair (see `fair_queue`): client addresses, then users,
//! share the threads by the CPU time their work took; quick bots and time-out stand-ins go
//! first and have a thread of their own; analyses go last (but take a guaranteed share of the
//! searching threads while they wait). A search, and each decision of an analysis, is
//! thought in slices ([`Slicing`]), so a thread is never held for a whole `max` move (or a
//! judge's four) while others wait.
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
use pyramidion_games::bots::{AnyDeciding, choose_any};
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

impl Shared {
    /// Queues `job` of `game` in `lane`, shared by its group and owner, and wakes the threads
    /// (every one: the one woken must be one that may take this lane).
    fn push(&self, (lane, game, job): (Lane, String, Job)) {
        let (group, owner) = (job.group.clone(), job.owner.clone());
        self.queue().push_in(lane, &group, &owner, &game, job);
        self.ready.notify_all();
    }
}

/// Processor time a slice of a search may take before the pool serves other work: a `max`
/// move is about a second of CPU, and a quick bot's move queued behind it waits at most this
/// long for the thread (issue 54), plus what the fair queue serves first.
const SLICE_CPU_SECONDS: f64 = 0.05;

/// Search iterations between two looks at the slice's CPU time.
const ITERATIONS_PER_LOOK: u32 = 8;

/// A panic caught in a pool job.
type Panic = Box<dyn std::any::Any + Send>;

/// Work done a little at a time: the answer once there is one ([`Slicing`]).
type Step<T> = Box<dyn FnMut() -> Option<T> + Send>;

/// The answer after a step panicked.
type OnPanic<T> = Box<dyn FnOnce(&Panic) -> Option<T> + Send>;

/// Work thought on the pool a slice at a time (a search bot's move, a decision of an
/// analysis): each slice runs for [`SLICE_CPU_SECONDS`] of CPU at most and then queues the
/// next one at the back of its user's turn, so the fair queue chooses what runs next. `step`
/// does a little (a few search iterations or playouts) and gives the answer once there is
/// one; the work it does is the same however it is sliced (`pyramidion_ai::level::Deciding`,
/// `pyramidion_ai::analysis::Judging`).
struct Slicing<T> {
    ticket: Ticket,
    group: String,
    step: Step<T>,
    /// The answer after `step` panicked (it logs the panic).
    on_panic: OnPanic<T>,
    answer: oneshot::Sender<Option<T>>,
}

impl<T: Send + 'static> Slicing<T> {
    /// The pool job running this work's next slice, with its lane and game.
    fn job(self, shared: Arc<Shared>) -> (Lane, String, Job) {
        let (lane, game) = (self.ticket.lane, self.ticket.game.clone());
        let job = Job {
            group: self.group.clone(),
            owner: self.ticket.owner.clone(),
            run: Box::new(move || self.slice(shared)),
        };
        (lane, game, job)
    }

    fn slice(mut self, shared: Arc<Shared>) {
        // Nobody waits for this answer any more (the room was closed, its game ended, the
        // server stops): the rest of the work would be CPU for nothing.
        if self.answer.is_closed() {
            return;
        }
        let started = thread_cpu_seconds();
        let step = &mut self.step;
        let thought = catch_unwind(AssertUnwindSafe(|| {
            loop {
                if let Some(answer) = step() {
                    return Some(answer);
                }
                if thread_cpu_seconds() - started >= SLICE_CPU_SECONDS {
                    return None;
                }
            }
        }));
        match thought {
            Ok(Some(answer)) => {
                let _ = self.answer.send(Some(answer));
            }
            Ok(None) => shared.push(self.job(Arc::clone(&shared))),
            Err(panic) => {
                let fallback = (self.on_panic)(&panic);
                let _ = self.answer.send(fallback);
            }
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
        let job = Job {
            group: self.shared.origins.group_of(&ticket.owner),
            owner: ticket.owner.clone(),
            run,
        };
        self.shared.push((ticket.lane, ticket.game.clone(), job));
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
        if ticket.lane == Lane::Fast {
            let job: Box<dyn FnOnce() + Send> = Box::new(move || {
                let _ = tx.send(choose_or_fallback(&game, level, seed));
            });
            self.submit(&ticket, job);
            return rx.await.ok().flatten();
        }
        // The search starts on the first slice (on a pool thread, not the caller's).
        let mut deciding: Option<AnyDeciding> = None;
        let searched = game.clone();
        let step = move || {
            deciding
                .get_or_insert_with(|| AnyDeciding::new(&searched, level, seed))
                .step(ITERATIONS_PER_LOOK)
        };
        let on_panic = move |panic: &Panic| fallback_after_panic(&game, level, seed, panic);
        self.sliced(ticket, Box::new(step), Box::new(on_panic))
            .await
    }

    /// Runs work that `step` does a little at a time (see [`Slicing`]) on the pool in
    /// `ticket`'s lane, until `step` gives its answer. `None` if `step` panicked (the panic
    /// is logged) or the pool stopped.
    pub async fn run_sliced<T: Send + 'static>(
        &self,
        ticket: Ticket,
        step: impl FnMut() -> Option<T> + Send + 'static,
    ) -> Option<T> {
        let on_panic = |panic: &Panic| {
            tracing::error!(panic = panic_text(panic), "bot pool job panicked");
            None
        };
        self.sliced(ticket, Box::new(step), Box::new(on_panic))
            .await
    }

    async fn sliced<T: Send + 'static>(
        &self,
        ticket: Ticket,
        step: Step<T>,
        on_panic: OnPanic<T>,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let slicing = Slicing {
            group: self.shared.origins.group_of(&ticket.owner),
            ticket,
            step,
            on_panic,
            answer: tx,
        };
        self.shared.push(slicing.job(Arc::clone(&self.shared)));
        rx.await.ok().flatten()
    }

    /// Runs work at once (never sliced) on the pool in `ticket`'s lane: the tests' way to
    /// hold a thread. Work of more than a slice of CPU goes through [`BotPool::run_sliced`]
    /// (the server's analyses and puzzle miner), or it holds a thread while quick bots wait.
    /// `None` if `f` panicked (the panic is logged).
    pub async fn run<T: Send + 'static>(
        &self,
        ticket: Ticket,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let job: Box<dyn FnOnce() + Send> =
            Box::new(move || match catch_unwind(AssertUnwindSafe(f)) {
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
        Ok(text) => Some(text),
        Err(panic) => fallback_after_panic(game, level, seed, &panic),
    }
}

/// After a bot of `level` panicked: logs it and plays the greedy bot's move, or if that
/// panics too, the first legal move.
fn fallback_after_panic(
    game: &AnyGame,
    level: BotLevel,
    seed: u64,
    panic: &Panic,
) -> Option<String> {
    tracing::error!(
        level = %level,
        panic = panic_text(panic),
        "bot panicked; playing a fallback move"
    );
    if level != BotLevel::Greedy
        && let Ok(text) = catch_unwind(AssertUnwindSafe(|| {
            choose_any(game, BotLevel::Greedy, seed)
        }))
    {
        return Some(text);
    }
    game.legal_texts().into_iter().next()
}

fn panic_text(panic: &Panic) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-text panic".to_string()
    }
}

/// What the tests of sliced work share (the analyses', the puzzle miner's).
#[cfg(test)]
pub(crate) mod slicing_tests {
    use super::*;
    use pyramidion_core::record::Record;

    /// A two-player game of the first registered game after four moves, and its record.
    pub(crate) fn four_moves() -> (AnyGame, Record) {
        let kind = pyramidion_games::GameKind::ALL[0];
        let options = serde_json::json!({ "players": 2 });
        let mut game = AnyGame::new(kind, &options, 8).unwrap();
        let mut record = Record {
            game: kind.key().to_string(),
            options,
            seed: 8,
            result: None,
            moves: Vec::new(),
            move_lines: Vec::new(),
        };
        for _ in 0..4 {
            let m = game.legal_texts().into_iter().next().unwrap();
            record.moves.push(game.play_text(&m).unwrap().full.text);
        }
        (game, record)
    }

    /// Once sliced work in the analysis lane has started on `pool` (its first slice ran, the
    /// next one waits), another user's search bot on `game` is answered, with its own move.
    pub(crate) async fn a_search_bot_is_answered_meanwhile(pool: &BotPool, game: &AnyGame) {
        use pyramidion_ai::level::BotLevel;
        while pool.waiting(Lane::Analysis) == 0 {
            tokio::task::yield_now().await;
        }
        let victim = Ticket {
            lane: Lane::Search,
            owner: "victim".into(),
            game: "victim-table".into(),
        };
        let level = BotLevel::Search(20);
        let answer = pool.choose(victim, game.clone(), level, 4).await;
        assert_eq!(answer, Some(choose_any(game, level, 4)));
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

    /// Issue 54: with one searching thread, a long search of one user (far more than a
    /// slice of CPU) and then a short one of another user: the short one is answered first,
    /// since the long one gives the thread back after each slice and the fair queue serves
    /// the user who has used less. Both moves are the ones their bots choose at once.
    #[tokio::test]
    async fn a_short_search_is_answered_between_the_slices_of_a_long_one() {
        let pool = std::sync::Arc::new(BotPool::new(1));
        let game = two_player_games(9).remove(0);
        let ticket = |owner: &str| Ticket {
            lane: Lane::Search,
            owner: owner.into(),
            game: format!("{owner}-table"),
        };
        let (long, short) = (BotLevel::Search(400_000), BotLevel::Search(20));
        let done = std::sync::Arc::new(Mutex::new(Vec::new()));
        let run = |owner: &'static str, level: BotLevel| {
            let (pool, game, done) = (pool.clone(), game.clone(), done.clone());
            let ticket = ticket(owner);
            tokio::spawn(async move {
                let m = pool.choose(ticket, game, level, 4).await;
                done.lock().unwrap().push(owner);
                m
            })
        };
        let long_move = run("flooder", long);
        // The long search has started (its first slice ran and the next one waits).
        while pool.waiting(Lane::Search) == 0 {
            tokio::task::yield_now().await;
        }
        let short_move = run("victim", short).await.unwrap();
        assert_eq!(
            *done.lock().unwrap(),
            ["victim"],
            "the short search went first"
        );
        assert_eq!(short_move, Some(choose_any(&game, short, 4)));
        // The long one is not waited for to its end (minutes in a debug build): once nobody
        // waits for its answer, its next slice drops it.
        long_move.abort();
        while pool.waiting(Lane::Search) > 0 {
            tokio::task::yield_now().await;
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
