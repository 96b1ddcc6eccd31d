//! Why the server does not start (or stops serving): its storage, its lock on the database,
//! the open-files limit. The CLI prints these and exits.
use crate::db::error::StoreError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database cannot be opened, migrated or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Another server holds the lock beside the database.
    #[error(
        "{what} is in use by another Pyramidion server (it holds {}): \
         two servers must not share one database",
        lock.display()
    )]
    InUse { what: String, lock: PathBuf },
    #[error("{} names no database file", .0.display())]
    NoDatabaseFile(PathBuf),
    /// A file of the lock cannot be opened or locked (`action`: "open", "lock").
    #[error("cannot {action} {}: {error}", path.display())]
    File {
        action: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    /// The open-files limit cannot hold the connections asked for (`crate::fd_limit`).
    #[error(
        "--max-connections {max_connections} needs about {needed} open files, but this \
         process may open {in_force} (the hard RLIMIT_NOFILE): raise it (ulimit -Hn, \
         LimitNOFILE=) or lower --max-connections"
    )]
    OpenFiles {
        max_connections: usize,
        needed: u64,
        in_force: u64,
    },
    /// This instance cannot join the cluster or take part in it.
    #[error(transparent)]
    Cluster(#[from] crate::cluster::error::ClusterError),
    /// A game to resume cannot be rebuilt.
    #[error(transparent)]
    Load(#[from] crate::live::load_error::LoadError),
    /// The listener's address or the signal handlers.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The analyses a restart cut short cannot be looked over.
    #[error(transparent)]
    Resume(#[from] crate::analysis::ResumeError),
    /// The accept loop stopped (`crate::http::listen`).
    #[error(transparent)]
    Listen(#[from] crate::http::listen::ListenError),
    /// The notifications cannot start (their keys, their mail transport).
    #[error(transparent)]
    Reach(#[from] crate::reach::error::ReachError),
}
