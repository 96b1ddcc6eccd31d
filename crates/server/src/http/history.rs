//! A player's games as history: each table with its dates, and the player's own seat, rank,
//! score and rating change. Serves `GET /api/me/games` and the recent games of a profile.
use crate::AppState;
use crate::db::rows::{GameRow, SeatKind};
use crate::error::ApiResult;
use crate::http::api::table_json;
use crate::http::auth::Identity;
use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};
use sqlx::Row;

/// A table (as `table_json` gives it to `viewer`) with `finished_at` and `mine`: the seats
/// `user` holds, and once finished their rank (0 is first), score, whether they won, and their
/// rating before and after when the table was rated.
pub(crate) async fn entry(
    state: &AppState,
    row: &GameRow,
    seats: &[SeatKind],
    user: &str,
    viewer: Option<&str>,
) -> ApiResult<Value> {
    let mut v = table_json(state, row, seats, viewer).await?;
    v["finished_at"] = json!(row.finished_at);
    let held: Vec<usize> = seats
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, SeatKind::Human(u) if u == user))
        .map(|(i, _)| i)
        .collect();
    let mut mine = json!({ "seats": held });
    if let (Some(&seat), Some(result)) = (held.first(), v.get("result").filter(|r| !r.is_null())) {
        let rank = result["ranks"][seat].as_u64();
        mine["rank"] = json!(rank);
        mine["score"] = result["scores"][seat].clone();
        mine["won"] = json!(rank == Some(0));
        if row.rated {
            mine["rating"] = rating_change(state, &row.id, seat).await?;
        }
    }
    v["mine"] = mine;
    Ok(v)
}

/// `{"before", "after"}` of a seat's rating in a rated game, or null.
async fn rating_change(state: &AppState, game_id: &str, seat: usize) -> ApiResult<Value> {
    let row = sqlx::query(
        "SELECT rating_before, rating_after FROM rating_changes WHERE game_id = $1 AND seat = $2",
    )
    .bind(game_id)
    .bind(seat as i64)
    .fetch_optional(&state.store.pool)
    .await
    .map_err(crate::db::error::StoreError::from)?;
    Ok(match row {
        Some(r) => json!({
            "before": r.try_get::<f64, _>("rating_before").map_err(crate::db::error::StoreError::from)?.round(),
            "after": r.try_get::<f64, _>("rating_after").map_err(crate::db::error::StoreError::from)?.round(),
        }),
        None => Value::Null,
    })
}

/// `GET /api/me/games`: the signed-in user's games, newest first, as history entries.
pub async fn my_games(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<crate::http::api::GameList>> {
    let me = identity.user_id.as_str();
    let mut list = Vec::new();
    for row in state.store.games_of_user(me).await? {
        let seats = state.store.seats(&row.id).await?;
        list.push(entry(&state, &row, &seats, me, Some(me)).await?);
    }
    Ok(Json(crate::http::api::GameList { games: list }))
}
