//! Pushes that are not about one followed game ("your move" to every connection of a user,
//! table changes to the lobby) reach the connections of every instance: each instance
//! publishes its own with PostgreSQL `NOTIFY` and passes on those of the others it `LISTEN`s
//! to. Like the pushes of one instance (`crate::live::hub`), they are hints offered without
//! waiting: a page that missed one (a full queue, a listener reconnecting) reads its list
//! again when it reconnects or reopens. Moves never travel this way (see `link`).
use crate::cluster::Result;
use crate::live::hub::{Hub, Push};
use crate::live::protocol::ServerMsg;
use serde_json::value::RawValue;
use std::sync::Arc;
use tokio::sync::mpsc;

/// The one channel every instance listens to.
const CHANNEL: &str = "pyramidion_hub";
/// PostgreSQL refuses a notification payload of 8000 bytes or more.
const MAX_PAYLOAD: usize = 7900;

#[derive(serde::Serialize, serde::Deserialize)]
struct Payload {
    from: String,
    user: Option<String>,
    msg: Box<RawValue>,
}

/// Listens for the other instances' pushes and starts publishing this one's.
pub async fn start(
    database_url: &str,
    pool: sqlx::AnyPool,
    me: String,
    hub: Arc<Hub>,
    metrics: Arc<crate::metrics::Metrics>,
    departures: Arc<tokio::sync::Notify>,
) -> Result<mpsc::UnboundedSender<Push>> {
    let mut listener = sqlx::postgres::PgListener::connect(database_url).await?;
    listener
        .listen_all([CHANNEL, crate::cluster::DEPARTURES])
        .await?;
    metrics.notify_listener(true);
    let (tx, mut pushes) = mpsc::unbounded_channel::<Push>();
    let from = me.clone();
    tokio::spawn(async move {
        while let Some(push) = pushes.recv().await {
            let Ok(msg) = serde_json::value::to_raw_value(&push.msg) else {
                continue;
            };
            let payload = serde_json::to_string(&Payload {
                from: from.clone(),
                user: push.user,
                msg,
            })
            .expect("payloads serialise");
            if payload.len() > MAX_PAYLOAD {
                tracing::warn!(
                    bytes = payload.len(),
                    "a push too large for NOTIFY reaches this instance's connections only"
                );
                continue;
            }
            if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(payload)
                .execute(&pool)
                .await
            {
                tracing::warn!(error = %e, "cannot publish a push to the other instances");
            }
        }
    });
    tokio::spawn(async move {
        loop {
            // PgListener reconnects by itself after a lost connection: at once (then
            // `Ok(None)`), or, when that fails, at the next call. The state is a gauge.
            let note = match listener.try_recv().await {
                Ok(Some(n)) => n,
                Ok(None) => {
                    tracing::warn!("the push listener's connection was lost; listening again");
                    continue;
                }
                Err(e) => {
                    metrics.notify_listener(false);
                    tracing::warn!(error = %e, "the push listener failed; listening again");
                    // Up again once a statement on its connection (reconnected, with its
                    // `LISTEN`) succeeds.
                    loop {
                        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                        if sqlx::query("SELECT 1").execute(&mut listener).await.is_ok() {
                            break;
                        }
                    }
                    metrics.notify_listener(true);
                    tracing::info!("the push listener listens again");
                    continue;
                }
            };
            // Another instance drains: its games are free now (`Cluster::retire`).
            if note.channel() == crate::cluster::DEPARTURES {
                if note.payload() != me {
                    tracing::info!(
                        instance = note.payload(),
                        "an instance left the cluster: taking its games over"
                    );
                    metrics.departure_heard();
                    departures.notify_one();
                }
                continue;
            }
            let Ok(payload) = serde_json::from_str::<Payload>(note.payload()) else {
                tracing::warn!("an unreadable push from another instance");
                continue;
            };
            if payload.from == me {
                continue;
            }
            let msg = ServerMsg::Relayed(payload.msg);
            match payload.user {
                Some(user) => hub.to_user_here(&user, &msg),
                None => hub.to_lobby_here(&msg),
            }
        }
    });
    Ok(tx)
}
