//! The cluster's `/internal/` routes on the public listener (an instance without
//! `--internal-listen`, issue 54): what passes the per-address rate limit, and what is
//! refused before any handler.
//!
//! The other instances carry many players' commands from one address, so their requests
//! are not rate-limited; but only theirs: a request is exempt only if it carries the
//! cluster's secret. Anyone else's `/internal/` request is limited like any other path (and
//! answered `404` by the handler). An instance reaches another directly, never through the
//! reverse proxy, so an `/internal/` request that a proxy forwarded (`X-Forwarded-For`,
//! `Forwarded`) is refused whoever sends it: a leaked secret does not open the link to the
//! public through the proxy (which also refuses `/internal/`: deploy/haproxy.cfg).
use crate::AppState;
use axum::extract::Request;

/// What the public listener does with a request before its rate limit.
#[derive(Debug, PartialEq, Eq)]
pub enum Gate {
    /// Not a cluster route served here, or a stranger's: limited as usual.
    Limited,
    /// Another instance's request: served without counting it.
    Exempt,
    /// A cluster route reached through a proxy: answered `404` at once.
    Refused,
}

/// The gate for `req` on the public listener of `state`.
pub fn gate(state: &AppState, req: &Request) -> Gate {
    let Some(cluster) = &state.cluster else {
        return Gate::Limited;
    };
    // With a listener of its own, `/internal/` is nothing on this one (an unknown path).
    if state.config.internal_listener || !req.uri().path().starts_with("/internal/") {
        return Gate::Limited;
    }
    let headers = req.headers();
    if headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded") {
        return Gate::Refused;
    }
    if crate::cluster::carries_secret(headers, &cluster.secret) {
        Gate::Exempt
    } else {
        Gate::Limited
    }
}
