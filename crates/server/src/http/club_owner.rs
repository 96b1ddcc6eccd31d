//! What only a club's owner may do (issue 49 item 3; moderators may not): rename the club
//! (the name checked like an account name, look-alikes being one name, as at its creation),
//! hand it to one of its members (the old owner stays, as a moderator), delete it (and with
//! it what only its members could join, whose players are told).
use crate::AppState;
use crate::db::rows::SeatKind;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::ApiJson;
use crate::http::clubs::{ClubStanding, MAX_OWNED, club_or_404};
use crate::identity::Identity;
use crate::live::protocol::ServerMsg;
use crate::live::stored_game::load;
use crate::live::tournament_msg::TournamentMsg;
use crate::social::club_owner_store::ClubClosed;
use crate::social::club_role::Role;
use crate::social::club_store::ClubRow;
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

/// The club, if the asker owns it; `403 not_club_owner` otherwise (a moderator included).
async fn owned(state: &AppState, id: &str, identity: &Identity) -> ApiResult<ClubRow> {
    let club = club_or_404(state, id).await?;
    if state.store.club_role(&club.id, &identity.user_id).await? != Some(Role::Owner) {
        return Err(ApiError::new(
            ApiErrorCode::NotClubOwner,
            "only this club's owner may rename it, hand it over or delete it",
        ));
    }
    Ok(club)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    name: String,
}

#[derive(Serialize)]
pub struct Renamed {
    pub id: String,
    pub name: String,
}

/// `PATCH /api/clubs/{id}` `{"name"}`: `400 bad_name`, `409 club_name_taken`.
pub async fn rename(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
    ApiJson(body): ApiJson<Rename>,
) -> ApiResult<Json<Renamed>> {
    let club = owned(&state, &id, &identity).await?;
    let name =
        crate::names::check(&body.name).map_err(|e| ApiError::new(ApiErrorCode::BadName, e.0))?;
    if !state
        .store
        .rename_club(&club.id, &name.name, &name.key)
        .await?
    {
        return Err(ApiError::conflict(
            ApiErrorCode::ClubNameTaken,
            "a club has that name (or one that looks like it)",
        ));
    }
    tracing::info!(club = %club.id, "club renamed");
    Ok(Json(Renamed {
        id: club.id,
        name: name.name,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transfer {
    /// The new owner: a user id or name, a member or moderator of the club.
    user: String,
}

/// `POST /api/clubs/{id}/owner` `{"user"}`: the user (a member or moderator) owns the club,
/// the asker becomes a moderator. `400 bad_request` (not a member, or the owner already);
/// `429 too_many_clubs` (the user owns as many as an account may).
pub async fn transfer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
    ApiJson(body): ApiJson<Transfer>,
) -> ApiResult<Json<ClubStanding>> {
    let club = owned(&state, &id, &identity).await?;
    let user = crate::social::lookup::user_by_id_or_name(&state, &body.user).await?;
    let theirs = state.store.club_role(&club.id, &user).await?;
    if !matches!(theirs, Some(Role::Member | Role::Moderator)) {
        return Err(ApiError::bad_request(
            "a club is handed to one of its members or moderators",
        ));
    }
    if state.store.clubs_owned(&user).await? >= MAX_OWNED {
        return Err(ApiError::new(
            ApiErrorCode::TooManyClubs,
            format!("an account owns at most {MAX_OWNED} clubs"),
        ));
    }
    state
        .store
        .transfer_club(&club.id, &identity.user_id, &user)
        .await?;
    tracing::info!(club = %club.id, "club handed to another owner");
    Ok(Json(ClubStanding {
        club: club.id,
        role: Some(Role::Moderator),
    }))
}

/// `DELETE /api/clubs/{id}`: the club and every standing in it are gone (`204`), and with
/// it its members-only tables still open and its tournaments not yet started
/// (`crate::social::club_owner_store::ClubClosed`), whose players are told.
pub async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<StatusCode> {
    let club = owned(&state, &id, &identity).await?;
    let members: Vec<String> = state
        .store
        .club_members(&club.id)
        .await?
        .into_iter()
        .filter(|m| m.role.is_member())
        .map(|m| m.user)
        .collect();
    // Under the lobby's lock, as a join is: no open table of the club starts meanwhile.
    let closed = {
        let _guard = state.lobby_lock.lock().await;
        state.store.delete_club(&club.id, now_ms()).await?
    };
    tracing::info!(club = %club.id, tables = closed.tables.len(), tournaments = closed.tournaments.len(), "club deleted");
    tell_closed(&state, &closed, &members).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Tells who is concerned that a deleted club's tables and tournaments closed with it: each
/// closed table reaches the players seated there and the former members' lobbies (the only
/// ones that listed it) as a `table` message, now `abandoned`; each cancelled tournament
/// reaches the tournament pages (the lobby's watchers) as a `tournament` message,
/// `cancelled`. `members`: the club's members as they were before it was deleted.
async fn tell_closed(state: &AppState, closed: &ClubClosed, members: &[String]) -> ApiResult<()> {
    for id in &closed.tables {
        let (row, seats) = load(&state.live, id).await?;
        let table = Box::new(crate::http::api::table_of(state, &row, &seats, None).await?);
        let msg = ServerMsg::Table { table };
        let seated = seats.iter().filter_map(|s| match s {
            SeatKind::Human(u) => Some(u),
            _ => None,
        });
        let mut told: Vec<&String> = Vec::new();
        for user in seated.chain(members) {
            if !told.contains(&user) {
                told.push(user);
                state.hub.to_user(user, &msg);
            }
        }
    }
    for id in &closed.tournaments {
        state
            .hub
            .to_lobby(&ServerMsg::Tournament(Box::new(TournamentMsg {
                tournament: id.clone(),
                event: "finished",
                status: "cancelled",
                round: None,
                game: None,
                standings: Vec::new(),
            })));
    }
    Ok(())
}
