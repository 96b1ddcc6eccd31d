//! Bots for any registered game, by level name (for the server and tools).
//!
//! The ladder is data: [`LADDER`] names each level; the iteration budget of a search level in
//! a game comes from that game's descriptor (`bot_levels`). A level
//! is written either as a ladder name (`random`, `greedy`, `easy`, `medium`, `hard`, `max`) or
//! as a search budget spec `search:ITERATIONS`. Unknown names are an error, never a silent
//! fallback.
use crate::search::{Search, SearchConfig};
use crate::{Bot, Greedy, RandomBot};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{Rules, Seed};
use pyramidion_games::{AnyGame, with_game};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// What a ladder level plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    Random,
    Greedy,
    /// The search bot, with the iterations per decision the game's descriptor gives the level.
    Search,
}

/// One rung of the ladder.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub strength: Strength,
}

/// The ladder, weakest first. Budgets are per game (in each game's descriptor) because an
/// iteration costs a greedy playout to the end of the game: from the first position of a
/// 2-player game about 0.5 ms in Forgotten Treasures, 1 ms in Pyramido, 0.13 ms in Pyramids
/// (`pyramidion bench`, release build, one core of the 2-core build machine). `max` is sized
/// for 1 s per move.
pub const LADDER: &[Level] = &[
    Level {
        name: "random",
        strength: Strength::Random,
    },
    Level {
        name: "greedy",
        strength: Strength::Greedy,
    },
    Level {
        name: "easy",
        strength: Strength::Search,
    },
    Level {
        name: "medium",
        strength: Strength::Search,
    },
    Level {
        name: "hard",
        strength: Strength::Search,
    },
    Level {
        name: "max",
        strength: Strength::Search,
    },
];

/// A bot level: a rung of [`LADDER`] or an explicit search budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotLevel {
    Random,
    Greedy,
    /// A search rung of the ladder, by index in [`LADDER`] (its budget depends on the game).
    Ladder(usize),
    /// `search:N`: the search bot with N iterations per decision, whatever the game.
    Search(u32),
}

/// A level name that is neither a ladder name nor `search:N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot level '{0}' (random, greedy, easy, medium, hard, max, or search:ITERATIONS)")]
pub struct UnknownLevel(pub String);

impl BotLevel {
    /// The text that parses back to this level.
    pub fn name(self) -> Cow<'static, str> {
        match self {
            BotLevel::Random => Cow::Borrowed("random"),
            BotLevel::Greedy => Cow::Borrowed("greedy"),
            BotLevel::Ladder(i) => Cow::Borrowed(LADDER[i].name),
            BotLevel::Search(n) => Cow::Owned(format!("search:{n}")),
        }
    }

    /// Every ladder name, weakest first.
    pub fn names() -> Vec<&'static str> {
        LADDER.iter().map(|l| l.name).collect()
    }

    /// Search iterations per decision in the game of `descriptor`; `None` for random and
    /// greedy, and for a ladder level the game does not list.
    pub fn iterations(self, descriptor: &GameDescriptor) -> Option<u32> {
        match self {
            BotLevel::Random | BotLevel::Greedy => None,
            BotLevel::Ladder(i) => descriptor
                .bot_level(LADDER[i].name)
                .map(|l| l.iterations)
                .filter(|n| *n > 0),
            BotLevel::Search(n) => Some(n),
        }
    }

    /// A bot of this level for game `G`, seeded.
    pub fn make<G: Rules>(self, seed: Seed) -> Box<dyn Bot<G>> {
        match self {
            BotLevel::Random => Box::new(RandomBot::<G::Move>::new(seed)),
            BotLevel::Greedy => Box::new(Greedy::new(seed)),
            _ => {
                // A level the game does not list searches with the smallest budget it lists.
                let iterations = self.iterations(G::DESCRIPTOR).unwrap_or_else(|| {
                    G::DESCRIPTOR
                        .bot_levels
                        .iter()
                        .map(|l| l.iterations)
                        .find(|n| *n > 0)
                        .unwrap_or(1)
                });
                Box::new(Search::<G>::new(
                    SearchConfig::with_iterations(iterations),
                    seed,
                ))
            }
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for BotLevel {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unknown = || UnknownLevel(s.to_string());
        if let Some(budget) = s.strip_prefix("search:") {
            let n: u32 = budget.parse().map_err(|_| unknown())?;
            if n == 0 || n > 10_000_000 {
                return Err(unknown());
            }
            return Ok(BotLevel::Search(n));
        }
        let i = LADDER
            .iter()
            .position(|l| l.name == s)
            .ok_or_else(unknown)?;
        Ok(match LADDER[i].strength {
            Strength::Random => BotLevel::Random,
            Strength::Greedy => BotLevel::Greedy,
            Strength::Search => BotLevel::Ladder(i),
        })
    }
}

/// A bot of the level named `name` for game `G` (ladder name or `search:N`).
pub fn bot_for<G: Rules>(name: &str, seed: Seed) -> Result<Box<dyn Bot<G>>, UnknownLevel> {
    Ok(name.parse::<BotLevel>()?.make::<G>(seed))
}

fn pick<G: Rules>(game: &G, level: BotLevel, seed: u64) -> String {
    level.make::<G>(seed).choose(game).to_string()
}

/// The move (as text) a bot of `level` plays in `game`, whose seat to move must be a seat.
pub fn choose_any(game: &AnyGame, level: BotLevel, seed: u64) -> String {
    with_game!(game, g => pick(g.as_ref(), level, seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_is_an_error() {
        for name in BotLevel::names() {
            let level: BotLevel = name.parse().unwrap();
            assert_eq!(level.name(), name);
        }
        let spec: BotLevel = "search:5000".parse().unwrap();
        assert_eq!(spec, BotLevel::Search(5000));
        assert_eq!(spec.name(), "search:5000");
        for kind in pyramidion_games::GameKind::ALL {
            assert_eq!(spec.iterations(kind.descriptor()), Some(5000));
        }
        for bad in [
            "",
            "Greedy",
            "grandmaster",
            "search:",
            "search:0",
            "search:x",
        ] {
            assert_eq!(
                bad.parse::<BotLevel>(),
                Err(UnknownLevel(bad.to_string())),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_ladder_budgets_grow() {
        for kind in pyramidion_games::GameKind::ALL {
            // Every game's descriptor lists the whole ladder, in order.
            let listed: Vec<&str> = kind
                .descriptor()
                .bot_levels
                .iter()
                .map(|l| l.name)
                .collect();
            assert_eq!(listed, BotLevel::names(), "{kind}");
            let budgets: Vec<u32> = LADDER
                .iter()
                .filter_map(|l| {
                    l.name
                        .parse::<BotLevel>()
                        .unwrap()
                        .iterations(kind.descriptor())
                })
                .collect();
            assert!(budgets.len() >= 3);
            assert!(
                budgets.windows(2).all(|w| w[0] < w[1]),
                "{kind}: {budgets:?}"
            );
        }
    }
}
