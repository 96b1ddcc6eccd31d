use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The games the platform knows, with their stable keys (used in URLs, records, the CLI).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    #[serde(rename = "forgotten-treasures")]
    ForgottenTreasures,
    #[serde(rename = "pyramido")]
    Pyramido,
    #[serde(rename = "pyramids")]
    Pyramids,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [
        GameKind::ForgottenTreasures,
        GameKind::Pyramido,
        GameKind::Pyramids,
    ];

    pub fn key(self) -> &'static str {
        match self {
            GameKind::ForgottenTreasures => "forgotten-treasures",
            GameKind::Pyramido => "pyramido",
            GameKind::Pyramids => "pyramids",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (known: forgotten-treasures, pyramido, pyramids)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.key() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}
