//! The options of a Pyramido game.
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// 2 to 4.
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
