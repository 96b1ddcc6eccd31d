//! Who may enter a tournament: everyone (`open`), whoever holds its invite link (`invite`),
//! or the members of a club (`club`). Clubs are another branch's work (issue 49 item 3): this
//! is the one place that asks whether a user is a member ([`club_member`]), so that it can
//! be filled in without touching the rest.
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

/// Whether `user` is a member of `club`. No clubs exist on this branch: nobody is a member,
/// and creating a club tournament is refused (`crate::http::tournaments::create`) until
/// clubs fill this in.
pub async fn club_member(_state: &AppState, _club: &str, _user: &str) -> ApiResult<bool> {
    Ok(false)
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
