//! Open files: every connection (a WebSocket too) is one. With the soft `RLIMIT_NOFILE` below
//! `--max-connections`, accepting fails before the cap is reached and the server cannot open
//! its database or answer `/healthz`; so the soft limit is raised at start (as far as the hard
//! limit allows), and a server that still could not hold its connections refuses to start.

use crate::start_error::StartError;

/// Files kept for what is not a client connection: the database, the listener, logs, the
/// runtime's own descriptors.
pub const RESERVED_FILES: u64 = 256;

/// Raises the soft limit on open files to the hard one and checks that it holds
/// `max_connections` plus [`RESERVED_FILES`]; the limit in force, or why it is too low.
#[cfg(target_os = "linux")]
pub fn ensure(max_connections: usize) -> Result<u64, StartError> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let needed = (max_connections as u64).saturating_add(RESERVED_FILES);
    let limit = getrlimit(Resource::Nofile);
    // `None` is "unlimited".
    let soft = limit.current.unwrap_or(u64::MAX);
    let hard = limit.maximum.unwrap_or(u64::MAX);
    let mut in_force = soft;
    if soft < hard {
        let raised = Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        match setrlimit(Resource::Nofile, raised) {
            Ok(()) => in_force = hard,
            // Some systems cap the soft limit below an unlimited hard one: keep what is.
            Err(e) => tracing::warn!(error = %e, "cannot raise the open-file limit"),
        }
    }
    if in_force < needed {
        return Err(StartError::OpenFiles {
            max_connections,
            needed,
            in_force,
        });
    }
    Ok(in_force)
}

/// Connections when none were asked for: the server's default, lowered to what the open-file
/// limit allows (a default must not keep the server from starting).
pub const DEFAULT_CONNECTIONS: usize = 4096;

/// The connection cap to use: `asked` if the open-file limit holds it (else an error, see
/// [`ensure`]); without one, [`DEFAULT_CONNECTIONS`] or as many as the limit allows.
pub fn fit(asked: Option<usize>) -> Result<usize, StartError> {
    if let Some(n) = asked {
        ensure(n)?;
        return Ok(n);
    }
    match ensure(DEFAULT_CONNECTIONS) {
        Ok(_) => Ok(DEFAULT_CONNECTIONS),
        Err(_) => {
            let files = ensure(0)?;
            let n = files.saturating_sub(RESERVED_FILES).max(1) as usize;
            tracing::warn!(
                max_connections = n,
                open_files = files,
                "the open-file limit holds fewer connections than the default"
            );
            Ok(n)
        }
    }
}

/// Elsewhere the limit is left to the system.
#[cfg(not(target_os = "linux"))]
pub fn ensure(_max_connections: usize) -> Result<u64, StartError> {
    Ok(u64::MAX)
}
