//! Bounds on chat reports (issue 54): a report costs its reader nothing and lands on the
//! operator's list (`pyramidion moderation`), so fresh guests made by the dozen could bury the
//! real ones. Reports are counted over 24 hours per user (an account's
//! `Limits::reports_per_day`, a guest's far fewer: `Limits::guest_reports_per_day`) and per
//! client address (`Limits::reports_per_address`, an IPv6 client by its /64: guests made from
//! one address are one reporter), and each says whether a guest made it, for the operator to
//! weigh. The counts are read from the stored reports, so every instance and a restart see
//! the same ones.
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use crate::live::context::Context;
use crate::wall_clock::now_ms;
use sqlx::Row;
use std::net::IpAddr;

/// The window of the report caps.
pub const REPORT_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// Who reports: the user, whether a guest, and the key of their client address.
pub struct Reporter<'a> {
    pub user: &'a str,
    pub guest: bool,
    pub address: String,
}

impl<'a> Reporter<'a> {
    pub fn new(identity: &'a Identity, ip: IpAddr) -> Self {
        Reporter {
            user: &identity.user_id,
            guest: identity.guest,
            address: crate::rate_limits::address_key(ip).to_string(),
        }
    }
}

/// Refuses a report (`429 rate_limited`) once its user or its address made as many in the
/// last 24 hours as allowed.
pub async fn within_caps(state: &Context, reporter: &Reporter<'_>) -> ApiResult<()> {
    let limits = &state.config.limits;
    let since = now_ms() - REPORT_WINDOW_MS;
    let count = |sql: &'static str, value: String| async move {
        let row = sqlx::query(sql)
            .bind(value)
            .bind(since)
            .fetch_one(&mut *state.store.read().await?)
            .await
            .map_err(ApiError::database)?;
        row.try_get::<i64, _>("n").map_err(ApiError::internal)
    };
    let (per_user, whose) = if reporter.guest {
        (limits.guest_reports_per_day, "a guest")
    } else {
        (limits.reports_per_day, "an account")
    };
    if count(
        "SELECT COUNT(*) AS n FROM chat_reports WHERE reporter = $1 AND at > $2",
        reporter.user.to_string(),
    )
    .await?
        >= per_user as i64
    {
        return Err(ApiError::new(
            ApiErrorCode::RateLimited,
            format!("{whose} may report at most {per_user} messages in 24 hours"),
        ));
    }
    let per_address = limits.reports_per_address;
    if count(
        "SELECT COUNT(*) AS n FROM chat_reports WHERE address = $1 AND at > $2",
        reporter.address.clone(),
    )
    .await?
        >= per_address as i64
    {
        return Err(ApiError::new(
            ApiErrorCode::RateLimited,
            format!("at most {per_address} messages are reported from one address in 24 hours"),
        ));
    }
    Ok(())
}
