//! Accounts: who am I (a guest identity on the first visit), sign up, sign in, sign out.
//! Password hashing runs off the runtime, a few at a time.
use crate::AppState;
use crate::db::rows::UserRow;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::ApiJson;
use crate::http::auth::{
    clear_cookie, end_session, hash_password, needs_rehash, over_https, start_session,
    verify_password,
};
use crate::http::client_ip::ClientIp;
use crate::identity::Identity;
use crate::secret::random_hex;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::Serialize;

/// Who I am: my user id, the name shown for me, whether I am a guest.
#[derive(Serialize)]
pub struct Me<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub guest: bool,
}

/// The answer of a logout.
#[derive(Serialize)]
pub struct LoggedOut {
    pub ok: bool,
}

fn with_cookie(cookie: String, body: impl Serialize) -> Response {
    ([(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

fn me_json<'a>(id: &'a str, name: &'a str, guest: bool) -> Me<'a> {
    Me { id, name, guest }
}

/// Runs a password hash off the runtime, at most `hash_concurrency` at once: each takes
/// ~19 MiB and tens of milliseconds, so a burst of logins must queue, not run all at once. A
/// request that waits longer than `hash_wait` is answered `503 unavailable`.
async fn hashing<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce() -> T + Send + 'static,
) -> ApiResult<T> {
    let wait = state.config.limits.hash_wait;
    let permit = tokio::time::timeout(wait, state.hashing.clone().acquire_owned())
        .await
        .map_err(|_| {
            ApiError::new(
                ApiErrorCode::Unavailable,
                "too many sign-ins at once: try again in a moment",
            )
        })?
        .map_err(ApiError::internal)?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f()
    })
    .await
    .map_err(ApiError::internal)
}

/// Who am I? Creates a guest identity (and its session cookie) on the first visit.
pub async fn me(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(id) = Identity::from_headers(&state, &headers).await? {
        return Ok(Json(me_json(&id.user_id, &id.display_name(), id.guest)).into_response());
    }
    if !state.guest_limit.allow(ip) {
        return Err(ApiError::new(
            ApiErrorCode::TooManyGuests,
            "too many new guests from this address: try again later, or sign in",
        ));
    }
    let user_id = random_hex(12);
    state.store.create_user(&user_id, None, None, true).await?;
    let cookie = start_session(&state, &headers, &user_id).await?;
    let guest = Identity {
        user_id: user_id.clone(),
        name: None,
        guest: true,
    };
    Ok(with_cookie(
        cookie,
        me_json(&user_id, &guest.display_name(), true),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The name to store (NFKC) once the name and password are acceptable.
fn check_credentials(c: &Credentials) -> ApiResult<String> {
    let name =
        crate::names::check(&c.name).map_err(|e| ApiError::new(ApiErrorCode::BadName, e.0))?;
    if !(8..=128).contains(&c.password.chars().count()) {
        return Err(ApiError::new(
            ApiErrorCode::BadPassword,
            "passwords have 8–128 characters",
        ));
    }
    Ok(name.name)
}

/// Creates an account; a guest who registers keeps its identity and games.
pub async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(c): ApiJson<Credentials>,
) -> ApiResult<Response> {
    let name = check_credentials(&c)?;
    let taken = || ApiError::conflict(ApiErrorCode::NameTaken, "that name is taken");
    // A name (or a look-alike) already taken is refused before anything is counted: trying
    // a few names is not a burst of accounts. Checked again when the account is written.
    if state.store.user_by_name(&name).await?.is_some() {
        return Err(taken());
    }
    // Counted before the (costly) hash: a burst of accounts from one address is stopped.
    if !state.register_limit.allow(ip) {
        return Err(ApiError::new(
            ApiErrorCode::TooManyRegistrations,
            "too many new accounts from this address: try again later",
        ));
    }
    let cost = state.config.hash_cost;
    let password = c.password.clone();
    let hash = hashing(&state, move || hash_password(&password, cost)).await?;
    // Only a unique violation means the name is taken; any other failure is the server's.
    let refused = |e: crate::db::error::StoreError| {
        if e.is_unique_violation() {
            taken()
        } else {
            e.into()
        }
    };
    if let Some(id) = Identity::from_headers(&state, &headers).await?
        && id.guest
    {
        if !state
            .store
            .upgrade_guest(&id.user_id, &name, &hash)
            .await
            .map_err(refused)?
        {
            return Err(taken());
        }
        // Same identity, new privileges: a new session id.
        let cookie = start_session(&state, &headers, &id.user_id).await?;
        return Ok(with_cookie(cookie, me_json(&id.user_id, &name, false)));
    }
    if state.store.user_by_name(&name).await?.is_some() {
        return Err(taken());
    }
    let user_id = random_hex(12);
    state
        .store
        .create_user(&user_id, Some(&name), Some(&hash), false)
        .await
        .map_err(refused)?;
    let cookie = start_session(&state, &headers, &user_id).await?;
    Ok(with_cookie(cookie, me_json(&user_id, &name, false)))
}

pub async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(c): ApiJson<Credentials>,
) -> ApiResult<Response> {
    let wrong = || ApiError::unauthorized("wrong name or password");
    let cost = state.config.hash_cost;
    let (user_id, name, hash) = match state.store.user_by_name(&c.name).await? {
        Some(UserRow {
            id,
            name,
            password_hash: Some(hash),
            guest: false,
        }) => (Some(id), name, Some(hash)),
        // No such account: a password is checked all the same, so that the answer takes as
        // long as a wrong password's and does not tell which names exist.
        _ => (None, None, None),
    };
    let password = c.password.clone();
    let (ok, rehashed) = hashing(&state, move || {
        let Some(hash) = hash else {
            let _ = verify_password(&password, dummy_hash(cost));
            return (false, None);
        };
        let ok = verify_password(&password, &hash);
        // A hash in the format of earlier versions becomes a PHC string.
        let rehashed = (ok && needs_rehash(&hash)).then(|| hash_password(&password, cost));
        (ok, rehashed)
    })
    .await?;
    let (true, Some(user_id)) = (ok, user_id) else {
        return Err(wrong());
    };
    if let Some(phc) = rehashed {
        state.store.set_password_hash(&user_id, &phc).await?;
    }
    let cookie = start_session(&state, &headers, &user_id).await?;
    let name = name.unwrap_or(c.name);
    Ok(with_cookie(cookie, me_json(&user_id, &name, false)))
}

/// A hash of a password nobody has, at the server's cost: what an unknown name is checked
/// against.
fn dummy_hash(cost: crate::http::auth::HashCost) -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password(&random_hex(16), cost))
}

pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    end_session(&state, &headers).await?;
    Ok(with_cookie(
        clear_cookie(over_https(&state, &headers)),
        LoggedOut { ok: true },
    ))
}
