//! The analysis of a record of any registered game: `pyramidion_ai::analysis`, which is
//! generic over the rules trait and names no game, run on the game the record's key names.
use crate::{GameKind, UnknownGame, dispatch};
use pyramidion_ai::analysis::{self, Analysis, AnalysisConfig, AnalysisError, Decision};
use pyramidion_ai::puzzle::MinedDecision;
use pyramidion_core::ErrorCode;
use pyramidion_core::record::Record;

fn kind_of(record: &Record) -> Result<GameKind, AnalysisError> {
    record
        .game
        .parse()
        .map_err(|e: UnknownGame| AnalysisError::new(e.code(), e.to_string()))
}

/// Analyses every decision of a record.
pub fn analyse_record(record: &Record, config: AnalysisConfig) -> Result<Analysis, AnalysisError> {
    analyse_record_seeing(record, config, |_, _, _| {})
}

/// The decisions among the moves of `plies` only (so that a long analysis can be cut into
/// short jobs; `Analysis::from_decisions` joins them), and the game's seat count.
pub fn analyse_plies(
    record: &Record,
    config: AnalysisConfig,
    plies: std::ops::Range<usize>,
) -> Result<(Vec<Decision>, u8), AnalysisError> {
    dispatch!(kind_of(record)?, G => analysis::analyse_plies::<G>(record, config, plies))
}

/// [`analyse_record`], handing `seeing` each decision, the index of the move played among its
/// candidates and their values (`pyramidion_ai::analysis::analyse_plies_seeing`).
pub fn analyse_record_seeing(
    record: &Record,
    config: AnalysisConfig,
    seeing: impl FnMut(&Decision, usize, &[Vec<f64>]),
) -> Result<Analysis, AnalysisError> {
    let kind = kind_of(record)?;
    let plies = 0..record.moves.len();
    let (decisions, seats) =
        dispatch!(kind, G => analysis::analyse_plies_seeing::<G>(record, config, plies, seeing))?;
    Ok(Analysis::from_decisions(
        record,
        config,
        kind.descriptor(),
        seats,
        decisions,
    ))
}

/// One decision's judgement in any registered game, made in slices
/// (`pyramidion_ai::analysis::Judging`): the server's bot pool runs an analysis a slice at a
/// time, sharing its threads between slices.
pub struct AnyJudging(Box<dyn JudgeStep + Send>);

trait JudgeStep {
    fn step(&mut self, work: u32) -> Option<Decision>;
}

impl<G: pyramidion_core::Rules> JudgeStep for analysis::Judging<G> {
    fn step(&mut self, work: u32) -> Option<Decision> {
        analysis::Judging::step(self, work).map(|judged| judged.decision)
    }
}

impl AnyJudging {
    /// Thinks at most `work` more playouts; the decision once judged, the same as
    /// [`analyse_plies`]'s for its ply.
    pub fn step(&mut self, work: u32) -> Option<Decision> {
        self.0.step(work)
    }
}

/// The judgement of the decision at `ply` of `record`, to be made in slices, and the game's
/// seat count; `None` where that move was no decision.
pub fn judging_at(
    record: &Record,
    config: AnalysisConfig,
    ply: usize,
) -> Result<(Option<AnyJudging>, u8), AnalysisError> {
    dispatch!(kind_of(record)?, G => analysis::judging_at::<G>(record, config, ply)
        .map(|(j, seats)| (j.map(|j| AnyJudging(Box::new(j))), seats)))
}

/// How many decisions (moves of a seat that had a choice) a record holds: what a per-game
/// budget is shared among.
pub fn decision_count(record: &Record) -> Result<usize, AnalysisError> {
    dispatch!(kind_of(record)?, G => analysis::decision_count::<G>(record))
}

/// The puzzles among the decisions of `plies` of a record (`pyramidion_ai::puzzle`, each
/// confirmed by a second judge run); `dropped` counts those the second run refused.
pub fn mine_plies(
    record: &Record,
    config: pyramidion_ai::puzzle::PuzzleConfig,
    plies: std::ops::Range<usize>,
    dropped: &mut usize,
) -> Result<Vec<pyramidion_ai::puzzle::Mined>, AnalysisError> {
    dispatch!(kind_of(record)?, G => pyramidion_ai::puzzle::mine_record::<G>(record, config, plies, dropped))
}

