//! Every game of the platform behind one registry.
//!
//! [`registry!`] below is the only place that lists the games: one line each. The kind enum
//! ([`GameKind`]), the boxed union ([`AnyGame`]), the crate re-exports and [`dispatch!`] are
//! generated from it. [`AnyGame`] is the text/JSON face of a game for the server and tools:
//! options, moves and views travel as JSON or move text, errors as stable codes. Code that
//! wants the concrete types (simulation, bots) dispatches on the kind with [`dispatch!`].
#![forbid(unsafe_code)]

pub mod analysis;
mod any;
pub mod bots;
pub mod sampler;
pub mod tutorial;

pub use any::{AnyGame, GameError, MoveInfo, PlayedMove};
pub use pyramidion_core::descriptor::GameDescriptor;

use pyramidion_core::Rules;
use std::fmt;
use std::str::FromStr;

/// THE registry: one line per game — its [`GameKind`] variant, the module it is re-exported
/// as, and its crate's game type (`<crate>::Game`). Calls `$callback!` with the list (variant,
/// module, crate) after the given arguments: `registry!([callback] args…)`. The line names
/// `<crate>::Game` so that cargo-machete, which reads the source as text, sees the crate used
/// without a list of its own (a new game adds this line and its crate's dependency, nothing
/// else: docs/adding-a-game.md, checked by `scripts/new-game-check`).
#[doc(hidden)]
#[macro_export]
macro_rules! registry {
    ([$($callback:tt)*] $($args:tt)*) => {
        $crate::__with_optional_games! { [$($callback)*] ($($args)*)
            ForgottenTreasures treasures pyramidion_treasures::Game,
            Pyramido pyramido pyramidion_pyramido::Game,
            Pyramids pyramids pyramidion_pyramids::Game,
        }
    };
}

/// The games registered only with a cargo feature of this crate, appended to the list. The
/// feature is decided here, where this macro is defined, not in the crate that expands
/// [`registry!`] (a `#[cfg]` inside the list would be read with that crate's features).
#[cfg(feature = "tic-tac-toe")]
#[doc(hidden)]
#[macro_export]
macro_rules! __with_optional_games {
    ([$($callback:tt)*] ($($args:tt)*) $($variant:ident $module:ident $krate:ident::Game,)*) => {
        $crate::__games! { [$($callback)*] ($($args)*) $($variant $module $krate::Game,)*
            TicTacToe tictactoe pyramidion_tictactoe::Game,
        }
    };
}

#[cfg(not(feature = "tic-tac-toe"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __with_optional_games {
    ([$($callback:tt)*] ($($args:tt)*) $($games:tt)*) => {
        $crate::__games! { [$($callback)*] ($($args)*) $($games)* }
    };
}

/// Hands the registry's lines to `$callback!` as `variant module crate,` triples.
#[doc(hidden)]
#[macro_export]
macro_rules! __games {
    ([$($callback:tt)*] ($($args:tt)*) $($variant:ident $module:ident $krate:ident::Game,)*) => {
        $($callback)*! { ($($args)*) $($variant $module $krate,)* }
    };
}

/// Runs `$body` with `$G` bound to the concrete game type of `$kind` (a [`GameKind`]).
#[macro_export]
macro_rules! dispatch {
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::registry!([$crate::__dispatch_arms] $kind, $G, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch_arms {
    (($kind:expr, $G:ident, $body:expr) $($variant:ident $module:ident $krate:ident,)*) => {
        match $kind {
            $($crate::GameKind::$variant => {
                type $G = $crate::$module::Game;
                $body
            })*
        }
    };
}

macro_rules! define_games {
    (() $($variant:ident $module:ident $krate:ident,)*) => {
        $(pub use $krate as $module;)*

        /// The games of this build, generated from [`registry!`]. Their stable keys (URLs,
        /// records, the CLI) come from their descriptors.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($variant,)*
        }

        impl GameKind {
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant,)*];

            pub fn descriptor(self) -> &'static GameDescriptor {
                match self {
                    $(GameKind::$variant => <$module::Game as Rules>::DESCRIPTOR,)*
                }
            }
        }
    };
}

registry!([define_games]);

impl GameKind {
    pub fn key(self) -> &'static str {
        self.descriptor().key
    }

    /// Every registered game's descriptor, in registry order (what `GET /api/games` serves).
    pub fn descriptors() -> Vec<&'static GameDescriptor> {
        GameKind::ALL.iter().map(|k| k.descriptor()).collect()
    }

    /// The keys of every registered game (for `--help` texts and error messages).
    pub fn keys() -> Vec<&'static str> {
        GameKind::ALL.iter().map(|k| k.key()).collect()
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (known: {known})", known = GameKind::keys().join(", "))]
pub struct UnknownGame(pub String);

impl pyramidion_core::ErrorCode for UnknownGame {
    fn code(&self) -> &'static str {
        "unknown_game"
    }
}

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.key() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        key.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each registered game once, under a key of its own that names it in URLs and records
    /// (lower-case words joined by `-`), and found by that key. The list itself is the
    /// registry's: a test that pinned it made every new game edit this file too.
    #[test]
    fn registry_lists_each_game_once_with_its_descriptor() {
        let keys = GameKind::keys();
        assert!(!keys.is_empty());
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "a key registered twice: {keys:?}");
        for kind in GameKind::ALL {
            let key = kind.key();
            let well_formed = key.split('-').all(|w| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
            assert!(well_formed, "key {key:?}");
            assert_eq!(key.parse::<GameKind>().unwrap(), *kind);
            let from_type = dispatch!(*kind, G => <G as Rules>::DESCRIPTOR.key);
            assert_eq!(from_type, key);
        }
        // The example game is registered exactly when its feature is on.
        assert_eq!(
            "tic-tac-toe".parse::<GameKind>().is_ok(),
            cfg!(feature = "tic-tac-toe")
        );
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("unknown game 'chess' (known: {})", keys.join(", "))
        );
    }
}
