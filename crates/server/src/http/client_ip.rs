//! Which address a request comes from. Directly connected clients are their socket's peer;
//! behind a reverse proxy named by `--trusted-proxy CIDR`, every client would otherwise share
//! the proxy's address (and its limits), so the proxy's `X-Forwarded-For` is read, and only
//! from that proxy: anyone else could write any address in that header.
//!
//! Only the right end of the header is the proxies' own words: each proxy appends the address
//! it saw (HAProxy's `option forwardfor` adds a line, nginx a `, address`), so whatever a
//! client wrote stands to the left of them and is never read. A header whose entry on the
//! proxies' side is not an address (the proxy passed a client's header through unchanged, e.g.
//! `forwardfor if-none`) names no client at all: such a request is refused with
//! `400 bad_forwarded_for` rather than counted as the proxy. Counted as the proxy, one client
//! spending the proxy's budget would turn the proxy's own requests away (its health checks
//! among them: every instance marked down); counted under any key drawn from the header, a
//! client would pick a fresh budget per request.
use crate::AppState;
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};

// The type lives beside the limits that count it (so that handlers outside `http`, such as
// the analysis's, take it without a module circle); how a request proves it is here.
pub use crate::rate_limits::ClientIp;

/// A trusted proxy's request whose `X-Forwarded-For` does not end with a client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the trusted proxy's X-Forwarded-For does not name a client address")]
pub struct BadForwardedFor;

impl From<BadForwardedFor> for ApiError {
    fn from(e: BadForwardedFor) -> Self {
        ApiError::new(ApiErrorCode::BadForwardedFor, e.to_string())
    }
}

/// Networks in CIDR notation (`10.0.0.0/8`, `::1/128`); a bare address is a network of one.
pub fn parse_networks(items: &[String]) -> Result<Vec<IpNet>, String> {
    items
        .iter()
        .map(|item| {
            let item = item.trim();
            item.parse::<IpNet>()
                .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| format!("'{item}' is not a CIDR network"))
        })
        .collect()
}

/// Whether `ip` is one of the trusted proxies.
pub fn trusted(proxies: &[IpNet], ip: IpAddr) -> bool {
    let ip = canonical(ip);
    proxies.iter().any(|net| net.contains(&ip))
}

pub use crate::rate_limits::canonical;

/// One `X-Forwarded-For` entry: an address, or an address with a port (some proxies add it).
fn hop(entry: &[u8]) -> Option<IpAddr> {
    let entry = std::str::from_utf8(entry).ok()?.trim();
    entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()
        .map(canonical)
}