/// One decision of a record mined for a puzzle in any registered game, in slices
/// (`pyramidion_ai::puzzle::DecisionMining`): the server's miner runs on the bot pool a slice
/// at a time, as an analysis does.
pub struct AnyMining(Box<dyn MineStep + Send>);

trait MineStep {
    fn step(&mut self, work: u32) -> Option<MinedDecision>;
}

impl<G: pyramidion_core::Rules> MineStep for pyramidion_ai::puzzle::DecisionMining<G> {
    fn step(&mut self, work: u32) -> Option<MinedDecision> {
        pyramidion_ai::puzzle::DecisionMining::step(self, work)
    }
}

impl AnyMining {
    /// Thinks at most `work` more playouts; what the decision came to once mined (its
    /// puzzle's `ply` is 0: the caller's to set), the same as [`mine_plies`]'s for its ply.
    pub fn step(&mut self, work: u32) -> Option<MinedDecision> {
        self.0.step(work)
    }
}

/// The mining of the decision at `ply` of `record`, to be made in slices; `None` where that
/// move was no decision.
pub fn mining_at(
    record: &Record,
    config: pyramidion_ai::puzzle::PuzzleConfig,
    ply: usize,
) -> Result<Option<AnyMining>, AnalysisError> {
    dispatch!(kind_of(record)?, G => pyramidion_ai::puzzle::mining_at::<G>(record, config, ply)
        .map(|m| m.map(|m| AnyMining(Box::new(m)))))
}

/// Whether a fresh judge run (`config`: another seed, a budget of its own) confirms a puzzle:
/// at the position after `record`'s moves, the same `solutions` and a margin still clear.
pub fn reconfirm(
    record: &Record,
    solutions: &[String],
    config: pyramidion_ai::puzzle::PuzzleConfig,
) -> Result<bool, AnalysisError> {
    Ok(rejudge(record, solutions, config)?.confirms(solutions))
}

/// What a fresh judge run says of a puzzle's position: its solutions and the lower end of
/// the best's lead (`None`: no run, or every candidate a solution).
#[derive(Clone, Debug, PartialEq)]
pub struct Rejudged {
    pub solutions: Vec<String>,
    pub margin_low: Option<f64>,
    /// Every move the run judged, with its points, best first.
    pub candidates: Vec<pyramidion_ai::puzzle::Candidate>,
}

impl Rejudged {
    /// The puzzle stands: the same solutions, by a margin still clear (the miner's own rule
    /// for its confirming run).
    pub fn confirms(&self, solutions: &[String]) -> bool {
        self.solutions == solutions
            && self
                .margin_low
                .is_some_and(|m| m >= pyramidion_ai::puzzle::MARGIN)
    }
}

/// A fresh judge run at the position after `record`'s moves (see [`reconfirm`]), told whole
/// so a check can say why a puzzle does not stand (other solutions, or a margin under
/// [`pyramidion_ai::puzzle::MARGIN`]). The first solution joins the candidates where they
/// come from a search (the move played, which the miner's runs had, is not kept with a
/// puzzle).
pub fn rejudge(
    record: &Record,
    solutions: &[String],
    config: pyramidion_ai::puzzle::PuzzleConfig,
) -> Result<Rejudged, AnalysisError> {
    fn at<G: pyramidion_core::Rules>(
        record: &Record,
        solutions: &[String],
        config: pyramidion_ai::puzzle::PuzzleConfig,
    ) -> Result<Rejudged, AnalysisError> {
        let game: G = record.replay()?;
        let first = solutions
            .first()
            .ok_or_else(|| AnalysisError::new("bad_record", "a puzzle without a solution"))?;
        let played: G::Move =
            first
                .parse()
                .map_err(|e: pyramidion_core::rules::MoveParseError| {
                    AnalysisError::new("bad_move_syntax", e.to_string())
                })?;
        let salt = record.moves.len() as u64;
        Ok(
            match pyramidion_ai::puzzle::judge_position(&game, played, config, salt) {
                Some(again) => Rejudged {
                    solutions: again.solutions,
                    margin_low: again.margin_low,
                    candidates: again.candidates,
                },
                None => Rejudged {
                    solutions: Vec::new(),
                    margin_low: None,
                    candidates: Vec::new(),
                },
            },
        )
    }
    dispatch!(kind_of(record)?, G => at::<G>(record, solutions, config))
}

