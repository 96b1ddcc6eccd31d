//! A position's puzzle judged in slices ([`PositionJudging`], [`DecisionMining`]), so that the
//! server's bot pool can stop between two slices and serve other work: one decision judged
//! twice (the confirming run at twice the budget) is up to 12 × a `max` move, seconds of CPU,
//! and a pool thread held for all of it made a quick bot wait seconds (issue 54: the server's
//! puzzle miner, not sliced, took a victim's `easy` bot from 0.1 s to 4.7 s a move). The
//! verdict is the same however it is sliced: the candidates' search draws the same iterations
//! (`search::Analysing`), and a future's values depend on its number alone
//! (`Search::playout_values`), whichever slice plays it; `judge_position` and
//! `mine_position` are these run in one go.
use super::{
    Judged, LOOKS, MARGIN, MINE_MARGIN, Mined, PuzzleConfig, SCREEN_FUTURES, hopeless, puzzle_of,
    verdict,
};
use crate::analysis::{AnalysisConfig, FUTURES_PLAYOUT, MAX_FUTURES, Measure, Proposing};
use crate::search::{Search, SearchConfig};
use pyramidion_core::{Rules, Seat, ToMove};

/// One position's judgement under way: the candidates' search (where moves are many), their
/// futures, then (where they make the position clear) every other legal move screened.
pub struct PositionJudging<G: Rules> {
    game: G,
    played: G::Move,
    config: PuzzleConfig,
    /// The position's seed (the run's seed and the position's salt).
    seed: u64,
    legal: Vec<G::Move>,
    /// Whether the candidates' futures stop at a look that rules the puzzle out
    /// ([`LOOKS`]): the miner's first run, not a confirming run or a check, which judge in full.
    looks: bool,
    stage: Stage<G>,
}

enum Stage<G: Rules> {
    /// The search proposing the candidates.
    Candidates(Box<Proposing<G>>),
    Playing(Box<Playing<G>>),
    /// No verdict: fewer than two candidates, or no seat to move.
    Nothing,
    /// The verdict handed over.
    Done,
}

/// The moves' futures: the candidates', then the other legal moves' once the candidates
/// made the position clear.
struct Playing<G: Rules> {
    moves: Vec<G::Move>,
    texts: Vec<String>,
    values: Vec<Vec<f64>>,
    /// How many of `moves` are the candidates (the rest are screened).
    candidates: usize,
    /// The legal moves not among the candidates, screened once the candidates are clear.
    rest: Vec<G::Move>,
    /// Futures every candidate plays.
    futures: u32,
    /// Whether the candidates are looked at on their way ([`LOOKS`]), and up to which future
    /// they were last.
    looks: bool,
    looked: u32,
    /// Moves the best is chosen among (the interval's widening).
    compared: usize,
    /// Once the candidates made the position clear: the other legal moves' screening.
    screening: Option<Screening>,
    evaluator: Search<G>,
    futures_seed: u64,
}

/// Where the screening of the other legal moves stands (`super::screen`, a move at a time).
struct Screening {
    /// The best candidate's index.
    best: usize,
    /// The move being screened (an index in `Playing::moves`).
    at: usize,
    /// Its futures, once its first [`SCREEN_FUTURES`] are judged.
    target: Option<u32>,
}

impl<G: Rules> PositionJudging<G> {
    /// Starts judging `game` (see `judge_position`).
    pub fn new(game: &G, played: G::Move, config: PuzzleConfig, salt: u64) -> Self {
        Self::judging(game, played, config, salt, false)
    }

    /// Starts the miner's first run at `game`: as [`PositionJudging::new`], but given up at a
    /// look that rules the puzzle out ([`LOOKS`]; its verdict is then not clear).
    pub fn looking(game: &G, played: G::Move, config: PuzzleConfig, salt: u64) -> Self {
        Self::judging(game, played, config, salt, true)
    }