/// The client behind `peer`: `peer` itself unless it is a trusted proxy; then, reading
/// `X-Forwarded-For` (all its lines, in order) from the right, the first address that is not a
/// trusted proxy. Entries left of it are never parsed: the client may have written them. A
/// proxy that sends no header is its own client (its health checks, say); a chain of nothing
/// but trusted proxies names the first of them. An entry on the proxies' side that is not an
/// address is [`BadForwardedFor`].
pub fn client_ip(
    proxies: &[IpNet],
    peer: IpAddr,
    headers: &HeaderMap,
) -> Result<IpAddr, BadForwardedFor> {
    if !trusted(proxies, peer) {
        return Ok(canonical(peer));
    }
    let lines: Vec<&[u8]> = headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| v.as_bytes())
        .collect();
    let mut last_proxy = None;
    for line in lines.iter().rev() {
        for entry in line.rsplit(|b| *b == b',') {
            let ip = hop(entry).ok_or(BadForwardedFor)?;
            if !trusted(proxies, ip) {
                return Ok(ip);
            }
            last_proxy = Some(ip);
        }
    }
    Ok(last_proxy.unwrap_or(canonical(peer)))
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(ip) = parts.extensions.get::<ClientIp>() {
            return Ok(*ip);
        }
        // Requests served outside the accept loop (none in production) have no peer.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        Ok(ClientIp(client_ip(
            &state.config.trusted_proxies,
            peer,
            &parts.headers,
        )?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn networks_parse() {
        let nets = parse_networks(&["10.0.0.0/8".into(), "192.0.2.1".into()]).unwrap();
        assert!(trusted(&nets, "10.9.9.9".parse().unwrap()));
        assert!(trusted(&nets, "192.0.2.1".parse().unwrap()));
        assert!(!trusted(&nets, "192.0.2.2".parse().unwrap()));
        assert!(parse_networks(&["10.0.0.0/33".into()]).is_err());
        assert!(parse_networks(&["proxy.local".into()]).is_err());
    }

    #[test]
    fn only_a_trusted_proxy_is_believed() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let client = |peer: &str, xff: &[&str]| client_ip(&proxies, ip(peer), &headers(xff));
        // Not a proxy: the header is the client's own words.
        assert_eq!(client("192.0.2.7", &["1.2.3.4"]), Ok(ip("192.0.2.7")));
        assert_eq!(client("192.0.2.7", &["nonsense"]), Ok(ip("192.0.2.7")));
        // The proxy: the address it appended.
        assert_eq!(client("10.1.1.1", &["1.2.3.4"]), Ok(ip("1.2.3.4")));
        // A client that writes its own header before the proxy's: the proxy's entry wins.
        assert_eq!(client("10.1.1.1", &["6.6.6.6, 1.2.3.4"]), Ok(ip("1.2.3.4")));
        // Two proxies in a row, and the header split over two lines.
        assert_eq!(
            client("10.1.1.1", &["1.2.3.4", "10.2.2.2"]),
            Ok(ip("1.2.3.4"))
        );
        // No header: the proxy's own request.
        assert_eq!(client("10.1.1.1", &[]), Ok(ip("10.1.1.1")));
        // Only proxies: the first of them.
        assert_eq!(
            client("10.1.1.1", &["10.3.3.3, 10.2.2.2"]),
            Ok(ip("10.3.3.3"))
        );
        // An IPv4-mapped peer is its IPv4 address, and so is a mapped entry; a port is dropped.
        assert_eq!(client("::ffff:10.1.1.1", &["1.2.3.4"]), Ok(ip("1.2.3.4")));
        assert_eq!(client("10.1.1.1", &["::ffff:1.2.3.4"]), Ok(ip("1.2.3.4")));
        assert_eq!(client("10.1.1.1", &["1.2.3.4:5678"]), Ok(ip("1.2.3.4")));
        assert_eq!(
            client("10.1.1.1", &["[2001:db8::1]:443"]),
            Ok(ip("2001:db8::1"))
        );
        // No proxy configured: never believed.
        assert_eq!(
            client_ip(&[], ip("10.1.1.1"), &headers(&["1.2.3.4"])),
            Ok(ip("10.1.1.1"))
        );
    }

    /// Whatever a client writes left of the proxy's entry is never read; only an entry on the
    /// proxies' side that is not an address refuses the request, and it is never taken for
    /// the proxy.
    #[test]
    fn garbage_is_the_clients_own_or_names_nobody_never_the_proxy() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let client = |xff: &[&str]| client_ip(&proxies, ip("10.1.1.1"), &headers(xff));
        // HAProxy's `option forwardfor` (a line of its own) and nginx's (appended).
        assert_eq!(client(&["nonsense", "1.2.3.4"]), Ok(ip("1.2.3.4")));
        assert_eq!(client(&["nonsense, 1.2.3.4"]), Ok(ip("1.2.3.4")));
        assert_eq!(client(&[", ,,", "1.2.3.4"]), Ok(ip("1.2.3.4")));
        let mut latin1 = headers(&[]);
        latin1.append(
            "x-forwarded-for",
            axum::http::HeaderValue::from_bytes(b"caf\xe9").unwrap(),
        );
        latin1.append("x-forwarded-for", "1.2.3.4".parse().unwrap());
        assert_eq!(
            client_ip(&proxies, ip("10.1.1.1"), &latin1),
            Ok(ip("1.2.3.4"))
        );
        // The proxy passed the client's header through: no client is named.
        for xff in [
            &["nonsense"][..],
            &["1.2.3.4, nonsense"],
            &["1.2.3.4", ""],
            &["1.2.3.4, 10.2.2.2, 999.1.1.1"],
            &["1.2.3.4/32"],
        ] {
            assert_eq!(client(xff), Err(BadForwardedFor), "{xff:?}");
        }
    }
}
