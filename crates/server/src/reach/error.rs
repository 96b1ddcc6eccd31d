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
    Subscription(#[from] super::push::BadSubscription),
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
