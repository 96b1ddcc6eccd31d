//! Test players over the rules trait alone: the game's own greedy policy (its
//! [`pyramidion_core::BotHooks::greedy_move`] hook) and a uniform player. The bots' crate sits
//! above the games, so a game's own tests play with these instead.
use pyramidion_core::{GameRng, Rules, Seed};

/// Plays the game's greedy policy, ties broken with its own seeded RNG.
pub struct GreedyPlayer {
    pub rng: GameRng,
}

impl GreedyPlayer {
    pub fn new(seed: Seed) -> Self {
        GreedyPlayer {
            rng: GameRng::from_seed(seed),
        }
    }

    /// The greedy move of the seat to move; panics if the game offers no greedy policy.
    pub fn choose<G: Rules>(&mut self, game: &G) -> G::Move {
        game.greedy_move(&mut self.rng)
            .expect("the game offers a greedy policy")
    }
}

/// Plays uniformly among the legal moves, seeded.
pub struct RandomPlayer<M> {
    rng: GameRng,
    moves: Vec<M>,
}

impl<M> RandomPlayer<M> {
    pub fn new(seed: Seed) -> Self {
        RandomPlayer {
            rng: GameRng::from_seed(seed),
            moves: Vec::new(),
        }
    }

    pub fn choose<G: Rules<Move = M>>(&mut self, game: &G) -> M {
        let rng = &mut self.rng;
        game.pick_legal_move(&mut self.moves, |n| rng.below(n as u32) as usize)
            .expect("a seat to move has a legal move")
    }
}
