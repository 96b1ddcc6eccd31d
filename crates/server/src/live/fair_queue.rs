//! The order in which the bot pool serves its work: fair between users, and quick work first.
//!
//! One first-in-first-out queue let one client's bot tables stall everybody's bots and clock
//! time-outs (issue 29: 20 tables of `max` bots took a victim's greedy bot from 0.7 s to
//! 12.6 s a move). Work now goes into one of three lanes:
//! - [`Lane::Fast`]: moves of bots that do not search (`random`, `greedy`), and the greedy
//!   stand-ins that play a turn whose time ran out. They take milliseconds; the pool keeps a
//!   thread that serves only them, so they never wait behind a search.
//! - [`Lane::Search`]: moves of search bots.
//! - [`Lane::Analysis`]: chunks of finished games' analyses, served after the bot moves of
//!   the other lanes, but with a guaranteed share: once [`ANALYSIS_SHARE`] bot jobs have been
//!   taken by threads that could have taken a waiting analysis chunk, the next such thread
//!   takes the analysis. Served only when nothing else waited, an analysis waited as long as
//!   any bot table had a move to think (issue 46: "under way" for 17 minutes while only
//!   queued, bot games keeping the lane busy); with the share, a finished game's analysis
//!   starts after at most [`ANALYSIS_SHARE`] bot moves per searching thread (a search bot
//!   thinks a second at most), and the bots lose at most one thread in `ANALYSIS_SHARE + 1`
//!   while analyses wait. The fast thread never takes analyses: quick bots keep it.
//!
//! Within a lane, users take turns (round robin: one job of each user with waiting work, in
//! the order they first queued), and within a user, their games take turns. A user with 20
//! tables of bots therefore gets one job served for every job of each other user, however
//! many it queues. (A room asks for one bot move at a time and an analysis queues its next
//! chunk only when the previous one is done, so a game never holds more than one job.)
//!
//! This module is only the order (pure, and tested as such); `bot_pool` runs the jobs.
use std::collections::{HashMap, VecDeque};

/// Which queue a job waits in (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    Fast,
    Search,
    Analysis,
}

/// What a pool thread may take: a fast thread takes only [`Lane::Fast`] work; any other thread
/// takes fast work first, then searches, then analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worker {
    Fast,
    Any,
}

/// Anything that holds queued jobs.
trait Pending: Default {
    fn is_empty(&self) -> bool;
}

impl<J> Pending for VecDeque<J> {
    fn is_empty(&self) -> bool {
        VecDeque::is_empty(self)
    }
}

/// Queues by key, served in turn: the key served last goes to the back.
struct RoundRobin<Q> {
    order: VecDeque<String>,
    queues: HashMap<String, Q>,
}

impl<Q> Default for RoundRobin<Q> {
    fn default() -> Self {
        RoundRobin {
            order: VecDeque::new(),
            queues: HashMap::new(),
        }
    }
}

impl<Q: Pending> Pending for RoundRobin<Q> {
    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

impl<Q: Pending> RoundRobin<Q> {
    /// The queue of `key`; a key new (or emptied) joins the back of the turn order.
    fn entry(&mut self, key: &str) -> &mut Q {
        if !self.queues.contains_key(key) {
            self.order.push_back(key.to_string());
        }
        self.queues.entry(key.to_string()).or_default()
    }

    /// Takes from the queue whose turn it is; that key goes to the back (or leaves when its
    /// queue is empty).
    fn take<T>(&mut self, from: impl FnOnce(&mut Q) -> Option<T>) -> Option<T> {
        let key = self.order.pop_front()?;
        let queue = self.queues.get_mut(&key)?;
        let taken = from(queue);
        if queue.is_empty() {
            self.queues.remove(&key);
        } else {
            self.order.push_back(key);
        }
        taken
    }
}

/// Bot jobs a thread that takes any work serves while an analysis chunk waits, before it
/// serves that chunk (see the module's documentation).
pub const ANALYSIS_SHARE: usize = 3;

/// Jobs by lane, then user (owner), then game.
pub struct FairQueue<J> {
    lanes: HashMap<Lane, RoundRobin<RoundRobin<VecDeque<J>>>>,
    waiting: HashMap<Lane, usize>,
    /// Bot jobs taken by [`Worker::Any`] threads while an analysis waited, since the last
    /// analysis chunk was taken.
    passed_over: usize,
}

impl<J> Default for FairQueue<J> {
    fn default() -> Self {
        FairQueue {
            lanes: HashMap::new(),
            waiting: HashMap::new(),
            passed_over: 0,
        }
    }
}

impl<J> FairQueue<J> {
    /// Queues `job` of `owner`'s game `game` in `lane`.
    pub fn push(&mut self, lane: Lane, owner: &str, game: &str, job: J) {
        self.lanes
            .entry(lane)
            .or_default()
            .entry(owner)
            .entry(game)
            .push_back(job);
        *self.waiting.entry(lane).or_default() += 1;
    }

