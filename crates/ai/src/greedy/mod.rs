//! Greedy bots: the best immediate gain, game by game (one file per game).
use pyramidion_core::{GameRng, Seed};

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
