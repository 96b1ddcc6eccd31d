//! One decision's judgement made in slices ([`Judging`]), so that whoever runs it can stop
//! between two slices and run other work: a decision's judge is 4 × a `max` move, several
//! seconds of CPU, and the server's bot pool must not hold a thread for all of it while a
//! quick bot waits (issue 54). The decision is the same however it is sliced: the
//! candidates' search draws the same iterations ([`Analysing`]), and a future's values
//! depend on its number alone (`Search::playout_values`), whichever slice plays it.
use super::{Decision, FUTURES_PLAYOUT, MIN_FUTURES, Proposing, move_form};
use crate::judge::judge;
use crate::search::{Search, SearchConfig};
use pyramidion_core::{Rules, Seat, ToMove};

/// Where a race (`super::race`) stands: which candidate plays which futures next. Both the
/// whole decision and the sliced one ask it, so their futures are the same.
pub(crate) struct Racer {
    played: usize,
    budget: u32,
    cap: u32,
    /// Futures every candidate plays first.
    first: u32,
    values: Vec<Vec<f64>>,
    /// Once every candidate has its first futures: those kept, and the futures they reach.
    kept: Option<(Vec<usize>, u32)>,
}

impl Racer {
    pub(crate) fn new(candidates: usize, played: usize, budget: u32, max_futures: u32) -> Self {
        let cap = max_futures.max(MIN_FUTURES);
        let first = (budget / 2 / candidates.max(1) as u32).clamp(MIN_FUTURES, cap);
        Racer {
            played,
            budget,
            cap,
            first,
            values: vec![Vec::new(); candidates],
            kept: None,
        }
    }

    /// The next candidate to play and its futures, at most `most` of them; `None` once the
    /// race is run.
    pub(crate) fn next(&mut self, most: u32) -> Option<(usize, std::ops::Range<u32>)> {
        let most = most.max(1);
        let span = |from: usize, to: u32| {
            let from = from as u32;
            from..to.min(from.saturating_add(most))
        };
        if self.kept.is_none() {
            if let Some(c) =
                (0..self.values.len()).find(|&c| self.values[c].len() < self.first as usize)
            {
                return Some((c, span(self.values[c].len(), self.first)));
            }
            self.keep();
        }
        let (kept, total) = self.kept.as_ref()?;
        kept.iter()
            .find(|&&c| self.values[c].len() < *total as usize)
            .map(|&c| (c, span(self.values[c].len(), *total)))
    }

    /// After the first futures: the candidates clearly worse than the leader get no more,
    /// the rest of the budget goes to the others.
    fn keep(&mut self) {
        let n = self.values.len();
        let leader = crate::judge::leader(&self.values, self.played);
        let kept: Vec<usize> = (0..n)
            .filter(|&c| {
                c == self.played
                    || c == leader
                    || !crate::judge::clearly_worse(&self.values[leader], &self.values[c], n)
            })
            .collect();
        let more = self.budget.saturating_sub(self.first * n as u32) / kept.len() as u32;
        let total = self
            .first
            .saturating_add(more)
            .min(self.cap)
            .max(self.first);
        self.kept = Some((kept, total));
    }

    /// Candidate `c`'s values on the futures [`Racer::next`] gave it.
    pub(crate) fn add(&mut self, c: usize, values: Vec<f64>) {
        self.values[c].extend(values);
    }

    /// The kept candidates' indices and their values, on the same futures.
    pub(crate) fn finish(mut self) -> (Vec<usize>, Vec<Vec<f64>>) {
        let (kept, _) = self.kept.take().unwrap_or_default();
        let values = kept
            .iter()
            .map(|&c| std::mem::take(&mut self.values[c]))
            .collect();
        (kept, values)
    }
}

/// A decision's judgement under way: the candidates' search (where moves are many), then
/// the race of their futures, then the verdict.
pub struct Judging<G: Rules> {
    game: G,
    played: G::Move,
    ply: usize,
    seat: Seat,
    config: super::AnalysisConfig,
    stage: Stage<G>,
}

enum Stage<G: Rules> {
    /// The search proposing the candidates.
    Candidates(Box<Proposing<G>>),
    Race(Box<Race<G>>),
    /// Judged and handed over.
    Done,
}

struct Race<G: Rules> {
    moves: Vec<G::Move>,
    played_at: usize,
    racer: Racer,
    evaluator: Search<G>,
    futures_seed: u64,
}

