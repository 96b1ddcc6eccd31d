//! The verdict on one decision from its candidates' sampled values: which candidate is best,
//! how many points the move played loses against it, with a 95% interval, and a flag only
//! where the interval says so.
//!
//! Every candidate was evaluated on the same futures (common random numbers), so the loss is
//! measured on paired differences: future by future, the best candidate's points minus the
//! played move's. Their mean is the raw loss; their standard error gives the interval. The
//! best candidate is picked on the same samples, which favours whichever got lucky: the
//! interval is widened for that choice (Bonferroni over the candidates compared with the move
//! played), so that candidates of equal worth are not flagged by chance.
//!
//! The point estimate (what a decision shows and totals add up) is the raw loss shrunk by its
//! own doubt: `raw × (1 − (h / raw)²)`, `h` the interval's half-width, and nothing where the
//! interval reaches zero. Why: the raw loss of the luckiest candidate is never below zero, so
//! among candidates of equal worth it is pure luck, always counted as a loss; summed over the
//! ~40 to 70 decisions of a seat it made a strong player's totals a sum of noise, which two
//! analysis seeds did not agree on (Pyramids: 6 of 40 seats off by more than 15% or 2
//! points, all of them `max`'s small totals). A loss several times its doubt keeps nearly all
//! of itself (4 h: 94%); one within its doubt counts nothing, as it is not flagged. It is the
//! posterior mean of a normal loss under a prior whose spread is estimated from the decision
//! itself (empirical Bayes), with the widened interval's half-width as the noise.
//! docs/analysis.md ("A loss counts as much as it is sure"; "Pyramids' seat totals, and why the
//! loss is shrunk") gives the measurements and their commands.

/// Points lost from which a decision is flagged, when the interval's lower end reaches them.
pub const FLAGS: [(f64, &str); 3] = [(10.0, "blunder"), (5.0, "mistake"), (2.0, "inaccuracy")];

/// What the samples say of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Index of the best candidate (the played one when none beats it on average).
    pub best: usize,
    /// Mean final points of every candidate.
    pub means: Vec<f64>,
    /// Points lost by the played move: the best candidate's mean minus the played one's,
    /// shrunk by its doubt (the module's comment says why). Between `low` and `high`.
    pub lost: f64,
    /// The interval of the raw loss (95%, widened for the choice of the best among the
    /// candidates).
    pub low: f64,
    pub high: f64,
    pub flag: Option<&'static str>,
}

/// Two-sided 95% normal quantiles for `k` simultaneous comparisons (Bonferroni: the
/// 1 − 0.025/k quantile), k = 1, 2, …, 12; beyond the table (a puzzle compares its best move
/// with every legal move, dozens of placements), [`upper_quantile`].
const Z: [f64; 12] = [
    1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773, 2.807, 2.838, 2.866,
];

pub(crate) fn z_for(comparisons: usize) -> f64 {
    if comparisons > Z.len() {
        return upper_quantile(0.025 / comparisons as f64);
    }
    Z[comparisons.max(1) - 1]
}

