//! Finding the deals of tutorial steps (issue 48): a lesson's point is visible only on some
//! deals (a marker choice that matters, a placement that grows a marked area). This walks
//! games of the greedy bot from a range of seeds and returns the first position of the kind
//! wanted where the step's measure separates the moves: few moves reach the best value and
//! another legal move misses at least a given number of points. The game crates run it from
//! an example (`cargo run -p <crate> --example tutorial_deals`) and freeze what it finds in
//! their tutorial data, which their tests replay.
use crate::rules::Rules;
use crate::tutorial::Gain;
use crate::{GameRng, Seed, ToMove};

/// A position found for a step: the deal, the moves to it, and how its legal moves fare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub seed: Seed,
    pub prefix: Vec<String>,
    pub seat: u8,
    /// The legal moves reaching the best value (the step's accepted moves).
    pub accepted: Vec<String>,
    pub best: i32,
    /// The worst legal move and what it misses.
    pub worst: (String, i32),
}

/// What [`find`] looks for.
pub struct Wanted<'a, G: Rules> {
    pub options: &'a G::Options,
    pub seeds: std::ops::Range<Seed>,
    /// The longest prefix searched in each game.
    pub max_plies: u32,
    /// Which positions are of the step's kind (e.g. a marker choice in stage 1).
    pub kind: &'a dyn Fn(&G) -> bool,
    pub gain: Gain<G>,
    /// At most this many accepted moves.
    pub max_accepted: usize,
    /// At least this many points missed by the worst legal move.
    pub min_missed: i32,
    /// Whether the moves reaching the best value make the step's point (e.g. a resurfacing
    /// step whose best move is not to resurface teaches nothing about resurfacing).
    pub teaches: &'a dyn Fn(&[String]) -> bool,
}

/// The first position (by seed, then ply) matching `wanted`, if any.
pub fn find<G: Rules>(wanted: &Wanted<'_, G>) -> Option<Found> {
    let mut legal = Vec::new();
    for seed in wanted.seeds.clone() {
        let Ok(mut game) = G::new(wanted.options, seed) else {
            continue;
        };
        let mut rng = GameRng::from_seed(seed ^ 0x7u64);
        let mut prefix: Vec<String> = Vec::new();
        while game.ply() < wanted.max_plies {
            let ToMove::Seat(seat) = game.to_move() else {
                break;
            };
            game.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            if (wanted.kind)(&game)
                && let Some(found) = judge(&game, &legal, wanted, seed, &prefix, seat.0)
            {
                return Some(found);
            }
            let m = game
                .greedy_move(&mut rng)
                .unwrap_or_else(|| legal[rng.below(legal.len() as u32) as usize]);
            prefix.push(m.to_string());
            game.play_unchecked(&m);
        }
    }
    None
}

fn judge<G: Rules>(
    game: &G,
    legal: &[G::Move],
    wanted: &Wanted<'_, G>,
    seed: Seed,
    prefix: &[String],
    seat: u8,
) -> Option<Found> {
    let values: Vec<i32> = legal
        .iter()
        .map(|m| {
            let mut after = game.clone();
            after.play_unchecked(m);
            (wanted.gain.measure)(&after, crate::Seat(seat))
        })
        .collect();
    let best = *values.iter().max()?;
    let (worst_index, worst) = values.iter().enumerate().min_by_key(|(_, v)| **v)?;
    let accepted: Vec<String> = legal
        .iter()
        .zip(&values)
        .filter(|(_, v)| **v == best)
        .map(|(m, _)| m.to_string())
        .collect();
    let fits = accepted.len() <= wanted.max_accepted
        && best - worst >= wanted.min_missed
        && (wanted.teaches)(&accepted);
    fits.then(|| Found {
        seed,
        prefix: prefix.to_vec(),
        seat,
        accepted,
        best,
        worst: (legal[worst_index].to_string(), best - worst),
    })
}
