//! Options for a game whose only option is its player count (Pyramido, Pyramids): one type,
//! so the games that have nothing else to choose share one definition and one JSON form.
use serde::{Deserialize, Serialize};

/// `{"players": n}`; a missing `players` means 2, and an unknown field is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayerCount {
    /// Checked against the game's seat range by its `Rules::new`.
    pub players: u8,
}

impl Default for PlayerCount {
    fn default() -> Self {
        PlayerCount { players: 2 }
    }
}

impl PlayerCount {
    pub fn players(players: u8) -> PlayerCount {
        PlayerCount { players }
    }
}
