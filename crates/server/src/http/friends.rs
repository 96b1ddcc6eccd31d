//! Friends (issue 49 item 2): an account follows players, sees whether they are on the site
//! or playing, keeps a seat for them at a new table (a challenge: `crate::http::api`, seat
//! type `friend`) and may keep its tables for them (friends-only: `crate::social::audience`).
//! Following is one way and public in count only; guests are temporary identities, so they
//! neither follow nor are followed (`403 account_required`): they may read profiles, search
//! players and visit clubs.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;

/// Players one account may follow.
pub const MAX_FOLLOWS: i64 = 500;

/// Refuses a guest what only accounts do.
pub fn account(identity: &Identity, what: &str) -> ApiResult<()> {
    if identity.guest {
        return Err(ApiError::new(
            ApiErrorCode::AccountRequired,
            format!("{what} is for accounts: sign in or register first"),
        ));
    }
    Ok(())
}

/// The account `key` (an id or a name), refusing guests: `404` for nobody, `403
/// account_required` for a guest.
async fn followable(state: &AppState, key: &str) -> ApiResult<String> {
    let id = crate::social::lookup::user_by_id_or_name(state, key).await?;
    let user = state
        .store
        .user(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such player"))?;
    if user.guest {
        return Err(ApiError::new(
            ApiErrorCode::AccountRequired,
            "guests are temporary: only accounts can be followed",
        ));
    }
    Ok(id)
}

/// Whether the viewer follows the player now.
#[derive(Serialize)]
pub struct Following {
    pub user: String,
    pub following: bool,
}

/// `POST /api/users/{key}/follow`.
pub async fn follow(
    State(state): State<AppState>,
    Path(key): Path<String>,
    identity: Identity,
) -> ApiResult<Json<Following>> {
    account(&identity, "following players")?;
    let id = followable(&state, &key).await?;
    if id == identity.user_id {
        return Err(ApiError::bad_request("one does not follow oneself"));
    }
    if !state.store.follows(&identity.user_id, &id).await?
        && state.store.following_count(&identity.user_id).await? >= MAX_FOLLOWS
    {
        return Err(ApiError::new(
            ApiErrorCode::TooManyFollows,
            format!("an account follows at most {MAX_FOLLOWS} players"),
        ));
    }
    state.store.follow(&identity.user_id, &id).await?;
    Ok(Json(Following {
        user: id,
        following: true,
    }))
}

/// `DELETE /api/users/{key}/follow`.
pub async fn unfollow(
    State(state): State<AppState>,
    Path(key): Path<String>,
    identity: Identity,
) -> ApiResult<Json<Following>> {
    account(&identity, "following players")?;
    let id = crate::social::lookup::user_by_id_or_name(&state, &key).await?;
    state.store.unfollow(&identity.user_id, &id).await?;
    Ok(Json(Following {
        user: id,
        following: false,
    }))
}

/// A followed player and what they do now.
#[derive(Serialize)]
pub struct Friend {
    pub user: String,
    pub name: String,
    /// Connected to the site (on any instance of a cluster).
    pub online: bool,
    /// Seated at a live game.
    pub playing: bool,
    /// The listed live games they play (unlisted ones are not named: they are for those
    /// with the link).
    pub games: Vec<String>,
}

#[derive(Serialize)]
pub struct Friends {
    pub friends: Vec<Friend>,
}

/// Whether `user` has a connection open to the site, here or on another instance.
pub async fn on_site(state: &AppState, user: &str) -> bool {
    if state.hub.connected(user) {
        return true;
    }
    match &state.cluster {
        Some(cluster) => cluster.present(user).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot tell whether a player is on the site");
            false
        }),
        None => false,
    }
}

/// `GET /api/me/friends`: the players the account follows, those on the site first.
pub async fn list(State(state): State<AppState>, identity: Identity) -> ApiResult<Json<Friends>> {
    account(&identity, "a friends list")?;
    let mut friends = Vec::new();
    for f in state.store.followed_by(&identity.user_id).await? {
        let live = state.store.live_games_of(&f.user).await?;
        friends.push(Friend {
            online: on_site(&state, &f.user).await,
            playing: !live.is_empty(),
            games: live
                .into_iter()
                .filter(|(_, listed)| *listed)
                .map(|(id, _)| id)
                .collect(),
            name: crate::identity::display_name(&f.user, f.name.as_deref()),
            user: f.user,
        });
    }
    // Stable: by name within each group.
    friends.sort_by_key(|f| !(f.online || f.playing));
    Ok(Json(Friends { friends }))
}

/// A seat kept at a new table for `friend` (a challenge): only for a player the creator
/// follows (`403 not_following`); returns the friend's id.
pub async fn challenged(state: &AppState, creator: &Identity, friend: &str) -> ApiResult<String> {
    account(creator, "challenging a friend")?;
    let id = crate::social::lookup::user_by_id_or_name(state, friend).await?;
    if id == creator.user_id || !state.store.follows(&creator.user_id, &id).await? {
        return Err(ApiError::new(
            ApiErrorCode::NotFollowing,
            "a seat is kept only for a player you follow",
        ));
    }
    Ok(id)
}

/// Tells each player a seat is kept for at a new table that `by` challenges them: in the
/// page if they are on the site, by push and e-mail if not (`crate::reach`).
pub fn announce(
    state: &AppState,
    row: &crate::db::rows::GameRow,
    seats: &[crate::db::rows::SeatKind],
    by: &str,
) {
    let msg = crate::live::protocol::ServerMsg::Challenge {
        table: row.id.clone(),
        game: row.kind,
        by: by.to_string(),
    };
    for seat in seats {
        if let crate::db::rows::SeatKind::Reserved(user) = seat {
            state.hub.to_user(user, &msg);
            state.hub.away(user, &row.id, crate::reach::Kind::Challenge);
        }
    }
}
