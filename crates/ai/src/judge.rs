//! The verdict on one decision from its candidates' sampled values: which candidate is best,
//! how many points the move played loses against it, with a 95% interval, and a flag only
//! where the interval says so.
//!
//! Every candidate was evaluated on the same futures (common random numbers), so the loss is
//! measured on paired differences: future by future, the best candidate's points minus the
//! played move's. Their mean is the loss (the point estimate totals add up); their standard
//! error gives the interval. The best candidate is picked on the same samples, which favours
//! whichever got lucky: the interval is widened for that choice (Bonferroni over the
//! candidates compared with the move played), so that candidates of equal worth are not
//! flagged by chance.

/// Points lost from which a decision is flagged, when the interval's lower end reaches them.
pub const FLAGS: [(f64, &str); 3] = [(10.0, "blunder"), (5.0, "mistake"), (2.0, "inaccuracy")];

/// What the samples say of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Index of the best candidate (the played one when none beats it on average).
    pub best: usize,
    /// Mean final points of every candidate.
    pub means: Vec<f64>,
    /// Points lost by the played move: the best candidate's mean minus the played one's.
    pub lost: f64,
    /// The loss's interval (95%, widened for the choice of the best among the candidates).
    pub low: f64,
    pub high: f64,
    pub flag: Option<&'static str>,
}

/// Two-sided 95% normal quantiles for `k` simultaneous comparisons (Bonferroni: the
/// 1 − 0.025/k quantile), k = 1, 2, …; beyond the table, its last entry (k = 12) and a
/// little more per doubling would do, but no analysis compares more candidates.
const Z: [f64; 12] = [
    1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773, 2.807, 2.838, 2.866,
];

fn z_for(comparisons: usize) -> f64 {
    Z[comparisons.clamp(1, Z.len()) - 1]
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The verdict from `values[c][i]`: the played-out points of candidate `c` in future `i`
/// (every candidate has the same number of futures, the same futures); `played` is the index
/// of the move played among the candidates.
pub fn judge(values: &[Vec<f64>], played: usize) -> Verdict {
    let means: Vec<f64> = values.iter().map(|v| mean(v)).collect();
    // The best: the highest mean; the played move wins ties (no loss where none is shown).
    let mut best = played;
    for (c, &m) in means.iter().enumerate() {
        if m > means[best] {
            best = c;
        }
    }
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
    let diffs: Vec<f64> = values[best]
        .iter()
        .zip(&values[played])
        .map(|(b, p)| b - p)
        .collect();
    let n = diffs.len();
    let lost = mean(&diffs);
    let se = if n > 1 {
        let var = diffs.iter().map(|d| (d - lost).powi(2)).sum::<f64>() / (n - 1) as f64;
        (var / n as f64).sqrt()
    } else {
        // One future says nothing of the spread: the interval is unbounded.
        f64::INFINITY
    };
    let half = z_for(values.len() - 1) * se;
    let (low, high) = (lost - half, lost + half);
    Verdict {
        best,
        means,
        lost,
        low,
        high,
        flag: FLAGS.iter().find(|(t, _)| low >= *t).map(|(_, f)| *f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_core::GameRng;

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
        let mut largest_lost: f64 = 0.0;
        for decision in 0..1000 {
            let k = 2 + decision % 7;
            let worth = vec![40.0; k];
            // Few futures and noisy playouts: the case where luck looks like a loss.
            let values = simulate(&mut rng, &worth, 64, 15.0, 8.0);
            let played = decision % k;
            let v = judge(&values, played);
            assert_eq!(v.flag, None, "decision {decision}: {v:?}");
            assert!(v.low <= v.lost && v.lost <= v.high && v.lost >= 0.0);
            largest_lost = largest_lost.max(v.lost);
        }
        // The point estimates do see luck (so the test is not vacuous): only the interval
        // keeps it from a flag.
        assert!(largest_lost >= 2.0, "{largest_lost}");
        // Identical values (a move and its twin): nothing lost, nothing flagged.
        let same = vec![vec![30.0, 50.0, 41.0]; 4];
        assert_eq!(judge(&same, 2).lost, 0.0);
        assert_eq!(judge(&same, 2).flag, None);
    }

    #[test]
    fn a_clear_loss_is_flagged_by_its_size() {
        let mut rng = GameRng::from_seed(8);
        for (gap, flag) in [(14.0, "blunder"), (8.0, "mistake"), (4.0, "inaccuracy")] {
            let values = simulate(&mut rng, &[40.0, 40.0 - gap, 39.0, 35.0], 400, 15.0, 3.0);
            let v = judge(&values, 1);
            assert_eq!(v.best, 0, "{gap}: {v:?}");
            assert_eq!(v.flag, Some(flag), "{gap}: {v:?}");
            assert!(
                v.low < gap && gap < v.high,
                "the interval holds the loss: {v:?}"
            );
        }
        // The same loss measured on too few futures is not flagged: doubt is honest.
        let values = simulate(&mut rng, &[40.0, 36.0], 4, 15.0, 8.0);
        assert_eq!(judge(&values, 1).flag, None);
        // The best move played loses nothing.
        let values = simulate(&mut rng, &[40.0, 30.0, 20.0], 100, 15.0, 3.0);
        let v = judge(&values, 0);
        assert_eq!((v.best, v.lost, v.flag), (0, 0.0, None));
    }
}
