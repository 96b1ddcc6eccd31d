//! Game analysis: for every decision of every seat with more than one legal move, the
//! expected final points of the move played and of the best move the search finds, from
//! that seat's information only, and the points lost.
//!
//! At each decision the search bot runs from the seat's information and proposes its move;
//! then both the played move and the proposed one are evaluated on the same sampled futures
//! (common random numbers: the same determinisations and the same playout seeds), so their
//! difference is not noise of two different samples. Flags: `inaccuracy` from 2 points lost,
//! `mistake` from 5, `blunder` from 10. `pyramidion analyse` prints it; the server stores it
//! for the replay page.
use crate::Bot;
use crate::search::{Search, SearchConfig};
use pyramidion_core::record::Record;
use pyramidion_core::{Rules, ToMove};
use pyramidion_games::dispatch;
use serde::Serialize;

/// Points lost from which a decision is flagged.
const FLAGS: [(f64, &str); 3] = [(10.0, "blunder"), (5.0, "mistake"), (2.0, "inaccuracy")];

/// The analysis budget.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisConfig {
    /// Search iterations per decision.
    pub iterations: u32,
    /// Sampled futures on which the played and the best move are compared.
    pub samples: u32,
    /// Seed of the analysis (the same seed gives the same report).
    pub seed: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// Index of the move in the record (0-based).
    pub ply: usize,
    pub seat: u8,
    /// The stage (or round: the descriptor's `stage_name`) the decision was taken in, from 1.
    pub stage: u8,
    pub played: String,
    pub best: String,
    pub played_points: f64,
    pub best_points: f64,
    /// `best_points − played_points`, at least 0.
    pub lost: f64,
    pub flag: Option<&'static str>,
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
    pub iterations: u32,
    pub samples: u32,
    pub decisions: Vec<Decision>,
    pub seats: Vec<SeatTotal>,
}

/// A record that cannot be analysed: unknown game, or a move that does not replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct AnalysisError(pub String);

/// Analyses every decision of a record (of any registered game).
pub fn analyse_record(record: &Record, config: AnalysisConfig) -> Result<Analysis, AnalysisError> {
    let (decisions, seats) = analyse_plies(record, config, 0..record.moves.len())?;
    Ok(Analysis::from_decisions(record, config, seats, decisions))
}

/// The decisions among the moves of `plies` only (so that a long analysis can be cut into
/// short jobs), and the game's seat count.
pub fn analyse_plies(
    record: &Record,
    config: AnalysisConfig,
    plies: std::ops::Range<usize>,
) -> Result<(Vec<Decision>, u8), AnalysisError> {
    let kind: pyramidion_games::GameKind = record
        .game
        .parse()
        .map_err(|e: pyramidion_games::UnknownGame| AnalysisError(e.to_string()))?;
    dispatch!(kind, G => decisions::<G>(record, config, plies))
}

impl Analysis {
    /// The report of a game from all its decisions, with each seat's totals.
    pub fn from_decisions(
        record: &Record,
        config: AnalysisConfig,
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
        let stage_name = record
            .game
            .parse::<pyramidion_games::GameKind>()
            .map_or("stage", |kind| kind.descriptor().stage_name);
        Analysis {
            game: record.game.to_string(),
            stage_name,
            iterations: config.iterations,
            samples: config.samples,
            decisions,
            seats,
        }
    }
}

