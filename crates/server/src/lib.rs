//! The Pyramidion game server: accounts and guests, a lobby, live games over one WebSocket
//! per client, every move made durable before it is acknowledged. See docs/protocol.md.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod analysis_status;
pub mod app_state;
pub mod assets;
pub mod cluster;
pub mod config;
pub mod data_lock;
pub mod db;
pub mod error;
pub mod error_code;
pub mod fd_limit;
pub mod game_status;
pub mod http;
pub mod identity;
pub mod link_metrics;
pub mod live;
pub mod metrics;
pub mod names;
pub mod puzzles;
pub mod queue;
pub mod rate_limits;
pub mod reach;
pub mod routes;
pub mod secret;
pub mod social;
pub mod start_error;
pub mod table_view;
pub mod time_control;
pub mod tournament;
pub mod wall_clock;
pub mod wire;

// The names the rest of the crate (`crate::AppState`, `crate::router`) and the command line
// (`pyramidion_server::Config`, `lock_data_dir`) use, whichever file defines them.
pub use app_state::AppState;
pub use config::{Config, Limits};
pub use data_lock::{lock_data_dir, lock_sqlite_url};
pub use live::context::Context as LiveContext;
pub use routes::{MAX_BODY, internal_router, router};
pub use start_error::StartError;

/// Serves until the process is stopped; SIGTERM or Ctrl-C drains it first (`drain`).
pub async fn serve(
    mut config: Config,
    listener: tokio::net::TcpListener,
) -> Result<(), StartError> {
    if config.advertise.is_none() {
        config.advertise = Some(format!("http://{}", listener.local_addr()?));
    }
    serve_opened(AppState::open(config).await?, listener).await
}

/// Serves a state opened by [`AppState::open`] (its storage open, the cluster joined, no game
/// claimed) and starts it ([`AppState::start`]: resuming games claims them) while it
/// serves: an instance restarted at once takes back games its predecessor held, and the
/// others reach it for them as soon as it claims them, never a closed port. A failure to
/// start ends the serving as a failure to open would.
pub async fn serve_opened(
    state: AppState,
    listener: tokio::net::TcpListener,
) -> Result<(), StartError> {
    let serving = serve_state(state.clone(), listener);
    tokio::pin!(serving);
    tokio::select! {
        served = &mut serving => return served,
        started = state.start() => started?,
    }
    serving.await
}

/// Serves an opened state (its storage is open and writable) until the process is stopped;
/// SIGTERM or Ctrl-C drains it first (`drain`).
pub async fn serve_state(
    state: AppState,
    listener: tokio::net::TcpListener,
) -> Result<(), StartError> {
    if let Some(cluster) = &state.cluster
        && state.config.advertise.is_none()
    {
        cluster
            .advertise(&format!("http://{}", listener.local_addr()?))
            .await?;
    }
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    // Ctrl-C in a terminal is the same request to stop as a service manager's SIGTERM.
    let interrupt = tokio::signal::ctrl_c();
    tokio::select! {
        served = http::listen::serve(state.clone(), listener) => Ok(served?),
        _ = terminate.recv() => {
            live::drain::drain(&state.live).await;
            Ok(())
        }
        _ = interrupt => {
            live::drain::drain(&state.live).await;
            Ok(())
        }
    }
}

/// Serves the cluster's `/internal/` routes (the internal link, the pairing queue) on a
/// listener of their own (`--internal-listen`): an address the other instances reach and
/// players do not, so the link's secret and frames need not cross the public network.
pub async fn serve_internal(
    state: AppState,
    listener: tokio::net::TcpListener,
) -> Result<(), StartError> {
    let app = internal_router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    Ok(axum::serve(listener, app).await?)
}
