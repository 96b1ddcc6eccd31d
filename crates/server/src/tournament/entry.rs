//! Who may enter a tournament: everyone (`open`), whoever holds its invite link (`invite`),
//! or the members of a club (`club`). This is the one place that asks whether a user is a
//! member ([`club_member`], the clubs' store: `crate::social`).
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Open,
    Invite,
    Club(String),
}

impl Entry {
    /// The stored text (`tournaments.entry`); a club's id is stored in `club_id`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Entry::Open => "open",
            Entry::Invite => "invite",
            Entry::Club(_) => "club",
        }
    }

    pub fn read(entry: &str, club: Option<String>) -> Option<Entry> {
        match (entry, club) {
            ("open", _) => Some(Entry::Open),
            ("invite", _) => Some(Entry::Invite),
            ("club", Some(club)) => Some(Entry::Club(club)),
            _ => None,
        }
    }

    pub fn club(&self) -> Option<&str> {
        match self {
            Entry::Club(c) => Some(c),
            _ => None,
        }
    }
}

/// Whether `user` is a member of `club` (pending, banned and removed players are not).
pub async fn club_member(state: &AppState, club: &str, user: &str) -> ApiResult<bool> {
    state
        .store
        .is_club_member(club, user)
        .await
        .map_err(ApiError::internal)
}

/// Checks that `user` may enter under `entry`, given the invite they came with.
pub async fn may_enter(
    state: &AppState,
    entry: &Entry,
    invite: &str,
    given: Option<&str>,
    user: &str,
) -> ApiResult<()> {
    let ok = match entry {
        Entry::Open => true,
        Entry::Invite => given == Some(invite),
        Entry::Club(club) => given == Some(invite) || club_member(state, club, user).await?,
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            ApiErrorCode::BadInvite,
            "this tournament takes entries by its invite link (or club membership) only",
        ))
    }
}
