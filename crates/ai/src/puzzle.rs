//! Puzzles from real games (issue 48): the decisions of a finished game's record where the
//! judge proves one move (or a few equal ones) clearly better than every other candidate.
//!
//! At each decision of a seat with a choice, the judge's candidates (every legal move where
//! they are few, else a search's best and the move played: `analysis::candidates`) are all
//! played out on the same futures (common random numbers), the budget shared evenly — no race:
//! a puzzle needs every candidate's worth, not only the played move's loss. The decision is
//! kept where the best candidate's lead over every candidate more than [`TOLERANCE`] below it
//! is at least [`MARGIN`] points at the lower end of its 95% interval (widened, Bonferroni, for
//! the choice of the best among them); the solutions are every candidate within
//! [`TOLERANCE`] of the best. A second run with another seed and twice the budget must find
//! the same solutions by the same rule, or the decision is dropped: one run's luck does not
//! make a puzzle. The values shown are the second run's (the larger budget).
//!
//! The position is what the deciding seat saw (its view, never the state): puzzles leave the
//! server, and a puzzle may come from a game whose other seats' hands are still secrets to no
//! one but would tell the solver more than the player knew.
use crate::analysis::{AnalysisConfig, AnalysisError, move_form};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::record::Record;
use pyramidion_core::{Rules, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod judging;
pub use judging::{DecisionMining, MinedDecision, PositionJudging};

/// Points by which the best move must beat every other candidate, at the lower end of the
/// interval.
pub const MARGIN: f64 = 3.0;
/// Candidates within this many points of the best are solutions too.
pub const TOLERANCE: f64 = 0.5;
/// What the miner asks of its confirming run's margin, more than [`MARGIN`] (what a fresh
/// check asks): a puzzle kept at 3.36 was found at 2.48 by a fresh run with the same budget
/// (docs/puzzles.md); a puzzle must stand the next run, not only the two that made it.
pub const MINE_MARGIN: f64 = 3.5;
/// A solution further than this below the best (within [`TOLERANCE`]) is a near-tie at the
/// tolerance's edge: `take 1` and `take 2` 0.2 to 0.3 apart for the miner, more than 0.5 for
/// a fresh run. The miner keeps no such puzzle.
pub const EDGE: f64 = TOLERANCE / 2.0;
/// The confirming run's budget, in multiples of the first run's.
pub const CONFIRM_MULTIPLE: u32 = 2;

/// The miner's budget and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleConfig {
    /// Playouts per decision (the candidates' search, where moves are many, and the futures).
    pub budget: u32,
    /// Seed of the first run; the confirming run's is derived from it ([`PuzzleConfig::confirming`]).
    pub seed: u64,
}

impl PuzzleConfig {
    /// The judge's budget (4 × the `max` level's iterations, as the analysis).
    pub fn judge(descriptor: &GameDescriptor, seed: u64) -> Self {
        PuzzleConfig {
            budget: AnalysisConfig::judge(descriptor, seed).budget,
            seed,
        }
    }

    /// The confirming run: another seed, twice the budget.
    pub fn confirming(self) -> Self {
        PuzzleConfig {
            budget: self.budget.saturating_mul(CONFIRM_MULTIPLE),
            seed: crate::seed::decision_seed(self.seed, 0x7a_11e5_eed5),
        }
    }
}

/// One candidate move and its expected points (final lead over the best other seat, the
/// analysis's `margin`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The move's record text.
    pub text: String,
    pub points: f64,
}

/// What one judge run says of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Every candidate, best first.
    pub candidates: Vec<Candidate>,
    /// The candidates within [`TOLERANCE`] of the best, sorted by text.
    pub solutions: Vec<String>,
    /// The smallest lower end (95%, widened) of the best's lead over a candidate that is not a
    /// solution; `None` when every candidate is one (nothing to find).
    pub margin_low: Option<f64>,
    /// How far below the best the furthest solution is (0 with one solution).
    pub solution_gap: f64,
}

impl Judged {
    /// Whether this run makes the position a puzzle.
    pub fn is_clear(&self) -> bool {
        self.margin_low.is_some_and(|m| m >= MARGIN)
    }

