//! Clubs (issue 49 item 3): an account creates one (its owner), others join it (open, on
//! approval, or with its invite link), moderators approve, remove and ban, the owner names
//! moderators. A club's page lists its members, their recent games and their ratings per
//! game; a club's tables are for its members (`crate::social::audience`). Club names are checked
//! like account names (`crate::names`: look-alikes are one name).
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::ApiJson;
use crate::http::friends::account;
use crate::identity::Identity;
use crate::social::club_role::{Admission, Moderation, Role};
use crate::social::club_store::ClubRow;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

/// Clubs one account may own.
pub const MAX_OWNED: i64 = 5;
/// Characters in a club's description.
pub const MAX_DESCRIPTION: usize = 500;
/// Recent games on a club's page.
const RECENT: i64 = 20;
/// Clubs a search lists.
const LISTED: i64 = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewClub {
    name: String,
    #[serde(default)]
    description: String,
    admission: Admission,
}

/// A club as a list shows it.
#[derive(Serialize)]
pub struct ClubLine {
    pub id: String,
    pub name: String,
    pub description: String,
    pub admission: Admission,
    /// The viewer's standing, if any.
    pub role: Option<Role>,
}

fn line(c: ClubRow, role: Option<Role>) -> ClubLine {
    ClubLine {
        id: c.id,
        name: c.name,
        description: c.description,
        admission: c.admission,
        role,
    }
}

/// `POST /api/clubs`: a new club, its creator its owner.
pub async fn create(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(new): ApiJson<NewClub>,
) -> ApiResult<(StatusCode, Json<ClubLine>)> {
    account(&identity, "a club")?;
    let name =
        crate::names::check(&new.name).map_err(|e| ApiError::new(ApiErrorCode::BadName, e.0))?;
    let description = new.description.trim().to_string();
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(ApiError::bad_request(format!(
            "a club's description has at most {MAX_DESCRIPTION} characters"
        )));
    }
    if state.store.clubs_owned(&identity.user_id).await? >= MAX_OWNED {
        return Err(ApiError::new(
            ApiErrorCode::TooManyClubs,
            format!("an account owns at most {MAX_OWNED} clubs"),
        ));
    }
    let club = ClubRow {
        id: crate::secret::random_hex(8),
        name: name.name,
        description,
        admission: new.admission,
        invite: crate::secret::random_hex(12),
        created_by: identity.user_id.clone(),
        created_at: crate::wall_clock::now_ms(),
    };
    if !state.store.create_club(&club, &name.key).await? {
        return Err(ApiError::conflict(
            ApiErrorCode::ClubNameTaken,
            "a club has that name (or one that looks like it)",
        ));
    }
    tracing::info!(club = %club.id, "club created");
    Ok((StatusCode::CREATED, Json(line(club, Some(Role::Owner)))))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Search {
    #[serde(default)]
    q: String,
}

#[derive(Serialize)]
pub struct ClubList {
    pub clubs: Vec<ClubLine>,
    /// The viewer's own clubs (an account's; empty for a guest or nobody).
    pub mine: Vec<ClubLine>,
}

