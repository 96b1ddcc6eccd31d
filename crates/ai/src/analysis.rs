//! Game analysis: for every decision of every seat with more than one legal move, the
//! expected final lead over the best other seat (see [`Measure`]) of the move played and of
//! the best candidate, from that seat's information only, and the points lost with a 95%
//! interval.
//!
//! The judge must be stronger than any player it judges, or it approves its own moves: its
//! budget per decision is [`JUDGE_MULTIPLE`] times the playouts of the game's strongest level
//! (`max`), less where the server's operator caps a game's budget. Where a decision has few
//! legal moves ([`FEW`] or fewer) every one is a candidate; where it has many (placements), a
//! search with half the budget proposes its best few, and the move played joins them. Every
//! candidate is then played out on the same futures (common random numbers: the same
//! determinisations and the same playout seeds, the playouts without random moves), in a race:
//! the candidates clearly worse than the leader after half the futures' budget get no more,
//! the others share the rest (see `race`), and [`crate::judge`] says what was lost, with
//! its interval, and flags a decision (`inaccuracy` from 2 points, `mistake` from 5, `blunder`
//! from 10) only where the interval's lower end passes the threshold. Totals add up the point
//! estimates (each loss shrunk by its doubt: nothing where the interval reaches zero). `pyramidion analyse` prints it; the server stores it for the replay page.
use crate::search::{Analysing, Playout, Search, SearchConfig};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::record::{Record, RecordError};
use pyramidion_core::{ErrorCode, Rules, ToMove};
use serde::Serialize;
use serde_json::Value;

/// The judge's budget per decision, in multiples of the `max` level's iterations.
pub const JUDGE_MULTIPLE: u32 = 4;
/// Legal moves up to which every one is a candidate; beyond, the search's best `FEW - 1` and
/// the move played.
pub const FEW: usize = 8;
/// Futures per candidate, at least (an interval needs two; a budget this small flags
/// nothing, honestly) and, by default, at most: a bound on a decision's time where a large
/// budget meets few candidates (Pyramids, the only game that reaches it). Raised as the
/// judge's totals asked: at 1,024 two seeds put a strong seat's total 2 to 3 points apart on
/// some Pyramids games, at 2,048 the two-seeds test's greedy seat 8.1 and 10.3
/// (docs/analysis.md).
const MIN_FUTURES: u32 = 4;
pub const MAX_FUTURES: u32 = 4096;
/// How a candidate's futures are played out: by the greedy policy of every seat, without the
/// random moves the search's playouts mix in (they explore; a future must not). Why: a random
/// move is a blunder neither player would make, and in Pyramido one often makes a pyramid
/// unfillable, which eliminates its player: with a tenth of the moves random, 39% of the
/// futures of a game's first decision ended in an elimination, worth ±66 whatever the
/// candidate, and the paired differences' spread was 58 points; without them, none and 16
/// (a fourteenth of the variance: as many futures as fourteen times the budget). In
/// Forgotten Treasures and Pyramids, where no move eliminates, the spread hardly moves (12 to
/// 17 either way). `cargo run --release -p pyramidion-ai --example judge_futures -- RECORD
/// 300` prints it for a record (docs/analysis.md, "Futures without random moves").
pub(crate) const FUTURES_PLAYOUT: Playout = Playout::Greedy {
    random_per_mille: 0,
};

/// The analysis budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisConfig {
    /// Playouts per decision: the search that proposes candidates (where moves are many) and
    /// the candidates' futures.
    pub budget: u32,
    /// Seed of the analysis (the same seed gives the same report).
    pub seed: u64,
    /// What a future is worth to the seat judged.
    pub measure: Measure,
    /// Futures per candidate at the most ([`MAX_FUTURES`]; more only to study the judge).
    pub max_futures: u32,
}

