//! The greedy bot: the best immediate gain, as the game itself defines it
//! ([`pyramidion_core::BotHooks::greedy_move`], in each game's crate: `heuristic.rs`). A game that
//! offers no greedy policy is played uniformly.
use crate::Bot;
use pyramidion_core::{GameRng, Rules, Seed};

/// The greedy bot of any game.
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

impl<G: Rules> Bot<G> for Greedy {
    fn choose(&mut self, game: &G) -> G::Move {
        if let Some(m) = game.greedy_move(&mut self.rng) {
            return m;
        }
        let rng = &mut self.rng;
        game.pick_legal_move(&mut Vec::new(), |n| rng.below(n as u32) as usize)
            .expect("Greedy asked to move with no legal move")
    }
}
