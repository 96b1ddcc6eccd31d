//! Which address a request comes from. Directly connected clients are their socket's peer;
//! behind a reverse proxy named by `--trusted-proxy CIDR`, every client would otherwise share
//! the proxy's address (and its limits), so the proxy's `X-Forwarded-For` is read, and only
//! from that proxy: anyone else could write any address in that header.
use crate::AppState;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use ipnet::IpNet;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

/// The client's address, as the limits count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

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

/// An IPv4 address mapped into IPv6 (a dual-stack listener's peers) is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client behind `peer`: `peer` itself unless it is a trusted proxy; then the rightmost
/// address of `X-Forwarded-For` that is not a trusted proxy (each proxy appends the address it
/// saw; anything left of the last untrusted one may have been written by the client). A proxy
/// that sends no (or a malformed) header is taken for the client.
pub fn client_ip(proxies: &[IpNet], peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    if !trusted(proxies, peer) {
        return canonical(peer);
    }
    let mut hops: Vec<IpAddr> = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(value) = value.to_str() else {
            return canonical(peer);
        };
        for part in value.split(',') {
            match part.trim().parse::<IpAddr>() {
                Ok(ip) => hops.push(canonical(ip)),
                Err(_) => return canonical(peer),
            }
        }
    }
    hops.iter()
        .rev()
        .find(|ip| !trusted(proxies, **ip))
        .or(hops.first())
        .copied()
        .unwrap_or(canonical(peer))
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

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
        )))
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
        // Not a proxy: the header is the client's own words.
        assert_eq!(
            client_ip(&proxies, ip("192.0.2.7"), &headers(&["1.2.3.4"])),
            ip("192.0.2.7")
        );
        // The proxy: the address it appended.
        assert_eq!(
            client_ip(&proxies, ip("10.1.1.1"), &headers(&["1.2.3.4"])),
            ip("1.2.3.4")
        );
        // A client that writes its own header before the proxy's: the proxy's entry wins.
        assert_eq!(
            client_ip(&proxies, ip("10.1.1.1"), &headers(&["6.6.6.6, 1.2.3.4"])),
            ip("1.2.3.4")
        );
        // Two proxies in a row, and the header split over two lines.
        assert_eq!(
            client_ip(&proxies, ip("10.1.1.1"), &headers(&["1.2.3.4", "10.2.2.2"])),
            ip("1.2.3.4")
        );
        // No header, or garbage: the proxy itself.
        assert_eq!(
            client_ip(&proxies, ip("10.1.1.1"), &headers(&[])),
            ip("10.1.1.1")
        );
        assert_eq!(
            client_ip(&proxies, ip("10.1.1.1"), &headers(&["1.2.3.4, nonsense"])),
            ip("10.1.1.1")
        );
        // An IPv4-mapped peer is its IPv4 address.
        assert_eq!(
            client_ip(&proxies, ip("::ffff:10.1.1.1"), &headers(&["1.2.3.4"])),
            ip("1.2.3.4")
        );
        // No proxy configured: never believed.
        assert_eq!(
            client_ip(&[], ip("10.1.1.1"), &headers(&["1.2.3.4"])),
            ip("10.1.1.1")
        );
    }
}