/// What a played-out future is worth to the seat whose decision is judged.
///
/// The judge measures the margin: a move that scores 2 points but hands the other seat 5
/// loses 3, as a player who wants to win counts it, and as the search bots play (their
/// reward is rank and margin). Measured by its own points alone, the judge said that `max`
/// lost more points than `greedy` in 7 of 38 Forgotten Treasures games that `max` won by 14
/// to 41 points: it took pieces the other seat needed, which own points call a loss
/// (docs/analysis.md). `Points` stays for comparison (`--measure points`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The seat's own final points.
    Points,
    /// The seat's final points minus the best other seat's (or THE Legend's, solo): points
    /// ahead, negative when behind.
    #[default]
    Margin,
}

impl std::str::FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "points" => Ok(Measure::Points),
            "margin" => Ok(Measure::Margin),
            _ => Err(format!("unknown measure {s:?} (points, margin)")),
        }
    }
}

impl Measure {
    /// What the finished game `outcome` is worth to `seat`. `forfeit_points` is the game's
    /// descriptor's: a seat behind another on a ranking key that comes before the score
    /// (Pyramido's elimination) lost whatever the points, so the margin counts it as having
    /// scored nothing against the best seat still in the game, or against `forfeit_points`
    /// if that is more, and a seat that outlasted every other one as having scored at least
    /// `forfeit_points` against nothing. Without it an elimination in the first stage would
    /// be worth 0 (the game ends at 0 to 0), as much as an even game, and one that
    /// eliminates a leader would count the lead.
    pub fn of(self, outcome: &pyramidion_core::Outcome, seat: usize, forfeit_points: u16) -> f64 {
        let own = outcome.scores[seat];
        if self == Measure::Points {
            return f64::from(own);
        }
        let seats = outcome.scores.len();
        let forfeit = i32::from(forfeit_points);
        // The seats still in the game when `seat` is: an eliminated seat's points count for
        // nothing against the seats that outlasted it.
        let best_other = (0..seats)
            .filter(|&o| o != seat && !outcome.behind_before_score(o, seat))
            .map(|o| outcome.scores[o])
            .chain(outcome.automa)
            .max();
        let lost_before_score =
            (0..seats).any(|o| o != seat && outcome.behind_before_score(seat, o));
        f64::from(match best_other {
            _ if lost_before_score => -best_other.unwrap_or(0).max(forfeit),
            Some(best) => own - best,
            None if seats > 1 => own.max(forfeit),
            None => own,
        })
    }
}

impl AnalysisConfig {
    /// The judge's full budget in a game: [`JUDGE_MULTIPLE`] times its `max` level's
    /// iterations (or its strongest level's).
    pub fn judge(descriptor: &GameDescriptor, seed: u64) -> Self {
        let strongest = descriptor
            .bot_level("max")
            .map(|l| l.iterations)
            .or_else(|| descriptor.bot_levels.iter().map(|l| l.iterations).max())
            .unwrap_or(1000)
            .max(1);
        AnalysisConfig {
            budget: strongest.saturating_mul(JUDGE_MULTIPLE),
            seed,
            measure: Measure::default(),
            max_futures: MAX_FUTURES,
        }
    }

