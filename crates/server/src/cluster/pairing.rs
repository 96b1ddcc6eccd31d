//! Quick pairing among several instances: one queue, worked by the instance that holds the
//! pairing lease (a row of `game_leases` named [`LEASE`], taken over like a game's when its
//! holder dies); the others forward their players' pairing requests to it over HTTP, so that
//! two players asking at once on two instances still meet. Its "waiting" and "seated" pushes
//! reach the players' own instances through `fanout`. The queue itself is in the database
//! (`crate::db::pairing_queue`): when its holder dies, the next instance to be asked takes the
//! lease and pairs from the same rows; seating is fenced by the lease's epoch, so a holder
//! that lost the lease (paused, cut off) never seats anyone.
use super::{DB_NOW_MS, SECRET_HEADER};
use crate::AppState;
use crate::db::fence::Fence;
use crate::db::pairing_queue::LEASE;
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// Who a forwarded request is for (`crate::http::pairing_internal` reads them).
pub(crate) const USER_HEADER: &str = "x-pyramidion-user";
pub(crate) const GUEST_HEADER: &str = "x-pyramidion-guest";

/// Who works the queue now.
enum Holder {
    /// This instance, at this epoch of the lease.
    Me(i64),
    /// Another, alive instance, reached at this address.
    Other(String),
}

/// Takes the pairing lease if it is free, or confirms this instance's hold at the same epoch
/// (`Renewal::KeepEpoch`), or names its alive holder.
async fn hold(cluster: &super::Cluster) -> super::Result<Holder> {
    Ok(
        match cluster.take(LEASE, super::Renewal::KeepEpoch).await? {
            super::Owner::Me(epoch) => Holder::Me(epoch),
            super::Owner::Other { address, .. } => Holder::Other(address),
        },
    )
}

/// Whether `user` has an open connection on an instance alive within the last `grace_ms`:
/// a player whose instance just died is still reconnecting through the proxy, not gone.
pub async fn present_lately(
    cluster: &super::Cluster,
    user: &str,
    grace_ms: i64,
) -> super::Result<bool> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT 1 FROM presence p JOIN instances i ON i.id = p.instance
         WHERE p.user_id = $1 AND p.conns > 0 AND i.alive_until > {DB_NOW_MS} - $2"
    )))
    .bind(user)
    .bind(grace_ms)
    .fetch_optional(&cluster.pool)
    .await?;
    Ok(row.is_some())
}

/// The fence of a seating on this instance: `Ok(None)` on one instance, `Ok(Some(fence))`
/// when this instance holds the queue, else the holder's address.
pub(crate) async fn fence_here(state: &AppState) -> Result<Option<Fence>, Option<String>> {
    let Some(cluster) = state.cluster.as_ref() else {
        return Ok(None);
    };
    match hold(cluster).await {
        Ok(Holder::Me(epoch)) => Ok(Some(Fence {
            owner: cluster.me.clone(),
            epoch,
        })),
        Ok(Holder::Other(address)) => Err(Some(address)),
        Err(e) => {
            tracing::error!(error = %e, "cannot find the instance that holds the pairing queue");
            Err(None)
        }
    }
}

/// Forwards a pairing request to the instance that holds the queue, unless it is this one
/// (or there is one instance): `Err(its answer)`, or `Ok(fence)` to answer here with the
/// lease's fence (none on one instance).
pub async fn elsewhere(
    state: &AppState,
    method: &str,
    user: Option<&Identity>,
    body: Option<Value>,
) -> Result<Option<Fence>, Response> {
    let address = match fence_here(state).await {
        Ok(fence) => return Ok(fence),
        Err(Some(address)) => address,
        Err(None) => return Err(unavailable()),
    };
    let Some(cluster) = state.cluster.as_ref() else {
        return Ok(None);
    };
    let client = reqwest::Client::new();
    let method = Method::from_bytes(method.as_bytes()).map_err(|_| unavailable())?;
    let mut request = client
        .request(method, format!("{address}/internal/pairing"))
        .header(SECRET_HEADER, &cluster.secret)
        .timeout(std::time::Duration::from_secs(5));
    if let Some(user) = user {
        request = request
            .header(USER_HEADER, &user.user_id)
            .header(GUEST_HEADER, if user.guest { "1" } else { "0" });
    }
    if let Some(body) = body {
        request = request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
    }
    match request.send().await {
        Ok(answer) => {
            let status =
                StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            let body = answer.bytes().await.unwrap_or_default();
            Err((
                status,
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                body,
            )
                .into_response())
        }
        Err(e) => {
            tracing::warn!(error = %e, %address, "cannot reach the instance that holds the pairing queue");
            Err(unavailable())
        }
    }
}

/// The answer when the queue is changing holder: the page (and the client) asks again.
pub fn unavailable() -> Response {
    crate::error::ApiError::new(
        ApiErrorCode::Unavailable,
        "quick pairing is moving to another server: try again in a few seconds",
    )
    .into_response()
}
