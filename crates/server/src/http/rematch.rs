//! Rematch: a finished game's players at a new table, same game, options, seats and settings,
//! with a new seed. Bots keep their seats; every human seat but the asker's is kept for the
//! player who sat there (`SeatKind::Reserved`), who takes it by asking for the rematch too and
//! joining the table it answers; nobody else can take it. A game has one rematch: later asks
//! answer the same table.
use crate::AppState;
use crate::db::rows::{GameRow, SeatKind};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use crate::secret::random_hex;
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;

/// `POST /api/games/{id}/rematch`.
pub async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<(StatusCode, Json<crate::table_view::Table>)> {
    let _guard = state.lobby_lock.lock().await;
    let (old, old_seats) = crate::live::stored_game::load(&state.live, &id).await?;
    let me = identity.user_id.as_str();
    if !old_seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if u == me))
    {
        return Err(ApiError::conflict(
            ApiErrorCode::NotSeated,
            "only the game's players can ask for a rematch",
        ));
    }
    if old.status != crate::game_status::GameStatus::Finished {
        return Err(ApiError::conflict(
            ApiErrorCode::NotFinished,
            "a rematch is played once the game is over",
        ));
    }
    if let Some(existing) = state.store.rematch_of(&id).await? {
        let row = state
            .store
            .game(&existing)
            .await?
            .ok_or_else(|| ApiError::internal("a rematch row vanished"))?;
        let seats = state.store.seats(&existing).await?;
        // Each player of the old game takes the seat kept for them by joining it (no
        // invite: a kept seat is taken by its player only).
        let v = crate::http::api::table_of(&state, &row, &seats, Some(me)).await?;
        return Ok((StatusCode::OK, Json(v)));
    }
    crate::http::quotas::may_create_table(&state, &identity).await?;
    crate::http::quotas::may_take_seats(&state, me, 1).await?;
    let seats: Vec<SeatKind> = old_seats
        .iter()
        .map(|s| match s {
            // Every seat of the asker (several in a hot-seat game) is theirs again.
            SeatKind::Human(u) if u == me => SeatKind::Human(u.clone()),
            SeatKind::Bot(level) => SeatKind::Bot(*level),
            SeatKind::Human(u) => SeatKind::Reserved(u.clone()),
            _ => SeatKind::Open,
        })
        .collect();
    crate::live::bot_seats::check(&state.live, me, &seats).await?;
    let mut seed_bytes = [0u8; 8];
    getrandom::fill(&mut seed_bytes).map_err(ApiError::internal)?;
    let full = !seats.iter().any(SeatKind::is_free);
    if full {
        crate::live::capacity::admit_game(&state.live)?;
    }
    let row = GameRow {
        id: random_hex(8),
        kind: old.kind,
        options: old.options.clone(),
        seed: u64::from_le_bytes(seed_bytes) >> 1,
        status: if full {
            crate::game_status::GameStatus::Live
        } else {
            crate::game_status::GameStatus::Open
        },
        listed: false,
        invite: random_hex(12),
        clock: old.clock.clone(),
        clock_state: None,
        to_move: None,
        created_by: me.to_string(),
        result: None,
        created_at: now_ms(),
        rated: old.rated,
        finished_at: None,
    };
    state.store.create_rematch_game(&row, &seats, &id).await?;
    // The other players see the offer at once on their end screens, and hear of it if away
    // (their seats are kept for them).
    let offer = crate::live::protocol::ServerMsg::RematchOffer {
        game: id.clone(),
        table: row.id.clone(),
        by: identity.display_name(),
    };
    for seat in &seats {
        if let SeatKind::Reserved(user) = seat {
            state.hub.to_user(user, &offer);
            state.hub.away(user, &row.id, crate::reach::Kind::Rematch);
        }
    }
    if full {
        state.rooms.get(&state.live, &row.id).await?;
    }
    let v = crate::http::api::table_of(&state, &row, &seats, Some(me)).await?;
    Ok((StatusCode::CREATED, Json(v)))
}
