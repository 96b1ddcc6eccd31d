//! Bots in any registered game: `pyramidion_ai`'s levels, which are generic over the rules
//! trait and name no game, playing the game an [`AnyGame`] holds.
use crate::{AnyGame, with_game};
use pyramidion_ai::level::{BotLevel, Deciding};
use pyramidion_core::Rules;

fn pick<G: Rules>(game: &G, level: BotLevel, seed: u64) -> String {
    level.make::<G>(seed).choose(game).to_string()
}

/// The move (as text) a bot of `level` plays in `game`, whose seat to move must be a seat.
pub fn choose_any(game: &AnyGame, level: BotLevel, seed: u64) -> String {
    with_game!(game, g => pick(g.as_ref(), level, seed))
}

/// A bot's decision in any registered game, made in slices
/// (`pyramidion_ai::level::Deciding`): the server's bot pool runs a search a slice at a time,
/// sharing its threads between slices.
pub struct AnyDeciding(Box<dyn Step + Send>);

trait Step {
    fn step(&mut self, iterations: u32) -> Option<String>;
}

impl<G: Rules> Step for Deciding<G> {
    fn step(&mut self, iterations: u32) -> Option<String> {
        Deciding::step(self, iterations).map(|m| m.to_string())
    }
}

impl AnyDeciding {
    /// Starts `level`'s decision in `game`, whose seat to move must be a seat.
    pub fn new(game: &AnyGame, level: BotLevel, seed: u64) -> Self {
        with_game!(game, g => AnyDeciding(Box::new(level.decide(seed, g.as_ref()))))
    }

    /// Thinks at most `iterations` more search iterations; the move (as text) once chosen,
    /// the same as [`choose_any`]'s.
    pub fn step(&mut self, iterations: u32) -> Option<String> {
        self.0.step(iterations)
    }
}