/// `GET /api/clubs[?q=PREFIX]`: clubs by name, and the viewer's own.
pub async fn list(
    State(state): State<AppState>,
    Query(search): Query<Search>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<ClubList>> {
    if search.q.contains('\0') {
        return Err(ApiError::bad_request(
            "no club's name holds a NUL character",
        ));
    }
    let viewer = Identity::from_headers(&state, &headers).await?;
    let mine = match &viewer {
        Some(v) if !v.guest => state
            .store
            .clubs_of(&v.user_id)
            .await?
            .into_iter()
            .map(|(c, r)| line(c, Some(r)))
            .collect(),
        _ => Vec::new(),
    };
    let mut clubs = Vec::new();
    for c in state.store.search_clubs(search.q.trim(), LISTED).await? {
        let role = match &viewer {
            Some(v) => state.store.club_role(&c.id, &v.user_id).await?,
            None => None,
        };
        clubs.push(line(c, role));
    }
    Ok(Json(ClubList { clubs, mine }))
}

/// A member as a club's page lists them.
#[derive(Serialize)]
pub struct Member {
    pub user: String,
    pub name: String,
    pub role: Role,
    pub since: i64,
}

/// A member's rating (rounded) on a club's standings.
#[derive(Serialize)]
pub struct Standing {
    pub user: String,
    pub name: String,
    pub rating: f64,
    pub games: i64,
    pub provisional: bool,
}

/// A game's standings among a club's members.
#[derive(Serialize)]
pub struct GameStandings {
    pub game: String,
    pub players: Vec<Standing>,
}

/// A club's page.
#[derive(Serialize)]
pub struct ClubPage {
    pub id: String,
    pub name: String,
    pub description: String,
    pub admission: Admission,
    pub created_at: i64,
    /// The viewer's standing, if any.
    pub role: Option<Role>,
    /// The members (owner, moderators, members); to moderators also the pending requests and
    /// the banned users.
    pub members: Vec<Member>,
    /// The invite token (moderators only): `POST /api/clubs/{id}/join {"invite": …}`.
    pub invite: Option<String>,
    /// The latest finished listed games of its members, as history entries.
    pub recent: Vec<crate::http::history::HistoryEntry>,
    /// Per game, its members' ratings, best first.
    pub standings: Vec<GameStandings>,
    /// Open tables kept for its members (to its members only).
    pub tables: Vec<crate::table_view::Table>,
}

pub(crate) async fn club_or_404(state: &AppState, id: &str) -> ApiResult<ClubRow> {
    if !crate::live::visibility::plausible_id(id) {
        return Err(ApiError::not_found("no such club"));
    }
    state
        .store
        .club(id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such club"))
}

/// `GET /api/clubs/{id}`.
pub async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<ClubPage>> {
    let club = club_or_404(&state, &id).await?;
    let viewer = Identity::from_headers(&state, &headers).await?;
    let me = viewer.as_ref().map(|v| v.user_id.as_str());
    let role = match me {
        Some(me) => state.store.club_role(&club.id, me).await?,
        None => None,
    };
    let moderator = role.is_some_and(Role::moderates);
    let members = state
        .store
        .club_members(&club.id)
        .await?
        .into_iter()
        .filter(|m| moderator || m.role.is_member())
        .map(|m| Member {
            name: crate::identity::display_name(&m.user, m.name.as_deref()),
            user: m.user,
            role: m.role,
            since: m.since,
        })
        .collect();
    let mut recent = Vec::new();
    for game in state.store.club_recent_games(&club.id, RECENT).await? {
        if let Some(row) = state.store.game(&game).await? {
            let seats = state.store.seats(&game).await?;
            // Seen from its first seated member's side.
            let who = seats
                .iter()
                .find_map(|s| match s {
                    crate::db::rows::SeatKind::Human(u) => Some(u.clone()),
                    _ => None,
                })
                .unwrap_or_default();
            recent.push(crate::http::history::entry(&state, &row, &seats, &who, None).await?);
        }
    }
    let mut standings: Vec<GameStandings> = Vec::new();
    for r in state.store.club_ratings(&club.id).await? {
        let standing = Standing {
            name: crate::identity::display_name(&r.user, r.name.as_deref()),
            user: r.user,
            rating: r.rating.round(),
            games: r.games,
            provisional: r.deviation > crate::db::ratings::PROVISIONAL_DEVIATION,
        };
        match standings.last_mut() {
            Some(g) if g.game == r.game => g.players.push(standing),
            _ => standings.push(GameStandings {
                game: r.game,
                players: vec![standing],
            }),
        }
    }
    let mut tables = Vec::new();
    if role.is_some_and(Role::is_member) {
        for row in state.store.club_open_tables(&club.id).await? {
            let seats = state.store.seats(&row.id).await?;
            tables.push(crate::http::api::table_of(&state, &row, &seats, me).await?);
        }
    }
    Ok(Json(ClubPage {
        id: club.id,
        name: club.name,
        description: club.description,
        admission: club.admission,
        created_at: club.created_at,
        role,
        members,
        invite: moderator.then_some(club.invite),
        recent,
        standings,
        tables,
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinClub {
    #[serde(default)]
    invite: Option<String>,
}

/// The viewer's standing after a join or a leave.
#[derive(Serialize)]
pub struct ClubStanding {
    pub club: String,
    pub role: Option<Role>,
}

/// `POST /api/clubs/{id}/join` (body `{}` or `{"invite": …}`): a member at once (open club,
/// or a valid invite), a pending request (approval club), `403 bad_invite` (invite club
/// without it, or a wrong one), `403 club_banned`.
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
    ApiJson(body): ApiJson<JoinClub>,
) -> ApiResult<Json<ClubStanding>> {
    account(&identity, "a club")?;
    let club = club_or_404(&state, &id).await?;
    let me = identity.user_id.as_str();
    let now = state.store.club_role(&club.id, me).await?;
    if now == Some(Role::Banned) {
        return Err(ApiError::new(
            ApiErrorCode::ClubBanned,
            "this club's moderators banned you",
        ));
    }
    if let Some(role) = now.filter(|r| r.is_member()) {
        return Ok(Json(ClubStanding {
            club: club.id,
            role: Some(role),
        }));
    }
    let invited = match body.invite.as_deref() {
        None => false,
        Some(token) if token == club.invite => true,
        Some(_) => {
            return Err(ApiError::new(
                ApiErrorCode::BadInvite,
                "that invite link is not valid for this club",
            ));
        }
    };
    let role = match (club.admission, invited) {
        (Admission::Open, _) | (_, true) => Role::Member,
        (Admission::Approval, false) => Role::Pending,
        (Admission::Invite, false) => {
            return Err(ApiError::new(
                ApiErrorCode::BadInvite,
                "this club is joined with its invite link only",
            ));
        }
    };
    state.store.set_club_role(&club.id, me, role).await?;
    Ok(Json(ClubStanding {
        club: club.id,
        role: Some(role),
    }))
}

/// `POST /api/clubs/{id}/leave`: out of the club (or a request withdrawn); the owner stays
/// (`409 club_owner_stays`); a banned user stays banned.
pub async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<Json<ClubStanding>> {
    let club = club_or_404(&state, &id).await?;
    let role = state.store.club_role(&club.id, &identity.user_id).await?;
    match role {
        Some(Role::Owner) => {
            return Err(ApiError::conflict(
                ApiErrorCode::ClubOwnerStays,
                "the owner of a club stays in it",
            ));
        }
        Some(Role::Banned) => {}
        Some(_) => {
            state
                .store
                .drop_club_member(&club.id, &identity.user_id)
                .await?
        }
        None => {}
    }
    let role = role.filter(|r| *r == Role::Banned);
    Ok(Json(ClubStanding {
        club: club.id,
        role,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moderate {
    action: Moderation,
}

/// `POST /api/clubs/{id}/members/{user}` (body `{"action": "approve" | "remove" | "ban" |
/// "unban" | "promote" | "demote"}`): `403 not_club_moderator` unless the asker's role may
/// act on the user's (`Role::may_moderate`; promote and demote are the owner's);
/// `409 club_owner_stays` on the owner. Answers the user's new standing.
pub async fn moderate(
    State(state): State<AppState>,
    Path((id, user)): Path<(String, String)>,
    identity: Identity,
    ApiJson(body): ApiJson<Moderate>,
) -> ApiResult<Json<ClubStanding>> {
    let club = club_or_404(&state, &id).await?;
    let mine = state.store.club_role(&club.id, &identity.user_id).await?;
    let user = crate::social::lookup::user_by_id_or_name(&state, &user).await?;
    let theirs = state.store.club_role(&club.id, &user).await?;
    let refused = || {
        ApiError::new(
            ApiErrorCode::NotClubModerator,
            "only this club's moderators (and for roles its owner) may do that",
        )
    };
    let mine = mine.filter(|r| r.moderates()).ok_or_else(refused)?;
    if theirs == Some(Role::Owner) {
        return Err(ApiError::conflict(
            ApiErrorCode::ClubOwnerStays,
            "the owner of a club cannot be removed, banned or demoted",
        ));
    }
    // A ban reaches someone with no standing yet too (kept out before they ask).
    if let Some(theirs) = theirs
        && !mine.may_moderate(theirs)
    {
        return Err(refused());
    }
    let conflict = |what: &str| ApiError::bad_request(what.to_string());
    let new = match body.action {
        Moderation::Approve if theirs == Some(Role::Pending) => Some(Role::Member),
        Moderation::Approve => return Err(conflict("no request to approve")),
        Moderation::Remove => None,
        Moderation::Ban => Some(Role::Banned),
        Moderation::Unban if theirs == Some(Role::Banned) => None,
        Moderation::Unban => return Err(conflict("not banned")),
        Moderation::Promote | Moderation::Demote if mine != Role::Owner => return Err(refused()),
        Moderation::Promote if theirs == Some(Role::Member) => Some(Role::Moderator),
        Moderation::Demote if theirs == Some(Role::Moderator) => Some(Role::Member),
        Moderation::Promote | Moderation::Demote => {
            return Err(conflict("promote a member, demote a moderator"));
        }
    };
    match new {
        Some(role) => state.store.set_club_role(&club.id, &user, role).await?,
        None => state.store.drop_club_member(&club.id, &user).await?,
    }
    tracing::info!(club = %club.id, action = ?body.action, "club moderation");
    Ok(Json(ClubStanding {
        club: club.id,
        role: new,
    }))
}

#[derive(Serialize)]
pub struct MyClubs {
    pub clubs: Vec<ClubLine>,
}

/// `GET /api/me/clubs`: the clubs the account is a member of, with its role (a guest has
/// none).
pub async fn mine(State(state): State<AppState>, identity: Identity) -> ApiResult<Json<MyClubs>> {
    let clubs = if identity.guest {
        Vec::new()
    } else {
        state
            .store
            .clubs_of(&identity.user_id)
            .await?
            .into_iter()
            .map(|(c, r)| line(c, Some(r)))
            .collect()
    };
    Ok(Json(MyClubs { clubs }))
}
