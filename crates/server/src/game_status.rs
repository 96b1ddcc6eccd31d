//! Where a table is in its life, as the `games.status` column stores it and the API shows it.
use serde::Serialize;

/// `open` (waiting for players) → `live` → `finished`; an open table may be `abandoned`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    Open,
    Live,
    Finished,
    Abandoned,
}

impl GameStatus {
    pub const ALL: [GameStatus; 4] = [
        GameStatus::Open,
        GameStatus::Live,
        GameStatus::Finished,
        GameStatus::Abandoned,
    ];

    /// The stored (and shown) text.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
        }
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Compared with its text, as the API shows it.
impl PartialEq<&str> for GameStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A `games.status` value the server does not know: the database was written by another
/// version, or edited by hand.
#[derive(Debug, thiserror::Error)]
#[error("unknown game status `{0}`")]
pub struct UnknownStatus(pub String);

impl std::str::FromStr for GameStatus {
    type Err = UnknownStatus;
    fn from_str(s: &str) -> Result<Self, UnknownStatus> {
        GameStatus::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::GameStatus;

    #[test]
    fn statuses_read_back_as_they_are_stored_and_shown() {
        for status in GameStatus::ALL {
            assert_eq!(status.as_str().parse::<GameStatus>().unwrap(), status);
            assert_eq!(
                serde_json::to_value(status).unwrap(),
                serde_json::json!(status.as_str())
            );
        }
        assert!("claimed".parse::<GameStatus>().is_err());
    }
}
