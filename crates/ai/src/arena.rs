//! Match statistics: score, Elo difference with a 95% interval, and the sequential
//! probability ratio test (SPRT) that stops a match once a change is accepted or rejected.
//!
//! A match is a sequence of paired games (one seed, seats rotated); the pair is the unit of
//! independence, so variances are taken over pair scores. A game's score for the bot under
//! test is 1 for a win, 0 for a loss and ½ for a tie (in a game of more than two seats, the
//! share of opponents it finished ahead of, ties counting half).

/// 1.96: the two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference whose expected score is `score` (in 0..1, exclusive).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and 95% half-width of `samples` (normal approximation); (0, 0) when empty.
pub fn mean_interval(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, 0.0);
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, Z95 * (var / n).sqrt())
}

/// Wilson score interval (95%) of `k` successes in `n` trials; (0, 0) when `n` is 0.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let (p, z) = (k / n, Z95);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference of a match with its 95% interval, from the pair scores (each the mean of
/// the games of one pair).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EloEstimate {
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
}

impl EloEstimate {
    /// The same estimate seen from the other bot: score 1 − s, the Elo difference negated,
    /// the bounds swapped.
    pub fn for_the_other(self) -> EloEstimate {
        EloEstimate {
            score: 1.0 - self.score,
            score_low: 1.0 - self.score_high,
            score_high: 1.0 - self.score_low,
            elo: -self.elo,
            elo_low: -self.elo_high,
            elo_high: -self.elo_low,
        }
    }
}

pub fn elo_estimate(pair_scores: &[f64]) -> EloEstimate {
    let (score, half) = mean_interval(pair_scores);
    let (mut low, mut high) = ((score - half).max(0.0), (score + half).min(1.0));
    // A one-sided match (every pair won) has no spread: the normal interval collapses to a
    // point. The Wilson interval of the score as a proportion over the pairs stays honest.
    let (w_low, w_high) = wilson(score * pair_scores.len() as f64, pair_scores.len() as f64);
    low = low.min(w_low);
    high = high.max(w_high);
    EloEstimate {
        score,
        score_low: low,
        score_high: high,
        elo: elo_from_score(score),
        elo_low: elo_from_score(low),
        elo_high: elo_from_score(high),
    }
}

