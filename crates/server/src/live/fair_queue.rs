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
//! Within a lane, work is shared by the processor time it took, not by its count of jobs
//! (issue 54: a `max` move takes a second, an `easy` one a twentieth, so taking turns by jobs
//! gave a user of `max` bots twenty times the CPU of a user of `easy` ones). Work is grouped
//! by the client address its user came from (an IPv6 client by its /64, `rate_limits::
//! address_key`), then by user, then by game: ten guests made from one address are one group
//! and share what one person would get. The group, and within it the user, that has used the
//! least CPU so far is served next ([`VirtualTimes`]: start-time fair queuing; a group that
//! comes back after a pause starts from where the busiest waiting groups are, so a pause earns
//! no credit). A group's games take turns (round robin). With no CPU charged yet (as in the
//! tests that only push and pop), this is taking turns: groups, then users, then games.
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

/// The CPU time used by each group (or user), as start-time fair queuing keeps it: a key's
/// virtual time is the CPU seconds charged to it, never below the virtual time of the key
/// served last when it (re)joins, so that a key idle for a while does not bank a claim on
/// the whole pool when it comes back.
#[derive(Default)]
struct VirtualTimes {
    times: HashMap<String, f64>,
    /// The virtual time of the key served last.
    clock: f64,
}

impl VirtualTimes {
    /// Keys at most this many: the ones behind the clock are forgotten past it (rejoining,
    /// they would be lifted to the clock anyway, so forgetting them changes nothing).
    const KEPT: usize = 4096;

    fn of(&self, key: &str) -> f64 {
        self.times.get(key).copied().unwrap_or(0.0).max(self.clock)
    }

    /// `key` joins the waiting keys: lifted to the clock if it is behind.
    fn join(&mut self, key: &str) {
        let t = self.of(key);
        self.times.insert(key.to_string(), t);
    }

    fn served(&mut self, key: &str) {
        self.clock = self.clock.max(self.times.get(key).copied().unwrap_or(0.0));
    }

    fn charge(&mut self, key: &str, seconds: f64) {
        *self.times.entry(key.to_string()).or_insert(self.clock) += seconds.max(0.0);
        if self.times.len() > Self::KEPT {
            let clock = self.clock;
            self.times.retain(|_, t| *t > clock);
        }
    }
}

/// Queues by key, the key with the least virtual time served first (ties: the one waiting
/// longest, so that with equal times, or none charged, keys take turns).
struct Shares<Q> {
    order: VecDeque<String>,
    queues: HashMap<String, Q>,
}

impl<Q> Default for Shares<Q> {
    fn default() -> Self {
        Shares {
            order: VecDeque::new(),
            queues: HashMap::new(),
        }
    }
}

impl<Q: Pending> Pending for Shares<Q> {
    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

impl<Q: Pending> Shares<Q> {
    fn entry(&mut self, key: &str, times: &mut VirtualTimes) -> &mut Q {
        if !self.queues.contains_key(key) {
            times.join(key);
            self.order.push_back(key.to_string());
        }
        self.queues.entry(key.to_string()).or_default()
    }

