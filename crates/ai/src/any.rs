//! Bots for any registered game, by level name (for the server and tools).
use crate::{Bot, Greedy, RandomBot};
use pyramidion_games::{AnyGame, with_game};
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotLevel {
    Random,
    Greedy,
}

impl BotLevel {
    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
        }
    }
}

impl FromStr for BotLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "random" => Ok(BotLevel::Random),
            "greedy" => Ok(BotLevel::Greedy),
            other => Err(format!("unknown bot level '{other}' (random, greedy)")),
        }
    }
}

fn pick<G: pyramidion_core::Rules>(game: &G, level: BotLevel, seed: u64) -> String
where
    Greedy: Bot<G>,
{
    match level {
        BotLevel::Random => RandomBot::<G::Move>::new(seed).choose(game).to_string(),
        BotLevel::Greedy => Greedy::new(seed).choose(game).to_string(),
    }
}

/// The move (as text) a bot of `level` plays in `game`, whose seat to move must be a seat.
pub fn choose_any(game: &AnyGame, level: BotLevel, seed: u64) -> String {
    with_game!(game, g => pick(g.as_ref(), level, seed))
}
