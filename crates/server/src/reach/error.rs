//! Why a player away could not be reached, or the notifier could not start: typed, so that the
//! server's start names the setting at fault and a delivery failure is logged as what it is.
use crate::db::error::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ReachError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A mail batch's pending kinds.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The VAPID key pair in the database: gone after it was stored, or unreadable.
    #[error("the stored VAPID key: {0}")]
    VapidKey(String),
    #[error("cannot start the push client: {0}")]
    PushClient(reqwest::Error),
    /// A stored subscription the server cannot push to (its endpoint or keys).
    #[error("a push subscription: {0}")]
    Subscription(#[from] BadSubscription),
    #[error("cannot encrypt a notification: {0}")]
    Encrypt(String),
    /// The push service did not answer.
    #[error("cannot reach a push service: {0}")]
    Push(#[from] reqwest::Error),
    #[error("--smtp is not an smtp:// or smtps:// URL: {0}")]
    SmtpUrl(lettre::transport::smtp::Error),
    #[error("--mail-from `{address}` is not an address: {error}")]
    MailFrom {
        address: String,
        error: lettre::address::AddressError,
    },
    /// A recipient's address that does not parse (addresses are checked when they are set).
    #[error("not a mail address: {0}")]
    Address(#[from] lettre::address::AddressError),
    #[error("cannot write a mail: {0}")]
    Compose(#[from] lettre::error::Error),
    #[error("cannot send a mail: {0}")]
    Send(#[from] lettre::transport::smtp::Error),
}

pub type Result<T, E = ReachError> = std::result::Result<T, E>;

/// Which part of a push subscription is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadSubscription {
    #[error("the endpoint is longer than 1024 characters")]
    EndpointTooLong,
    #[error("the endpoint is not a URL")]
    NotAUrl,
    #[error("the endpoint is not an https:// URL")]
    NotHttps,
    #[error(
        "the endpoint's host is not public (loopback, private, link-local, a local name…): only public push services are reached"
    )]
    NotPublic,
    #[error("keys.p256dh is not a P-256 public key (base64url)")]
    BadP256dh,
    #[error("keys.auth is not 16 bytes (base64url)")]
    BadAuth,
}

/// A storage or infrastructure failure is the server's, never the client's: `internal`, with
/// the cause in the log.
impl From<ReachError> for crate::error::ApiError {
    fn from(e: ReachError) -> Self {
        match e {
            // The database out of reach: `503 unavailable` (see `StoreError`'s).
            ReachError::Store(e) => e.into(),
            e => crate::error::ApiError::internal(e),
        }
    }
}
