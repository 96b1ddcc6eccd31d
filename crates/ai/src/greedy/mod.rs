//! Greedy bots: the best immediate gain, game by game (one file per game).
use crate::Bot;
use pyramidion_core::{GameRng, Outcome, Rules, Seed};

mod pyramido;
mod pyramids;
mod treasures;

/// One greedy bot type; each game implements `Bot<ThatGame>` for it in its own module.
pub struct Greedy {
    /// Breaks ties between equally good moves.
    pub rng: GameRng,
}

impl Greedy {
    pub fn new(seed: Seed) -> Self {
        Greedy {
            rng: GameRng::from_seed(seed),
        }
    }
}

/// The greedy bot's preference among some of a position's legal moves: the order in which
/// the search bot widens a node (its best untried move next, rather than a random one, so
/// that a node with 50 placements spends its few visits on the likely ones).
pub trait Favourite<G: Rules>: Bot<G> {
    /// The move of `candidates` (legal in `game`, not empty) this policy ranks first, ties
    /// broken with its own RNG; `None` when it has no opinion (the search then draws one).
    fn favourite(&mut self, game: &G, candidates: &[G::Move]) -> Option<G::Move>;

    /// Where a playout that started at `root` may stop before the game's end, and the
    /// outcome it would then count: `Some` once `stages` stage ends have passed since `root`,
    /// in a game whose stage ends score every player (the points already banked then rank
    /// the seats). `None` plays on. Games whose playouts are short enough keep the default:
    /// a cut is an estimate, and a finished game is exact.
    fn horizon(&self, _root: &G, _state: &G, _stages: u8) -> Option<Outcome> {
        None
    }
}
