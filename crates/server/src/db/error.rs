//! The one error type of the storage layer. Callers match on it (a duplicate name, a stale
//! room, a seat that cannot be taken) instead of searching an opaque error for a cause.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Why a storage call failed. The messages keep the source's text in them (the health
/// endpoint and the logs show only the top message).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed a statement.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("cannot open database {url}: {error}")]
    Open { url: String, error: sqlx::Error },
    #[error("cannot read database {url}: {error}")]
    Read { url: String, error: sqlx::Error },
    #[error("the database is not writable: {0}")]
    NotWritable(sqlx::Error),
    #[error("cannot apply the database migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A JSON value of a row that cannot be written or read back.
    #[error("a stored JSON value: {0}")]
    Json(#[from] serde_json::Error),
    /// `pyramidion moderation` found no reports table.
    #[error("cannot read the reports (has a server of this version run on it?): {0}")]
    Reports(sqlx::Error),
    /// A stored row the server cannot read (what, and why).
    #[error("{0}")]
    Corrupt(String),
    /// The writer task is gone (the server is shutting down).
    #[error("the database writer has stopped")]
    Stopped,
    /// The batch holding this write failed as a whole (its error's text, shared by the batch).
    #[error("{0}")]
    Batch(String),
    /// One move refused by the database (see [`MoveRefused`]).
    #[error("{}", .0.message)]
    MoveRefused(MoveRefused),
    /// A group of the pairing queue cannot sit.
    #[error("{0}")]
    SeatRefused(SeatRefused),
    /// A test made the commit fail (`crate::db::writer::FaultInjector`).
    #[error("injected fault: {0}")]
    Injected(String),
}

impl From<MoveRefused> for StoreError {
    fn from(r: MoveRefused) -> Self {
        StoreError::MoveRefused(r)
    }
}

impl From<SeatRefused> for StoreError {
    fn from(r: SeatRefused) -> Self {
        StoreError::SeatRefused(r)
    }
}

impl StoreError {
    /// Whether this is the database refusing a duplicate of a unique value (and nothing else).
    pub fn is_unique_violation(&self) -> bool {
        let sqlx = match self {
            StoreError::Database(e) => e,
            _ => return false,
        };
        sqlx.as_database_error()
            .is_some_and(|d| d.is_unique_violation())
    }

    /// Whether this is the database being out of reach or out of service (a pool that timed
    /// out or closed, a lost connection, a server shutting down or out of resources, a file
    /// that cannot be read or written), not a fault of the request or of the data: answered
    /// `503 unavailable` with `Retry-After`, as it passes.
    pub fn is_outage(&self) -> bool {
        match self {
            StoreError::Database(e)
            | StoreError::Open { error: e, .. }
            | StoreError::Read { error: e, .. }
            | StoreError::NotWritable(e) => sqlx_outage(e),
            // The writer's batch failed as a whole (its commit, the disk, the connection),
            // or it is gone, or a test failed the commit: nothing about this request.
            StoreError::Batch(_) | StoreError::Stopped | StoreError::Injected(_) => true,
            StoreError::MoveRefused(r) => r.batch,
            _ => false,
        }
    }

    /// Whether the storage refused a move because it already holds one at that ply (or this
    /// instance no longer runs the game): the room that sent it is stale.
    pub fn is_stale_move(&self) -> bool {
        matches!(self, StoreError::MoveRefused(r) if r.duplicate)
    }
}

/// Whether a sqlx error is the database out of reach or out of service (see
/// [`StoreError::is_outage`]).
pub fn sqlx_outage(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|code| {
            let code = code.as_ref();
            // PostgreSQL: connection exceptions (08), insufficient resources (53), operator
            // intervention (57: shutting down, cannot connect now), system errors (58).
            ["08", "53", "57", "58"].iter().any(|c| code.starts_with(c))
                // SQLite (its primary result codes): busy, locked, read-only, I/O error,
                // full, cannot open.
                || ["5", "6", "8", "10", "13", "14"].contains(&code)
                || code.parse::<u32>().is_ok_and(|n| {
                    // SQLite's extended codes keep the primary code in their low byte.
                    n > 255 && [5, 6, 8, 10, 13, 14].contains(&(n & 0xff))
                })
        }),
        _ => false,
    }
}

/// Why one move was not stored. `duplicate`: the database already holds a move at that ply
/// (another room, or another server, stored one): the room that sent it is stale. `batch`:
/// the writer's whole batch failed (its commit, the disk, the connection), nothing about
/// this move: an outage, as [`StoreError::is_outage`] says.
#[derive(Clone, Debug)]
pub struct MoveRefused {
    pub message: String,
    pub duplicate: bool,
    pub batch: bool,
}

impl std::fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MoveRefused {}

impl MoveRefused {
    /// The writer's whole batch failed with `message`.
    pub(crate) fn batch(message: String) -> Self {
        MoveRefused {
            message,
            duplicate: false,
            batch: true,
        }
    }
}

/// Why seating a group did not happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatRefused {
    /// One of them is no longer waiting (seated, cancelled or dropped meanwhile).
    Gone,
    /// This instance no longer holds the queue (another one took it over).
    Moved,
}

impl std::fmt::Display for SeatRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SeatRefused::Gone => "a player of the group is no longer waiting",
            SeatRefused::Moved => "this instance no longer holds the pairing queue",
        })
    }
}

impl std::error::Error for SeatRefused {}

impl crate::error::ApiError {
    /// A failed database statement: `503 unavailable` when the database is out of reach (see
    /// `StoreError::is_outage`), else `internal`; the cause is logged, never answered. Here,
    /// beside the conversion it uses, so that `crate::error` names no storage module (no
    /// import circle: scripts/import-cycles).
    pub fn database(e: sqlx::Error) -> Self {
        StoreError::Database(e).into()
    }
}

/// A storage or infrastructure failure is the server's, never the client's: the database out
/// of reach is `503 unavailable` with `Retry-After` (it passes), anything else `internal`;
/// the cause is in the log, never in the answer.
impl From<StoreError> for crate::error::ApiError {
    fn from(e: StoreError) -> Self {
        if e.is_outage() {
            tracing::warn!(error = %e, "the database cannot be reached: answered 503");
            return crate::error::ApiError::unavailable(
                "the database cannot be reached just now: try again shortly",
            );
        }
        crate::error::ApiError::internal(e)
    }
}