/// The themes of a puzzle's solutions at the position after `record`'s moves (each game's
/// `Notation::themes`), for puzzles written before their game had the hook.
pub fn themes_at(record: &Record, solutions: &[String]) -> Result<Vec<String>, AnalysisError> {
    fn at<G: pyramidion_core::Rules>(
        record: &Record,
        solutions: &[String],
    ) -> Result<Vec<String>, AnalysisError> {
        let game: G = record.replay()?;
        let mut out: Vec<String> = Vec::new();
        for text in solutions {
            let Ok(m) = text.parse::<G::Move>() else {
                continue;
            };
            if !game.is_legal(&m) {
                continue;
            }
            for t in game.themes(&m) {
                if !out.iter().any(|x| x == t) {
                    out.push(t.to_string());
                }
            }
        }
        Ok(out)
    }
    dispatch!(kind_of(record)?, G => at::<G>(record, solutions))
}

/// The judgement of the decision open now in `game`, a state the page rebuilt from its seat's
/// view (`AnyGame::from_view`; local analysis of a running game, issue 50): the judge's
/// candidates raced on its futures as a finished game's decisions are. Every future is a
/// determinisation for the seat to move, so the hidden parts the sampler drew are redrawn on
/// each and none is taken for the truth. No move was played yet: the first legal move stands
/// in for it (the race always keeps that one), and the decision's `played` fields mean nothing.
/// `None` when no seat has a choice.
pub fn judge_now(game: &crate::AnyGame, config: AnalysisConfig) -> Option<Decision> {
    fn judge<G: pyramidion_core::Rules>(game: &G, config: AnalysisConfig) -> Option<Decision> {
        let pyramidion_core::ToMove::Seat(_) = game.to_move() else {
            return None;
        };
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let first = *legal.first()?;
        if legal.len() < 2 {
            return None;
        }
        let ply = game.ply() as usize;
        Some(
            analysis::Judging::new(game, first, ply, config)
                .run()
                .decision,
        )
    }
    crate::with_game!(game, g => judge(g.as_ref(), config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyGame;
    use pyramidion_core::ToMove;

    /// Every game with a sampler: the decision open in a running game, judged on a state
    /// rebuilt from the seat's view, names a best move the true game allows that seat; the
    /// same view and seed give the same judgement; an ended game has none to judge.
    #[test]
    fn a_decision_judged_from_a_view_names_a_move_the_seat_may_play() {
        for &kind in GameKind::ALL {
            if !crate::sampler::samples_views(kind) {
                continue;
            }
            let players = kind.descriptor().seats.min.max(2);
            let options = serde_json::json!({ "players": players });
            let mut game = AnyGame::new(kind, &options, 3).unwrap();
            let config = AnalysisConfig {
                budget: 200,
                ..AnalysisConfig::judge(kind.descriptor(), 1)
            };
            let mut judged = 0;
            for ply in 0..40 {
                let legal = game.legal_texts();
                let ToMove::Seat(seat) = game.to_move() else {
                    break;
                };
                if legal.len() > 1 && ply % 7 == 0 {
                    let view = game.view(Some(seat));
                    let sampled = AnyGame::from_view(kind, &view, seat, 9).unwrap();
                    let d = judge_now(&sampled, config).expect("a decision");
                    assert!(
                        legal.contains(&d.best),
                        "{kind}: {} not in {legal:?}",
                        d.best
                    );
                    assert_eq!(usize::from(d.seat), seat.index(), "{kind}");
                    let again =
                        judge_now(&AnyGame::from_view(kind, &view, seat, 9).unwrap(), config);
                    assert_eq!(
                        again.map(|a| a.best),
                        Some(d.best),
                        "{kind}: the same judgement"
                    );
                    judged += 1;
                }
                game.play_text(&legal[ply % legal.len()]).unwrap();
            }
            assert!(judged > 0, "{kind}: no decision judged");
        }
        let mut over =
            AnyGame::new(GameKind::ALL[0], &serde_json::json!({ "players": 2 }), 1).unwrap();
        while let Some(m) = over.legal_texts().first().cloned() {
            over.play_text(&m).unwrap();
        }
        let config = AnalysisConfig::judge(GameKind::ALL[0].descriptor(), 1);
        assert!(judge_now(&over, config).is_none());
    }
}

/// The turn the position after `record`'s moves is in, as the move log numbers them (a turn:
/// the moves one seat plays until another seat, or no seat (an automa, `turns_of_no_seat`),
/// plays; a round of turns ends where a seat that already played in it is to play again,
/// `web/js/move-log.js`): what a puzzle's heading says instead of a move count.
pub fn turn_at(record: &Record) -> Result<u32, AnalysisError> {
    fn at<G: pyramidion_core::Rules>(record: &Record) -> Result<u32, AnalysisError> {
        let mut game: G = record.replay_prefix(Some(0))?;
        let mut turns = Turns::default();
        for text in &record.moves {
            if let pyramidion_core::ToMove::Seat(seat) = game.to_move() {
                turns.seat_to_move(seat.0);
            }
            let m: G::Move =
                text.parse()
                    .map_err(|e: pyramidion_core::rules::MoveParseError| {
                        AnalysisError::new("bad_move_syntax", e.to_string())
                    })?;
            let automa = game.turns_of_no_seat();
            game.play(&m).map_err(|e| {
                AnalysisError::new(pyramidion_core::ErrorCode::code(&e), e.to_string())
            })?;
            if game.turns_of_no_seat() > automa {
                turns.no_seat();
            }
        }
        if let pyramidion_core::ToMove::Seat(seat) = game.to_move() {
            turns.seat_to_move(seat.0);
        }
        Ok(turns.round)
    }
    dispatch!(kind_of(record)?, G => at::<G>(record))
}

/// The move log's numbering of turns by rounds (see [`turn_at`]).
struct Turns {
    round: u32,
    played: Vec<u8>,
    last: Option<u8>,
}

impl Default for Turns {
    fn default() -> Self {
        Turns {
            round: 1,
            played: Vec::new(),
            last: None,
        }
    }
}

impl Turns {
    /// A turn of no seat (an automa's) was played: the seat to move next starts a turn of its
    /// own, and a new round if it played in this one (the log's interlude turns).
    fn no_seat(&mut self) {
        self.last = None;
    }

    fn seat_to_move(&mut self, seat: u8) {
        if self.last == Some(seat) {
            return;
        }
        if self.played.contains(&seat) {
            self.round += 1;
            self.played.clear();
        }
        self.played.push(seat);
        self.last = Some(seat);
    }
}

#[cfg(test)]
mod turn_tests {
    use super::Turns;

    #[test]
    fn turns_are_numbered_by_rounds_as_the_move_log_numbers_them() {
        let mut t = Turns::default();
        // Seat 0 plays three moves, seat 1 two: one round; seat 0 again: the second.
        for seat in [0, 0, 0, 1, 1] {
            t.seat_to_move(seat);
        }
        assert_eq!(t.round, 1);
        t.seat_to_move(0);
        assert_eq!(t.round, 2);
        // Seat 1 starts a round after seat 0's, whoever started the game.
        t.seat_to_move(1);
        t.seat_to_move(1);
        assert_eq!(t.round, 2);
        t.seat_to_move(1);
        t.seat_to_move(0);
        assert_eq!(t.round, 3);
    }

    #[test]
    fn an_automas_turn_ends_the_players_turn_and_its_round() {
        // Solo: the player's moves, THE Legend's turn inside the second; the third move is
        // the next round's, as the move log shows it after the Legend's turn.
        let mut t = Turns::default();
        t.seat_to_move(0);
        t.seat_to_move(0);
        t.no_seat();
        assert_eq!(t.round, 1);
        t.seat_to_move(0);
        assert_eq!(t.round, 2);
        t.seat_to_move(0);
        assert_eq!(t.round, 2);
    }
}
