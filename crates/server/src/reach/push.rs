//! Web Push (RFC 8030) with VAPID (RFC 8292): the server's key pair, drawn at first start and
//! kept in the database, and the encrypted (RFC 8291, `aes128gcm`) POST of one notification
//! to each of a user's subscriptions. The crypto is `web-push-native`'s (pure Rust).
use super::away::{Away, Kind, ReachConfig};
use super::error::{BadSubscription, ReachError, Result};
use super::store::Subscription;
use super::text;
use crate::db::store::Store;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use pyramidion_games::GameKind;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};
use web_push_native::{Auth, WebPushBuilder, p256};

const SECRET: &str = "vapid_private_key";

/// How long a push service keeps a notification for a device that is offline.
const TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

pub struct Pusher {
    key: ES256KeyPair,
    /// The public key, as browsers take it (`applicationServerKey`: base64url, uncompressed).
    pub public_key: String,
    contact: String,
    allow_http: bool,
    http: reqwest::Client,
}

/// A subscription as a browser's `PushSubscription.toJSON()` gives it, checked.
pub struct Checked {
    pub endpoint: http::Uri,
    pub p256dh: p256::PublicKey,
    pub auth: Auth,
}

/// Checks a subscription's parts; the error says which part is wrong.
pub fn check(
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    allow_http: bool,
) -> Result<Checked, BadSubscription> {
    if endpoint.len() > 1024 {
        return Err(BadSubscription::EndpointTooLong);
    }
    let uri: http::Uri = endpoint.parse().map_err(|_| BadSubscription::NotAUrl)?;
    let scheme_ok = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => allow_http,
        _ => false,
    };
    if !scheme_ok || uri.host().is_none_or(str::is_empty) {
        return Err(BadSubscription::NotHttps);
    }
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
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(15))
            // A push service answers at once; it never redirects a notification.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(ReachError::PushClient)?;
        Ok(Pusher {
            key,
            public_key,
            contact: contact(config),
            allow_http: config.allow_http_push,
            http,
        })
    }

    pub fn allow_http(&self) -> bool {
        self.allow_http
    }

    /// Sends `event` to every subscription of its user; subscriptions their push service
    /// says are gone (404, 410) are deleted.
    pub async fn send_all(&self, store: &Store, event: &Away, game_kind: GameKind) -> Result<()> {
        for sub in store.subscriptions(&event.user).await? {
            match self.send(&sub, event, game_kind).await {
                Ok(status) if status == 404 || status == 410 => {
                    store.remove_subscription(None, &sub.endpoint).await?;
                }
                Ok(status) if !(200..300).contains(&status) => {
                    tracing::warn!(status, endpoint = %sub.endpoint, "a push service refused a notification");
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, endpoint = %sub.endpoint, "cannot push a notification")
                }
            }
        }
        Ok(())
    }

    /// One notification: its HTTP status.
    async fn send(&self, sub: &Subscription, event: &Away, game_kind: GameKind) -> Result<u16> {
        let checked = check(&sub.endpoint, &sub.p256dh, &sub.auth, self.allow_http)
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
        Kind::Rematch => format!("/#/table/{}", event.game),
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