    fn judging(game: &G, played: G::Move, config: PuzzleConfig, salt: u64, looks: bool) -> Self {
        let seed = crate::seed::decision_seed(config.seed, salt);
        let mut judging = PositionJudging {
            game: game.clone(),
            played,
            config,
            seed,
            legal: Vec::new(),
            looks,
            stage: Stage::Nothing,
        };
        let ToMove::Seat(_) = game.to_move() else {
            return judging;
        };
        game.legal_moves(&mut judging.legal);
        judging.stage = match Proposing::start(game, &judging.legal, judging.analysis(), seed) {
            Some(proposing) => Stage::Candidates(proposing),
            None => judging.playing(judging.legal.clone(), 0),
        };
        judging
    }

    fn analysis(&self) -> AnalysisConfig {
        AnalysisConfig {
            budget: self.config.budget,
            seed: self.config.seed,
            measure: Measure::Margin,
            max_futures: MAX_FUTURES,
        }
    }

    /// The candidates' futures, with what the budget left after `spent` playouts.
    fn playing(&self, moves: Vec<G::Move>, spent: u32) -> Stage<G> {
        if moves.len() < 2 {
            return Stage::Nothing;
        }
        let legal = &self.legal;
        let left = self.config.budget.saturating_sub(spent);
        let futures = (left / moves.len() as u32).clamp(4, MAX_FUTURES);
        let futures_seed = crate::seed::decision_seed(self.seed, u64::from(u32::MAX));
        let playouts = SearchConfig {
            playout: FUTURES_PLAYOUT,
            ..SearchConfig::default()
        };
        let rest = legal
            .iter()
            .filter(|m| !moves.contains(m))
            .copied()
            .collect();
        Stage::Playing(Box::new(Playing {
            texts: moves.iter().map(|m| m.to_string()).collect(),
            values: vec![Vec::new(); moves.len()],
            candidates: moves.len(),
            moves,
            rest,
            futures,
            looks: self.looks,
            looked: 0,
            compared: legal.len(),
            screening: None,
            evaluator: Search::<G>::new(playouts, futures_seed),
            futures_seed,
        }))
    }

    /// Thinks at most `work` more playouts (search iterations, then futures); once judged,
    /// `Some` with the verdict (`None` inside where there is none), then `None` again.
    pub fn step(&mut self, work: u32) -> Option<Option<Judged>> {
        let work = work.max(1);
        match &mut self.stage {
            Stage::Candidates(proposing) => {
                let (moves, spent) = proposing.step(work, self.played)?;
                self.stage = self.playing(moves, spent);
                None
            }
            Stage::Playing(playing) => {
                let judged = playing.advance(&self.game, work)?;
                self.stage = Stage::Done;
                Some(Some(judged))
            }
            Stage::Nothing => {
                self.stage = Stage::Done;
                Some(None)
            }
            Stage::Done => None,
        }
    }

    /// The whole judgement at once.
    pub fn run(mut self) -> Option<Judged> {
        loop {
            if let Some(v) = self.step(u32::MAX) {
                return v;
            }
        }
    }
}

impl<G: Rules> Playing<G> {
    /// Plays at most `work` more futures of the next move that needs them; the verdict once
    /// every move has its futures.
    fn advance(&mut self, game: &G, work: u32) -> Option<Judged> {
        // The candidates first, each on the same `futures`: up to the next look, if any.
        let next_look = LOOKS
            .into_iter()
            .find(|&l| l > self.looked && l < self.futures);
        let upto = next_look.filter(|_| self.looks).unwrap_or(self.futures);
        if let Some(c) = (0..self.candidates).find(|&c| self.values[c].len() < upto as usize) {
            self.play(game, c, upto, work);
            return None;
        }
        if upto < self.futures {
            self.looked = upto;
            if hopeless(&self.values) {
                // Not clear, whatever the futures so far would say at the verdict's own z.
                let mut judged = verdict(&self.texts, &self.values, self.compared);
                judged.margin_low = None;
                return Some(judged);
            }
            return None;
        }
        let Some(screening) = &mut self.screening else {
            let judged = verdict(&self.texts, &self.values, self.compared);
            if self.rest.is_empty() || !judged.is_clear() {
                return Some(judged);
            }
            // Clear among the candidates: every other legal move is judged against the best
            // (`super::screen`), the interval widened for all of them.
            let best = self
                .texts
                .iter()
                .position(|t| *t == judged.candidates[0].text)
                .unwrap_or(0);
            self.compared = self.moves.len() + self.rest.len();
            for m in std::mem::take(&mut self.rest) {
                self.texts.push(m.to_string());
                self.moves.push(m);
                self.values.push(Vec::new());
            }
            self.screening = Some(Screening {
                best,
                at: self.candidates,
                target: None,
            });
            return None;
        };
        let (best, at) = (screening.best, screening.at);
        if at == self.moves.len() {
            return Some(verdict(&self.texts, &self.values, self.compared));
        }
        let first = SCREEN_FUTURES.min(self.futures);
        let target = match screening.target {
            Some(t) => t,
            None if self.values[at].len() as u32 == first => {
                // Its first futures judged: all of the best's unless already far behind.
                let on = first < self.futures
                    && super::screen_goes_on(&self.values[best], &self.values[at], self.compared);
                let t = if on { self.futures } else { first };
                screening.target = Some(t);
                t
            }
            None => first,
        };
        if self.values[at].len() as u32 >= target && screening.target.is_some() {
            screening.at += 1;
            screening.target = None;
            return None;
        }
        self.play(game, at, target, work);
        None
    }

