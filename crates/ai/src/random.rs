//! Uniform choice among the legal moves.
use crate::Bot;
use pyramidion_core::{GameRng, Rules, Seed};

/// `M` is the game's move type; the bot keeps one move buffer across calls.
pub struct RandomBot<M> {
    rng: GameRng,
    moves: Vec<M>,
}

impl<M> RandomBot<M> {
    pub fn new(seed: Seed) -> Self {
        RandomBot {
            rng: GameRng::from_seed(seed),
            moves: Vec::new(),
        }
    }
}

impl<G: Rules> Bot<G> for RandomBot<G::Move> {
    fn choose(&mut self, game: &G) -> G::Move {
        game.legal_moves(&mut self.moves);
        assert!(
            !self.moves.is_empty(),
            "RandomBot asked to move with no legal move"
        );
        self.moves[self.rng.below(self.moves.len() as u32) as usize]
    }
}
