//! Web Push (RFC 8030) with VAPID (RFC 8292): the server's key pair, drawn at first start and
//! kept in the database, and the encrypted (RFC 8291, `aes128gcm`) POST of one notification
//! to each of a user's subscriptions. The crypto is `web-push-native`'s (pure Rust).
//!
//! An endpoint is any URL a browser (or a guest pretending to be one) hands us, and the server
//! POSTs to it: only public `https` hosts are reached ([`Policy`]). The host is checked when a
//! subscription is made (an address, a name that resolves inside, a special-use name), and
//! again where it counts, when the push client connects: its resolver ([`PublicOnly`]) hands
//! the connector only the addresses that pass, so a name whose DNS answer later points inside
//! reaches nothing. A push service's 404/410 drops a subscription only if that service once
//! took a notification for it (see [`verdict`]), so its disappearance tells nothing of a URL.
pub use super::away::AllowList;
use super::away::{Away, Kind, ReachConfig};
use super::error::{BadSubscription, ReachError, Result};
use super::store::{PushHealth, Subscription};
use super::text;
use crate::db::store::Store;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use pyramidion_games::GameKind;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};
use web_push_native::{Auth, WebPushBuilder, p256};

const SECRET: &str = "vapid_private_key";

/// How long a push service keeps a notification for a device that is offline.
const TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// A subscription that never took a notification is dropped after this many failures in a
/// row, the first of them at least [`DROP_AFTER_MS`] ago, whatever they were (refused
/// address, time-out, 404, 500 alike: which one it was is not shown).
pub const DROP_AFTER_FAILURES: i64 = 5;
pub const DROP_AFTER_MS: i64 = 3 * 24 * 3600 * 1000;

/// How long the subscribe check waits for a DNS answer: the check at connect time is the
/// one that holds, so a slow resolver only skips the early refusal.
const SUBSCRIBE_LOOKUP: Duration = Duration::from_secs(3);

/// Whether an address is publicly routable: not loopback, private, shared (CGNAT),
/// link-local, multicast, documentation or otherwise special-purpose (the IANA registries).
/// An IPv4-mapped IPv6 address is its IPv4 address; an IPv6 one must be global unicast
/// (2000::/3), which leaves out loopback, unique-local (fc00::/7), link-local (fe80::/10),
/// multicast and NAT64 (64:ff9b::/96, which would reach IPv4 addresses inside).
/// (`IpAddr::is_global` is not stable.)
pub fn public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => public_v4(v4),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    const SPECIAL: &[(u8, u8, u8, u8, u8)] = &[
        (0, 0, 0, 0, 8),       // "this network"
        (10, 0, 0, 0, 8),      // private
        (100, 64, 0, 0, 10),   // shared address space (CGNAT)
        (127, 0, 0, 0, 8),     // loopback
        (169, 254, 0, 0, 16),  // link-local (cloud metadata services)
        (172, 16, 0, 0, 12),   // private
        (192, 0, 0, 0, 24),    // IETF protocol assignments
        (192, 0, 2, 0, 24),    // documentation
        (192, 88, 99, 0, 24),  // 6to4 relay anycast
        (192, 168, 0, 0, 16),  // private
        (198, 18, 0, 0, 15),   // benchmarking
        (198, 51, 100, 0, 24), // documentation
        (203, 0, 113, 0, 24),  // documentation
        (224, 0, 0, 0, 4),     // multicast
        (240, 0, 0, 0, 4),     // reserved, and broadcast
    ];
    !SPECIAL.iter().any(|&(a, b, c, d, len)| {
        ipnet::Ipv4Net::new(Ipv4Addr::new(a, b, c, d), len).is_ok_and(|net| net.contains(&ip))
    })
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let global_unicast = (ip.segments()[0] & 0xe000) == 0x2000;
    const SPECIAL: &[(u16, u16, u8)] = &[
        (0x2001, 0x0000, 23), // IETF protocol assignments (Teredo among them)
        (0x2001, 0x0db8, 32), // documentation
        (0x2002, 0x0000, 16), // 6to4: an IPv4 address inside
        (0x3fff, 0x0000, 20), // documentation
    ];
    global_unicast
        && !SPECIAL.iter().any(|&(a, b, len)| {
            ipnet::Ipv6Net::new(Ipv6Addr::new(a, b, 0, 0, 0, 0, 0, 0), len)
                .is_ok_and(|net| net.contains(&ip))
        })
}

