//! A rolling restart: SIGTERM drains an instance before it exits. It stops living in the
//! cluster (`Cluster::retire`), so the others take its games over at once; it closes every
//! WebSocket, so each client reconnects through the proxy to another instance and subscribes
//! again with its last event; and it waits a little for moves being committed. Nothing is
//! lost either way: a move is acknowledged only once committed, and a room that lost its game
//! can no longer commit (the writer's fence).
use crate::LiveContext as Context;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Longest wait for the WebSockets to close.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

pub async fn drain(state: &Context) {
    tracing::info!("draining: handing games over and closing connections");
    if let Some(cluster) = &state.cluster
        && let Err(e) = cluster.retire().await
    {
        tracing::warn!(error = %e, "cannot retire from the cluster: its games are taken over when its life ends");
    }
    // `send_replace`: the flag is set even with no socket subscribed (`send` would fail
    // then and leave it unset, and `/readyz` reads it).
    state.draining.send_replace(true);
    let until = tokio::time::Instant::now() + CLOSE_WAIT;
    while state.metrics.connections.load(Ordering::Relaxed) > 0
        && tokio::time::Instant::now() < until
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tracing::info!("drained");
}