/// A decision judged, with the index of the move played among the kept candidates and their
/// values (what `analyse_plies_seeing` hands on).
pub struct Judged {
    pub decision: Decision,
    pub played_at: usize,
    pub values: Vec<Vec<f64>>,
}

impl<G: Rules> Judging<G> {
    /// Starts judging `played` at `ply` in `game` (whose seat to move must be a seat with a
    /// choice).
    pub fn new(game: &G, played: G::Move, ply: usize, config: super::AnalysisConfig) -> Self {
        let ToMove::Seat(seat) = game.to_move() else {
            unreachable!("a decision is only judged with a seat to move");
        };
        let seed = crate::seed::decision_seed(config.seed, ply as u64);
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let mut judging = Judging {
            game: game.clone(),
            played,
            ply,
            seat,
            config,
            stage: Stage::Done,
        };
        judging.stage = match Proposing::start(game, &legal, config, seed) {
            Some(proposing) => Stage::Candidates(proposing),
            None => judging.race(legal, 0, seed),
        };
        judging
    }

    /// The race of `moves`' futures, with what the budget left after `spent` playouts.
    fn race(&self, moves: Vec<G::Move>, spent: u32, seed: u64) -> Stage<G> {
        let left = self.config.budget.saturating_sub(spent);
        let played_at = moves
            .iter()
            .position(|&m| m == self.played)
            .expect("the move played is a candidate");
        // Every candidate is played on the same futures (common random numbers): one seed
        // for the decision's futures, one playout searcher for every candidate.
        let futures_seed = crate::seed::decision_seed(seed, u64::from(u32::MAX));
        let playouts = SearchConfig {
            playout: FUTURES_PLAYOUT,
            ..SearchConfig::default()
        };
        let racer = Racer::new(moves.len(), played_at, left, self.config.max_futures);
        Stage::Race(Box::new(Race {
            moves,
            played_at,
            racer,
            evaluator: Search::<G>::new(playouts, futures_seed),
            futures_seed,
        }))
    }

    /// Thinks at most `work` more playouts (search iterations, then futures); the decision
    /// once judged (and `None` after that: it is handed over once).
    pub fn step(&mut self, work: u32) -> Option<Judged> {
        match &mut self.stage {
            Stage::Candidates(proposing) => {
                let (moves, spent) = proposing.step(work, self.played)?;
                let seed = crate::seed::decision_seed(self.config.seed, self.ply as u64);
                self.stage = self.race(moves, spent, seed);
                None
            }
            Stage::Race(race) => {
                let (game, measure) = (&self.game, self.config.measure);
                match race.racer.next(work) {
                    Some((c, futures)) => {
                        let m = race.moves[c];
                        let values = race.evaluator.playout_values(
                            game,
                            m,
                            futures,
                            race.futures_seed,
                            |o, s| measure.of(o, s, G::DESCRIPTOR.forfeit_points),
                        );
                        race.racer.add(c, values);
                        None
                    }
                    None => {
                        let Stage::Race(race) = std::mem::replace(&mut self.stage, Stage::Done)
                        else {
                            unreachable!("in the race");
                        };
                        Some(self.verdict(*race))
                    }
                }
            }
            Stage::Done => None,
        }
    }

    /// The decision from its race.
    fn verdict(&self, race: Race<G>) -> Judged {
        let compared = race.moves.len();
        let (kept, values) = race.racer.finish();
        let kept_moves: Vec<G::Move> = kept.iter().map(|&c| race.moves[c]).collect();
        let played_at = kept
            .iter()
            .position(|&c| c == race.played_at)
            .expect("kept");
        let v = judge(&values, played_at, compared);
        let samples = values[played_at].len() as u32;
        let best = kept_moves[v.best];
        let (game, played) = (&self.game, self.played);
        let decision = Decision {
            ply: self.ply,
            seat: self.seat.0,
            stage: game.stage_number(),
            played: played.to_string(),
            best: best.to_string(),
            played_move: move_form(game, &played),
            best_move: move_form(game, &best),
            played_points: v.means[played_at],
            // The played move's worth plus the loss: the best candidate's mean, less the luck
            // of having been picked as the best (the shrinking of the loss, see `judge`).
            best_points: v.means[played_at] + v.lost,
            lost: v.lost,
            lost_low: v.low,
            lost_high: v.high,
            flag: v.flag,
            candidates: compared,
            samples,
        };
        Judged {
            decision,
            played_at,
            values,
        }
    }

    /// The whole judgement at once.
    pub fn run(mut self) -> Judged {
        loop {
            if let Some(judged) = self.step(u32::MAX) {
                return judged;
            }
        }
    }
}