/// Names that are never on the public Internet (RFC 6761, 6762, 8375, and ICANN's
/// `.internal`): refused before any lookup. A name without a dot is a local one too.
fn special_use_name(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    !host.contains('.')
        || [
            ".localhost",
            ".local",
            ".internal",
            ".intranet",
            ".lan",
            ".home.arpa",
            ".test",
            ".invalid",
        ]
        .iter()
        .any(|suffix| host.ends_with(suffix))
}

/// Which endpoints the server reaches.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub allow: AllowList,
    /// `--push-allow-http`: a push service for tests and development, on plain `http://`
    /// and on loopback (never in production: browsers' push services are public HTTPS).
    pub dev: bool,
}

impl Policy {
    pub fn from_config(config: &ReachConfig) -> Policy {
        Policy {
            allow: config.push_allow.clone(),
            dev: config.allow_http_push,
        }
    }

    /// An endpoint on this name is reached wherever it resolves: the operator said so.
    fn name_allowed(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.allow.names.contains(&host)
    }

    /// Whether the push client may connect to `ip`.
    pub fn address_allowed(&self, ip: IpAddr) -> bool {
        let ip = crate::rate_limits::canonical(ip);
        public(ip)
            || (self.dev && ip.is_loopback())
            || self.allow.networks.iter().any(|net| net.contains(&ip))
    }

    /// What can be told of `host` without a lookup: an address is checked as it is; a
    /// special-use name is refused (unless allowed by name).
    fn check_host(&self, host: &str) -> Result<(), BadSubscription> {
        if self.name_allowed(host) {
            return Ok(());
        }
        let literal = host.trim_start_matches('[').trim_end_matches(']');
        let ok = match literal.parse::<IpAddr>() {
            Ok(ip) => self.address_allowed(ip),
            Err(_) => {
                !special_use_name(&host.to_ascii_lowercase())
                    || (self.dev && host.eq_ignore_ascii_case("localhost"))
            }
        };
        if ok {
            Ok(())
        } else {
            Err(BadSubscription::NotPublic)
        }
    }

    /// The early check of a new subscription's host: a name that resolves to any address the
    /// server may not reach is refused. A name that does not resolve (now) is let through:
    /// the resolver at connect time decides.
    pub async fn check_resolved(&self, endpoint: &http::Uri) -> Result<(), BadSubscription> {
        let host = endpoint.host().unwrap_or_default();
        self.check_host(host)?;
        if self.name_allowed(host) || host.starts_with('[') || host.parse::<IpAddr>().is_ok() {
            return Ok(());
        }
        let lookup = tokio::net::lookup_host((host, 0));
        if let Ok(Ok(addrs)) = tokio::time::timeout(SUBSCRIBE_LOOKUP, lookup).await {
            for addr in addrs {
                if !self.address_allowed(addr.ip()) {
                    return Err(BadSubscription::NotPublic);
                }
            }
        }
        Ok(())
    }
}

/// The push client's resolver: the system's, with every address the server may not reach
/// taken out (none left: the connection fails). The connector dials only what this returns,
/// so this is the check that holds whatever a name resolved to when it was subscribed.
struct PublicOnly(Arc<Policy>);

