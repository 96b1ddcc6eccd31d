//! A stored game read back: its row and seats, and its record with every move (for the
//! server's own use: the replay, the export and the analysis decide what to show of it).
use crate::LiveContext as Context;
use crate::db::rows::{GameRow, SeatKind};
use crate::error::{ApiError, ApiResult};
use crate::live::visibility::plausible_id;
use pyramidion_core::record::Record;
use serde_json::Value;

/// A game's row and seats; `not_found` for an id that names none.
pub async fn load(state: &Context, id: &str) -> ApiResult<(GameRow, Vec<SeatKind>)> {
    if !plausible_id(id) {
        return Err(ApiError::not_found("no such table"));
    }
    let row = state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such table"))?;
    let seats = state.store.seats(id).await?;
    Ok((row, seats))
}

/// The stored record of a started game (every move in full: for the server's own use).
pub async fn stored_record(state: &Context, row: &GameRow) -> ApiResult<Record> {
    Ok(Record {
        game: row.kind.key().to_string(),
        options: serde_json::from_str(&row.options).map_err(ApiError::internal)?,
        seed: row.seed,
        result: scores(row),
        moves: state.store.moves(&row.id).await?,
        move_lines: Vec::new(),
    })
}

/// The final scores of a finished game.
fn scores(row: &GameRow) -> Option<Vec<i32>> {
    let result: Value = serde_json::from_str(row.result.as_deref()?).ok()?;
    serde_json::from_value(result["scores"].clone()).ok()
}
