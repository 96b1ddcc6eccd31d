//! One process per SQLite database: an advisory lock beside the database file, taken at start,
//! so that a second server on the same data refuses to start instead of writing the same games
//! from two places (PostgreSQL needs none: its instances share it by design, `crate::cluster`).
use crate::StartError;

/// Takes the data directory for this process: a second server on the same directory would
/// write the same games from two places. The lock (an advisory lock on the database's
/// `pyramidion.db.lock`) lasts as long as the returned file is open, and is released by the OS
/// when the process ends, however it ends.
pub fn lock_data_dir(dir: &std::path::Path) -> Result<std::fs::File, StartError> {
    lock_sqlite_file(&dir.join("pyramidion.db"))
}

/// The same guard for a SQLite database named by URL (`--database sqlite://PATH`). `None` for
/// other databases (PostgreSQL guards itself) and for in-memory SQLite, which no second
/// process can open.
pub fn lock_sqlite_url(url: &str) -> Result<Option<std::fs::File>, StartError> {
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return Ok(None);
    };
    let path = rest.trim_start_matches("//");
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() || path.contains(":memory:") {
        return Ok(None);
    }
    lock_sqlite_file(std::path::Path::new(path)).map(Some)
}

/// Locks `DB.lock` beside the database file, named by its canonical path: however the file is
/// named (the data directory, a URL, a relative path, `..`, a symbolic link), one database has
/// one lock.
fn lock_sqlite_file(db: &std::path::Path) -> Result<std::fs::File, StartError> {
    let canonical = match db.canonicalize() {
        Ok(path) => path,
        // Not created yet: its directory's canonical path and its name.
        Err(_) => {
            let parent = db
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            let name = db
                .file_name()
                .ok_or_else(|| StartError::NoDatabaseFile(db.to_path_buf()))?;
            parent
                .canonicalize()
                .map_err(|error| StartError::File {
                    action: "open",
                    path: parent.to_path_buf(),
                    error,
                })?
                .join(name)
        }
    };
    let mut lock = canonical.clone().into_os_string();
    lock.push(".lock");
    lock_file(
        std::path::Path::new(&lock),
        &format!("the database {}", canonical.display()),
    )
}

fn lock_file(path: &std::path::Path, what: &str) -> Result<std::fs::File, StartError> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|error| StartError::File {
            action: "open",
            path: path.to_path_buf(),
            error,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StartError::InUse {
            what: what.to_string(),
            lock: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(error)) => Err(StartError::File {
            action: "lock",
            path: path.to_path_buf(),
            error,
        }),
    }
}