/// The SPRT of H0 "the difference is elo0" against H1 "it is elo1", with error rates alpha
/// (accepting H1 when H0 holds) and beta.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// H1: the change is accepted.
    AcceptH1,
    /// H0: the change is rejected.
    AcceptH0,
    Continue,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("--sprt '{text}': {e}"))?;
        let [elo0, elo1, alpha, beta] = parts[..] else {
            return Err(format!(
                "--sprt '{text}': four numbers elo0,elo1,alpha,beta"
            ));
        };
        if elo1 <= elo0 || !(0.0..0.5).contains(&alpha) || !(0.0..0.5).contains(&beta) {
            return Err(format!(
                "--sprt '{text}': needs elo0 < elo1 and 0 < alpha, beta < 0.5"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Lower and upper bounds of the log-likelihood ratio (Wald).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of the pair scores under H1 against H0, in the normal
    /// approximation (the generalised SPRT of fishtest): with mean m and variance v of the
    /// pair scores and s0, s1 the expected scores at elo0 and elo1,
    /// `LLR = n · (s1 − s0) · (2m − s0 − s1) / (2v)`.
    ///
    /// The variance is regularised with one pseudo-pair at each of the five scores a pair of
    /// two games can have (0, ¼, ½, ¾, 1). Without it, a few identical pairs at the start (two
    /// pairs won, or two split) have no spread, and the ratio jumps past a bound at once: the
    /// test would stop after two pairs far more often than alpha and beta allow. The prior
    /// weighs five pairs, nothing next to the hundreds a decision takes.
    pub fn llr(&self, pair_scores: &[f64]) -> f64 {
        const PRIOR: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
        let n = pair_scores.len() as f64;
        if pair_scores.len() < 2 {
            return 0.0;
        }
        let m = pair_scores.iter().sum::<f64>() / n;
        let spread = |xs: &[f64]| xs.iter().map(|x| (x - m).powi(2)).sum::<f64>();
        let v = (spread(pair_scores) + spread(&PRIOR)) / (n + PRIOR.len() as f64);
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }

    pub fn decide(&self, pair_scores: &[f64]) -> SprtDecision {
        let llr = self.llr(pair_scores);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtDecision::AcceptH1
        } else if llr <= low {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The score of `seat` in a finished game against every other seat: the share of the other
/// seats it finished ahead of, ties counting half (1, ½ or 0 in a 2-player game).
pub fn game_score(ranks: &[u8], seat: usize) -> f64 {
    let others = ranks.len().saturating_sub(1);
    if others == 0 {
        return 0.0;
    }
    let ahead: f64 = (0..ranks.len())
        .filter(|&o| o != seat)
        .map(|o| match ranks[o].cmp(&ranks[seat]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    ahead / others as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_and_score_are_inverse_and_known() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        // 75% is 190.85 Elo, 90% is 381.7, 10% is −381.7.
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(elo_from_score(0.9), 381.697, 1e-3));
        assert!(close(elo_from_score(0.1), -381.697, 1e-3));
        for elo in [-500.0, -100.0, 0.0, 35.5, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-6));
        }
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn interval_of_known_samples() {
        // Mean 0.5, sample variance 1/3 (n = 4: 0, 0, 1, 1).
        let (m, h) = mean_interval(&[0.0, 0.0, 1.0, 1.0]);
        assert!(close(m, 0.5, 1e-12));
        assert!(close(h, Z95 * (1.0f64 / 3.0 / 4.0).sqrt(), 1e-12));
        let alternating: Vec<f64> = (0..400).map(|i| (i % 2) as f64).collect();
        let e = elo_estimate(&alternating);
        // Half-width 1.96 · √(0.2506 / 400) ≈ 0.049: scores 0.451..0.549.
        assert!(close(e.score_high, 0.549, 1e-3));
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(e.elo_low < 0.0 && e.elo_high > 0.0);
        assert!(close(e.elo_low, -e.elo_high, 1e-9));
        assert_eq!(mean_interval(&[]), (0.0, 0.0));
    }

    #[test]
    fn sprt_llr_on_known_inputs() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (low, high) = sprt.bounds();
        assert!(close(low, (0.05f64 / 0.95).ln(), 1e-12));
        assert!(close(high, (0.95f64 / 0.05).ln(), 1e-12));
        // m = 0.6, squared deviations 2.4 over 10 pairs, and the prior's five pseudo-pairs
        // (0.36 + 0.1225 + 0.01 + 0.0225 + 0.16 = 0.675): variance 3.075 / 15.
        let pairs = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        let (s0, s1) = (0.5, score_from_elo(10.0));
        let expected = 10.0 * (s1 - s0) * (1.2 - s0 - s1) / (2.0 * (3.075 / 15.0));
        assert!(close(sprt.llr(&pairs), expected, 1e-12));
        // A bot that wins every other pair out of many is accepted; an even match rejected.
        let strong: Vec<f64> = (0..4000).map(|i| [1.0, 0.5, 1.0, 0.0][i % 4]).collect();
        assert_eq!(sprt.decide(&strong), SprtDecision::AcceptH1);
        let even: Vec<f64> = (0..10_000).map(|i| [1.0, 0.0][i % 2]).collect();
        assert_eq!(sprt.decide(&even), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(&even[..4]), SprtDecision::Continue);
        assert!(Sprt::parse("10,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,10,0.05").is_err());
    }

    /// Matches drawn at a known strength, each run until the test decides: a few identical
    /// pairs at the start no longer decide it, and it accepts the wrong hypothesis about as
    /// rarely as alpha and beta say.
    #[test]
    fn sprt_errors_stay_near_alpha_and_beta() {
        let sprt = Sprt::parse("0,100,0.05,0.05").unwrap();
        // Two pairs won, or two split: not evidence enough.
        assert_eq!(sprt.decide(&[1.0, 1.0]), SprtDecision::Continue);
        assert_eq!(sprt.decide(&[0.5, 0.5]), SprtDecision::Continue);
        assert_eq!(sprt.decide(&[0.5; 6]), SprtDecision::Continue);
        // A pair's score is the mean of two games won with probability p (no ties).
        let run = |elo: f64, seed: u64| {
            let p = score_from_elo(elo);
            let mut rng = pyramidion_core::GameRng::from_seed(seed);
            let mut game = || f64::from(u8::from(f64::from(rng.next_u32()) / 4_294_967_296.0 < p));
            let mut pairs = Vec::new();
            loop {
                pairs.push((game() + game()) / 2.0);
                match sprt.decide(&pairs) {
                    SprtDecision::Continue => {}
                    decided => return decided,
                }
            }
        };
        let trials = 200;
        let false_h1 = (0..trials)
            .filter(|&s| run(0.0, s) == SprtDecision::AcceptH1)
            .count();
        let false_h0 = (0..trials)
            .filter(|&s| run(100.0, 1000 + s) == SprtDecision::AcceptH0)
            .count();
        // Expected about 10 of 200 each (5%); 20 is three standard deviations above.
        assert!(
            false_h1 <= 20,
            "H1 accepted in {false_h1} of {trials} even matches"
        );
        assert!(
            false_h0 <= 20,
            "H0 accepted in {false_h0} of {trials} matches at +100"
        );
    }

    #[test]
    fn a_one_sided_match_keeps_an_interval() {
        let e = elo_estimate(&[1.0; 20]);
        assert_eq!(e.score, 1.0);
        // Wilson, 20 of 20: 0.839..1.
        assert!(close(e.score_low, 0.8389, 1e-3), "{e:?}");
        assert!(e.elo_low > 280.0 && e.elo_low < 300.0, "{e:?}");
        let (low, high) = wilson(50.0, 100.0);
        assert!(close(low, 0.4038, 1e-3) && close(high, 0.5962, 1e-3));
    }

    #[test]
    fn game_scores() {
        assert_eq!(game_score(&[0, 1], 0), 1.0);
        assert_eq!(game_score(&[0, 1], 1), 0.0);
        assert_eq!(game_score(&[0, 0], 1), 0.5);
        assert_eq!(game_score(&[2, 0, 1, 3], 0), 1.0 / 3.0);
    }
}
