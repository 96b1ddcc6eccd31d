//! Rate limits (through `governor`): per client IP for HTTP requests, new guests, new accounts
//! and WebSocket messages (one budget shared by all of an address's sockets). Keyed limiters forget an address once its bucket is full
//! again ([`PerIp::sweep`], run by the server's periodic sweep), so their memory stays bounded
//! by the addresses seen recently.
//!
//! Every per-address limit counts an IPv6 client by its /64 ([`address_key`]): one home or
//! one rented server is given a whole /64 and may draw a fresh address from it per request.
use governor::clock::DefaultClock;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::time::Duration;

/// The client's address, as the limits count it (read by `http::client_ip`, behind trusted
/// proxies from `X-Forwarded-For`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// An IPv4 address mapped into IPv6 (a dual-stack listener's peers) is the IPv4 address.
/// Here, in a leaf, because both the HTTP edge and the push client's address checks need it
/// (`crate::reach` may not name `crate::http`: scripts/import-cycles).
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Tokens added per second.
    pub per_second: f64,
    /// Most tokens held (the allowed burst).
    pub burst: f64,
}

impl Rate {
    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1.0) as u32).unwrap_or(NonZeroU32::MIN);
        let period = if self.per_second > 0.0 {
            // At least a nanosecond: a huge rate (even an infinite one) means "no limit"
            // rather than an invalid quota.
            Duration::from_secs_f64(1.0 / self.per_second).max(Duration::from_nanos(1))
        } else {
            // Never refills (within a century).
            Duration::from_secs(100 * 365 * 24 * 3600)
        };
        Quota::with_period(period)
            .expect("a positive period")
            .allow_burst(burst)
    }
}

/// The key an address is counted under by every per-address limit: an IPv4 address (mapped
/// into IPv6 or not) is itself; an IPv6 address is its /64, the smallest block a provider hands
/// a customer (RFC 6177), so the 2^64 addresses one customer holds are one client.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
    }
}

/// One token bucket (a connection's).
pub struct Bucket(RateLimiter<NotKeyed, InMemoryState, DefaultClock>);

impl Bucket {
    pub fn new(rate: Rate) -> Self {
        Bucket(RateLimiter::direct(rate.quota()))
    }

    /// Takes one token if there is one.
    pub fn allow(&mut self) -> bool {
        self.0.check().is_ok()
    }
}

/// One bucket per IP.
pub struct PerIp(RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>);

impl PerIp {
    pub fn new(rate: Rate) -> Self {
        PerIp(RateLimiter::keyed(rate.quota()))
    }

    /// Takes one token from `ip`'s bucket (its /64's, for IPv6) if there is one.
    pub fn allow(&self, ip: IpAddr) -> bool {
        self.0.check_key(&address_key(ip)).is_ok()
    }

    /// Forgets the addresses whose bucket is full again (they are as if never seen).
    pub fn sweep(&self) {
        self.0.retain_recent();
        self.0.shrink_to_fit();
    }

    /// Addresses remembered.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_refuse() {
        let mut b = Bucket::new(Rate {
            per_second: 0.0,
            burst: 3.0,
        });
        assert!(b.allow() && b.allow() && b.allow());
        assert!(!b.allow());
    }

    #[test]
    fn a_huge_rate_is_no_limit_not_a_panic() {
        for per_second in [1e12, f64::INFINITY] {
            let mut b = Bucket::new(Rate {
                per_second,
                burst: 1.0,
            });
            assert!((0..100).all(|_| b.allow()), "{per_second}");
        }
    }

    #[test]
    fn ipv6_addresses_are_counted_by_their_64() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            address_key(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(address_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(address_key(ip("192.0.2.1")), ip("192.0.2.1"));
        let limits = PerIp::new(Rate {
            per_second: 0.0,
            burst: 2.0,
        });
        // Two addresses of one /64 share a budget…
        assert!(limits.allow(ip("2001:db8:1:2::1")));
        assert!(limits.allow(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")));
        assert!(!limits.allow(ip("2001:db8:1:2::3")));
        // …the next /64 has its own.
        assert!(limits.allow(ip("2001:db8:1:3::1")));
        assert_eq!(limits.len(), 2);
    }

    #[test]
    fn per_ip_buckets_are_separate_and_forgotten_when_full_again() {
        let limits = PerIp::new(Rate {
            per_second: 0.0,
            burst: 2.0,
        });
        let (a, b) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        assert!(limits.allow(a) && limits.allow(a) && !limits.allow(a));
        assert!(limits.allow(b));
        assert_eq!(limits.len(), 2);
        // Never refilled: remembered.
        limits.sweep();
        assert_eq!(limits.len(), 2);
        // A fast refill: both buckets are full again at once, and forgotten.
        let fast = PerIp::new(Rate {
            per_second: 1e9,
            burst: 1.0,
        });
        assert!(fast.allow(a) && fast.allow(b));
        std::thread::sleep(Duration::from_millis(1));
        fast.sweep();
        assert!(fast.is_empty());
    }
}
