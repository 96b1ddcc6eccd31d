//! Uniform choice among the legal moves.
use crate::Bot;
use pyramidion_core::{GameRng, Rules, Seed};

/// `M` is the game's move type; the bot keeps one move buffer across calls (for games that
/// list their moves to pick one, see [`Rules::pick_legal_move`]).
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
        let rng = &mut self.rng;
        game.pick_legal_move(&mut self.moves, |n| rng.below(n as u32) as usize)
            .expect("RandomBot asked to move with no legal move")
    }
}
