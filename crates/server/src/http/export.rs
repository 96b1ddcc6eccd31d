//! Game records for export: one game as text or JSON (`GET /api/games/{id}/record`), and all
//! of a user's games as NDJSON, one JSON record a line.
//!
//! What leaves the server: a finished game's full record (seed, every move as played, the
//! scores), which `pyramidion replay` verifies. An unfinished game's record has no seed, and
//! every move that hides something is given as a spectator sees it, whoever asks: even a
//! player of the game gets no card of another seat from an export.
use crate::AppState;
use crate::db::rows::GameRow;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::live::stored_game::stored_record;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use pyramidion_core::record::Record;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A game's record as it leaves the server (JSON): a finished game's in full, the shape of a
/// [`Record`] that `pyramidion replay` reads (its `result` null when it has no scores); an
/// unfinished (or sealed) game's with its moves as one viewer saw them, and neither seed nor
/// result (both absent).
#[derive(Serialize)]
pub struct ExportedRecord {
    pub game: String,
    pub options: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<pyramidion_core::Seed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Option<Vec<i32>>>,
    pub moves: Vec<String>,
}

impl ExportedRecord {
    /// A finished game's full record.
    fn whole(record: Record) -> ExportedRecord {
        ExportedRecord {
            game: record.game,
            options: record.options,
            seed: Some(record.seed),
            result: Some(record.result),
            moves: record.moves,
        }
    }

    /// The record without seed or result, with `moves` as one viewer saw them.
    fn seen(record: Record, moves: Vec<String>) -> ExportedRecord {
        ExportedRecord {
            game: record.game,
            options: record.options,
            seed: None,
            result: None,
            moves,
        }
    }
}

/// A line of a user's NDJSON export: the game's public record with its id, status and dates.
#[derive(Serialize)]
pub struct ExportLine {
    #[serde(flatten)]
    pub record: ExportedRecord,
    pub id: String,
    pub status: crate::game_status::GameStatus,
    pub rated: bool,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

/// A started game's record as anyone may see it: the full record (with its seed and scores)
/// once finished, else the moves as a spectator sees them and no seed.
pub(crate) async fn public_record(state: &AppState, row: &GameRow) -> ApiResult<ExportedRecord> {
    let record = stored_record(&state.live, row).await?;
    if row.status == crate::game_status::GameStatus::Finished {
        return Ok(ExportedRecord::whole(record));
    }
    let (_, played) = crate::live::rooms::replay_played(&record).map_err(ApiError::internal)?;
    let moves = played
        .iter()
        .map(|p| p.seen_by(None, false).text.clone())
        .collect();
    Ok(ExportedRecord::seen(record, moves))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    #[serde(default)]
    format: Option<String>,
    /// Answer as a file to save (`Content-Disposition: attachment`).
    #[serde(default)]
    download: bool,
    /// The table's invite: an unlisted game's record is its players' and its holders' only.
    #[serde(default)]
    invite: Option<String>,
}

/// `GET /api/games/{id}/record[?format=json|text][&download=true]`.
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<RecordQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (row, _) = crate::live::stored_game::load(&state.live, &id).await?;
    let viewer = crate::identity::Identity::from_headers(&state, &headers).await?;
    let user = viewer.as_ref().map(|v| v.user_id.as_str());
    crate::live::daily_embargo::embargo(&state.live, &id, user).await?;
    if !crate::live::visibility::may_see(&state.live, &row, user, q.invite.as_deref()).await? {
        return Err(ApiError::not_found("no such table"));
    }
    // A daily game, before its day is over for everyone: no record at all, not even its
    // player's moves as their seat saw them (issue 54): every draw of the day's deal in order,
    // which a second account's record handed to a main account before its own attempt. Its
    // player follows the game live.
    crate::live::daily_embargo::sealed(&state.live, &id).await?;
    if matches!(
        row.status,
        crate::game_status::GameStatus::Open | crate::game_status::GameStatus::Abandoned
    ) {
        return Err(ApiError::conflict(
            ApiErrorCode::NotStarted,
            "this game has not started",
        ));
    }
    let finished = row.status == crate::game_status::GameStatus::Finished;
    let (body, content_type, extension) = match q.format.as_deref() {
        Some("text") if finished => (
            stored_record(&state.live, &row).await?.to_text(),
            "text/plain; charset=utf-8",
            "txt",
        ),
        Some("text") => {
            return Err(ApiError::conflict(
                ApiErrorCode::NotFinished,
                "the text record (with its seed) is given once the game is over",
            ));
        }
        None | Some("json") => (
            to_json(&public_record(&state, &row).await?)?,
            "application/json",
            "json",
        ),
        Some(_) => return Err(ApiError::bad_request("format is json or text")),
    };
    Ok(file_response(
        body,
        content_type,
        &row.id,
        extension,
        q.download,
    ))
}