    /// The judge's budget within `game_budget` playouts for a whole game of `decisions`
    /// decisions (an operator's cap): the full judge where it fits, less where it does not.
    pub fn within(self, game_budget: u64, decisions: usize) -> Self {
        let share = game_budget / decisions.max(1) as u64;
        AnalysisConfig {
            budget: self
                .budget
                .min(share.min(u64::from(u32::MAX)) as u32)
                .max(1),
            ..self
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// Index of the move in the record (0-based).
    pub ply: usize,
    pub seat: u8,
    /// The stage (or round: the descriptor's `stage_name`) the decision was taken in, from 1.
    pub stage: u8,
    /// Record texts of the move played and of the best candidate.
    pub played: String,
    pub best: String,
    /// Their structured forms (`{text, kind, …fields}`), for the replay to draw and say.
    pub played_move: Value,
    pub best_move: Value,
    /// Their expected values over the decision's futures, in the report's [`Measure`]: the
    /// played move's mean, and that plus the loss (the best candidate's mean less the luck
    /// of being picked, see [`crate::judge`]).
    pub played_points: f64,
    pub best_points: f64,
    /// `best_points − played_points`, at least 0: the point estimate, the raw difference
    /// shrunk by its doubt (nothing where the interval reaches zero).
    pub lost: f64,
    /// The raw loss's 95% interval.
    pub lost_low: f64,
    pub lost_high: f64,
    /// Set only where `lost_low` passes the flag's threshold.
    pub flag: Option<&'static str>,
    /// How many moves were compared, and on how many futures the move played and those still
    /// in the race at its end were played (the others, clearly worse, on half as many or
    /// fewer; see `race`).
    pub candidates: usize,
    pub samples: u32,
}

/// What a set of decisions adds up to.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    pub decisions: usize,
    pub lost: f64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// A seat's totals over the game, and stage by stage.
#[derive(Clone, Debug, Serialize)]
pub struct SeatTotal {
    pub seat: u8,
    #[serde(flatten)]
    pub game: Totals,
    /// One entry per stage of the game, from stage 1 to the last one a decision was taken
    /// in (a stage without a decision of this seat has zero decisions).
    pub stages: Vec<StageTotal>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StageTotal {
    pub stage: u8,
    #[serde(flatten)]
    pub totals: Totals,
}

impl Totals {
    fn of<'a>(decisions: impl IntoIterator<Item = &'a Decision>) -> Totals {
        let mut totals = Totals::default();
        for d in decisions {
            totals.decisions += 1;
            totals.lost += d.lost;
            match d.flag {
                Some("inaccuracy") => totals.inaccuracies += 1,
                Some("mistake") => totals.mistakes += 1,
                Some("blunder") => totals.blunders += 1,
                _ => {}
            }
        }
        totals
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub game: String,
    /// What the game's rulebook calls its stages (`stage`, `round`), from its descriptor.
    pub stage_name: &'static str,
    /// Playouts per decision.
    pub budget: u32,
    /// What the decisions' points are: own final points, or points ahead of the best other
    /// seat (older reports, made before the margin, are own points).
    pub measure: Measure,
    pub decisions: Vec<Decision>,
    pub seats: Vec<SeatTotal>,
}

/// A record that cannot be analysed: unknown game, or a move that does not replay. Its
/// code is the record's (`unknown_game`, `bad_record`, `bad_move_syntax`, the game's own
/// move error…), the same that `pyramidion replay` and the server give for the same record.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct AnalysisError {
    pub code: &'static str,
    pub message: String,
}

impl AnalysisError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        AnalysisError {
            code,
            message: message.into(),
        }
    }
}

impl ErrorCode for AnalysisError {
    fn code(&self) -> &'static str {
        self.code
    }
}

impl From<RecordError> for AnalysisError {
    fn from(e: RecordError) -> Self {
        AnalysisError::new(e.code(), e.to_string())
    }
}

/// How many decisions (moves of a seat that had a choice) a record holds: what a per-game
/// budget is shared among.
pub fn decision_count<G: Rules>(record: &Record) -> Result<usize, AnalysisError> {
    let mut n = 0;
    replay::<G>(record, 0..record.moves.len(), |_, _, _| {
        n += 1;
        Ok(())
    })?;
    Ok(n)
}

