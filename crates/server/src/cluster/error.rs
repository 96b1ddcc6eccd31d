//! Why a cluster operation failed: the shared database, or a lease too contended to take.
use crate::db::error::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the cluster secret was not stored")]
    NoSecret,
    #[error("cannot join the cluster: {0}")]
    Join(sqlx::Error),
    /// A lease changed hands on every try.
    #[error("{0}")]
    Contended(String),
}

/// A storage or infrastructure failure is the server's, never the client's: the database out
/// of reach is `503 unavailable` (see `StoreError`'s), anything else `internal`, with the
/// cause in the log.
impl From<ClusterError> for crate::error::ApiError {
    fn from(e: ClusterError) -> Self {
        match e {
            ClusterError::Store(e) => e.into(),
            ClusterError::Database(e) | ClusterError::Join(e)
                if crate::db::error::sqlx_outage(&e) =>
            {
                StoreError::Database(e).into()
            }
            e => crate::error::ApiError::internal(e),
        }
    }
}
