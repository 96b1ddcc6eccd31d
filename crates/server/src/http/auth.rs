//! Accounts, guests and sessions. Passwords: argon2id. Sessions: a random token in an
//! `HttpOnly; SameSite=Strict` cookie; only its hash is stored.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::identity::Identity;
use crate::secret::{random_hex, token_hash};
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

pub const COOKIE: &str = "pyr_session";

/// Cost of password hashing; tests use a cheap one.
#[derive(Clone, Copy, Debug)]
pub struct HashCost {
    pub memory_kib: u32,
    pub iterations: u32,
}

impl Default for HashCost {
    fn default() -> Self {
        // OWASP's argon2id minimum: 19 MiB, 2 passes.
        HashCost {
            memory_kib: 19 * 1024,
            iterations: 2,
        }
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    s.len()
        .is_multiple_of(2)
        .then(|| {
            (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
                .collect()
        })
        .flatten()
}

fn argon(cost: HashCost) -> Argon2<'static> {
    let params = Params::new(cost.memory_kib, cost.iterations, 1, Some(32))
        .expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A standard PHC string (`$argon2id$v=19$m=…,t=…,p=1$<salt>$<hash>`), through the argon2
/// crate's own password-hash API (random salt included).
pub fn hash_password(password: &str, cost: HashCost) -> String {
    argon(cost)
        .hash_password(password.as_bytes())
        .expect("argon2 hashes")
        .to_string()
}

/// Checks a password against a stored hash: a PHC string, or the format this server stored
/// before (`argon2id$<memory>$<iterations>$<salt hex>$<hash hex>`), which still verifies.
pub fn verify_password(password: &str, stored: &str) -> bool {
    if stored.starts_with('$') {
        // The parameters come from the PHC string, not from the `Argon2` instance.
        return PasswordHash::new(stored).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        });
    }
    verify_legacy(password, stored)
}

/// Whether a stored hash should be replaced by a PHC string (at the next sign-in, when the
/// password is at hand).
pub fn needs_rehash(stored: &str) -> bool {
    !stored.starts_with("$argon2id$")
}

/// The hash format of earlier versions (kept so that their accounts can still sign in).
fn verify_legacy(password: &str, stored: &str) -> bool {
    let parts: Vec<&str> = stored.split('$').collect();
    let [alg, m, t, salt, hash] = parts.as_slice() else {
        return false;
    };
    let (Ok(m), Ok(t), Some(salt), Some(hash)) = (m.parse(), t.parse(), unhex(salt), unhex(hash))
    else {
        return false;
    };
    if *alg != "argon2id" || hash.len() != 32 {
        return false;
    }
    let mut out = [0u8; 32];
    if argon(HashCost {
        memory_kib: m,
        iterations: t,
    })
    .hash_password_into(password.as_bytes(), &salt, &mut out)
    .is_err()
    {
        return false;
    }
    // Constant time: every byte is compared.
    out.iter().zip(&hash).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// The session cookie (built by `axum-extra`'s cookie type): `HttpOnly; SameSite=Strict`, and
/// `Secure` when served over HTTPS.
pub fn session_cookie(token: &str, max_age_seconds: u64, secure: bool) -> String {
    let age = cookie::time::Duration::seconds(max_age_seconds.min(i64::MAX as u64) as i64);
    Cookie::build((COOKIE, token.to_string()))
        .http_only(true)
        .same_site(SameSite::Strict)
        .path("/")
        .max_age(age)
        .secure(secure)
        .build()
        .to_string()
}

/// A cookie that ends the session in the browser.
pub fn clear_cookie(secure: bool) -> String {
    session_cookie("", 0, secure)
}

/// Whether the client reached the server over HTTPS: the `--secure-cookies` setting, or a
/// reverse proxy's `X-Forwarded-Proto: https`.
pub fn over_https(state: &AppState, headers: &HeaderMap) -> bool {
    state.config.secure_cookies
        || headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(',')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .eq_ignore_ascii_case("https")
            })
}

pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

