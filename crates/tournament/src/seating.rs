//! Seating players at tables so that few of them meet again and each table stays close in the
//! standings: the search shared by Swiss rounds and the Arena's pool.
//!
//! The objective is lexicographic: first the *repeats* (for every table, for every pair of
//! players at it, how often they met before; a pair that met twice weighs two), then the
//! *spread* (for every table, for every pair at it, the square of their gap in points: the
//! table's variance of points times its size squared, so one far outlier costs more than two
//! near ones, and the leader meets the next best rather than the last of the group). The
//! search starts from the standings cut into consecutive tables, which has the least spread,
//! and improves it by local search:
//! 1. the best swap of two players at different tables, again and again until none helps;
//! 2. while repeats remain, the first 3-cycle (a to b's table, b to c's, c to a's) that
//!    helps, then back to 1. A swap cannot free a table whose every candidate would bring a
//!    repeat with it; a rotation through a third table often can;
//! 3. for Swiss rounds, if a repeat is left: an iterated local search (kicks, then 1 and 2
//!    again; see [`Search::kicks`]), then the exact search of `exact.rs`, with the best
//!    seating so far as the bound to beat, within a fixed budget of steps.
//!
//! Every descent step strictly lowers the objective and the kicks and exact steps are
//! counted, so the search ends; scans run in index order and kicks draw from a fixed seed, so
//! the same input always gives the same seating. Up to 12 seated players the result has
//! the fewest repeats possible (the exact search completes); beyond, `cargo run --release -p
//! pyramidion-tournament --example repeat-rates` measures how often a repeat is kept that an
//! exhaustive search avoids (docs/tournaments.md).
//!
//! A *bench* (the Arena's players left waiting) is a group with no cost; only players marked
//! benchable may be swapped onto it, so the search may choose which of them waits to avoid a
//! rematch.
use crate::exact;
use pyramidion_core::GameRng;

/// Kicks of the iterated local search at most, per seating.
const KICKS: usize = 400;
/// The fixed seed of the kicks' draws (any constant: it only has to be the same every time).
const KICK_SEED: u64 = 0x5EA7_1265;

/// The problem: candidates in standing order (0 leads), their points, the weights of their
/// previous meetings, the sizes of the tables, and the bench.
pub(crate) struct Problem<'a> {
    pub points: &'a [u32],
    /// `met[a * n + b]`: how often `a` and `b` met (symmetric).
    pub met: &'a [u32],
    pub sizes: &'a [u8],
    pub bench: usize,
    pub benchable: &'a [bool],
    /// Whether a repeat left by the local search calls the kicks and the exact search (Swiss
    /// rounds, once per round; not the Arena's pool, paired every second or two, whose only
    /// repeats are last-game rematches among few free players).
    pub exact: bool,
}

/// The seating found: candidate indices per table (in standing order); whoever is at no table
/// is on the bench.
pub(crate) struct Seating {
    pub tables: Vec<Vec<usize>>,
}

/// (repeats, spread), compared lexicographically.
pub(crate) type Cost = (i64, i64);

struct Search<'a> {
    p: &'a Problem<'a>,
    n: usize,
    /// Groups: the tables, then the bench (always present, maybe empty).
    groups: Vec<Vec<usize>>,
    cost: Vec<Cost>,
    /// Groups a swap may improve: those with a repeat, the bench, and every group a step has
    /// changed. The standings cut has the least spread, so two tables untouched since and
    /// without repeats gain nothing from a swap between them; skipping those pairs keeps a
    /// pass at O(changed × players) instead of O(players²).
    dirty: Vec<bool>,
}

pub(crate) fn seat(problem: &Problem) -> Seating {
    let n = problem.points.len();
    debug_assert_eq!(
        problem.sizes.iter().map(|&s| usize::from(s)).sum::<usize>() + problem.bench,
        n
    );
    // The bench takes the last benchable candidates in standing order; the tables take the
    // rest, cut in standing order.
    let mut bench = Vec::with_capacity(problem.bench);
    for i in (0..n).rev() {
        if bench.len() == problem.bench {
            break;
        }
        if problem.benchable[i] {
            bench.push(i);
        }
    }
    debug_assert_eq!(
        bench.len(),
        problem.bench,
        "fewer benchable candidates than seats"
    );
    let mut seated = (0..n).filter(|i| !bench.contains(i));
    let mut groups: Vec<Vec<usize>> = problem
        .sizes
        .iter()
        .map(|&size| seated.by_ref().take(usize::from(size)).collect())
        .collect();
    bench.reverse();
    groups.push(bench);
    let mut search = Search {
        p: problem,
        n,
        cost: Vec::new(),
        dirty: Vec::new(),
        groups,
    };
    search.cost = (0..search.groups.len())
        .map(|g| search.group_cost(g, &search.groups[g]))
        .collect();
    let bench = search.bench_group();
    search.dirty = (0..search.groups.len())
        .map(|g| g == bench || search.cost[g].0 > 0)
        .collect();
    search.run();
    if problem.exact && search.total_repeats() > 0 {
        search.kicks();
    }
    let total = search.total();
    let mut groups = search.groups;
    if problem.exact
        && problem.bench == 0
        && total.0 > 0
        && let Some(better) = exact::better_than(problem, total)
    {
        groups = better;
        groups.push(Vec::new());
    }
    for group in &mut groups {
        group.sort_unstable();
    }
    groups.pop();
    // Swaps may have moved the leaders' table down the list: list tables by their best
    // player again, full tables before short ones.
    groups.sort_by_key(|table| (std::cmp::Reverse(table.len()), table.first().copied()));
    Seating { tables: groups }
}

