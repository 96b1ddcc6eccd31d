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
use crate::search::{Search, Thinking};
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
            _ => Box::new(self.search::<G>(seed).expect("a searching level searches")),
        }
    }

    /// The search bot of a searching level for game `G`, seeded; `None` for random and greedy.
    fn search<G: Rules>(self, seed: Seed) -> Option<Search<G>> {
        let spec = self.spec()?;
        // A level the game does not list searches with the smallest budget it lists.
        let iterations = spec.iterations(G::DESCRIPTOR).unwrap_or_else(|| {
            G::DESCRIPTOR
                .bot_levels
                .iter()
                .map(|l| l.iterations)
                .find(|n| *n > 0)
                .unwrap_or(1)
        });
        Some(Search::<G>::new(spec.config(iterations), seed))
    }

    /// This level's decision in `game` (whose seat to move must be a seat), to be made in
    /// slices ([`Deciding::step`]): the same move as [`BotLevel::make`]'s bot chooses.
    pub fn decide<G: Rules>(self, seed: Seed, game: &G) -> Deciding<G> {
        match self.search::<G>(seed) {
            Some(search) => Deciding::Thinking(Box::new(Thinking::new(search, game))),
            // Random and greedy take milliseconds: no slices.
            None => Deciding::Chosen(self.make::<G>(seed).choose(game)),
        }
    }
}

/// A bot's decision under way (see [`BotLevel::decide`]).
pub enum Deciding<G: Rules> {
    Chosen(G::Move),
    Thinking(Box<Thinking<G>>),
}

impl<G: Rules> Deciding<G> {
    /// Thinks at most `iterations` more search iterations; the move once it is chosen.
    pub fn step(&mut self, iterations: u32) -> Option<G::Move> {
        match self {
            Deciding::Chosen(m) => Some(*m),
            Deciding::Thinking(t) => t.step(iterations),
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

#[cfg(test)]
mod sliced_tests {
    use super::*;
    use crate::seed::decision_seed;
    use pyramidion_core::{GameRng, ToMove};

    trait Count {
        fn legal_moves_count(&self) -> usize;
    }

    impl<G: Rules> Count for G {
        fn legal_moves_count(&self) -> usize {
            let mut v = Vec::new();
            self.legal_moves(&mut v);
            v.len()
        }
    }

    /// A decision made in slices of any size plays the move the bot plays in one go: the
    /// server's pool may cut a search wherever it likes without changing the game.
    #[test]
    fn a_decision_in_slices_is_the_one_made_at_once() {
        use pyramidion_treasures::Game as Ttt;
        for seed in 0..6u64 {
            let mut game = Ttt::new(&Default::default(), seed).expect("a game");
            let mut rng = GameRng::from_seed(seed);
            let mut legal = Vec::new();
            // A few random moves first, so that the decisions differ.
            for _ in 0..rng.below(12) {
                game.legal_moves(&mut legal);
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len() as u32) as usize];
                game.play(&m).expect("legal");
            }
            if !matches!(game.to_move(), ToMove::Seat(_)) {
                continue;
            }
            for level in ["search:120", "search:40+worlds=4"] {
                let level: BotLevel = level.parse().expect("a level");
                let bot_seed = decision_seed(seed, 7);
                let at_once = level.make::<Ttt>(bot_seed).choose(&game);
                for slice in [1, 7, 50] {
                    let mut deciding = level.decide::<Ttt>(bot_seed, &game);
                    let mut steps = 0;
                    let sliced = loop {
                        steps += 1;
                        if let Some(m) = deciding.step(slice) {
                            break m;
                        }
                    };
                    assert_eq!(sliced, at_once, "seed {seed}, {level}, slices of {slice}");
                    if slice == 1 && game.legal_moves_count() > 1 {
                        assert!(steps > 2, "it was sliced: {steps} steps");
                    }
                }
            }
        }
    }
}
