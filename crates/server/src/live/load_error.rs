//! Why a game's room cannot be found or rebuilt from its record.
use crate::cluster::error::ClusterError;
use crate::db::error::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The game's lease among several instances.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error("the stored options of game {id}: {error}")]
    Options {
        id: String,
        error: serde_json::Error,
    },
    /// The rules refuse the stored record (a move, the setup): never expected, the record
    /// holds only moves the rules accepted.
    #[error("game {id} does not replay from its record: {error}")]
    Replay { id: String, error: String },
}

/// A storage or infrastructure failure is the server's, never the client's: `internal` (or
/// `unavailable` while the database is out of reach), with the cause in the log.
impl From<LoadError> for crate::error::ApiError {
    fn from(e: LoadError) -> Self {
        match e {
            // The database out of reach: `503 unavailable` (see `StoreError`'s).
            LoadError::Store(e) => e.into(),
            LoadError::Cluster(e) => e.into(),
            e => crate::error::ApiError::internal(e),
        }
    }
}
