//! The exact best gem allocation at stage end.
//!
//! Payments reduce to *units*: one unit is 1 gem of the area's colour or 2 Mythicals; a
//! single activation costs 1 unit, a doubled one 3 (3C, 2C+2M, 1C+4M, 6M are exactly the
//! ways to make 3 units). A colour's gems only pay its own areas, Mythical pairs pay any, and
//! every Mythical left scores 1. So: per colour, the best value for each exact number of units
//! (a small knapsack with choices 0/1/3 per area); then share the Mythical pairs among colours
//! (a second knapsack). Ties prefer spending fewer gems. Exact, and a few microseconds.
use crate::gems::{COLOURS, GEMS_PER_COLOUR, Gem, Gems, MYTHICAL_GEMS};
use crate::moves::Payment;
use crate::state::ScorableArea;
use arrayvec::ArrayVec;

/// A best allocation: its activations and the stage points they give with the Mythicals kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// (area anchor, payment).
    pub activations: Vec<(u8, Payment)>,
    /// Activation points plus Mythicals left.
    pub points: u32,
    /// Gems placed on the pyramid.
    pub spent: u32,
}

const NONE: i32 = i32::MIN / 4;

/// Per colour: best value with exactly `u` units, and the units (0/1/3) given to each area.
struct ColourTable {
    /// `value[u]`, `NONE` if `u` units cannot be spent exactly.
    value: Vec<i32>,
    /// `choice[i][u]`: units given to area i in the best way to spend exactly u units on
    /// areas 0..=i.
    choice: Vec<Vec<u8>>,
}

fn colour_table(icons: &[u8], max_units: usize) -> ColourTable {
    let mut value = vec![NONE; max_units + 1];
    value[0] = 0;
    let mut choice = Vec::with_capacity(icons.len());
    for &v in icons {
        let v = v as i32;
        let mut next = value.clone();
        let mut pick = vec![0u8; max_units + 1];
        for u in 0..=max_units {
            for (units, gain) in [(1usize, v), (3, 2 * v)] {
                if u >= units && value[u - units] != NONE && value[u - units] + gain > next[u] {
                    next[u] = value[u - units] + gain;
                    pick[u] = units as u8;
                }
            }
        }
        value = next;
        choice.push(pick);
    }
    ColourTable { value, choice }
}

/// The best allocation of `gems` over `areas`. Only areas in `available` (a bitmask over the
/// indices of `areas`) may be activated.
pub fn best_plan(areas: &[ScorableArea], available: u128, gems: Gems) -> Plan {
    let pairs = (gems.mythical() / 2) as usize;
    let mut per_colour: ArrayVec<(Vec<usize>, ColourTable), COLOURS> = ArrayVec::new();
    // Options per colour: (pairs used, key) where key orders by points then fewer gems.
    let key = |net: i32, spent: i32| net * 256 - spent;
    let mut options: ArrayVec<Vec<(usize, i32, usize)>, COLOURS> = ArrayVec::new();
    for c in 0..COLOURS as u8 {
        let idx: Vec<usize> = (0..areas.len())
            .filter(|&i| available >> i & 1 == 1 && areas[i].colour == c)
            .collect();
        let g = gems.get(Gem::colour(c)) as usize;
        let max_units = (g + pairs).min(3 * idx.len());
        let icons: Vec<u8> = idx.iter().map(|&i| areas[i].icons).collect();
        let table = colour_table(&icons, max_units);
        let mut opts = Vec::new();
        for (u, &v) in table.value.iter().enumerate() {
            if v == NONE {
                continue;
            }
            let used_pairs = u.saturating_sub(g);
            let spent = u.min(g) + 2 * used_pairs;
            opts.push((used_pairs, key(v - 2 * used_pairs as i32, spent as i32), u));
        }
        per_colour.push((idx, table));
        options.push(opts);
    }
    // Knapsack over Mythical pairs: best[c][q] = best key for colours < c using ≤ q pairs.
    let mut best = vec![vec![0i32; pairs + 1]];
    let mut picked: Vec<Vec<usize>> = Vec::new();
    for opts in &options {
        let prev = best.last().expect("row");
        let mut row = vec![NONE; pairs + 1];
        let mut pick = vec![0usize; pairs + 1];
        for q in 0..=pairs {
            for (o, &(p, k, _)) in opts.iter().enumerate() {
                if p <= q && prev[q - p] != NONE && prev[q - p] + k > row[q] {
                    row[q] = prev[q - p] + k;
                    pick[q] = o;
                }
            }
        }
        best.push(row);
        picked.push(pick);
    }
    // Reconstruct from the last colour back.
    let mut plan = Plan::default();
    let mut q = pairs;
    let mut net = 0i32;
    for c in (0..COLOURS).rev() {
        let (p, _, units) = options[c][picked[c][q]];
        q -= p;
        let (idx, table) = &per_colour[c];
        let g = gems.get(Gem::colour(c as u8));
        let mut u = units;
        let mut coloured_left = g.min(units as u8);
        net += table.value[units] - 2 * p as i32;
        plan.spent += u.min(g as usize) as u32 + 2 * p as u32;
        for i in (0..idx.len()).rev() {
            let given = table.choice[i][u];
            if given > 0 {
                let coloured = coloured_left.min(given);
                coloured_left -= coloured;
                plan.activations
                    .push((areas[idx[i]].anchor, Payment::from_units(given, coloured)));
            }
            u -= given as usize;
        }
    }
    plan.activations.reverse();
    plan.points = (net + gems.mythical() as i32) as u32;
    plan
}