    /// Plays move `c`'s next futures, up to `to`, at most `work` of them.
    fn play(&mut self, game: &G, c: usize, to: u32, work: u32) {
        let from = self.values[c].len() as u32;
        let range = from..to.min(from.saturating_add(work));
        let measure = Measure::Margin;
        let values =
            self.evaluator
                .playout_values(game, self.moves[c], range, self.futures_seed, |o, s| {
                    measure.of(o, s, G::DESCRIPTOR.forfeit_points)
                });
        self.values[c].extend(values);
    }
}

/// What mining one decision came to.
#[derive(Clone, Debug, PartialEq)]
pub enum MinedDecision {
    /// No puzzle here (no verdict, or the first run not decisive).
    Nothing,
    /// The first run kept it, the confirming run did not.
    Dropped,
    Puzzle(Box<Mined>),
}

/// One decision mined in slices: the first run, then (where it is decisive) the confirming
/// run, which must find the same solutions (see `mine_position`).
pub struct DecisionMining<G: Rules> {
    game: G,
    played: G::Move,
    config: PuzzleConfig,
    salt: u64,
    seat: Seat,
    first: Option<PositionJudging<G>>,
    /// The first run's solutions, once the confirming run is under way.
    second: Option<(Vec<String>, PositionJudging<G>)>,
}

impl<G: Rules> DecisionMining<G> {
    /// Starts mining the decision of `game` (`None` if no seat is to move).
    pub fn new(game: &G, played: G::Move, config: PuzzleConfig, salt: u64) -> Option<Self> {
        let ToMove::Seat(seat) = game.to_move() else {
            return None;
        };
        Some(DecisionMining {
            game: game.clone(),
            played,
            config,
            salt,
            seat,
            first: Some(PositionJudging::looking(game, played, config, salt)),
            second: None,
        })
    }

    /// Thinks at most `work` more playouts; what the decision came to once mined.
    pub fn step(&mut self, work: u32) -> Option<MinedDecision> {
        if let Some(first) = &mut self.first {
            let verdict = first.step(work)?;
            self.first = None;
            return match verdict {
                Some(judged) if judged.is_decisive(MARGIN) => {
                    let confirming = self.config.confirming();
                    let second =
                        PositionJudging::new(&self.game, self.played, confirming, self.salt);
                    self.second = Some((judged.solutions, second));
                    None
                }
                _ => Some(MinedDecision::Nothing),
            };
        }
        let (solutions, second) = self.second.as_mut()?;
        let verdict = second.step(work)?;
        let solutions = std::mem::take(solutions);
        self.second = None;
        Some(match verdict {
            None => MinedDecision::Nothing,
            Some(judged) if !judged.is_decisive(MINE_MARGIN) || judged.solutions != solutions => {
                MinedDecision::Dropped
            }
            Some(judged) => {
                MinedDecision::Puzzle(Box::new(puzzle_of(&self.game, self.seat, judged)))
            }
        })
    }

    /// The whole decision at once.
    pub fn run(mut self) -> MinedDecision {
        loop {
            if let Some(d) = self.step(u32::MAX) {
                return d;
            }
        }
    }
}