fn to_json(value: &impl Serialize) -> ApiResult<String> {
    serde_json::to_string(value).map_err(ApiError::internal)
}

fn file_response(
    body: String,
    content_type: &'static str,
    name: &str,
    extension: &str,
    download: bool,
) -> Response {
    let mut response = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    if download {
        // Names are hex ids: nothing to escape.
        let disposition = format!("attachment; filename=\"pyramidion-{name}.{extension}\"");
        if let Ok(value) = disposition.parse() {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, value);
        }
    }
    response
}

/// `GET /api/users/{id}/games.ndjson[?before=CURSOR&limit=N]`: a page (50 by default, at
/// most 500) of a user's started games, newest first, one JSON object a line: the game's id,
/// status, dates and public record (see [`public_record`]). Unlisted games are only in their
/// players' exports. A full page ends with a `Link: <…?before=CURSOR>; rel="next"` header.
/// Finished lines are records that `pyramidion replay` reads as they are.
pub async fn user_games_ndjson(
    State(state): State<AppState>,
    Path(user): Path<String>,
    Query(page): Query<crate::http::profiles::GamesPage>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let user = crate::http::profiles::user_by_id_or_name(&state, &user).await?;
    let viewer = crate::identity::Identity::from_headers(&state, &headers).await?;
    let viewer = viewer.as_ref().map(|v| v.user_id.as_str());
    let limit = page
        .limit
        .unwrap_or(crate::live::visibility::PAGE)
        .clamp(1, crate::live::visibility::MAX_PAGE);
    let before = crate::live::visibility::parse_cursor(page.before.as_deref())?;
    let rows =
        crate::live::visibility::public_games_page(&state.live, &user, viewer, limit, before)
            .await?;
    let next = crate::live::visibility::next_cursor(&rows, limit);
    let mut out = String::new();
    let embargoed = crate::live::daily_embargo::embargoed_games_of(&state.live, &user).await?;
    for row in rows {
        // A daily game is nobody's until its day is over for everyone (its player reads it
        // from `record`).
        if embargoed.contains(&row.id) {
            continue;
        }
        let line = ExportLine {
            record: public_record(&state, &row).await?,
            id: row.id,
            status: row.status,
            rated: row.rated,
            created_at: row.created_at,
            finished_at: row.finished_at,
        };
        out.push_str(&to_json(&line)?);
        out.push('\n');
    }
    let mut response = file_response(
        out,
        "application/x-ndjson",
        &format!("games-{user}"),
        "ndjson",
        true,
    );
    if let Some(next) = next
        && let Ok(link) =
            format!("</api/users/{user}/games.ndjson?before={next}&limit={limit}>; rel=\"next\"")
                .parse()
    {
        response.headers_mut().insert(header::LINK, link);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(result: Option<Vec<i32>>) -> Record {
        Record {
            game: "a-game".into(),
            options: json!({ "players": 2 }),
            seed: 42,
            result,
            moves: vec!["a".into(), "b".into()],
            move_lines: Vec::new(),
        }
    }

    /// A finished game's export is the record `pyramidion replay` reads, its `result` null
    /// when it has no scores; an unfinished one has neither seed nor result.
    #[test]
    fn an_export_has_a_seed_and_result_only_once_finished() {
        let whole = |r| serde_json::to_value(ExportedRecord::whole(record(r))).unwrap();
        assert_eq!(
            whole(Some(vec![3, 1])),
            json!({"game": "a-game", "options": {"players": 2}, "seed": 42,
                   "result": [3, 1], "moves": ["a", "b"]})
        );
        assert_eq!(whole(None)["result"], json!(null));
        let seen = ExportedRecord::seen(record(None), vec!["x".into()]);
        let line = ExportLine {
            record: seen,
            id: "g1".into(),
            status: crate::game_status::GameStatus::Live,
            rated: false,
            created_at: 1,
            finished_at: None,
        };
        assert_eq!(
            serde_json::to_value(line).unwrap(),
            json!({"game": "a-game", "options": {"players": 2}, "moves": ["x"], "id": "g1",
                   "status": "live", "rated": false, "created_at": 1, "finished_at": null})
        );
    }
}
