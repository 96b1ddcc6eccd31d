//! Where a game's analysis is, as the `analyses.status` column stores it and the API shows it.
use serde::Serialize;

/// `queued` (asked for, running or waiting for the bot pool) → `done` or `failed`; `none`
/// only in the API, for a game nobody asked about (no row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    None,
    Queued,
    Done,
    Failed,
}

impl AnalysisStatus {
    pub const ALL: [AnalysisStatus; 4] = [
        AnalysisStatus::None,
        AnalysisStatus::Queued,
        AnalysisStatus::Done,
        AnalysisStatus::Failed,
    ];

    /// The stored (and shown) text.
    pub fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::None => "none",
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed => "failed",
        }
    }
}

/// An `analyses.status` value the server does not know: the database was written by another
/// version, or edited by hand.
#[derive(Debug, thiserror::Error)]
#[error("unknown analysis status `{0}`")]
pub struct UnknownAnalysisStatus(pub String);

impl std::str::FromStr for AnalysisStatus {
    type Err = UnknownAnalysisStatus;
    fn from_str(s: &str) -> Result<Self, UnknownAnalysisStatus> {
        AnalysisStatus::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| UnknownAnalysisStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::AnalysisStatus;

    #[test]
    fn analysis_statuses_read_back_as_they_are_stored_and_shown() {
        for status in AnalysisStatus::ALL {
            assert_eq!(status.as_str().parse::<AnalysisStatus>().unwrap(), status);
            assert_eq!(
                serde_json::to_value(status).unwrap(),
                serde_json::json!(status.as_str())
            );
        }
        assert!("running".parse::<AnalysisStatus>().is_err());
    }
}