impl Search<'_> {
    fn bench_group(&self) -> usize {
        self.groups.len() - 1
    }

    fn group_cost(&self, g: usize, members: &[usize]) -> Cost {
        if g == self.bench_group() {
            return (0, 0);
        }
        let (mut repeats, mut spread) = (0i64, 0i64);
        for (i, &a) in members.iter().enumerate() {
            for &b in &members[i + 1..] {
                repeats += i64::from(self.p.met[a * self.n + b]);
                let gap = i64::from(self.p.points[a]) - i64::from(self.p.points[b]);
                spread += gap * gap;
            }
        }
        (repeats, spread)
    }

    /// The cost of group `g` with its member at `slot` replaced by `by`: its current cost less
    /// the leaver's pairs plus the newcomer's, O(seats) rather than a recount of every pair.
    fn cost_with(&self, g: usize, slot: usize, by: usize) -> Cost {
        if g == self.bench_group() {
            return (0, 0);
        }
        let members = &self.groups[g];
        let out = members[slot];
        let (mut repeats, mut spread) = self.cost[g];
        let point = |x: usize| i64::from(self.p.points[x]);
        for (k, &x) in members.iter().enumerate() {
            if k != slot {
                repeats += i64::from(self.p.met[by * self.n + x])
                    - i64::from(self.p.met[out * self.n + x]);
                let (new, old) = (point(by) - point(x), point(out) - point(x));
                spread += new * new - old * old;
            }
        }
        (repeats, spread)
    }

    /// Whether `player` may move into group `g` (only benchable players go to the bench).
    fn may_enter(&self, g: usize, player: usize) -> bool {
        g != self.bench_group() || self.p.benchable[player]
    }

    fn total_repeats(&self) -> i64 {
        self.cost.iter().map(|c| c.0).sum()
    }

    fn total(&self) -> Cost {
        self.cost.iter().fold((0, 0), |a, &c| add(a, c))
    }

    /// Iterated local search: while repeats remain, kick the seating (a player of a table
    /// with a repeat swaps with a player drawn elsewhere, however that costs), descend again,
    /// and keep the result if it has no more repeats than the best (sideways moves let the
    /// walk cross plateaus); otherwise return to the best. The draws come from a fixed seed,
    /// so the same problem always walks the same way. The number of kicks falls with the
    /// field so that a round of hundreds stays within tens of milliseconds.
    fn kicks(&mut self) {
        let kicks = (40_000 / self.n.max(1)).clamp(20, KICKS);
        let mut rng = GameRng::from_seed(KICK_SEED ^ self.n as u64);
        let mut best = (self.total(), self.groups.clone(), self.cost.clone());
        for _ in 0..kicks {
            if best.0.0 == 0 {
                break;
            }
            let repeated: Vec<usize> = (0..self.groups.len())
                .filter(|&g| self.cost[g].0 > 0)
                .collect();
            let ga = repeated[rng.below(repeated.len() as u32) as usize];
            let gb = rng.below(self.groups.len() as u32 - 1) as usize;
            let gb = if gb >= ga { gb + 1 } else { gb };
            if self.groups[gb].is_empty() {
                continue;
            }
            let sa = rng.below(self.groups[ga].len() as u32) as usize;
            let sb = rng.below(self.groups[gb].len() as u32) as usize;
            let (a, b) = (self.groups[ga][sa], self.groups[gb][sb]);
            if !self.may_enter(gb, a) || !self.may_enter(ga, b) {
                continue;
            }
            let (ca, cb) = (self.cost_with(ga, sa, b), self.cost_with(gb, sb, a));
            self.groups[ga][sa] = b;
            self.groups[gb][sb] = a;
            self.cost[ga] = ca;
            self.cost[gb] = cb;
            self.dirty[ga] = true;
            self.dirty[gb] = true;
            self.run();
            let total = self.total();
            if total.0 <= best.0.0 {
                if total < best.0 {
                    best = (total, self.groups.clone(), self.cost.clone());
                }
            } else {
                self.groups.clone_from(&best.1);
                self.cost.clone_from(&best.2);
            }
        }
        self.groups = best.1;
        self.cost = best.2;
    }

    fn run(&mut self) {
        loop {
            while self.best_swap() {}
            if self.total_repeats() == 0 || !self.first_rotation() {
                break;
            }
        }
    }

    /// Applies the swap that lowers the objective most; false when none lowers it.
    fn best_swap(&mut self) -> bool {
        let groups = self.groups.len();
        let mut best: Option<(Cost, [usize; 4], Cost, Cost)> = None;
        for g1 in 0..groups {
            for g2 in g1 + 1..groups {
                if !self.dirty[g1] && !self.dirty[g2] {
                    continue;
                }
                let before = add(self.cost[g1], self.cost[g2]);
                for s1 in 0..self.groups[g1].len() {
                    let a = self.groups[g1][s1];
                    if !self.may_enter(g2, a) {
                        continue;
                    }
                    for s2 in 0..self.groups[g2].len() {
                        let b = self.groups[g2][s2];
                        if !self.may_enter(g1, b) {
                            continue;
                        }
                        let c1 = self.cost_with(g1, s1, b);
                        let c2 = self.cost_with(g2, s2, a);
                        let delta = sub(add(c1, c2), before);
                        if delta < (0, 0) && best.is_none_or(|(d, ..)| delta < d) {
                            best = Some((delta, [g1, s1, g2, s2], c1, c2));
                        }
                    }
                }
            }
        }
        let Some((_, [g1, s1, g2, s2], c1, c2)) = best else {
            return false;
        };
        let a = self.groups[g1][s1];
        self.groups[g1][s1] = self.groups[g2][s2];
        self.groups[g2][s2] = a;
        self.cost[g1] = c1;
        self.cost[g2] = c2;
        self.dirty[g1] = true;
        self.dirty[g2] = true;
        true
    }

    /// Applies the first 3-cycle, starting from a table with a repeat, that lowers the
    /// objective; false when none does.
    fn first_rotation(&mut self) -> bool {
        let groups = self.groups.len();
        for ga in 0..groups {
            if self.cost[ga].0 == 0 {
                continue;
            }
            for sa in 0..self.groups[ga].len() {
                let a = self.groups[ga][sa];
                for gb in (0..groups).filter(|&g| g != ga) {
                    if !self.may_enter(gb, a) {
                        continue;
                    }
                    for sb in 0..self.groups[gb].len() {
                        let b = self.groups[gb][sb];
                        let cb = self.cost_with(gb, sb, a);
                        for gc in (0..groups).filter(|&g| g != ga && g != gb) {
                            if !self.may_enter(gc, b) {
                                continue;
                            }
                            let before = add(add(self.cost[ga], self.cost[gb]), self.cost[gc]);
                            for sc in 0..self.groups[gc].len() {
                                let c = self.groups[gc][sc];
                                if !self.may_enter(ga, c) {
                                    continue;
                                }
                                let cc = self.cost_with(gc, sc, b);
                                let ca = self.cost_with(ga, sa, c);
                                if sub(add(add(ca, cb), cc), before) < (0, 0) {
                                    self.groups[ga][sa] = c;
                                    self.groups[gb][sb] = a;
                                    self.groups[gc][sc] = b;
                                    self.cost[ga] = ca;
                                    self.cost[gb] = cb;
                                    self.cost[gc] = cc;
                                    for g in [ga, gb, gc] {
                                        self.dirty[g] = true;
                                    }
                                    return true;
                                }
                            }
                        }
                    }
                }
            }
        }
        false
    }
}