/// Units a colour can use at most in [`best_points`]: all its gems and every Mythical pair
/// the box holds. Small tables are what make the knapsacks cheap.
const MAX_UNITS: usize = GEMS_PER_COLOUR as usize + MYTHICAL_GEMS as usize / 2;

/// The points of [`best_plan`] over every area, without building the plan: the same two
/// knapsacks on the stack, no allocation. Bots call it for every placement they weigh (the
/// greedy playouts of the search bot spend most of their time here).
pub fn best_points(areas: &[ScorableArea], gems: Gems) -> u32 {
    debug_assert!(
        gems.mythical() <= MYTHICAL_GEMS,
        "more Mythicals than the box holds"
    );
    let pairs = (gems.mythical() / 2).min(MAX_UNITS as u8) as usize;
    // best[q]: most net points of the colours so far using at most q Mythical pairs, updated
    // in place: this runs for every placement a playout weighs, where copying the table per
    // colour cost more than the knapsacks themselves (measured with perf).
    let mut best = [0i32; MAX_UNITS + 1];
    for c in 0..COLOURS as u8 {
        let g = gems.get(Gem::colour(c)) as usize;
        let count = areas.iter().filter(|a| a.colour == c).count();
        let max_units = (g + pairs).min(3 * count).min(MAX_UNITS);
        if max_units == 0 {
            continue;
        }
        // value[u]: most points spending exactly u units on this colour's areas (each area
        // 0, 1 or 3 units). Descending u keeps each area used once.
        let mut value = [NONE; MAX_UNITS + 1];
        value[0] = 0;
        for a in areas.iter().filter(|a| a.colour == c) {
            let v = a.icons as i32;
            for u in (1..=max_units).rev() {
                let single = value[u - 1] + v;
                let double = if u >= 3 { value[u - 3] + 2 * v } else { NONE };
                value[u] = value[u].max(single).max(double);
            }
        }
        // In place, most pairs first: entry q reads only entries up to q, not yet updated.
        for q in (0..=pairs).rev() {
            let mut most = best[q];
            for (u, &v) in value.iter().enumerate().take(max_units + 1).skip(1) {
                let used_pairs = u.saturating_sub(g);
                if used_pairs > q {
                    break;
                }
                if v >= 0 {
                    most = most.max(best[q - used_pairs] + v - 2 * used_pairs as i32);
                }
            }
            best[q] = most;
        }
    }
    (best[pairs] + gems.mythical() as i32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::activation_points;

    fn area(anchor: u8, colour: u8, icons: u8) -> ScorableArea {
        ScorableArea {
            anchor,
            colour,
            icons,
        }
    }

    fn gems(list: &[(Gem, u8)]) -> Gems {
        let mut g = Gems::default();
        for &(gem, n) in list {
            g.add(gem, n);
        }
        g
    }

    /// Brute force over every assignment of payments (or none) to every area.
    fn brute(areas: &[ScorableArea], gems: Gems) -> (u32, u32) {
        let mut best = (0u32, 0u32);
        let mut best_key = i64::MIN;
        let n = areas.len();
        let mut choice = vec![0usize; n];
        loop {
            let mut g = gems;
            let mut points = 0u32;
            let mut ok = true;
            for (i, &c) in choice.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                let p = Payment::ALL[c - 1];
                let (cc, m) = p.cost();
                let gem = Gem::colour(areas[i].colour);
                if g.get(gem) < cc || g.mythical() < m {
                    ok = false;
                    break;
                }
                g.remove(gem, cc);
                g.remove(Gem::Mythical, m);
                points += activation_points(areas[i].icons, p) as u32;
            }
            if ok {
                let total = points + g.mythical() as u32;
                let spent = gems.total() - g.total();
                let key = total as i64 * 256 - spent as i64;
                if key > best_key {
                    best_key = key;
                    best = (total, spent);
                }
            }
            let mut i = 0;
            loop {
                if i == n {
                    return best;
                }
                choice[i] += 1;
                if choice[i] <= 6 {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }

    fn check_plan(areas: &[ScorableArea], g: Gems, plan: &Plan) {
        let mut left = g;
        let mut points = 0;
        for &(anchor, p) in &plan.activations {
            let a = areas.iter().find(|a| a.anchor == anchor).unwrap();
            let (c, m) = p.cost();
            left.remove(Gem::colour(a.colour), c);
            left.remove(Gem::Mythical, m);
            points += activation_points(a.icons, p) as u32;
        }
        assert_eq!(points + left.mythical() as u32, plan.points);
        assert_eq!(g.total() - left.total(), plan.spent);
    }

    #[test]
    fn matches_brute_force_on_random_positions() {
        let mut rng = pyramidion_core::GameRng::from_seed(5);
        for _ in 0..400 {
            let n = 1 + rng.below(4) as usize;
            let areas: Vec<_> = (0..n)
                .map(|i| area(i as u8, rng.below(3) as u8, 1 + rng.below(6) as u8))
                .collect();
            let g = gems(&[
                (Gem::Orange, rng.below(4) as u8),
                (Gem::Blue, rng.below(3) as u8),
                (Gem::Purple, rng.below(2) as u8),
                (Gem::Mythical, rng.below(8) as u8),
            ]);
            let plan = best_plan(&areas, u128::MAX, g);
            check_plan(&areas, g, &plan);
            assert_eq!(best_points(&areas, g), plan.points, "{areas:?} {g:?}");
            assert_eq!(
                (plan.points, plan.spent),
                brute(&areas, g),
                "{areas:?} {g:?}"
            );
        }
    }

    #[test]
    fn best_points_agrees_with_best_plan_on_large_positions() {
        let mut rng = pyramidion_core::GameRng::from_seed(11);
        for _ in 0..2000 {
            let n = rng.below(16) as usize;
            let areas: Vec<_> = (0..n)
                .map(|i| area(i as u8, rng.below(5) as u8, 1 + rng.below(8) as u8))
                .collect();
            let mut g = Gems::default();
            for c in 0..5 {
                g.add(Gem::colour(c), rng.below(6) as u8);
            }
            g.add(Gem::Mythical, rng.below(12) as u8);
            assert_eq!(
                best_points(&areas, g),
                best_plan(&areas, u128::MAX, g).points,
                "{areas:?} {g:?}"
            );
        }
    }

    #[test]
    fn doubles_the_richest_area_when_gems_allow() {
        let areas = [area(0, 0, 5), area(10, 0, 2)];
        let plan = best_plan(&areas, u128::MAX, gems(&[(Gem::Orange, 3)]));
        assert_eq!(plan.points, 10);
        assert_eq!(plan.activations, vec![(0, Payment::C3)]);
        // Four gems: double the 5 and single the 2 = 12.
        let plan = best_plan(&areas, u128::MAX, gems(&[(Gem::Orange, 4)]));
        assert_eq!(plan.points, 12);
    }

    #[test]
    fn keeps_mythicals_when_spending_them_does_not_pay() {
        // A 1-icon area is worth 1; two Mythicals kept are worth 2.
        let plan = best_plan(&[area(0, 1, 1)], u128::MAX, gems(&[(Gem::Mythical, 2)]));
        assert_eq!((plan.points, plan.spent), (2, 0));
        assert!(plan.activations.is_empty());
        // A 3-icon area: 2 Mythicals buy 3 points instead of 2.
        let plan = best_plan(&[area(0, 1, 3)], u128::MAX, gems(&[(Gem::Mythical, 2)]));
        assert_eq!((plan.points, plan.activations[0].1), (3, Payment::M2));
    }

    #[test]
    fn unavailable_areas_are_skipped() {
        let areas = [area(0, 0, 5), area(10, 0, 2)];
        let plan = best_plan(&areas, 0b10, gems(&[(Gem::Orange, 1)]));
        assert_eq!(plan.activations, vec![(10, Payment::C1)]);
    }
}