    /// Whether the miner keeps what this run says: clear by `margin`, and no solution near
    /// the tolerance's edge (more than [`EDGE`] below the best), where another run may find
    /// it just beyond and the solutions differ.
    pub fn is_decisive(&self, margin: f64) -> bool {
        self.margin_low.is_some_and(|m| m >= margin) && self.solution_gap <= EDGE
    }
}

/// Judges the position `game` (a seat to move with at least two legal moves; `None`
/// otherwise): every candidate on the same futures, the budget shared evenly. `played`
/// joins the candidates where they come from a search (the move the game went on with).
///
/// Where the candidates come from a search (more than [`crate::analysis::FEW`] legal moves)
/// and they make the position clear, every other legal move is judged too ([`screen`]):
/// a puzzle claims its solutions beat every legal move, not only the ones a search proposed
/// (a placement neither of the miner's searches proposed was found as good by a third
/// run's: docs/puzzles.md). The interval is widened for the choice among all legal moves.
pub fn judge_position<G: Rules>(
    game: &G,
    played: G::Move,
    config: PuzzleConfig,
    salt: u64,
) -> Option<Judged> {
    PositionJudging::new(game, played, config, salt).run()
}

/// Futures on which a legal move the candidates' search did not propose is first played
/// ([`screen`]).
pub const SCREEN_FUTURES: u32 = 32;

/// The values of a legal move outside the search's candidates against the `best`
/// candidate's (on the same futures): its first [`SCREEN_FUTURES`], and all of the best's
/// futures unless those already put it [`MINE_MARGIN`] behind at the lower end of the
/// interval (among `compared` moves). Most placements are that far behind (one that makes a
/// pyramid unfillable loses the game) and cost a few futures; one that might be as good gets
/// as many futures as a candidate. `play(range)` plays the move on those futures.
pub fn screen(
    best: &[f64],
    compared: usize,
    mut play: impl FnMut(std::ops::Range<u32>) -> Vec<f64>,
) -> Vec<f64> {
    let all = best.len() as u32;
    let first = SCREEN_FUTURES.min(all);
    let mut v = play(0..first);
    if first < all && screen_goes_on(best, &v, compared) {
        v.extend(play(first..all));
    }
    v
}

/// Whether a screened move whose first futures gave `v` gets all of the `best` candidate's:
/// unless those already put it [`MINE_MARGIN`] behind at the lower end of the interval.
fn screen_goes_on(best: &[f64], v: &[f64], compared: usize) -> bool {
    let (lead, se) = crate::judge::paired(&best[..v.len()], v);
    let z = crate::judge::z_for(compared.saturating_sub(1));
    lead - z * se < MINE_MARGIN
}

/// Futures at which the miner's first run looks whether its decision can still be a puzzle
/// ([`hopeless`]) before it plays the candidates' next ones. Most decisions are none (about
/// 7 puzzles in a Forgotten Treasures game of ~140 moves), and their first run, every
/// decision's, was most of the miner's CPU (docs/puzzles.md); a decision that goes on plays
/// the same futures as without the looks (a future's values depend on its number alone), so
/// the puzzles kept are the same but for a decision a look wrongly gave up on.
pub const LOOKS: [u32; 3] = [64, 256, 1024];

/// How sure a look must be to give up ([`hopeless`]): z of each interval, one-sided.
const LOOK_Z: f64 = 3.0;