impl Analysis {
    /// The report of a game from all its decisions, with each seat's totals.
    pub fn from_decisions(
        record: &Record,
        config: AnalysisConfig,
        descriptor: &GameDescriptor,
        seats: u8,
        decisions: Vec<Decision>,
    ) -> Analysis {
        let last_stage = decisions.iter().map(|d| d.stage).max().unwrap_or(0);
        let seats = (0..seats)
            .map(|s| {
                let mine = || decisions.iter().filter(move |d| d.seat == s);
                SeatTotal {
                    seat: s,
                    game: Totals::of(mine()),
                    stages: (1..=last_stage)
                        .map(|stage| StageTotal {
                            stage,
                            totals: Totals::of(mine().filter(|d| d.stage == stage)),
                        })
                        .collect(),
                }
            })
            .collect();
        Analysis {
            game: record.game.to_string(),
            stage_name: descriptor.stage_name,
            budget: config.budget,
            measure: config.measure,
            decisions,
            seats,
        }
    }
}

/// Replays `record`, calling `at` with the state, the move played and its ply at every
/// decision among `plies` (a seat to move with more than one legal move). Every move is
/// checked before `at` sees it: the analysis of a move assumes it legal (it is one of the
/// candidates), so a record with an illegal move is refused as `replay` refuses it.
pub(crate) fn replay<G: Rules>(
    record: &Record,
    plies: std::ops::Range<usize>,
    mut at: impl FnMut(&G, G::Move, usize) -> Result<(), AnalysisError>,
) -> Result<u8, AnalysisError> {
    let mut game: G = record.replay_prefix(Some(0))?;
    let mut legal = Vec::new();
    for (ply, text) in record.moves.iter().enumerate().take(plies.end) {
        let played: G::Move =
            text.parse()
                .map_err(
                    |e: pyramidion_core::rules::MoveParseError| RecordError::BadMove {
                        place: record.place_of(ply),
                        text: text.clone(),
                        message: e.reason,
                    },
                )?;
        game.check(&played).map_err(|e| RecordError::Illegal {
            place: record.place_of(ply),
            text: text.clone(),
            code: e.code(),
            message: e.to_string(),
        })?;
        if let (true, ToMove::Seat(_)) = (plies.contains(&ply), game.to_move()) {
            game.legal_moves(&mut legal);
            if legal.len() > 1 {
                at(&game, played, ply)?;
            }
        }
        game.play_unchecked(&played);
    }
    Ok(game.seats())
}

/// A move's structured form (`{text, kind, …fields}`), as reports hold it.
pub fn move_form<G: Rules>(game: &G, m: &G::Move) -> Value {
    let mut v = serde_json::to_value(game.form(m)).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.insert("text".into(), Value::String(m.to_string()));
    }
    v
}

/// The search that proposes a decision's candidates, thought in slices: the analysis's
/// judge ([`Judging`]) and the puzzles' (`crate::puzzle::PositionJudging`) both start here.
/// Every legal move is a candidate where they are few ([`FEW`]); otherwise the search's best
/// few, most visited first, and the move played ([`candidates_from`]).
pub(crate) struct Proposing<G: Rules> {
    analysing: Analysing<G>,
    /// The search's iterations: playouts the judge's budget has spent on it.
    iterations: u32,
}

impl<G: Rules> Proposing<G> {
    /// The search among `legal` at `game` (half of `config`'s budget, seeded by `seed`);
    /// `None` where the moves are few: every legal move is then a candidate.
    pub(crate) fn start(
        game: &G,
        legal: &[G::Move],
        config: AnalysisConfig,
        seed: u64,
    ) -> Option<Box<Self>> {
        if legal.len() <= FEW {
            return None;
        }
        let iterations = (config.budget / 2).max(1);
        let search = Search::<G>::new(SearchConfig::with_iterations(iterations), seed);
        Some(Box::new(Proposing {
            analysing: Analysing::new(search, game),
            iterations,
        }))
    }

    /// Thinks at most `work` more iterations; once done, the candidates (`played` among
    /// them) and the playouts the search spent.
    pub(crate) fn step(&mut self, work: u32, played: G::Move) -> Option<(Vec<G::Move>, u32)> {
        let stats = self.analysing.step(work)?;
        Some((candidates_from(stats, played), self.iterations))
    }
}