fn decisions<G: Rules>(
    record: &Record,
    config: AnalysisConfig,
    plies: std::ops::Range<usize>,
) -> Result<(Vec<Decision>, u8), AnalysisError> {
    let mut game: G = record
        .replay_prefix(Some(0))
        .map_err(|e| AnalysisError(format!("record setup: {e}")))?;
    let seats = game.seats();
    let mut decisions = Vec::new();
    let mut legal = Vec::new();
    for (ply, text) in record.moves.iter().enumerate().take(plies.end) {
        let played: G::Move = text
            .parse()
            .map_err(|e| AnalysisError(format!("{}: {e}", record.place_of(ply))))?;
        if let (true, ToMove::Seat(seat)) = (plies.contains(&ply), game.to_move()) {
            game.legal_moves(&mut legal);
            if legal.len() > 1 {
                let seed = crate::seed::decision_seed(config.seed, ply as u64);
                let mut search =
                    Search::<G>::new(SearchConfig::with_iterations(config.iterations), seed);
                let best = search.choose(&game);
                let (played_points, _) = search.evaluate_move(&game, played, config.samples, seed);
                let best_points = if best == played {
                    played_points
                } else {
                    search.evaluate_move(&game, best, config.samples, seed).0
                };
                // The search's move may evaluate worse than the played one on these
                // futures: then the played move is the best known.
                let (best, best_points) = if best_points >= played_points {
                    (best, best_points)
                } else {
                    (played, played_points)
                };
                let lost = best_points - played_points;
                decisions.push(Decision {
                    ply,
                    seat: seat.0,
                    stage: game.stage_number(),
                    played: played.to_string(),
                    best: best.to_string(),
                    played_points,
                    best_points,
                    lost,
                    flag: FLAGS.iter().find(|(t, _)| lost >= *t).map(|(_, f)| *f),
                });
            }
        }
        game.play(&played)
            .map_err(|e| AnalysisError(format!("{}: {e}", record.place_of(ply))))?;
    }
    Ok((decisions, seats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Greedy;
    use pyramidion_games::{AnyGame, GameKind};

    /// A short greedy game of every kind analysed whole, and in two halves: the same report.
    #[test]
    fn an_analysis_cut_in_parts_is_the_whole() {
        for &kind in GameKind::ALL {
            let options = serde_json::json!({ "players": 2.max(kind.descriptor().seats.min) });
            let mut game = AnyGame::new(kind, &options, 5).unwrap();
            let mut record = Record {
                game: kind.key().to_string(),
                options: options.clone(),
                seed: 5,
                result: None,
                moves: Vec::new(),
                move_lines: Vec::new(),
            };
            for _ in 0..12 {
                let Some(m) = game.legal_texts().into_iter().last() else {
                    break;
                };
                record.moves.push(game.play_text(&m).unwrap().full.text);
            }
            let config = AnalysisConfig {
                iterations: 4,
                samples: 2,
                seed: 1,
            };
            let whole = analyse_record(&record, config).unwrap();
            let (mut parts, seats) = analyse_plies(&record, config, 0..5).unwrap();
            parts.extend(analyse_plies(&record, config, 5..12).unwrap().0);
            let cut = Analysis::from_decisions(&record, config, seats, parts);
            assert_eq!(
                serde_json::to_value(&whole).unwrap(),
                serde_json::to_value(&cut).unwrap(),
                "{kind}"
            );
            assert!(
                !whole.decisions.is_empty(),
                "{kind}: some choice in 12 moves"
            );
            for d in &whole.decisions {
                assert!(d.lost >= 0.0 && d.ply < 12, "{kind}: {d:?}");
            }
        }
    }

    /// A whole greedy game: its decisions cover every stage (round) of the game in order,
    /// and each seat's stage totals add up to its game totals.
    fn totals_add_up<G: Rules>(options: &G::Options) {
        let kind = G::DESCRIPTOR.key;
        let mut game = G::new(options, 9).unwrap();
        let mut record = Record::new(kind, options, 9);
        let mut greedy = Greedy::new(9);
        while let ToMove::Seat(_) = game.to_move() {
            let m = greedy.choose(&game);
            game.play(&m).unwrap();
            record.push(&m);
        }
        let config = AnalysisConfig {
            iterations: 1,
            samples: 1,
            seed: 1,
        };
        let analysis = analyse_record(&record, config).unwrap();
        assert_eq!(analysis.stage_name, G::DESCRIPTOR.stage_name);
        let stages: Vec<u8> = analysis.decisions.iter().map(|d| d.stage).collect();
        assert!(stages.is_sorted(), "{kind}: stages go back: {stages:?}");
        let mut seen = stages.clone();
        seen.dedup();
        assert_eq!(
            seen,
            (1..=G::DESCRIPTOR.stages).collect::<Vec<u8>>(),
            "{kind}: every stage has decisions"
        );
        for seat in &analysis.seats {
            assert_eq!(
                seat.stages.len(),
                usize::from(G::DESCRIPTOR.stages),
                "{kind}"
            );
            let sum =
                |f: fn(&Totals) -> usize| seat.stages.iter().map(|s| f(&s.totals)).sum::<usize>();
            assert_eq!(sum(|t| t.decisions), seat.game.decisions, "{kind}");
            assert_eq!(sum(|t| t.inaccuracies), seat.game.inaccuracies, "{kind}");
            assert_eq!(sum(|t| t.mistakes), seat.game.mistakes, "{kind}");
            assert_eq!(sum(|t| t.blunders), seat.game.blunders, "{kind}");
            let lost: f64 = seat.stages.iter().map(|s| s.totals.lost).sum();
            assert!(
                (lost - seat.game.lost).abs() < 1e-9,
                "{kind}: {lost} against {}",
                seat.game.lost
            );
            assert!(
                seat.game.decisions > 0,
                "{kind}: seat {} decided nothing",
                seat.seat
            );
        }
    }

    #[test]
    fn totals_per_stage_add_up_to_the_game() {
        use pyramidion_games::{pyramido, pyramids, treasures};
        totals_add_up::<treasures::Game>(&treasures::Options::multiplayer(2));
        totals_add_up::<pyramido::Game>(&pyramido::Options { players: 2 });
        totals_add_up::<pyramids::Game>(&pyramids::Options { players: 3 });
    }
}
