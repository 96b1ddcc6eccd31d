//! Bot thinking on a bounded pool of threads.
//!
//! A search bot thinks for up to a second per move; on tokio's blocking pool (up to 512
//! threads) a hundred games of bots would take every core from the rooms that serve humans.
//! The pool has a fixed number of dedicated threads fed by one queue: bot moves wait their
//! turn, human moves do not wait for them.
//!
//! The threads also run at the lowest scheduling priority (nice 19 on Linux): they take all the
//! CPU nobody else wants, but a core they share with the rooms, the writer or the HTTP
//! handlers goes to those first, so a human's move does not queue behind a bot's search.
//!
//! A bot that panics never stalls its game: the panic is caught, logged, and a fallback move
//! is played (the greedy bot's, or the first legal move if greedy fails too).
use pyramidion_ai::any::{BotLevel, choose_any};
use pyramidion_games::AnyGame;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send + 'static>;

pub struct BotPool {
    jobs: Mutex<Sender<Job>>,
    threads: usize,
}

impl BotPool {
    /// A pool of `threads` (at least 1) dedicated threads.
    pub fn new(threads: usize) -> BotPool {
        let threads = threads.max(1);
        let (tx, rx) = channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx: Arc<Mutex<Receiver<Job>>> = Arc::clone(&rx);
            std::thread::Builder::new()
                .name(format!("bot-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only to take one job, not while it runs.
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(poisoned) => poisoned.into_inner().recv(),
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return, // the pool is gone
                        }
                    }
                })
                .expect("spawn a bot thread");
        }
        BotPool {
            jobs: Mutex::new(tx),
            threads,
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The move (as text) a bot of `level` plays in `game`; never fails while `game` has a
    /// legal move (see [`choose_or_fallback`]).
    pub async fn choose(&self, game: AnyGame, level: BotLevel, seed: u64) -> Option<String> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(choose_or_fallback(&game, level, seed));
        });
        self.jobs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(job)
            .ok()?;
        rx.await.ok().flatten()
    }

    /// Runs other bot work (e.g. a game's analysis) on the pool, behind the moves already
    /// queued. `None` if `f` panicked (the panic is logged) or the pool is gone.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || match catch_unwind(AssertUnwindSafe(f)) {
            Ok(v) => {
                let _ = tx.send(v);
            }
            Err(panic) => tracing::error!(panic = panic_text(&panic), "bot pool job panicked"),
        });
        self.jobs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(job)
            .ok()?;
        rx.await.ok()
    }
}

/// The nice value of a bot thread, the lowest: the kernel gives it about 1.5 % of the CPU
/// time of a default thread it competes with, and all of a core nobody else wants. Measured
/// (README, "Load test"): a server pinned to one core with its bot thinking all the time
/// answered humans' moves at p99 13–16 ms at nice 19, 16–17 ms at nice 10, 20–21 ms at
/// nice 0, and the bots played as many moves at each.
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

/// The process's pool: one thread per core but one (at least one), so that a core stays for
/// the rooms and the database whatever the bots do.
pub fn global() -> &'static BotPool {
    static POOL: OnceLock<BotPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        BotPool::new(cores.saturating_sub(1))
    })
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
                waits.push(pool.choose(game.clone(), BotLevel::Search(4), seed));
            }
            for w in waits {
                let m = w.await.expect("a move");
                assert!(legal.contains(&m), "{m}");
            }
        }
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn bots_think_at_a_lower_priority_than_the_rooms() {
        let mine = current_nice();
        let pool = BotPool::new(1);
        let theirs = pool.run(current_nice).await.expect("the job runs");
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
