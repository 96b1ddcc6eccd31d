//! HTTP endpoints of notifications (docs/protocol.md, "Notifications"): the settings page's
//! data and choices, push subscriptions per browser, the e-mail address and its
//! verification, and the one-click unsubscribe of every mail.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::ApiJson;
use crate::identity::Identity;
use crate::reach::{Prefs, mail, push, text};
use crate::secret::random_hex;
use crate::secret::token_hash;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A new address gets at most one verification mail this often (each is a mail to someone
/// who may not have asked for it).
const VERIFY_EVERY_MS: i64 = 60 * 1000;
/// The verification mails to one address, and asked by one account, are bounded over this
/// long (`MailLimits::verify_per_address_day`, `verify_per_user_day`).
const VERIFY_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// What reaches me and how: my preferences, my address, whether the server sends mail, the
/// key browsers subscribe to push with and how many of my devices have.
#[derive(Serialize)]
pub struct Settings {
    pub prefs: crate::reach::Prefs,
    /// Null when I gave none.
    pub email: Option<EmailAddress>,
    pub email_available: bool,
    pub push_public_key: String,
    pub push_devices: usize,
    pub guest: bool,
}

/// My e-mail address and whether I followed its verification link.
#[derive(Serialize)]
pub struct EmailAddress {
    pub address: String,
    pub verified: bool,
}

/// The settings after something was removed (a push device, the address), and whether there
/// was anything to remove.
#[derive(Serialize)]
pub struct Removed {
    #[serde(flatten)]
    pub settings: Settings,
    pub removed: bool,
}

/// The answer of the verification link: the address is verified.
#[derive(Serialize)]
pub struct Verified {
    pub verified: bool,
}

/// The answer of the one-click unsubscribe: no mail reaches the account any more.
#[derive(Serialize)]
pub struct Unsubscribed {
    pub unsubscribed: bool,
}

async fn settings(state: &AppState, identity: &Identity) -> ApiResult<Settings> {
    let reach = &state.reach;
    let prefs = reach.prefs(&identity.user_id).await?;
    let email = reach.store.email(&identity.user_id).await?;
    let devices = reach.store.subscriptions(&identity.user_id).await?.len();
    Ok(Settings {
        prefs,
        email: email.map(|e| EmailAddress {
            address: e.address,
            verified: e.verified,
        }),
        email_available: reach.mail.is_some(),
        push_public_key: reach.push.public_key.clone(),
        push_devices: devices,
        guest: identity.guest,
    })
}

/// `GET /api/notify`: what reaches me and how.
pub async fn get(State(state): State<AppState>, identity: Identity) -> ApiResult<Json<Settings>> {
    Ok(Json(settings(&state, &identity).await?))
}

/// `PUT /api/notify`: which events reach me by push and by e-mail.
pub async fn set(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Json<Settings>> {
    let prefs: Prefs = serde_json::from_value(body).map_err(|e| {
        ApiError::new(
            ApiErrorCode::BadSettings,
            format!("settings are {{\"push\": {{event: bool}}, \"email\": {{event: bool}}}} with events your_move, rematch, table_full: {e}"),
        )
    })?;
    let json = serde_json::to_string(&prefs).map_err(ApiError::internal)?;
    state
        .reach
        .store
        .set_notify_prefs(&identity.user_id, &json)
        .await?;
    Ok(Json(settings(&state, &identity).await?))
}

#[derive(Deserialize)]
pub struct Keys {
    p256dh: String,
    auth: String,
}

/// A browser's `PushSubscription.toJSON()`, with the language its notifications are in.
#[derive(Deserialize)]
pub struct SubscribeRequest {
    endpoint: String,
    keys: Keys,
    #[serde(default, rename = "expirationTime")]
    _expiration_time: Option<Value>,
    #[serde(default)]
    lang: Option<String>,
}

fn bad_subscription(message: impl Into<String>) -> ApiError {
    ApiError::new(ApiErrorCode::BadSubscription, message)
}

/// `POST /api/push/subscribe`: this browser is told of my events.
pub async fn subscribe(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<(StatusCode, Json<Settings>)> {
    let request: SubscribeRequest = serde_json::from_value(body).map_err(|e| {
        bad_subscription(format!(
            "a subscription is {{\"endpoint\", \"keys\": {{\"p256dh\", \"auth\"}}}}: {e}"
        ))
    })?;
    let reach = &state.reach;
    let policy = reach.push.policy();
    let checked = push::check(
        &request.endpoint,
        &request.keys.p256dh,
        &request.keys.auth,
        policy,
    )
    .map_err(|e| bad_subscription(e.to_string()))?;
    policy
        .check_resolved(&checked.endpoint)
        .await
        .map_err(|e| bad_subscription(e.to_string()))?;
    let lang = text::language(request.lang.as_deref().unwrap_or("en"));
    let sub = crate::reach::store::Subscription {
        endpoint: request.endpoint,
        p256dh: request.keys.p256dh,
        auth: request.keys.auth,
        lang: lang.to_string(),
        health: Default::default(),
    };
    reach
        .store
        .add_subscription(
            &identity.user_id,
            &sub,
            state.config.limits.push_devices_per_user.max(1),
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(settings(&state, &identity).await?),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsubscribeRequest {
    endpoint: String,
}

/// `POST /api/push/unsubscribe`: this browser is no longer told.
pub async fn unsubscribe(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(request): ApiJson<UnsubscribeRequest>,
) -> ApiResult<Json<Removed>> {
    let removed = state
        .reach
        .store
        .remove_subscription(Some(&identity.user_id), &request.endpoint)
        .await?;
    Ok(Json(Removed {
        settings: settings(&state, &identity).await?,
        removed,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailRequest {
    address: String,
    #[serde(default)]
    lang: Option<String>,
}

/// `POST /api/me/email`: sets my address (unverified) and mails it a verification link.
pub async fn set_email(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(request): ApiJson<EmailRequest>,
) -> ApiResult<(StatusCode, Json<Settings>)> {
    let reach = &state.reach;
    let Some(mailer) = &reach.mail else {
        return Err(ApiError::conflict(
            ApiErrorCode::EmailOff,
            "this server sends no e-mail (it was started without --smtp)",
        ));
    };
    if identity.guest {
        return Err(ApiError::new(
            ApiErrorCode::AccountRequired,
            "e-mail is for accounts: sign in first",
        ));
    }
    if !mail::valid_address(&request.address) {
        return Err(ApiError::new(
            ApiErrorCode::BadEmail,
            "that is not an e-mail address",
        ));
    }
    if !reach.verification_allowed(
        &identity.user_id,
        crate::wall_clock::now_ms(),
        VERIFY_EVERY_MS,
    ) {
        return Err(ApiError::rate_limited());
    }
    verification_slot(&state, &identity, &request.address).await?;
    let lang = text::language(request.lang.as_deref().unwrap_or("en"));
    let token = random_hex(16);
    reach
        .store
        .set_email(
            &identity.user_id,
            &request.address,
            &token_hash(&token),
            &random_hex(16),
            lang,
        )
        .await?;
    if let Err(e) = mailer
        .send_verification(&request.address, lang, &token)
        .await
    {
        tracing::warn!(error = %e, "cannot send a verification mail");
        return Err(ApiError::new(
            ApiErrorCode::MailFailed,
            "the verification mail could not be sent: try again later",
        ));
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(settings(&state, &identity).await?),
    ))
}

/// Counts one more verification mail to `address` asked by `identity`, unless the address
/// (whoever asked: several accounts may name one victim) or the account had as many as a day
/// allows: `429 too_many_verification_mails`.
async fn verification_slot(state: &AppState, identity: &Identity, address: &str) -> ApiResult<()> {
    use crate::reach::store::{MailBound, MailScope};
    let limits = state.reach.config.mail_limits;
    let now = crate::wall_clock::now_ms();
    let since = now - VERIFY_WINDOW_MS;
    let bounds = [
        MailBound {
            scope: MailScope::Address,
            since,
            cap: limits.verify_per_address_day as i64,
        },
        MailBound {
            scope: MailScope::Sender,
            since,
            cap: limits.verify_per_user_day as i64,
        },
    ];
    let refused = state
        .reach
        .store
        .take_mail_slot(
            "verify",
            &mail::address_key(address),
            Some(&identity.user_id),
            now,
            &bounds,
        )
        .await?;
    let message = match refused {
        None => return Ok(()),
        Some(MailScope::Address) => format!(
            "that address was sent {} verification mails in the last 24 hours: try again tomorrow",
            limits.verify_per_address_day
        ),
        Some(_) => format!(
            "you asked for {} verification mails in the last 24 hours: try again tomorrow",
            limits.verify_per_user_day
        ),
    };
    Err(ApiError::new(
        ApiErrorCode::TooManyVerificationMails,
        message,
    ))
}

/// `DELETE /api/me/email`: forgets my address.
pub async fn delete_email(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<Removed>> {
    let removed = state.reach.store.delete_email(&identity.user_id).await?;
    Ok(Json(Removed {
        settings: settings(&state, &identity).await?,
        removed,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    token: String,
}

fn bad_token() -> ApiError {
    ApiError::new(
        ApiErrorCode::BadToken,
        "that link is not (or no longer) valid",
    )
}

/// `POST /api/me/email/verify`: the link of the verification mail (no session needed: the
/// token is the proof).
pub async fn verify_email(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<VerifyRequest>,
) -> ApiResult<Json<Verified>> {
    match state
        .reach
        .store
        .verify_email(&token_hash(&request.token))
        .await?
    {
        Some(_) => Ok(Json(Verified { verified: true })),
        None => Err(bad_token()),
    }
}

/// `POST /api/notify/unsubscribe/{token}`: the one-click unsubscribe of every mail (RFC
/// 8058: mail clients POST `List-Unsubscribe=One-Click`; the body is not needed). Turns
/// off every e-mail event of the address's account.
pub async fn one_click_unsubscribe(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<Unsubscribed>> {
    let store = &state.reach.store;
    let user = store
        .user_of_unsubscribe(&token)
        .await?
        .ok_or_else(bad_token)?;
    let mut prefs = state.reach.prefs(&user).await?;
    prefs.email.values_mut().for_each(|on| *on = false);
    let json = serde_json::to_string(&prefs).map_err(ApiError::internal)?;
    store.set_notify_prefs(&user, &json).await?;
    Ok(Json(Unsubscribed { unsubscribed: true }))
}