/// Whether the candidates' values on their first (common) futures already rule a puzzle out,
/// at [`LOOK_Z`]: either no candidate can end [`MARGIN`] below the best, or one is surely
/// more than [`EDGE`] and less than [`MARGIN`] below it (a near-tie or an unclear second).
/// The best may still change: every bound on a candidate's lead allows for another move
/// ending above today's best by as much as its interval lets it (`rise`).
pub fn hopeless(values: &[Vec<f64>]) -> bool {
    if values.len() < 2 || values.iter().any(|v| v.len() < 2) {
        return false;
    }
    let means: Vec<f64> = values
        .iter()
        .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        .collect();
    let top = (0..means.len())
        .max_by(|&a, &b| means[a].total_cmp(&means[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let leads: Vec<(f64, f64)> = (0..values.len())
        .map(|c| crate::judge::paired(&values[top], &values[c]))
        .collect();
    let rise = (0..values.len())
        .filter(|&d| d != top)
        .map(|d| (LOOK_Z * leads[d].1 - leads[d].0).max(0.0))
        .fold(0.0, f64::max);
    let others = || (0..values.len()).filter(|&c| c != top);
    let no_clear_loser = others().all(|c| leads[c].0 + LOOK_Z * leads[c].1 + rise < MARGIN);
    let a_sure_killer = others().any(|c| {
        let (lead, se) = leads[c];
        lead - LOOK_Z * se > EDGE && lead + LOOK_Z * se + rise < MARGIN
    });
    no_clear_loser || a_sure_killer
}

/// The verdict from the candidates' texts and their values on the same futures, the best
/// chosen among `compared` moves (at least the candidates: the interval is widened for
/// them all). A candidate may have fewer futures than the best (a move [`screen`]ed out on
/// its first ones): its lead is measured on the futures it has, and its points are the
/// best's less that lead (the common futures' luck taken out).
pub fn verdict(texts: &[String], values: &[Vec<f64>], compared: usize) -> Judged {
    let means: Vec<f64> = values
        .iter()
        .map(|v| v.iter().sum::<f64>() / v.len().max(1) as f64)
        .collect();
    let full = values.iter().map(Vec::len).max().unwrap_or(0);
    let best = (0..means.len())
        .filter(|&c| values[c].len() == full)
        .max_by(|&a, &b| means[a].total_cmp(&means[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let z = crate::judge::z_for(compared.max(values.len()).saturating_sub(1));
    let mut solutions = Vec::new();
    let mut margin_low: Option<f64> = None;
    let mut solution_gap: f64 = 0.0;
    let mut points = vec![0.0; values.len()];
    for c in 0..values.len() {
        let n = values[c].len();
        let (lead, se) = crate::judge::paired(&values[best][..n], &values[c]);
        points[c] = means[best] - lead;
        if lead <= TOLERANCE {
            solutions.push(texts[c].clone());
            solution_gap = solution_gap.max(lead);
            continue;
        }
        let low = lead - z * se;
        margin_low = Some(margin_low.map_or(low, |m| m.min(low)));
    }
    solutions.sort();
    let mut order: Vec<usize> = (0..means.len()).collect();
    order.sort_by(|&a, &b| points[b].total_cmp(&points[a]).then(a.cmp(&b)));
    Judged {
        candidates: order
            .iter()
            .map(|&c| Candidate {
                text: texts[c].clone(),
                points: (points[c] * 10.0).round() / 10.0,
            })
            .collect(),
        solutions,
        margin_low,
        solution_gap,
    }
}

/// A decision kept as a puzzle, confirmed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mined {
    /// The move of the record the decision is at (the position is after `ply` moves).
    pub ply: usize,
    pub seat: u8,
    /// The deciding seat's view (the game's JSON view) and its legal moves' structured
    /// forms (`{text, kind, …}`): everything the solver is shown, nothing hidden.
    pub view: Value,
    pub legal: Vec<Value>,
    /// The accepted moves (texts).
    pub solutions: Vec<String>,
    /// Every candidate with its expected points (the confirming run's), best first.
    pub candidates: Vec<Candidate>,
    /// The lower end of the best's lead over the next candidate, by the confirming run.
    pub margin_low: f64,
    /// The rules' names for what the solutions do ([`pyramidion_core::Notation::themes`]).
    pub themes: Vec<String>,
}

/// The puzzles of a record's decisions among `plies`: each decision judged once, and the
/// clear ones again by the confirming run ([`PuzzleConfig::confirming`]); a decision whose
/// second run finds other solutions or no clear margin is dropped. `dropped` counts them.
pub fn mine_record<G: Rules>(
    record: &Record,
    config: PuzzleConfig,
    plies: std::ops::Range<usize>,
    dropped: &mut usize,
) -> Result<Vec<Mined>, AnalysisError> {
    let mut out = Vec::new();
    crate::analysis::replay::<G>(record, plies, |game, played, ply| {
        if let Some(found) = mine_position(game, played, config, ply as u64, dropped) {
            out.push(Mined { ply, ..found });
        }
        Ok(())
    })?;
    Ok(out)
}

/// The mining of the decision at `ply` of `record`, to be made in slices
/// ([`DecisionMining::step`]; the same as [`mine_record`]'s for that ply); `None` where that
/// move was no decision.
pub fn mining_at<G: Rules>(
    record: &Record,
    config: PuzzleConfig,
    ply: usize,
) -> Result<Option<DecisionMining<G>>, AnalysisError> {
    let mut mining = None;
    crate::analysis::replay::<G>(record, ply..ply + 1, |game, played, ply| {
        mining = DecisionMining::new(game, played, config, ply as u64);
        Ok(())
    })?;
    Ok(mining)
}

/// The puzzle at one position, if both runs agree on it (`ply` in the answer is 0: the
/// caller's to set).
pub fn mine_position<G: Rules>(
    game: &G,
    played: G::Move,
    config: PuzzleConfig,
    salt: u64,
    dropped: &mut usize,
) -> Option<Mined> {
    match DecisionMining::new(game, played, config, salt)?.run() {
        MinedDecision::Nothing => None,
        MinedDecision::Dropped => {
            *dropped += 1;
            None
        }
        MinedDecision::Puzzle(mined) => Some(*mined),
    }
}

/// What a puzzle shows of `game` to its deciding `seat`: the seat's view and its legal
/// moves' structured forms, nothing else of the state (no hidden pile, hand or seed).
pub fn position_of<G: Rules>(game: &G, seat: Seat) -> (Value, Vec<Value>) {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    (
        serde_json::to_value(game.view(Some(seat))).unwrap_or(Value::Null),
        legal.iter().map(|m| move_form(game, m)).collect(),
    )
}

/// The puzzle a confirmed verdict makes of `game`, as `seat` (to move) sees it.
fn puzzle_of<G: Rules>(game: &G, seat: Seat, judged: Judged) -> Mined {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let (view, forms) = position_of(game, seat);
    let mut themes: Vec<String> = Vec::new();
    for m in legal
        .iter()
        .filter(|m| judged.solutions.contains(&m.to_string()))
    {
        for t in game.themes(m) {
            if !themes.iter().any(|x| x == t) {
                themes.push(t.to_string());
            }
        }
    }
    Mined {
        ply: 0,
        seat: seat.0,
        view,
        legal: forms,
        solutions: judged.solutions,
        candidates: judged.candidates,
        margin_low: judged.margin_low.unwrap_or(0.0),
        themes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("m{i}")).collect()
    }

    /// Values on `n` futures: candidate `c` worth `worth[c]`, every future shifting all alike
    /// and each candidate by a small deterministic wobble.
    fn values(worth: &[f64], n: usize) -> Vec<Vec<f64>> {
        worth
            .iter()
            .enumerate()
            .map(|(c, w)| {
                (0..n)
                    .map(|i| w + (i % 7) as f64 * 3.0 + ((i * 31 + c * 17) % 5) as f64 * 0.4)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_clear_best_move_is_a_puzzle_and_equal_ones_are_all_solutions() {
        let j = verdict(&texts(4), &values(&[10.0, 10.2, 4.0, 1.0], 200), 4);
        assert!(j.is_clear(), "{j:?}");
        assert_eq!(j.solutions, vec!["m0".to_string(), "m1".to_string()]);
        assert_eq!(j.candidates[0].text, "m1");
        assert_eq!(j.candidates.len(), 4);
    }

    #[test]
    fn a_lead_under_the_margin_or_without_another_move_is_no_puzzle() {
        // Best by 2 points only: not clear.
        assert!(!verdict(&texts(3), &values(&[10.0, 8.0, 1.0], 200), 3).is_clear());
        // Every candidate within the tolerance: nothing to find.
        let j = verdict(&texts(2), &values(&[10.0, 9.8], 200), 2);
        assert_eq!(j.margin_low, None);
        assert!(!j.is_clear());
        // A large lead on too few futures: the interval is too wide.
        let noisy: Vec<Vec<f64>> = vec![vec![30.0, -10.0], vec![0.0, 0.0]];
        assert!(!verdict(&texts(2), &noisy, 2).is_clear());
    }

    #[test]
    fn a_near_tie_at_the_tolerances_edge_is_not_kept_by_the_miner() {
        // Two moves 0.3 apart: both solutions, clear of the third, but another run may put
        // them 0.6 apart (docs/puzzles.md): the miner does not keep it.
        let edge = verdict(&texts(3), &values(&[10.0, 9.7, 1.0], 200), 3);
        assert!(edge.is_clear(), "{edge:?}");
        assert_eq!(edge.solutions.len(), 2);
        assert!(!edge.is_decisive(MARGIN));
        // 0.1 apart: an honest tie, kept.
        let tie = verdict(&texts(3), &values(&[10.0, 9.9, 1.0], 200), 3);
        assert!(tie.is_decisive(MARGIN), "{tie:?}");
        // The confirming run asks more than the check: clear by 3 is not enough for it.
        let thin = verdict(&texts(2), &values(&[10.0, 6.6], 200), 2);
        assert!(
            thin.is_clear() && !thin.is_decisive(MINE_MARGIN),
            "{thin:?}"
        );
    }

    #[test]
    fn the_choice_among_more_moves_widens_the_interval() {
        let v = values(&[10.0, 6.4], 40);
        let few = verdict(&texts(2), &v, 2);
        let many = verdict(&texts(2), &v, 60);
        assert!(many.margin_low.unwrap() < few.margin_low.unwrap());
    }

    #[test]
    fn a_look_gives_up_where_no_puzzle_can_come_and_goes_on_where_one_may() {
        // A clear best (a near-equal second is a solution): go on.
        assert!(!hopeless(&values(&[10.0, 10.1, 4.0, 1.0], 64)));
        // Every move within a point of the best: none can end 3 below it.
        assert!(hopeless(&values(&[10.0, 9.5, 9.2], 64)));
        // A second surely 1.5 below the best: an unclear second, whatever the third.
        assert!(hopeless(&values(&[10.0, 8.5, 1.0], 64)));
        // The same leads on futures too noisy to tell them: go on.
        let noisy = |worth: &[f64]| -> Vec<Vec<f64>> {
            worth
                .iter()
                .enumerate()
                .map(|(c, w)| {
                    (0..64)
                        .map(|i| w + if (i + c) % 2 == 0 { 15.0 } else { -15.0 })
                        .collect()
                })
                .collect()
        };
        assert!(!hopeless(&noisy(&[10.0, 8.5, 1.0])));
        assert!(!hopeless(&noisy(&[10.0, 9.5, 9.2])));
        // Too few futures to say anything.
        assert!(!hopeless(&values(&[10.0, 9.5], 1)));
    }

    #[test]
    fn a_move_far_behind_is_screened_out_on_its_first_futures_and_a_close_one_is_not() {
        let best: Vec<f64> = (0..300).map(|i| 10.0 + (i % 7) as f64).collect();
        let mut asked = Vec::new();
        let far = screen(&best, 20, |r| {
            asked.push(r.clone());
            r.map(|i| 10.0 + (i % 7) as f64 - 30.0).collect()
        });
        assert_eq!(far.len(), SCREEN_FUTURES as usize);
        assert_eq!(asked, vec![0..SCREEN_FUTURES]);
        let close = screen(&best, 20, |r| {
            r.map(|i| 10.0 + (i % 7) as f64 - 0.2 * (i % 3) as f64)
                .collect()
        });
        assert_eq!(close.len(), 300, "as many futures as the best");
        // Its verdict: a solution, on every future.
        let j = verdict(&texts(3), &[best.clone(), far.clone(), close.clone()], 20);
        assert_eq!(j.solutions, vec!["m0".to_string(), "m2".to_string()]);
        assert!(j.is_clear(), "{j:?}");
        // The screened-out move's points: the best's less its lead on its own futures.
        let m1 = j.candidates.iter().find(|c| c.text == "m1").unwrap();
        let best_mean = best.iter().sum::<f64>() / 300.0;
        assert!((m1.points - (best_mean - 30.0)).abs() < 0.06, "{m1:?}");
    }
}