/// A push endpoint's name that resolves only to addresses the server may not reach.
#[derive(Debug, thiserror::Error)]
#[error("{0} resolves to no public address")]
struct NoPublicAddress(String);

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.0.clone();
        Box::pin(async move {
            let host = name.as_str().to_string();
            let found = tokio::net::lookup_host((host.as_str(), 0)).await?;
            let anywhere = policy.name_allowed(&host);
            let kept: Vec<SocketAddr> = found
                .filter(|a| anywhere || policy.address_allowed(a.ip()))
                .collect();
            if kept.is_empty() {
                return Err(Box::new(NoPublicAddress(host)) as _);
            }
            Ok(Box::new(kept.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// What to do with a subscription after a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Delivered,
    /// Counted as a failure; kept.
    Failed,
    /// Deleted.
    Drop,
}

/// A delivery's outcome (`status`: the push service's answer; none: no answer, a refused
/// address included) for a subscription with `health`, at `now` (ms). 404/410 drop a
/// subscription whose service once took a notification (the browser unsubscribed); for any
/// other, they are one more failure like every other, and it goes only after failing
/// [`DROP_AFTER_FAILURES`] times over [`DROP_AFTER_MS`].
pub fn verdict(status: Option<u16>, health: PushHealth, now: i64) -> Verdict {
    match status {
        Some(s) if (200..300).contains(&s) => Verdict::Delivered,
        Some(404 | 410) if health.delivered => Verdict::Drop,
        _ if health.failures + 1 >= DROP_AFTER_FAILURES
            && health
                .failing_since
                .is_some_and(|since| now - since >= DROP_AFTER_MS) =>
        {
            Verdict::Drop
        }
        _ => Verdict::Failed,
    }
}

/// The push client: it dials only what [`PublicOnly`] lets through.
fn client(policy: Arc<Policy>, timeout: Duration) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        // A push service answers at once: a slow endpoint is given up on soon, and only
        // holds its own user's delivery meanwhile (`Reach`'s pool).
        .timeout(timeout)
        .connect_timeout(timeout)
        // A push service never redirects a notification (and a redirect could point inside).
        .redirect(reqwest::redirect::Policy::none())
        // Through a proxy the proxy would pick the address, past the resolver's check.
        .no_proxy()
        .dns_resolver(Arc::new(PublicOnly(policy)))
        .build()
}

pub struct Pusher {
    key: ES256KeyPair,
    /// The public key, as browsers take it (`applicationServerKey`: base64url, uncompressed).
    pub public_key: String,
    contact: String,
    policy: Arc<Policy>,
    http: reqwest::Client,
}

/// A subscription as a browser's `PushSubscription.toJSON()` gives it, checked.
pub struct Checked {
    pub endpoint: http::Uri,
    pub p256dh: p256::PublicKey,
    pub auth: Auth,
}

/// Checks a subscription's parts (its host without a lookup); the error says which part is
/// wrong.
pub fn check(
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    policy: &Policy,
) -> Result<Checked, BadSubscription> {
    if endpoint.len() > 1024 {
        return Err(BadSubscription::EndpointTooLong);
    }
    let uri: http::Uri = endpoint.parse().map_err(|_| BadSubscription::NotAUrl)?;
    let scheme_ok = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => policy.dev,
        _ => false,
    };
    if !scheme_ok || uri.host().is_none_or(str::is_empty) {
        return Err(BadSubscription::NotHttps);
    }
    policy.check_host(uri.host().unwrap_or_default())?;
    let key = URL_SAFE_NO_PAD
        .decode(p256dh.trim_end_matches('='))
        .ok()
        .and_then(|bytes| p256::PublicKey::from_sec1_bytes(&bytes).ok())
        .ok_or(BadSubscription::BadP256dh)?;
    let auth: [u8; 16] = URL_SAFE_NO_PAD
        .decode(auth.trim_end_matches('='))
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or(BadSubscription::BadAuth)?;
    Ok(Checked {
        endpoint: uri,
        p256dh: key,
        auth: Auth::from(auth),
    })
}

/// The VAPID `sub` claim: push services (Apple's, Mozilla's) want an `https:` URL or a
/// `mailto:` address: the site when it is served over HTTPS, else the mails' sender.
fn contact(config: &ReachConfig) -> String {
    if config.public_url.starts_with("https://") {
        return config.public_url.clone();
    }
    let address = config
        .mail_from
        .parse::<lettre::message::Mailbox>()
        .map(|m| m.email.to_string())
        .unwrap_or_else(|_| "pyramidion@localhost".to_string());
    format!("mailto:{address}")
}

impl Pusher {
    /// The stored key pair, or a new one (stored before use: every subscription is made
    /// with the public key, which must not change).
    pub async fn load(store: &Store, config: &ReachConfig) -> Result<Pusher> {
        if store.secret(SECRET).await?.is_none() {
            let fresh = ES256KeyPair::generate();
            store
                .add_secret(SECRET, &URL_SAFE_NO_PAD.encode(fresh.to_bytes()))
                .await?;
        }
        let stored = store
            .secret(SECRET)
            .await?
            .ok_or_else(|| ReachError::VapidKey("it vanished".into()))?;
        let bytes = URL_SAFE_NO_PAD
            .decode(stored)
            .map_err(|e| ReachError::VapidKey(format!("not base64url: {e}")))?;
        let key =
            ES256KeyPair::from_bytes(&bytes).map_err(|e| ReachError::VapidKey(e.to_string()))?;
        let public_key =
            URL_SAFE_NO_PAD.encode(key.public_key().public_key().to_bytes_uncompressed());
        let policy = Arc::new(Policy::from_config(config));
        let http = client(policy.clone(), config.push_timeout).map_err(ReachError::PushClient)?;
        Ok(Pusher {
            key,
            public_key,
            contact: contact(config),
            policy,
            http,
        })
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Sends `event` to every subscription of its user, all at once (each within the push
    /// time-out), and records how each went (see [`verdict`]).
    pub async fn send_all(&self, store: &Store, event: &Away, game_kind: GameKind) -> Result<()> {
        let subs = store.subscriptions(&event.user).await?;
        let sends = subs.iter().map(|sub| self.send(sub, event, game_kind));
        let outcomes = futures_util::future::join_all(sends).await;
        let now = crate::wall_clock::now_ms();
        for (sub, outcome) in subs.iter().zip(outcomes) {
            let status = match outcome {
                Ok(status) => Some(status),
                Err(e) => {
                    tracing::debug!(error = %e, endpoint = %sub.endpoint, "cannot push a notification");
                    None
                }
            };
            if let Some(status) = status.filter(|s| !(200..300).contains(s)) {
                tracing::debug!(status, endpoint = %sub.endpoint, "a push service refused a notification");
            }
            match verdict(status, sub.health, now) {
                // A subscription that works and worked last time: nothing to write.
                Verdict::Delivered if sub.health.delivered && sub.health.failures == 0 => {}
                Verdict::Delivered => store.push_delivered(&sub.endpoint, now).await?,
                Verdict::Failed => store.push_failed(&sub.endpoint, now).await?,
                Verdict::Drop => {
                    store.remove_subscription(None, &sub.endpoint).await?;
                }
            }
        }
        Ok(())
    }

    /// One notification: its HTTP status.
    async fn send(&self, sub: &Subscription, event: &Away, game_kind: GameKind) -> Result<u16> {
        // Checked again (the operator's allow-list may have changed since), and an address
        // written as one never meets the resolver.
        let checked = check(&sub.endpoint, &sub.p256dh, &sub.auth, &self.policy)
            .map_err(ReachError::Subscription)?;
        let payload = payload(&sub.lang, event, game_kind);
        let request = WebPushBuilder::new(checked.endpoint, checked.p256dh, checked.auth)
            .with_valid_duration(TTL)
            .with_vapid(&self.key, &self.contact)
            .build(serde_json::to_string(&payload).map_err(|e| ReachError::Encrypt(e.to_string()))?)
            .map_err(|e| ReachError::Encrypt(e.to_string()))?;
        let (parts, body) = request.into_parts();
        let response = self
            .http
            .post(parts.uri.to_string())
            .headers(parts.headers)
            .body(body)
            .send()
            .await?;
        Ok(response.status().as_u16())
    }
}

/// What the service worker shows: a title and a line in the subscription's language, and
/// the page a click opens (`web/sw.js` reads it).
#[derive(serde::Serialize)]
pub struct Payload<'a> {
    pub kind: &'static str,
    pub game: &'a str,
    pub title: String,
    pub body: String,
    pub url: String,
}

/// The payload of `event` for a subscription in `lang`.
pub fn payload<'a>(lang: &str, event: &'a Away, game_kind: GameKind) -> Payload<'a> {
    let game = text::t(lang, &format!("game.{game_kind}"), &[]);
    let kind = event.kind.key();
    let url = match event.kind {
        Kind::Rematch | Kind::Challenge => format!("/#/table/{}", event.game),
        _ => format!("/#/game/{}", event.game),
    };
    Payload {
        kind,
        game: &event.game,
        title: text::t(lang, &format!("notify.{kind}_title"), &[("game", &game)]),
        body: text::t(lang, &format!("notify.{kind}_body"), &[("game", &game)]),
        url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::dns::Resolve;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_public_addresses_are_public() {
        for inside in [
            "0.0.0.0",
            "10.0.0.1",
            "100.64.1.1",
            "127.0.0.1",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.2.1",
            "192.168.0.1",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:10.0.0.1",
            "::ffff:127.0.0.1",
            "64:ff9b::a00:1",
            "fc00::1",
            "fdff::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "2002:a00:1::1",
        ] {
            assert!(!public(ip(inside)), "{inside}");
        }
        for outside in [
            "8.8.8.8",
            "93.184.215.14",
            "172.32.0.1",
            "::ffff:8.8.8.8",
            "2606:4700::1111",
            "2a00:1450::1",
        ] {
            assert!(public(ip(outside)), "{outside}");
        }
    }

    #[test]
    fn the_allow_list_takes_names_addresses_and_networks() {
        let allow = AllowList::parse(&[
            "Push.Corp.Example.".into(),
            "10.1.0.0/16".into(),
            "[fd00::7]".into(),
            "127.0.0.1".into(),
        ])
        .unwrap();
        let policy = Policy { allow, dev: false };
        assert!(policy.name_allowed("push.corp.example"));
        assert!(!policy.name_allowed("corp.example"));
        assert!(policy.address_allowed(ip("10.1.2.3")));
        assert!(!policy.address_allowed(ip("10.2.0.1")));
        assert!(policy.address_allowed(ip("fd00::7")));
        assert!(policy.address_allowed(ip("::ffff:127.0.0.1")));
        assert!(!policy.address_allowed(ip("127.0.0.2")));
        assert!(AllowList::parse(&["push service".into()]).is_err());
        assert!(AllowList::parse(&["10.0.0.0/33".into()]).is_err());
        // Tests' loopback push service: only with `--push-allow-http`.
        let dev = Policy {
            dev: true,
            ..Policy::default()
        };
        assert!(dev.address_allowed(ip("127.0.0.1")) && dev.address_allowed(ip("::1")));
        assert!(!dev.address_allowed(ip("10.0.0.1")));
        assert!(!Policy::default().address_allowed(ip("127.0.0.1")));
    }

    #[test]
    fn hosts_are_checked_by_name_and_address_without_a_lookup() {
        let policy = Policy::default();
        for host in [
            "127.0.0.1",
            "[::1]",
            "localhost",
            "metadata.google.internal",
            "printer.local",
            "db",
            "x.home.arpa",
        ] {
            assert_eq!(
                policy.check_host(host),
                Err(BadSubscription::NotPublic),
                "{host}"
            );
        }
        for host in [
            "fcm.googleapis.com",
            "web.push.apple.com",
            "[2606:4700::1111]",
        ] {
            assert_eq!(policy.check_host(host), Ok(()), "{host}");
        }
    }

    /// 404/410 drop only a subscription that once worked; any other failure is counted, and
    /// one that never worked goes after failing long and often.
    #[test]
    fn a_404_drops_only_a_subscription_that_once_worked() {
        let day = 24 * 3600 * 1000;
        let never = PushHealth::default();
        let worked = PushHealth {
            delivered: true,
            ..PushHealth::default()
        };
        assert_eq!(verdict(Some(201), never, 0), Verdict::Delivered);
        assert_eq!(verdict(Some(410), never, 0), Verdict::Failed);
        assert_eq!(verdict(Some(404), never, 0), Verdict::Failed);
        assert_eq!(verdict(Some(410), worked, 0), Verdict::Drop);
        assert_eq!(verdict(Some(500), worked, 0), Verdict::Failed);
        let failing = |failures, since| PushHealth {
            delivered: false,
            failures,
            failing_since: Some(since),
        };
        let now = 10 * day;
        // Often but not long, long but not often: kept.
        assert_eq!(verdict(None, failing(20, now - day), now), Verdict::Failed);
        assert_eq!(
            verdict(None, failing(1, now - 9 * day), now),
            Verdict::Failed
        );
        // Both: dropped, whatever the last failure was.
        for status in [None, Some(404), Some(500)] {
            assert_eq!(
                verdict(status, failing(DROP_AFTER_FAILURES - 1, now - 3 * day), now),
                Verdict::Drop
            );
        }
    }

    /// The check that holds: the push client never dials an address its resolver left out,
    /// whatever the name (here `localhost`, the one name every machine resolves to loopback
    /// without a DNS server).
    #[tokio::test]
    async fn the_push_client_never_dials_an_address_inside() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let url = format!("http://localhost:{port}/push");
        let strict = client(Arc::new(Policy::default()), Duration::from_secs(5)).unwrap();
        let refused = strict.post(&url).body("x").send().await;
        assert!(refused.is_err(), "{refused:?}");
        let resolved = PublicOnly(Arc::new(Policy::default()))
            .resolve("localhost".parse().unwrap())
            .await;
        assert!(resolved.is_err(), "localhost resolves to no public address");
        // Nothing reached the listener: a connection would be waiting to be accepted.
        let waiting = tokio::time::timeout(Duration::from_millis(200), listener.accept()).await;
        assert!(waiting.is_err(), "something connected");
        // With loopback allowed (tests' push service), the same request connects.
        let dev = Arc::new(Policy {
            dev: true,
            ..Policy::default()
        });
        let loose = client(dev, Duration::from_secs(5)).unwrap();
        let sent = tokio::spawn(async move { loose.post(&url).body("x").send().await });
        let accepted = tokio::time::timeout(Duration::from_secs(20), listener.accept()).await;
        assert!(accepted.is_ok(), "the allowed address was dialled");
        sent.abort();
    }
}