    /// The next job `worker` may run, with its lane: fast work first, then searches, then
    /// analyses, except that an analysis passed over [`ANALYSIS_SHARE`] times goes first.
    pub fn pop(&mut self, worker: Worker) -> Option<(Lane, J)> {
        let analysis_waits = self.waiting(Lane::Analysis) > 0;
        let lanes: &[Lane] = match worker {
            Worker::Fast => &[Lane::Fast],
            Worker::Any if analysis_waits && self.passed_over >= ANALYSIS_SHARE => {
                &[Lane::Analysis, Lane::Fast, Lane::Search]
            }
            Worker::Any => &[Lane::Fast, Lane::Search, Lane::Analysis],
        };
        for &lane in lanes {
            let Some(users) = self.lanes.get_mut(&lane) else {
                continue;
            };
            if let Some(job) = users.take(|games| games.take(VecDeque::pop_front)) {
                *self.waiting.entry(lane).or_default() -= 1;
                if worker == Worker::Any {
                    if lane == Lane::Analysis {
                        self.passed_over = 0;
                    } else if analysis_waits {
                        self.passed_over += 1;
                    }
                }
                return Some((lane, job));
            }
        }
        None
    }

    /// Jobs waiting in `lane`.
    pub fn waiting(&self, lane: Lane) -> usize {
        self.waiting.get(&lane).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test job says: who queued it and what it is.
    type Job = (&'static str, String);

    fn drain(q: &mut FairQueue<Job>, worker: Worker) -> Vec<(Lane, Job)> {
        std::iter::from_fn(|| q.pop(worker)).collect()
    }

    /// Issue 29's abuse: one user runs 20 tables of `max` bots and has 40 analyses queued;
    /// a victim's greedy bot is served first, the victim's own search is served after at
    /// most one of the flooder's, and analyses take only their share while bot moves wait.
    #[test]
    fn a_flooding_user_does_not_delay_anyone_elses_bots() {
        let mut q: FairQueue<Job> = FairQueue::default();
        for table in 0..20 {
            q.push(
                Lane::Search,
                "flooder",
                &format!("t{table}"),
                ("flooder", format!("max move t{table}")),
            );
        }
        for game in 0..40 {
            q.push(
                Lane::Analysis,
                "flooder",
                &format!("a{game}"),
                ("flooder", format!("analysis a{game}")),
            );
        }
        q.push(Lane::Fast, "victim", "v1", ("victim", "greedy move".into()));
        q.push(Lane::Search, "victim", "v2", ("victim", "hard move".into()));
        assert_eq!(q.waiting(Lane::Search), 21);
        assert_eq!(q.waiting(Lane::Analysis), 40);

        // The pool's fast thread takes the greedy move and nothing else.
        assert_eq!(
            q.pop(Worker::Fast),
            Some((Lane::Fast, ("victim", "greedy move".into())))
        );
        assert_eq!(q.pop(Worker::Fast), None, "a fast thread never searches");

        // A search thread: the flooder's first move (it queued first), then the victim's,
        // then the flooder's others, one analysis chunk after every `ANALYSIS_SHARE` of them.
        let served = drain(&mut q, Worker::Any);
        assert_eq!(served.len(), 61);
        assert_eq!(served[0].1, ("flooder", "max move t0".into()));
        assert_eq!(served[1].1, ("victim", "hard move".into()));
        // 21 searches in 7 runs of 3, each followed by an analysis chunk; then the analyses.
        let every = ANALYSIS_SHARE + 1;
        for (i, (lane, _)) in served.iter().enumerate() {
            let analysis = i >= 21 / ANALYSIS_SHARE * every || i % every == ANALYSIS_SHARE;
            assert_eq!(*lane == Lane::Analysis, analysis, "{i}");
        }
        assert_eq!(q.waiting(Lane::Analysis), 0);
    }

    /// A greedy move queued behind any number of searches and analyses is the next job of
    /// every kind of thread.
    #[test]
    fn fast_work_goes_first_on_every_thread() {
        let mut q: FairQueue<Job> = FairQueue::default();
        for i in 0..50 {
            q.push(
                Lane::Search,
                "flooder",
                &format!("t{i}"),
                ("flooder", "s".into()),
            );
            q.push(
                Lane::Analysis,
                "flooder",
                &format!("a{i}"),
                ("flooder", "a".into()),
            );
        }
        q.push(Lane::Fast, "victim", "g", ("victim", "greedy".into()));
        assert_eq!(q.pop(Worker::Any).unwrap().1.0, "victim");
        // A time-out stand-in queued later still goes before the remaining searches.
        q.pop(Worker::Any);
        q.push(Lane::Fast, "flooder", "t3", ("flooder", "stand-in".into()));
        assert_eq!(
            q.pop(Worker::Any).unwrap(),
            (Lane::Fast, ("flooder", "stand-in".into()))
        );
    }

    /// An analysis waits behind a bot move, and runs as soon as none waits.
    #[test]
    fn analyses_run_after_waiting_bot_moves() {
        let mut q: FairQueue<Job> = FairQueue::default();
        q.push(Lane::Analysis, "u", "a", ("u", "analysis".into()));
        q.push(Lane::Search, "v", "t", ("v", "search".into()));
        assert_eq!(q.pop(Worker::Any).unwrap().0, Lane::Search);
        q.push(Lane::Fast, "w", "t", ("w", "greedy".into()));
        assert_eq!(q.pop(Worker::Any).unwrap().0, Lane::Fast);
        assert_eq!(q.pop(Worker::Fast), None);
        assert_eq!(q.pop(Worker::Any).unwrap().0, Lane::Analysis);
        assert_eq!(q.pop(Worker::Any), None);
    }

    /// Users take turns, and so do one user's games.
    #[test]
    fn users_then_games_take_turns() {
        let mut q: FairQueue<Job> = FairQueue::default();
        for (owner, game) in [
            ("a", "1"),
            ("a", "1"),
            ("a", "2"),
            ("b", "3"),
            ("b", "3"),
            ("c", "4"),
        ] {
            q.push(Lane::Search, owner, game, (owner, game.to_string()));
        }
        let order: Vec<String> = drain(&mut q, Worker::Any)
            .into_iter()
            .map(|(_, (owner, game))| format!("{owner}{game}"))
            .collect();
        assert_eq!(order, ["a1", "b3", "c4", "a2", "b3", "a1"]);
    }

    /// Issue 46: an analysis chunk queued while bot tables keep both bot lanes busy (a new
    /// search and a new greedy move arrive for every job served) is served after at most
    /// `ANALYSIS_SHARE` bot jobs of a searching thread, and so is each next chunk; the fast
    /// thread never takes it, and bot moves still get the rest.
    #[test]
    fn an_analysis_is_not_starved_by_a_stream_of_bot_jobs() {
        let mut q: FairQueue<Job> = FairQueue::default();
        for t in 0..4 {
            q.push(Lane::Search, "bots", &format!("t{t}"), ("bots", "s".into()));
        }
        q.push(Lane::Analysis, "asker", "a", ("asker", "chunk".into()));
        let mut served = Vec::new();
        let mut chunks = 0;
        for i in 0..200 {
            // Each job served is replaced at once by another of the same table's.
            q.push(
                Lane::Search,
                "bots",
                &format!("t{}", i % 4),
                ("bots", "s".into()),
            );
            q.push(
                Lane::Fast,
                "bots",
                &format!("g{}", i % 4),
                ("bots", "g".into()),
            );
            assert_ne!(q.pop(Worker::Fast).unwrap().0, Lane::Analysis);
            let (lane, (who, _)) = q.pop(Worker::Any).unwrap();
            served.push(lane);
            if lane == Lane::Analysis {
                assert_eq!(who, "asker");
                chunks += 1;
                // The analysis queues its next chunk once this one is done.
                q.push(Lane::Analysis, "asker", "a", ("asker", "chunk".into()));
            }
        }
        let first = served.iter().position(|l| *l == Lane::Analysis);
        assert_eq!(first, Some(ANALYSIS_SHARE), "{served:?}");
        // Every chunk after at most ANALYSIS_SHARE bot jobs; bots get the rest.
        assert_eq!(chunks, 200 / (ANALYSIS_SHARE + 1));
        for gap in served.split(|l| *l == Lane::Analysis) {
            assert!(gap.len() <= ANALYSIS_SHARE, "{served:?}");
        }
    }
}
