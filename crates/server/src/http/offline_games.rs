//! `POST /api/offline-games` (issue 50): a game the page dealt and played offline, uploaded
//! when the connection returned. The server trusts nothing of it but its record: it deals the
//! game again from (game, options, seed), plays every move through the rules, and keeps it only
//! when it is over, as an unrated finished game in the player's history ("played offline").
//! It never moves a rating and is never a daily challenge's attempt (a daily's deal comes from
//! the server's secret, which the page never had); its seats are the uploader and bots.
use crate::AppState;
use crate::db::offline_store::OfflineGame;
use crate::db::rows::{GameRow, SeatKind};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::{ApiJson, SeatSpec};
use crate::identity::Identity;
use crate::secret::random_hex;
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use pyramidion_core::ToMove;
use pyramidion_core::record::Record;
use pyramidion_games::{AnyGame, GameKind};
use serde::{Deserialize, Serialize};

/// The largest upload: a record of several hundred moves is longer than the API's usual body
/// limit (`routes::MAX_BODY`).
pub const MAX_UPLOAD: usize = 256 * 1024;

/// What the page uploads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    /// The page's own id for the game (1 to 64 letters, digits, `-` or `_`): the same game
    /// uploaded twice is kept once.
    client_id: String,
    /// game, options, seed and moves, as the engines in the page wrote them.
    record: Record,
    /// Who sat where: `me` (the uploader, exactly once) and bots of levels the game lists.
    seats: Vec<SeatSpec>,
}

/// The game kept: its id (its replay, record and history entry are the usual ones).
#[derive(Serialize)]
pub struct Uploaded {
    pub id: String,
    /// False when this game had been uploaded before (the earlier game's id is given).
    pub created: bool,
}

fn refused(message: impl Into<String>) -> ApiError {
    ApiError::new(ApiErrorCode::BadOfflineRecord, message)
}

/// `POST /api/offline-games`: `201` with the new game's id, `200` with the earlier one's for a
/// game uploaded before; `bad_offline_record` for a record that does not replay or seats that
/// do not fit, `offline_not_over` for a game not played to its end.
pub async fn upload(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(up): ApiJson<Upload>,
) -> ApiResult<(StatusCode, Json<Uploaded>)> {
    let valid_id = (1..=64).contains(&up.client_id.len())
        && up
            .client_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid_id {
        return Err(refused("client_id: 1 to 64 letters, digits, '-' or '_'"));
    }
    let game = checked(&up, &identity.user_id)?;
    let (id, created) = state.store.store_offline_game(game).await?;
    if created {
        tracing::info!(game = %id, "offline game kept");
    }
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(Uploaded { id, created })))
}

/// The upload replayed by the rules and made into the rows stored, or why it is refused.
fn checked(up: &Upload, user: &str) -> ApiResult<OfflineGame> {
    let record = &up.record;
    let kind: GameKind = record
        .game
        .parse()
        .map_err(|e: pyramidion_games::UnknownGame| refused(e.to_string()))?;
    // Seeds are stored as signed 64-bit integers (the server draws them below 2^63).
    if record.seed > i64::MAX as u64 {
        return Err(refused("seed: at most 2^63 - 1"));
    }
    let mut game = AnyGame::new(kind, &record.options, record.seed)
        .map_err(|e| refused(format!("options ({}): {}", e.code, e.message)))?;
    let seats = seats_of(kind, &up.seats, game.seats(), user)?;
    let mut moves = Vec::with_capacity(record.moves.len());
    for (ply, text) in record.moves.iter().enumerate() {
        let ToMove::Seat(seat) = game.to_move() else {
            return Err(refused(format!("move {}: the game was over", ply + 1)));
        };
        let played = game
            .play_text(text)
            .map_err(|e| refused(format!("move {} ({}): {}", ply + 1, e.code, e.message)))?;
        let by_bot = matches!(seats[usize::from(seat.0)], SeatKind::Bot(_));
        moves.push((played.full.text, by_bot));
    }
    let Some(outcome) = game.outcome() else {
        return Err(ApiError::new(
            ApiErrorCode::OfflineNotOver,
            "the game is not over: only a finished game is kept",
        ));
    };
    // Stored as a room stores a game that ended by its rules: nobody resigned, nobody absent.
    let outcome = crate::live::endings::final_outcome(outcome, &[], &[]);
    let result = serde_json::to_string(&crate::live::endings::FinishedResult {
        outcome: &outcome,
        resigned: &[],
        absent: &[],
    })
    .map_err(ApiError::internal)?;
    let now = now_ms();
    Ok(OfflineGame {
        row: GameRow {
            id: random_hex(8),
            kind,
            // As the rules understood them (defaults filled in), so that it replays whatever
            // the defaults become.
            options: game.options().to_string(),
            seed: record.seed,
            status: crate::game_status::GameStatus::Finished,
            // Not offered to anyone in the lobby; its player finds it in their history.
            listed: false,
            invite: random_hex(12),
            clock: None,
            clock_state: None,
            to_move: None,
            created_by: user.to_string(),
            result: Some(result),
            created_at: now,
            rated: false,
            finished_at: Some(now),
        },
        seats,
        moves,
        client_id: up.client_id.clone(),
    })
}

/// The stored seats of an upload: the uploader once, bots of levels the game lists.
fn seats_of(kind: GameKind, specs: &[SeatSpec], count: u8, user: &str) -> ApiResult<Vec<SeatKind>> {
    if specs.len() != usize::from(count) {
        return Err(refused(format!(
            "this game has {count} seats, {} given",
            specs.len()
        )));
    }
    let mut seats = Vec::with_capacity(specs.len());
    for spec in specs {
        seats.push(match spec {
            SeatSpec::Me => SeatKind::Human(user.to_string()),
            SeatSpec::Bot { level } => {
                if kind.descriptor().bot_level(&level.name()).is_none() {
                    return Err(ApiError::new(
                        ApiErrorCode::UnknownBotLevel,
                        format!("unknown bot level '{level}'"),
                    ));
                }
                SeatKind::Bot(*level)
            }
            SeatSpec::Open | SeatSpec::Invite | SeatSpec::Friend { .. } => {
                return Err(refused(
                    "an offline game's seats are its player (\"me\") and bots",
                ));
            }
        });
    }
    let mine = seats
        .iter()
        .filter(|s| matches!(s, SeatKind::Human(_)))
        .count();
    if mine != 1 {
        return Err(refused(
            "an offline game has exactly one seat of type \"me\"",
        ));
    }
    Ok(seats)
}