/// The candidates from the search's root statistics: its best few (most visited first) and
/// the move played.
fn candidates_from<M: Copy + PartialEq>(
    mut stats: Vec<crate::search::MoveStats<M>>,
    played: M,
) -> Vec<M> {
    stats.sort_by(|a, b| {
        (b.visits, b.mean_reward)
            .partial_cmp(&(a.visits, a.mean_reward))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut out: Vec<M> = stats.iter().take(FEW - 1).map(|s| s.mv).collect();
    if !out.contains(&played) {
        out.push(played);
    }
    out
}

/// The candidates' futures within `budget` playouts, raced: half of the budget is shared by
/// every candidate on the same futures; the candidates then clearly worse than the leader
/// (the best mean) are dropped, and the other half goes to those kept (always the move played
/// and the leader) on further futures, the same for each. Returns the indices of the kept
/// candidates and their values, every one on the same futures (at most `max_futures`).
///
/// Why: a decision's loss is the difference between two candidates, the best and the move
/// played, and its doubt shrinks with their futures; futures spent on a candidate already
/// known to be worse narrow nothing. With eight candidates (placements) and two kept, the
/// two get two and a half times the futures of an even share. `play(m, futures)` plays move
/// `m` on the futures numbered `futures`.
#[cfg(test)]
fn race<M: Copy>(
    moves: &[M],
    played: usize,
    budget: u32,
    max_futures: u32,
    mut play: impl FnMut(M, std::ops::Range<u32>) -> Vec<f64>,
) -> (Vec<usize>, Vec<Vec<f64>>) {
    let mut racer = judging::Racer::new(moves.len(), played, budget, max_futures);
    while let Some((c, futures)) = racer.next(u32::MAX) {
        let values = play(moves[c], futures);
        racer.add(c, values);
    }
    racer.finish()
}

/// The decisions among the moves of `plies` only (so that a long analysis can be cut into
/// short jobs), and the game's seat count.
pub fn analyse_plies<G: Rules>(
    record: &Record,
    config: AnalysisConfig,
    plies: std::ops::Range<usize>,
) -> Result<(Vec<Decision>, u8), AnalysisError> {
    analyse_plies_seeing::<G>(record, config, plies, |_, _, _| {})
}

/// [`analyse_plies`], handing `seeing` each decision with the index of the move played among
/// its candidates and their values (`values[c][i]`: candidate `c`'s points in future `i`):
/// what `pyramidion analyse --values` writes, to study the judge's estimates on real decisions
/// (docs/analysis.md).
pub fn analyse_plies_seeing<G: Rules>(
    record: &Record,
    config: AnalysisConfig,
    plies: std::ops::Range<usize>,
    mut seeing: impl FnMut(&Decision, usize, &[Vec<f64>]),
) -> Result<(Vec<Decision>, u8), AnalysisError> {
    let mut decisions = Vec::new();
    let seats = replay::<G>(record, plies, |game, played, ply| {
        let judged = Judging::new(game, played, ply, config).run();
        seeing(&judged.decision, judged.played_at, &judged.values);
        decisions.push(judged.decision);
        Ok(())
    })?;
    Ok((decisions, seats))
}

/// The judgement of the decision at `ply` of `record`, to be made in slices
/// ([`Judging::step`]; the same decision as [`analyse_plies`]'s), and the game's seat count;
/// `None` where that move was no decision (a seat with one legal move, or no seat).
#[allow(clippy::type_complexity)]
pub fn judging_at<G: Rules>(
    record: &Record,
    config: AnalysisConfig,
    ply: usize,
) -> Result<(Option<Judging<G>>, u8), AnalysisError> {
    let mut judging = None;
    let seats = replay::<G>(record, ply..ply + 1, |game, played, ply| {
        judging = Some(Judging::new(game, played, ply, config));
        Ok(())
    })?;
    Ok((judging, seats))
}

mod judging;
#[cfg(test)]
mod tests;

pub use judging::{Judged, Judging};
