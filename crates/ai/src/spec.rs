//! A search bot written as text: a base (a ladder level, the frozen reference, or an explicit
//! budget) and options that change one knob of the search each, joined by `+`:
//! `reference-2026-11+worlds=8`, `max+reuse`, `search:300+worlds=4+reuse`.
//!
//! Why text: every lever is measured against the reference in one `arena` run
//! (`--bots reference-2026-11+worlds=8,reference-2026-11`), and a level is one more spec, not
//! one more code path. `+` (not `,`) joins the options because `--bots` lists bots with commas.
//! Every field is an integer so that a spec is `Eq` and `Copy` like the level it extends, and
//! prints back to the text it was parsed from (options in one canonical order).
use crate::search::{Playout, SearchConfig};
use pyramidion_core::descriptor::GameDescriptor;
use std::fmt;

/// The name of the reference configuration: `max` as it stood in November 2026 (1,000
/// iterations in both Pyramido games, 5,000 in Pyramids: the descriptor's
/// `reference_iterations`), with every knob at [`SearchConfig::default`]'s value.
pub const REFERENCE: &str = "reference-2026-11";

/// What a spec starts from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpecBase {
    /// A search rung of the ladder, by index in [`crate::level::LADDER`]: the game's budget.
    Ladder(usize),
    /// [`REFERENCE`]: the game's `reference_iterations`.
    Reference,
    /// `search:N`.
    Iterations(u32),
}

/// A base and the knobs it changes; `None`/`false`: the base's (the reference's) value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpecOptions {
    /// `worlds=K`: the decision draws K determinisations once and cycles through them
    /// (iteration i searches world i mod K), so every chance event the tree meets (a reveal,
    /// a draw, the hidden hands) has at most K outcomes; 0 or absent: a fresh determinisation
    /// every iteration (the reference).
    pub worlds: Option<u32>,
    /// `reuse`: keep the subtree of the moves played since the seat's last decision, when
    /// every one of them is public to the seat (one bot per seat for a whole game: `sim`,
    /// `arena`; the server asks a fresh bot each move, where it changes nothing).
    pub reuse: bool,
    /// `horizon=H`: stage ends after which a playout stops (0: to the end).
    pub horizon: Option<u8>,
    /// `eps=E`: per mille of uniform random moves in greedy playouts.
    pub epsilon: Option<u32>,
    /// `uniform`: uniform playouts (plain MCTS).
    pub uniform: bool,
    /// `c=M`: UCB1 exploration constant, in thousandths.
    pub exploration_milli: Option<u32>,
    /// `widen=M`: progressive widening factor, in thousandths.
    pub widening_milli: Option<u32>,
    /// `plies=P`: simulated moves per iteration of the budget, at most (the move cap).
    pub plies: Option<u32>,
}

/// A search bot's full description.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SearchSpec {
    pub base: SpecBase,
    pub options: SpecOptions,
}

impl SearchSpec {
    /// Iterations per decision in the game of `descriptor`; `None` for a ladder level the game
    /// does not list.
    pub fn iterations(&self, descriptor: &GameDescriptor) -> Option<u32> {
        match self.base {
            SpecBase::Ladder(i) => descriptor
                .bot_level(crate::level::LADDER[i].name)
                .map(|l| l.iterations)
                .filter(|n| *n > 0),
            SpecBase::Reference => Some(descriptor.reference_iterations).filter(|n| *n > 0),
            SpecBase::Iterations(n) => Some(n),
        }
    }

    /// The search configuration this spec plays with `iterations` per decision.
    pub fn config(&self, iterations: u32) -> SearchConfig {
        let o = &self.options;
        let d = SearchConfig::default();
        let random_per_mille = match d.playout {
            Playout::Greedy { random_per_mille } => random_per_mille,
            Playout::Uniform => 0,
        };
        SearchConfig {
            iterations,
            exploration: o
                .exploration_milli
                .map_or(d.exploration, |m| f64::from(m) / 1000.0),
            playout: if o.uniform {
                Playout::Uniform
            } else {
                Playout::Greedy {
                    random_per_mille: o.epsilon.unwrap_or(random_per_mille),
                }
            },
            widening: o
                .widening_milli
                .map_or(d.widening, |m| f64::from(m) / 1000.0),
            plies_per_iteration: o.plies.unwrap_or(d.plies_per_iteration),
            horizon_stages: o.horizon.unwrap_or(d.horizon_stages),
            worlds: o.worlds.unwrap_or(d.worlds),
            reuse: o.reuse || d.reuse,
            ..d
        }
    }