/// The standard normal's upper `p` quantile (0 < p ≤ 0.5), by Abramowitz and Stegun's
/// rational approximation 26.2.23 (error under 4.5e-4: a thousandth of a point on an
/// interval of a few points; at k = 12 it gives 2.865 for the table's 2.866).
fn upper_quantile(p: f64) -> f64 {
    let t = (-2.0 * p.ln()).sqrt();
    t - (2.515_517 + 0.802_853 * t + 0.010_328 * t * t)
        / (1.0 + 1.432_788 * t + 0.189_269 * t * t + 0.001_308 * t * t * t)
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The mean of the paired differences `a[i] − b[i]` and its standard error (infinite with
/// fewer than two pairs: one future says nothing of the spread).
pub(crate) fn paired(a: &[f64], b: &[f64]) -> (f64, f64) {
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = diffs.len();
    let m = mean(&diffs);
    if n < 2 {
        return (m, f64::INFINITY);
    }
    let var = diffs.iter().map(|d| (d - m).powi(2)).sum::<f64>() / (n - 1) as f64;
    (m, (var / n as f64).sqrt())
}

/// The candidate with the highest mean, `played` winning ties (no loss where none is shown).
pub fn leader(values: &[Vec<f64>], played: usize) -> usize {
    let means: Vec<f64> = values.iter().map(|v| mean(v)).collect();
    highest(&means, played)
}

/// The index of the highest of `means`, `played` winning ties.
fn highest(means: &[f64], played: usize) -> usize {
    let mut best = played;
    for (c, &m) in means.iter().enumerate() {
        if m > means[best] {
            best = c;
        }
    }
    best
}

/// Whether `candidate` is clearly worse than `leader` on their common futures: the leader's
/// lead is beyond the interval `judge` would give it among `compared` moves. Such a candidate
/// is not worth more futures: it will not be the best.
pub fn clearly_worse(leader: &[f64], candidate: &[f64], compared: usize) -> bool {
    let (lead, se) = paired(leader, candidate);
    lead > z_for(compared.max(2) - 1) * se
}

/// A raw loss shrunk by its doubt `half` (the interval's half-width): `raw × (1 − (half /
/// raw)²)`, never below zero (the module's comment says why).
fn shrunk(raw: f64, half: f64) -> f64 {
    if raw <= half {
        return 0.0;
    }
    raw * (1.0 - (half / raw).powi(2))
}

/// The verdict from `values[c][i]`: the played-out points of candidate `c` in future `i`
/// (every candidate has the same number of futures, the same futures); `played` is the index
/// of the move played among the candidates. `compared`: how many moves the best was chosen
/// among, at least `values.len()` (the analysis drops candidates clearly worse than the
/// leader before it gives the others more futures; they were still part of the choice, so
/// the interval stays as wide as for all of them).
pub fn judge(values: &[Vec<f64>], played: usize, compared: usize) -> Verdict {
    let means: Vec<f64> = values.iter().map(|v| mean(v)).collect();
    let best = highest(&means, played);
    if best == played {
        return Verdict {
            best,
            means,
            lost: 0.0,
            low: 0.0,
            high: 0.0,
            flag: None,
        };
    }
    let (raw, se) = paired(&values[best], &values[played]);
    let half = z_for(compared.max(values.len()) - 1) * se;
    let (low, high) = (raw - half, raw + half);
    Verdict {
        best,
        means,
        lost: shrunk(raw, half),
        low,
        high,
        flag: FLAGS.iter().find(|(t, _)| low >= *t).map(|(_, f)| *f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_core::GameRng;

    #[test]
    fn the_quantile_beyond_the_table_continues_it() {
        // Where the table ends, the approximation meets it, and it grows with the comparisons.
        assert!((upper_quantile(0.025 / 12.0) - Z[11]).abs() < 2e-3);
        assert!((upper_quantile(0.025) - 1.960).abs() < 2e-3);
        assert!(z_for(13) > z_for(12));
        // 0.025 / 100: the 0.99975 quantile is 3.4808.
        assert!((z_for(100) - 3.4808).abs() < 2e-3);
        assert!(z_for(200) > z_for(100));
    }

    /// A normal deviate (Box–Muller) from the game RNG: tests stay seeded.
    fn normal(rng: &mut GameRng) -> f64 {
        let u1 = (f64::from(rng.next_u32()) + 1.0) / 4_294_967_297.0;
        let u2 = f64::from(rng.next_u32()) / 4_294_967_296.0;
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A simulated decision: `k` candidates worth `worth[c]` points, `n` futures; each future
    /// shifts every candidate alike (what common random numbers share: the deal) by a large
    /// amount, and each candidate by its own smaller noise (its playout).
    fn simulate(
        rng: &mut GameRng,
        worth: &[f64],
        n: usize,
        shared: f64,
        own: f64,
    ) -> Vec<Vec<f64>> {
        let futures: Vec<f64> = (0..n).map(|_| shared * normal(rng)).collect();
        worth
            .iter()
            .map(|w| futures.iter().map(|f| w + f + own * normal(rng)).collect())
            .collect()
    }

    #[test]
    fn candidates_of_equal_worth_are_never_flagged() {
        let mut rng = GameRng::from_seed(7);
        let (mut largest_raw, mut raw_total, mut total): (f64, f64, f64) = (0.0, 0.0, 0.0);
        for decision in 0..1000 {
            let k = 2 + decision % 7;
            let worth = vec![40.0; k];
            // Few futures and noisy playouts: the case where luck looks like a loss.
            let values = simulate(&mut rng, &worth, 64, 15.0, 8.0);
            let played = decision % k;
            let v = judge(&values, played, k);
            assert_eq!(v.flag, None, "decision {decision}: {v:?}");
            assert!(v.low <= v.lost && v.lost <= v.high && v.lost >= 0.0);
            if v.low <= 0.0 {
                assert_eq!(v.lost, 0.0, "a loss within its doubt counts nothing: {v:?}");
            }
            let raw = v.means[v.best] - v.means[played];
            largest_raw = largest_raw.max(raw);
            raw_total += raw;
            total += v.lost;
        }
        // The raw differences do see luck (so the test is not vacuous): only the interval
        // keeps it from a flag, and the shrinking from the totals (what made two analysis
        // seeds disagree on a strong seat's total).
        assert!(largest_raw >= 2.0, "{largest_raw}");
        assert!(
            total <= raw_total / 20.0,
            "luck adds up to {total:.1} points, raw {raw_total:.1}"
        );
        // Identical values (a move and its twin): nothing lost, nothing flagged.
        let same = vec![vec![30.0, 50.0, 41.0]; 4];
        assert_eq!(judge(&same, 2, 4).lost, 0.0);
        assert_eq!(judge(&same, 2, 4).flag, None);
    }

    #[test]
    fn a_clear_loss_is_flagged_by_its_size() {
        let mut rng = GameRng::from_seed(8);
        for (gap, flag) in [(14.0, "blunder"), (8.0, "mistake"), (4.0, "inaccuracy")] {
            let values = simulate(&mut rng, &[40.0, 40.0 - gap, 39.0, 35.0], 400, 15.0, 3.0);
            let v = judge(&values, 1, 4);
            assert_eq!(v.best, 0, "{gap}: {v:?}");
            assert_eq!(v.flag, Some(flag), "{gap}: {v:?}");
            assert!(
                v.low < gap && gap < v.high,
                "the interval holds the loss: {v:?}"
            );
            // A clear loss keeps nearly all of itself.
            let raw = v.means[0] - v.means[1];
            assert!(v.lost >= 0.9 * raw && v.lost <= raw, "{raw}: {v:?}");
            // The best chosen among more moves (candidates dropped from a race still count):
            // the same values, a wider interval.
            let among_eight = judge(&values, 1, 8);
            assert!(
                among_eight.low < v.low && among_eight.high > v.high,
                "{among_eight:?}"
            );
        }
        // The same loss measured on too few futures is not flagged: doubt is honest.
        let values = simulate(&mut rng, &[40.0, 36.0], 4, 15.0, 8.0);
        assert_eq!(judge(&values, 1, 2).flag, None);
        // The best move played loses nothing.
        let values = simulate(&mut rng, &[40.0, 30.0, 20.0], 100, 15.0, 3.0);
        let v = judge(&values, 0, 3);
        assert_eq!((v.best, v.lost, v.flag), (0, 0.0, None));
    }
}
