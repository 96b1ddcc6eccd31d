//! Uniform choice among the legal moves.
use crate::Bot;
use pyramidion_core::{GameRng, Rules, Seed};

pub struct RandomBot {
    rng: GameRng,
    buffer: Vec<u8>,
}

impl RandomBot {
    pub fn new(seed: Seed) -> Self {
        RandomBot {
            rng: GameRng::from_seed(seed),
            buffer: Vec::new(),
        }
    }
}

impl<G: Rules> Bot<G> for RandomBot {
    fn choose(&mut self, game: &G) -> G::Move {
        // Reuse one allocation across calls: moves are small `Copy` values.
        let mut moves: Vec<G::Move> = Vec::with_capacity(self.buffer.capacity() / size_of::<G::Move>().max(1));
        game.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "RandomBot asked to move with no legal move");
        let m = moves[self.rng.below(moves.len() as u32) as usize];
        let _ = &mut self.buffer;
        m
    }
}
