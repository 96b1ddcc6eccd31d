//! Bot levels by name (for the server and tools): the ladder, and a bot of a level for any
//! game type (the registry's `pyramidion_games::bots::choose_any` plays one in any registered
//! game).
//!
//! The ladder is data: [`LADDER`] names each level; the iteration budget of a search level in
//! a game comes from that game's descriptor (`bot_levels`). A level
//! is written either as a ladder name (`random`, `greedy`, `easy`, `medium`, `hard`, `max`) or
//! as a search budget spec `search:ITERATIONS`, or as a search spec (`crate::spec`): a search
//! base (a search level, `reference-2026-11`, `search:N`) and `+`-joined options such as
//! `max+worlds=8+reuse`. Unknown names are an error, never a silent fallback.
use crate::search::Search;
use crate::spec::{REFERENCE, SearchSpec, SpecBase, SpecOptions};
use crate::{Bot, Greedy, RandomBot};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{Rules, Seed};
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
    /// The frozen reference (`reference-2026-11`) or a search base with options.
    Spec(SearchSpec),
}

/// A level name that is neither a ladder name nor `search:N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown bot level '{0}' (random, greedy, easy, medium, hard, max, reference-2026-11, or search:ITERATIONS; a search level may add options: +worlds=K, +reuse, +horizon=H, +eps=E, +uniform, +c=M, +widen=M, +plies=P)"
)]
pub struct UnknownLevel(pub String);

impl BotLevel {
    /// The text that parses back to this level.
    pub fn name(self) -> Cow<'static, str> {
        match self {
            BotLevel::Random => Cow::Borrowed("random"),
            BotLevel::Greedy => Cow::Borrowed("greedy"),
            BotLevel::Ladder(i) => Cow::Borrowed(LADDER[i].name),
            BotLevel::Search(n) => Cow::Owned(format!("search:{n}")),
            BotLevel::Spec(spec) => Cow::Owned(spec.to_string()),
        }
    }

    /// The ladder rung this level is or starts from (`max` of `max+reuse`); `None` for a
    /// level whose budget is explicit or the reference's, which fit every game.
    pub fn rung(self) -> Option<&'static str> {
        match self {
            BotLevel::Random => Some("random"),
            BotLevel::Greedy => Some("greedy"),
            BotLevel::Ladder(i) => Some(LADDER[i].name),
            BotLevel::Spec(SearchSpec {
                base: SpecBase::Ladder(i),
                ..
            }) => Some(LADDER[i].name),
            BotLevel::Search(_) | BotLevel::Spec(_) => None,
        }
    }

    /// The search spec a searching level plays (`None`: random, greedy).
    pub fn spec(self) -> Option<SearchSpec> {
        let base = match self {
            BotLevel::Random | BotLevel::Greedy => return None,
            BotLevel::Ladder(i) => SpecBase::Ladder(i),
            BotLevel::Search(n) => SpecBase::Iterations(n),
            BotLevel::Spec(spec) => return Some(spec),
        };
        Some(SearchSpec {
            base,
            options: SpecOptions::default(),
        })
    }

    /// Every ladder name, weakest first.
    pub fn names() -> Vec<&'static str> {
        LADDER.iter().map(|l| l.name).collect()
    }

    /// Search iterations per decision in the game of `descriptor`; `None` for random and
    /// greedy, and for a ladder level the game does not list.
    pub fn iterations(self, descriptor: &GameDescriptor) -> Option<u32> {
        self.spec()?.iterations(descriptor)
    }

    /// A bot of this level for game `G`, seeded.
    pub fn make<G: Rules>(self, seed: Seed) -> Box<dyn Bot<G>> {
        match self {
            BotLevel::Random => Box::new(RandomBot::<G::Move>::new(seed)),
            BotLevel::Greedy => Box::new(Greedy::new(seed)),
            _ => {
                let spec = self.spec().expect("a searching level has a spec");
                // A level the game does not list searches with the smallest budget it lists.
                let iterations = spec.iterations(G::DESCRIPTOR).unwrap_or_else(|| {
                    G::DESCRIPTOR
                        .bot_levels
                        .iter()
                        .map(|l| l.iterations)
                        .find(|n| *n > 0)
                        .unwrap_or(1)
                });
                Box::new(Search::<G>::new(spec.config(iterations), seed))
            }
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A level is written as its name (as the server shows and stores it), which parses back.
impl serde::Serialize for BotLevel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl FromStr for BotLevel {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unknown = || UnknownLevel(s.to_string());
        let (name, options) = match s.find('+') {
            Some(at) => (&s[..at], Some(&s[at..])),
            None => (s, None),
        };
        let level = if let Some(budget) = name.strip_prefix("search:") {
            let n: u32 = budget.parse().map_err(|_| unknown())?;
            if n == 0 || n > 10_000_000 {
                return Err(unknown());
            }
            BotLevel::Search(n)
        } else if name == REFERENCE {
            BotLevel::Spec(SearchSpec {
                base: SpecBase::Reference,
                options: SpecOptions::default(),
            })
        } else {
            let i = LADDER
                .iter()
                .position(|l| l.name == name)
                .ok_or_else(unknown)?;
            match LADDER[i].strength {
                Strength::Random => BotLevel::Random,
                Strength::Greedy => BotLevel::Greedy,
                Strength::Search => BotLevel::Ladder(i),
            }
        };
        let Some(options) = options else {
            return Ok(level);
        };
        // Options only on a searching base, and at least one (`max+` is not a name).
        let base = level.spec().ok_or_else(unknown)?.base;
        let options = SearchSpec::parse_options(options)
            .filter(|o| *o != SpecOptions::default())
            .ok_or_else(unknown)?;
        Ok(BotLevel::Spec(SearchSpec { base, options }))
    }
}

/// A bot of the level named `name` for game `G` (ladder name or `search:N`).
pub fn bot_for<G: Rules>(name: &str, seed: Seed) -> Result<Box<dyn Bot<G>>, UnknownLevel> {
    Ok(name.parse::<BotLevel>()?.make::<G>(seed))
}
