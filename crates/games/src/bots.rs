//! Bots in any registered game: `pyramidion_ai`'s levels, which are generic over the rules
//! trait and name no game, playing the game an [`AnyGame`] holds.
use crate::{AnyGame, with_game};
use pyramidion_ai::level::BotLevel;
use pyramidion_core::Rules;

fn pick<G: Rules>(game: &G, level: BotLevel, seed: u64) -> String {
    level.make::<G>(seed).choose(game).to_string()
}

/// The move (as text) a bot of `level` plays in `game`, whose seat to move must be a seat.
pub fn choose_any(game: &AnyGame, level: BotLevel, seed: u64) -> String {
    with_game!(game, g => pick(g.as_ref(), level, seed))
}