pub(crate) fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1)
}

fn sub(a: Cost, b: Cost) -> Cost {
    (a.0 - b.0, a.1 - b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(n: usize, pairs: &[(usize, usize)]) -> Vec<u32> {
        let mut met = vec![0; n * n];
        for &(a, b) in pairs {
            met[a * n + b] += 1;
            met[b * n + a] += 1;
        }
        met
    }

    #[test]
    fn without_history_the_standings_are_cut_in_order() {
        let points = [24, 20, 16, 12, 8, 4];
        let met = matrix(6, &[]);
        let seating = seat(&Problem {
            points: &points,
            met: &met,
            sizes: &[2, 2, 2],
            bench: 0,
            benchable: &[false; 6],
            exact: true,
        });
        assert_eq!(seating.tables, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
    }

    #[test]
    fn a_repeat_is_broken_with_the_least_spread() {
        // 0 and 1 met: 0 plays 2 and 1 plays 3 (spread 2² + 2²), rather than 0-3 and 1-2
        // (3² + 1²).
        let points = [8, 7, 6, 5];
        let met = matrix(4, &[(0, 1)]);
        let seating = seat(&Problem {
            points: &points,
            met: &met,
            sizes: &[2, 2],
            bench: 0,
            benchable: &[false; 4],
            exact: true,
        });
        assert_eq!(seating.tables, vec![vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn the_bench_takes_whoever_avoids_a_rematch() {
        // 0, 1 and 2 just played together, 3 waited longer: a table of three must seat 3
        // and two of the others; which of 0..3 waits is free (all benchable), and any choice
        // leaves one pair of the last table together, the least possible.
        let points = [0; 4];
        let met = matrix(4, &[(0, 1), (0, 2), (1, 2)]);
        let seating = seat(&Problem {
            points: &points,
            met: &met,
            sizes: &[3],
            bench: 1,
            benchable: &[true, true, true, false],
            exact: false,
        });
        assert_eq!(seating.tables[0].len(), 3);
        assert!(seating.tables[0].contains(&3));
    }
}
