//! The exact search behind `seating.rs`: when the local search keeps a repeated pair, a
//! branch and bound over every seating either finds a better one or proves there is none.
//!
//! Seatings are enumerated once each: the lowest-ranked unseated player opens the next table,
//! whose size runs over the sizes still to fill, and its companions are chosen in increasing
//! index order. A partial seating whose cost already reaches the best known is cut. The
//! search counts its steps and stops after [`BUDGET`], keeping the best found: a count, not a
//! clock, so the outcome is the same on every machine. Small fields finish well within it:
//! up to 12 seated players, the whole enumeration tree, pruning aside, has at most 88,342
//! steps (12 players at tables of 3; 39,722 at tables of 2: for each table size, the partial
//! tables the first player opens, Σ C(rest, k) for k below the size, plus each complete
//! table's subtree), so their repeats are the fewest possible; on
//! larger fields the budget may run out (the example `repeat-rates` measures how often that
//! leaves a repeat).
use crate::seating::{Cost, Problem, add};

/// Steps of the search at most, per seating.
pub(crate) const BUDGET: u64 = 2_000_000;

struct Exact<'a> {
    p: &'a Problem<'a>,
    n: usize,
    used: Vec<bool>,
    /// Tables still to fill: (size, how many).
    sizes: Vec<(usize, usize)>,
    current: Vec<Vec<usize>>,
    best: Option<Vec<Vec<usize>>>,
    best_cost: Cost,
    steps: u64,
}

/// The best seating into tables of `sizes` whose cost is below `incumbent`, if the search
/// finds one within its budget. Needs no bench.
pub(crate) fn better_than(problem: &Problem, incumbent: Cost) -> Option<Vec<Vec<usize>>> {
    let n = problem.points.len();
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    for &size in problem.sizes {
        let size = usize::from(size);
        match sizes.iter_mut().find(|(s, _)| *s == size) {
            Some((_, count)) => *count += 1,
            None => sizes.push((size, 1)),
        }
    }
    let mut exact = Exact {
        p: problem,
        n,
        used: vec![false; n],
        sizes,
        current: Vec::new(),
        best: None,
        best_cost: incumbent,
        steps: 0,
    };
    exact.search((0, 0));
    exact.best
}

impl Exact<'_> {
    fn search(&mut self, cost: Cost) {
        let Some(first) = self.used.iter().position(|&u| !u) else {
            if cost < self.best_cost {
                self.best_cost = cost;
                self.best = Some(self.current.clone());
            }
            return;
        };
        self.used[first] = true;
        for kind in 0..self.sizes.len() {
            let (size, count) = self.sizes[kind];
            if count == 0 {
                continue;
            }
            self.sizes[kind].1 -= 1;
            let mut table = vec![first];
            self.extend(&mut table, size, first + 1, cost);
            self.sizes[kind].1 += 1;
        }
        self.used[first] = false;
    }

    fn extend(&mut self, table: &mut Vec<usize>, size: usize, from: usize, cost: Cost) {
        self.steps += 1;
        if self.steps > BUDGET || cost >= self.best_cost {
            return;
        }
        if table.len() == size {
            self.current.push(table.clone());
            self.search(cost);
            self.current.pop();
            return;
        }
        for v in from..self.n {
            if self.used[v] {
                continue;
            }
            let mut delta = (0, 0);
            for &x in table.iter() {
                let gap = i64::from(self.p.points[x]) - i64::from(self.p.points[v]);
                delta = add(delta, (i64::from(self.p.met[x * self.n + v]), gap * gap));
            }
            self.used[v] = true;
            table.push(v);
            self.extend(table, size, v + 1, add(cost, delta));
            table.pop();
            self.used[v] = false;
        }
    }
}