impl Identity {
    pub async fn from_headers(
        state: &AppState,
        headers: &HeaderMap,
    ) -> ApiResult<Option<Identity>> {
        let Some(token) = cookie_token(headers) else {
            return Ok(None);
        };
        let Some(user_id) = state
            .store
            .session_user(&token_hash(&token), session_cutoff(state))
            .await?
        else {
            return Ok(None);
        };
        let Some(user) = state.store.user(&user_id).await? else {
            return Ok(None);
        };
        Ok(Some(Identity {
            user_id,
            name: user.name,
            guest: user.guest,
        }))
    }
}

impl FromRequestParts<AppState> for Identity {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let identity = Identity::from_headers(state, &parts.headers)
            .await?
            .ok_or_else(|| {
                ApiError::unauthorized("sign in or visit /api/me for a guest identity first")
            })?;
        // The bot pool shares its work by client address (issue 54): where this user is.
        if let Some(crate::http::client_ip::ClientIp(ip)) = parts.extensions.get() {
            state.bots.note_origin(&identity.user_id, *ip);
        }
        Ok(identity)
    }
}

/// Sessions started at or before this time (ms) have expired.
pub fn session_cutoff(state: &AppState) -> i64 {
    crate::wall_clock::now_ms() - state.config.limits.session_ttl.as_millis() as i64
}

/// Creates a session for `user_id` and ends the request's previous session, if any (a new
/// identity or privilege level gets a new session id); returns the cookie to set.
pub async fn start_session(
    state: &AppState,
    headers: &HeaderMap,
    user_id: &str,
) -> ApiResult<String> {
    end_session(state, headers).await?;
    let token = random_hex(32);
    state
        .store
        .create_session(&token_hash(&token), user_id)
        .await?;
    Ok(session_cookie(
        &token,
        state.config.limits.session_ttl.as_secs(),
        over_https(state, headers),
    ))
}

/// Deletes the request's session (if any) and closes the WebSockets opened with it.
pub async fn end_session(state: &AppState, headers: &HeaderMap) -> ApiResult<()> {
    if let Some(token) = cookie_token(headers) {
        let hash = token_hash(&token);
        state.store.delete_session(&hash).await?;
        let _ = state.signed_out.send(hash);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::hex;

    /// How earlier versions stored hashes.
    fn legacy_hash(password: &str, cost: HashCost) -> String {
        let salt = [7u8; 16];
        let mut out = [0u8; 32];
        argon(cost)
            .hash_password_into(password.as_bytes(), &salt, &mut out)
            .unwrap();
        format!(
            "argon2id${}${}${}${}",
            cost.memory_kib,
            cost.iterations,
            hex(&salt),
            hex(&out)
        )
    }

    #[test]
    fn hashes_are_phc_strings_and_old_hashes_still_verify() {
        let cost = HashCost {
            memory_kib: 64,
            iterations: 1,
        };
        let h = hash_password("hunter22", cost);
        assert!(h.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{h}");
        assert!(PasswordHash::new(&h).is_ok());
        assert!(!needs_rehash(&h));
        let old = legacy_hash("hunter22", cost);
        assert!(verify_password("hunter22", &old));
        assert!(!verify_password("hunter23", &old));
        assert!(needs_rehash(&old));
        assert!(!verify_password("hunter22", "$argon2id$v=19$garbage"));
    }

    #[test]
    fn passwords_verify_and_reject() {
        let cost = HashCost {
            memory_kib: 64,
            iterations: 1,
        };
        let h = hash_password("hunter22", cost);
        assert!(verify_password("hunter22", &h));
        assert!(!verify_password("hunter23", &h));
        assert!(!verify_password("hunter22", "garbage"));
        assert!(!verify_password("hunter22", "argon2id$x$1$00$00"));
        assert_ne!(hash_password("hunter22", cost), h, "salted");
    }

    #[test]
    fn cookies_are_parsed_from_any_header_position() {
        let mut h = HeaderMap::new();
        h.insert(
            axum::http::header::COOKIE,
            "a=1; pyr_session=abc; b=2".parse().unwrap(),
        );
        assert_eq!(cookie_token(&h).as_deref(), Some("abc"));
        assert!(
            session_cookie("t", 60, false).contains("HttpOnly")
                && session_cookie("t", 60, false).contains("SameSite=Strict")
                && session_cookie("t", 60, false).contains("Max-Age=60")
                && !session_cookie("t", 60, false).contains("Secure")
                && session_cookie("t", 60, true).contains("; Secure")
        );
    }
}
