//! The options of a Pyramids game.
use serde::{Deserialize, Serialize};

/// Game options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// 2 to 5.
    pub players: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { players: 2 }
    }
}

impl Options {
    pub fn players(players: u8) -> Options {
        Options { players }
    }
}
