//! The accept loop: hyper's HTTP/1 server with a header read timeout, a cap on open
//! connections (more wait in the kernel's backlog until one closes) and a cap per client
//! address (more are closed at once). Each request carries `ConnectInfo<SocketAddr>` and the
//! connection's [`Held`] slot and permit, which a WebSocket keeps until it closes: hyper lets
//! go of an upgraded connection, so without it a socket would count for nothing.
use crate::AppState;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// Open connections per client address (an IPv6 client's /64: `rate_limits::address_key`).
/// An address is forgotten when its last one closes.
#[derive(Default)]
pub struct PerIpConnections(Mutex<HashMap<IpAddr, usize>>);

/// One open connection of an address; counted until dropped.
pub struct ConnectionSlot {
    table: Arc<PerIpConnections>,
    ip: IpAddr,
}

impl PerIpConnections {
    /// A slot for one more connection of `ip`, unless it already holds `cap`.
    pub fn take(self: &Arc<Self>, ip: IpAddr, cap: usize) -> Option<ConnectionSlot> {
        let ip = crate::rate_limits::address_key(ip);
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = map.entry(ip).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(ConnectionSlot {
            table: self.clone(),
            ip,
        })
    }

    /// Open connections (and WebSockets) of `ip`.
    pub fn open(&self, ip: IpAddr) -> usize {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&crate::rate_limits::address_key(ip))
            .copied()
            .unwrap_or(0)
    }

    /// Addresses with an open connection.
    pub fn addresses(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut map = self.table.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// What one connection holds (its global permit and its address's slot), shared by its
/// requests: the last holder (the connection, or a WebSocket it became) gives it back.
#[derive(Clone)]
pub struct Held {
    _inner: Arc<(OwnedSemaphorePermit, Option<ConnectionSlot>)>,
}

/// Why the accept loop stops: only if the connection cap's semaphore were closed, which
/// nothing does (it is the loop's own); typed rather than a panic all the same.
#[derive(Debug, thiserror::Error)]
#[error("the connection cap is gone: {0}")]
pub struct ListenError(#[from] tokio::sync::AcquireError);

pub async fn serve(state: AppState, listener: tokio::net::TcpListener) -> Result<(), ListenError> {
    let limits = state.config.limits.clone();
    let app = crate::router(state.clone());
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_ip = state.connections.clone();
    let proxies = state.config.trusted_proxies.clone();
    let refusing = Arc::new(Semaphore::new(REFUSING));
    loop {
        // At the cap a new connection is answered `503 unavailable` (with `Retry-After`)
        // rather than left waiting unseen; only when those answers are at their own small
        // cap too does it wait in the kernel's backlog. Only this loop takes permits, so a
        // permit free before `accept` is still free after it.
        let refusal = if open.available_permits() == 0 {
            match refusing.clone().try_acquire_owned() {
                Ok(refusal) => Some(refusal),
                Err(_) => {
                    drop(open.clone().acquire_owned().await?);
                    None
                }
            }
        } else {
            None
        };
        let (stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, or the connection was reset before accept: wait a
                // little instead of spinning.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let permit = match (open.clone().try_acquire_owned(), refusal) {
            (Ok(permit), _) => permit,
            (Err(_), Some(refusal)) => {
                refuse(stream, addr, refusal, limits.header_timeout);
                continue;
            }
            (Err(_), None) => open.clone().acquire_owned().await?,
        };
        // A trusted proxy carries every client: its connections are counted per client
        // address by the WebSockets they become (`ws::upgrade`), and globally here.
        let slot = if crate::http::client_ip::trusted(&proxies, addr.ip()) {
            None
        } else {
            match per_ip.take(addr.ip(), limits.connections_per_ip) {
                Some(slot) => Some(slot),
                None => {
                    tracing::debug!(ip = %addr.ip(), "connection refused: too many from this address");
                    continue; // dropping the stream closes it
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let header_timeout = limits.header_timeout;
        tokio::spawn(async move {
            let held = Held {
                _inner: Arc::new((permit, slot)),
            };
            // hyper's header timeout starts with the first byte: a client that connects and
            // sends nothing is given the same time.
            let mut first = [0u8; 1];
            match tokio::time::timeout(header_timeout, stream.peek(&mut first)).await {
                Ok(Ok(n)) if n > 0 => {}
                _ => return,
            }
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(addr));
                req.extensions_mut().insert(held.clone());
                app.clone().oneshot(req)
            });
            let mut builder = Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            if let Err(e) = conn.await {
                tracing::trace!(error = %e, "connection ended");
            }
        });
    }
}

/// Connections answered `503` at once, at most (each holds a descriptor for a moment).
const REFUSING: usize = 64;

/// Accepts one connection over the cap and answers its request(s) `503 unavailable`, then
/// closes it. Its request is read first: a reply to an unread request may be lost in a reset.
fn refuse(
    stream: tokio::net::TcpStream,
    addr: SocketAddr,
    refusal: OwnedSemaphorePermit,
    header_timeout: std::time::Duration,
) {
    tracing::warn!(peer = %addr, "connection answered 503: at the connection cap (--max-connections)");
    tokio::spawn(async move {
        let _refusal = refusal;
        let service = hyper::service::service_fn(|_req: hyper::Request<Incoming>| async {
            Ok::<_, std::convert::Infallible>(axum::response::IntoResponse::into_response(
                crate::error::ApiError::unavailable(
                    "the server is at its connection cap: try again shortly",
                ),
            ))
        });
        let mut builder = Builder::new(TokioExecutor::new());
        builder
            .http1()
            .keep_alive(false)
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout);
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        let _ = tokio::time::timeout(header_timeout * 2, conn).await;
    });
}
