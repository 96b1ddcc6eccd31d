//! What the live layer reaches (issue 47): the store, the rooms, the bots, the hub, the
//! cluster (leases), the metrics, the drain flag and the configuration. Not the server's
//! whole state (`crate::AppState`, which holds one of these): the live layer knows nothing of
//! the rate limiters, the sign-in, the reach of players away or the HTTP handlers, so it can
//! be tested and reasoned about on its own.
use crate::Config;
use crate::cluster::Cluster;
use crate::db::store::Store;
use crate::live::{bot_pool::BotPool, hub::Hub, rooms::Rooms};
use crate::metrics::Metrics;
use std::sync::Arc;

/// Cheap to clone: everything is shared.
#[derive(Clone)]
pub struct Context {
    pub config: Arc<Config>,
    pub store: Store,
    pub rooms: Arc<Rooms>,
    pub metrics: Arc<Metrics>,
    /// Turn and lobby pushes.
    pub hub: Arc<Hub>,
    /// Where bots think.
    pub bots: Arc<BotPool>,
    /// This instance among several on one PostgreSQL database; none on SQLite.
    pub cluster: Option<Arc<Cluster>>,
    /// The internal links to the other instances (`crate::live::link`).
    pub links: Arc<crate::live::link::Peers>,
    /// Set when the instance drains (SIGTERM): every WebSocket closes.
    pub draining: tokio::sync::watch::Sender<bool>,
}