    /// Reads the options after the base (`+worlds=8+reuse`); `None` on anything unknown.
    pub fn parse_options(text: &str) -> Option<SpecOptions> {
        let mut o = SpecOptions::default();
        for part in text.split('+').filter(|p| !p.is_empty()) {
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (part, None),
            };
            let number =
                |max: u32| -> Option<u32> { value?.parse::<u32>().ok().filter(|n| *n <= max) };
            match (key, value) {
                ("worlds", _) => o.worlds = Some(number(100_000)?),
                ("reuse", None) => o.reuse = true,
                ("horizon", _) => o.horizon = Some(number(u32::from(u8::MAX))? as u8),
                ("eps", _) => o.epsilon = Some(number(1000)?),
                ("uniform", None) => o.uniform = true,
                ("c", _) => o.exploration_milli = Some(number(100_000)?),
                ("widen", _) => o.widening_milli = Some(number(100_000)?),
                ("plies", _) => o.plies = Some(number(1_000_000)?.max(1)),
                _ => return None,
            }
        }
        Some(o)
    }
}

impl fmt::Display for SpecOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = self.worlds {
            write!(f, "+worlds={k}")?;
        }
        if self.reuse {
            f.write_str("+reuse")?;
        }
        if let Some(h) = self.horizon {
            write!(f, "+horizon={h}")?;
        }
        if let Some(e) = self.epsilon {
            write!(f, "+eps={e}")?;
        }
        if self.uniform {
            f.write_str("+uniform")?;
        }
        if let Some(c) = self.exploration_milli {
            write!(f, "+c={c}")?;
        }
        if let Some(w) = self.widening_milli {
            write!(f, "+widen={w}")?;
        }
        if let Some(p) = self.plies {
            write!(f, "+plies={p}")?;
        }
        Ok(())
    }
}

impl fmt::Display for SearchSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base {
            SpecBase::Ladder(i) => f.write_str(crate::level::LADDER[i].name)?,
            SpecBase::Reference => f.write_str(REFERENCE)?,
            SpecBase::Iterations(n) => write!(f, "search:{n}")?,
        }
        self.options.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_option_is_the_reference_configuration() {
        let spec = SearchSpec {
            base: SpecBase::Reference,
            options: SpecOptions::default(),
        };
        assert_eq!(spec.config(1000), SearchConfig::default());
        assert_eq!(spec.config(77), SearchConfig::with_iterations(77));
    }

    #[test]
    fn options_change_their_knob_only() {
        let o =
            SearchSpec::parse_options("+worlds=8+reuse+horizon=3+eps=50+c=900+widen=1500+plies=40")
                .unwrap();
        let config = SearchSpec {
            base: SpecBase::Iterations(10),
            options: o,
        }
        .config(10);
        assert_eq!(config.worlds, 8);
        assert!(config.reuse);
        assert_eq!(config.horizon_stages, 3);
        assert_eq!(
            config.playout,
            Playout::Greedy {
                random_per_mille: 50
            }
        );
        assert_eq!(config.exploration, 0.9);
        assert_eq!(config.widening, 1.5);
        assert_eq!(config.plies_per_iteration, 40);
        assert_eq!(config.margin_weight, SearchConfig::default().margin_weight);
        for bad in [
            "+worlds",
            "+worlds=x",
            "+reuse=1",
            "+eps=1001",
            "+bogus",
            "+horizon=300",
        ] {
            assert_eq!(SearchSpec::parse_options(bad), None, "{bad}");
        }
    }
}