    fn take<T>(
        &mut self,
        times: &mut VirtualTimes,
        from: impl FnOnce(&mut Q) -> Option<T>,
    ) -> Option<T> {
        let (at, _) = self
            .order
            .iter()
            .enumerate()
            .map(|(i, k)| (i, times.of(k)))
            .fold(None, |best: Option<(usize, f64)>, (i, t)| match best {
                Some((_, b)) if b <= t => best,
                _ => Some((i, t)),
            })?;
        let key = self.order.remove(at)?;
        times.served(&key);
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

/// Jobs by lane, then group (client address), then user (owner), then game.
pub struct FairQueue<J> {
    lanes: HashMap<Lane, Shares<Shares<Shares<VecDeque<J>>>>>,
    groups: VirtualTimes,
    users: VirtualTimes,
    waiting: HashMap<Lane, usize>,
    /// Bot jobs taken by [`Worker::Any`] threads while an analysis waited, since the last
    /// analysis chunk was taken.
    passed_over: usize,
}

impl<J> Default for FairQueue<J> {
    fn default() -> Self {
        FairQueue {
            lanes: HashMap::new(),
            groups: VirtualTimes::default(),
            users: VirtualTimes::default(),
            waiting: HashMap::new(),
            passed_over: 0,
        }
    }
}

impl<J> FairQueue<J> {
    /// Queues `job` of `owner`'s game `game` in `lane`, `owner` being a group of its own.
    pub fn push(&mut self, lane: Lane, owner: &str, game: &str, job: J) {
        self.push_in(lane, owner, owner, game, job);
    }

    /// Queues `job` of `owner`'s game `game` in `lane`, `owner` sharing with `group` (the
    /// client address it came from).
    pub fn push_in(&mut self, lane: Lane, group: &str, owner: &str, game: &str, job: J) {
        self.lanes
            .entry(lane)
            .or_default()
            .entry(group, &mut self.groups)
            .entry(owner, &mut self.users)
            // A user's games take turns: no CPU is charged to them.
            .entry(game, &mut VirtualTimes::default())
            .push_back(job);
        *self.waiting.entry(lane).or_default() += 1;
    }

    /// Counts `seconds` of CPU a job of `owner` in `group` took.
    pub fn charge(&mut self, group: &str, owner: &str, seconds: f64) {
        self.groups.charge(group, seconds);
        self.users.charge(owner, seconds);
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
            let Some(lane_groups) = self.lanes.get_mut(&lane) else {
                continue;
            };
            let (groups, user_times) = (&mut self.groups, &mut self.users);
            if let Some(job) = lane_groups.take(groups, |users| {
                users.take(user_times, |games| {
                    games.take(&mut VirtualTimes::default(), VecDeque::pop_front)
                })
            }) {
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

    /// Issue 54: ten guests made from one address run `max` bots (a second of CPU a move);
    /// a victim from another address runs an `easy` one (a twentieth). Shared by CPU time and
    /// by address, the victim's move is the next one served whenever it waits, however many
    /// the flooders queue; by job count it would have waited behind one move of each guest.
    #[test]
    fn work_is_shared_by_cpu_time_and_by_address() {
        let mut q: FairQueue<Job> = FairQueue::default();
        let mut victim_waited = Vec::new();
        for round in 0..30 {
            for guest in 0..10 {
                let owner = ["g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9"][guest];
                if round == 0 {
                    q.push_in(
                        Lane::Search,
                        "10.0.0.1",
                        owner,
                        owner,
                        (owner, "max".into()),
                    );
                }
            }
            q.push_in(
                Lane::Search,
                "10.0.0.2",
                "victim",
                "v",
                ("victim", "easy".into()),
            );
            // Jobs served before the victim's, each charged what it cost and queued again
            // (a bot table asks for its next move once this one is played).
            let mut before = 0;
            loop {
                let (_, (owner, _)) = q.pop(Worker::Any).unwrap();
                if owner == "victim" {
                    q.charge("10.0.0.2", "victim", 0.05);
                    break;
                }
                before += 1;
                q.charge("10.0.0.1", owner, 1.0);
                q.push_in(
                    Lane::Search,
                    "10.0.0.1",
                    owner,
                    owner,
                    (owner, "max".into()),
                );
            }
            victim_waited.push(before);
        }
        // The first time the flooders' group had used nothing yet; after that, never more
        // than one of their moves before the victim's.
        assert!(victim_waited.iter().all(|&n| n <= 1), "{victim_waited:?}");
        // And the flooders still get all the rest: the pool is never idle for fairness.
        assert_eq!(q.waiting(Lane::Search), 10);
    }

    /// A group that was idle does not bank credit: it rejoins at the virtual time of the
    /// key served last, so the groups that kept working are not starved by it afterwards.
    #[test]
    fn an_idle_group_rejoins_without_credit() {
        let mut q: FairQueue<Job> = FairQueue::default();
        for _ in 0..10 {
            q.push_in(Lane::Search, "a", "a", "a", ("a", "s".into()));
            q.pop(Worker::Any);
            q.charge("a", "a", 1.0);
        }
        for i in 0..4 {
            q.push_in(Lane::Search, "a", "a", "a", ("a", format!("{i}")));
            q.push_in(Lane::Search, "b", "b", "b", ("b", format!("{i}")));
        }
        let mut order = String::new();
        while let Some((_, (who, _))) = q.pop(Worker::Any) {
            order.push_str(who);
            q.charge(who, who, 1.0);
        }
        // `b` (idle until now) goes first once, then they alternate: `a`'s ten past seconds
        // are not held against it.
        assert_eq!(order, "babababa");
    }
}
