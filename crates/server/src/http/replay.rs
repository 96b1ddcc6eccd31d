//! Replays of finished games: the move list with each move's seat and structured form, and
//! the table at any ply as any seat saw it.
//!
//! Only finished games are replayed (an unfinished one answers `409 not_finished`): once a
//! game is over nothing is hidden any more, so every seat's view at every ply may be shown to
//! anyone, and every move is given in full. A game still being played is followed live
//! instead, where each viewer gets only what its seat may see.
use crate::AppState;
use crate::db::chat_message::ChatMessage;
use crate::db::rows::GameRow;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::live::protocol::SeenMove;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use pyramidion_core::Outcome;
use pyramidion_core::{Seat, ToMove};
use pyramidion_games::AnyGame;
use serde::Deserialize;
use serde::Serialize;

/// `GET /api/games/{id}/replay`'s answer: the finished table, every move in full and the
/// game's analysis and chat.
#[derive(Serialize)]
pub struct Replay {
    pub table: crate::table_view::FinishedTable,
    pub plies: usize,
    pub moves: Vec<SeenMove>,
    pub analysis: crate::analysis::AnalysisAnswer,
    /// Both channels: the game is over.
    pub chat: Vec<ChatMessage>,
}

/// The table after some plies as one seat saw it, in the shape of a live `state` message
/// (`crate::live::protocol::StateMsg`) with the ply and the number of plies: no legal moves,
/// nothing missed.
#[derive(Serialize)]
pub struct PlyState {
    pub game: String,
    pub ply: u32,
    pub plies: usize,
    pub state_id: u32,
    pub event: u32,
    pub seat: u8,
    pub to_move: Option<u8>,
    pub last_move: Option<SeenMove>,
    /// Always empty: the fields of a `state` message.
    pub missed: [SeenMove; 0],
    /// The game's own view of the position (opaque here).
    pub view: serde_json::Value,
    /// Always empty.
    pub legal: [SeenMove; 0],
    pub finished: bool,
    pub outcome: Option<Outcome>,
}

/// The finished game `id` and its full record.
async fn finished(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> ApiResult<(
    GameRow,
    Vec<crate::db::rows::SeatKind>,
    pyramidion_core::record::Record,
)> {
    let (row, seats) = crate::live::stored_game::load(&state.live, id).await?;
    if row.status != crate::game_status::GameStatus::Finished {
        return Err(ApiError::conflict(
            ApiErrorCode::NotFinished,
            "a game is replayed once it is over",
        ));
    }
    let viewer = crate::identity::Identity::from_headers(state, headers).await?;
    let user = viewer.as_ref().map(|v| v.user_id.as_str());
    crate::live::daily_embargo::embargo(&state.live, id, user).await?;
    // An unlisted game is its players' (and its invite holders') only.
    if !crate::live::visibility::may_see(&state.live, &row, user, invite).await? {
        return Err(ApiError::not_found("no such table"));
    }
    // Every move in full and every seat's view would show the day's deal: not even its
    // player gets them before the day is over for everyone.
    crate::live::daily_embargo::sealed(&state.live, id).await?;
    let record = crate::live::stored_game::stored_record(&state.live, &row).await?;
    Ok((row, seats, record))
}

/// `GET /api/games/{id}/replay`: the table (as the lobby shows it), its number of plies,
/// every move (`{ply, seat, text, kind, …fields}`) and the game's analysis status and result.
/// `?invite=`: the table's invite, for an unlisted game.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InviteQuery {
    #[serde(default)]
    invite: Option<String>,
}

pub async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<InviteQuery>,
    headers: HeaderMap,
) -> ApiResult<Json<Replay>> {
    let (row, seats, record) = finished(&state, &id, &headers, q.invite.as_deref()).await?;
    let (_, played) = crate::live::rooms::replay_played(&record).map_err(ApiError::internal)?;
    let moves: Vec<SeenMove> = played
        .iter()
        .enumerate()
        .map(|(ply, p)| SeenMove {
            ply: ply as u32,
            seat: p.seat.0,
            info: p.full.clone(),
        })
        .collect();
    let table = crate::table_view::FinishedTable {
        table: crate::http::api::table_of(&state, &row, &seats, None).await?,
        finished_at: row.finished_at,
    };
    let analysis = crate::analysis::stored(&state, &id).await?;
    // The game is over: both channels of its chat are everyone's.
    let chat = state.store.chat(&id, true).await?;
    Ok(Json(Replay {
        table,
        plies: moves.len(),
        moves,
        analysis,
        chat,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyQuery {
    /// Whose view (default seat 0).
    #[serde(default)]
    seat: u8,
    /// The table's invite, for an unlisted game.
    #[serde(default)]
    invite: Option<String>,
}

/// `GET /api/games/{id}/replay/{ply}?seat=S`: the table after the first `ply` moves as seat
/// `S` saw it, in the shape of a live `state` message (no legal moves).
pub async fn at_ply(
    State(state): State<AppState>,
    Path((id, ply)): Path<(String, u32)>,
    Query(q): Query<PlyQuery>,
    headers: HeaderMap,
) -> ApiResult<Json<PlyState>> {
    let (row, _, record) = finished(&state, &id, &headers, q.invite.as_deref()).await?;
    let plies = record.moves.len();
    if ply as usize > plies {
        return Err(ApiError::new(
            ApiErrorCode::NoSuchPly,
            format!("this game has {plies} moves"),
        ));
    }
    // The game one move before, then that move: the position and its last move in one replay.
    let (game, last_move) = match (ply as usize).checked_sub(1) {
        None => (
            AnyGame::from_record_prefix(&record, Some(0)).map_err(ApiError::internal)?,
            None,
        ),
        Some(last) => {
            let mut game =
                AnyGame::from_record_prefix(&record, Some(last)).map_err(ApiError::internal)?;
            let played = game
                .play_text(&record.moves[last])
                .map_err(ApiError::internal)?;
            let m = SeenMove {
                ply: last as u32,
                seat: played.seat.0,
                info: played.full,
            };
            (game, Some(m))
        }
    };
    if q.seat >= game.seats() {
        return Err(ApiError::bad_request(format!(
            "this game has {} seats",
            game.seats()
        )));
    }
    let to_move = match game.to_move() {
        ToMove::Seat(s) => Some(s.0),
        ToMove::Over => None,
    };
    // The last position's outcome as the server ranked the game, in the view too.
    let stored: serde_json::Value = row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or_default();
    let outcome = game
        .outcome()
        .map(|o| crate::live::endings::replayed_outcome(o, &stored));
    let mut view = game.view(Some(Seat(q.seat)));
    if let Some(o) = &outcome {
        crate::live::endings::rank_view(&mut view, o);
    }
    Ok(Json(PlyState {
        game: id,
        ply,
        plies,
        state_id: ply,
        event: ply,
        seat: q.seat,
        to_move,
        last_move,
        missed: [],
        view,
        legal: [],
        finished: to_move.is_none(),
        outcome,
    }))
}
