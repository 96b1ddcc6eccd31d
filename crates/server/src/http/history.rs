//! A player's games as history: each table with its dates, and the player's own seat, rank,
//! score and rating change. Serves `GET /api/me/games` and the recent games of a profile.
use crate::AppState;
use crate::db::rows::{GameRow, SeatKind};
use crate::error::ApiResult;
use crate::http::api::table_of;
use crate::identity::Identity;
use crate::table_view::{GameList, Table};
use axum::Json;
use axum::extract::State;
use serde::Serialize;
use serde_json::Value;
use sqlx::Row;

/// A history entry: a table (as [`table_of`] gives it to the viewer) with when it finished
/// and the seats of the player whose history it is.
#[derive(Serialize)]
pub struct HistoryEntry {
    #[serde(flatten)]
    pub table: Table,
    pub finished_at: Option<i64>,
    pub mine: MySeats,
    /// Played offline in the page and uploaded (`POST /api/offline-games`): never rated.
    /// Absent for a game the server ran.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
}

/// The seats a player holds at a table and, once it has a result, how they did.
#[derive(Serialize)]
pub struct MySeats {
    pub seats: Vec<usize>,
    /// Absent until the table has a result (and when the player holds no seat).
    #[serde(flatten)]
    pub outcome: Option<SeatOutcome>,
}

/// How a player's (first) seat finished.
#[derive(Serialize)]
pub struct SeatOutcome {
    /// 0 is first.
    pub rank: Option<u64>,
    /// The result's score of the seat, as the result gives it.
    pub score: Value,
    pub won: bool,
    /// Only on a rated table: its rating before and after (null when none was recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<Option<RatingChange>>,
}

/// A seat's rating before and after a rated game, rounded.
#[derive(Serialize)]
pub struct RatingChange {
    pub before: f64,
    pub after: f64,
    /// False when the game did not move the rating at all: every pair of the seat was left
    /// out (a provisional player met again, `db::ratings`). Said in words by the page, so
    /// that a "+0" after a loss is explained (issue 46); a change that rounds to 0 is true.
    pub counted: bool,
}

/// A table (as [`table_of`] gives it to `viewer`) with `finished_at` and `mine`: the seats
/// `user` holds, and once finished their rank (0 is first), score, whether they won, and their
/// rating before and after when the table was rated.
pub(crate) async fn entry(
    state: &AppState,
    row: &GameRow,
    seats: &[SeatKind],
    user: &str,
    viewer: Option<&str>,
) -> ApiResult<HistoryEntry> {
    let table = table_of(state, row, seats, viewer).await?;
    let held: Vec<usize> = seats
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, SeatKind::Human(u) if u == user))
        .map(|(i, _)| i)
        .collect();
    let mut outcome = None;
    if let (Some(&seat), Some(result)) =
        (held.first(), table.result.as_ref().filter(|r| !r.is_null()))
    {
        // The ranking the server stored (`endings::final_ranks`), read the one way.
        let rank = crate::live::endings::stored_ranks(result)
            .and_then(|r| r.get(seat).map(|&r| u64::from(r)));
        outcome = Some(SeatOutcome {
            rank,
            score: result["scores"][seat].clone(),
            won: rank == Some(0),
            rating: match row.rated {
                true => Some(rating_change(state, &row.id, seat).await?),
                false => None,
            },
        });
    }
    // Only a finished game can have been uploaded: no question asked of the others.
    let offline = row.finished_at.is_some() && state.store.played_offline(&row.id).await?;
    Ok(HistoryEntry {
        table,
        finished_at: row.finished_at,
        offline,
        mine: MySeats {
            seats: held,
            outcome,
        },
    })
}

/// A seat's rating change in a rated game, if one was recorded.
async fn rating_change(
    state: &AppState,
    game_id: &str,
    seat: usize,
) -> ApiResult<Option<RatingChange>> {
    let row = sqlx::query(
        "SELECT rating_before, rating_after FROM rating_changes WHERE game_id = $1 AND seat = $2",
    )
    .bind(game_id)
    .bind(seat as i64)
    .fetch_optional(&mut *state.store.read().await?)
    .await
    .map_err(crate::db::error::StoreError::from)?;
    let db = crate::db::error::StoreError::from;
    Ok(match row {
        Some(r) => {
            let before = r.try_get::<f64, _>("rating_before").map_err(db)?;
            let after = r.try_get::<f64, _>("rating_after").map_err(db)?;
            Some(RatingChange {
                before: before.round(),
                after: after.round(),
                // An excluded seat keeps its rating to the bit (`db::ratings::rate`).
                counted: before != after,
            })
        }
        None => None,
    })
}

/// `GET /api/me/games`: the signed-in user's games, newest first, as history entries.
pub async fn my_games(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<GameList<HistoryEntry>>> {
    let me = identity.user_id.as_str();
    let mut list = Vec::new();
    for row in state.store.games_of_user(me).await? {
        let seats = state.store.seats(&row.id).await?;
        list.push(entry(&state, &row, &seats, me, Some(me)).await?);
    }
    Ok(Json(GameList { games: list }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `mine` holds only `seats` until the table has a result; then the seat's rank, score and
    /// win, and on a rated table its rating change (null when none was recorded).
    #[test]
    fn a_history_entry_says_how_my_seat_did_once_there_is_a_result() {
        let table = crate::table_view::sample_table;
        let entry = |outcome| HistoryEntry {
            table: table(),
            finished_at: None,
            offline: false,
            mine: MySeats {
                seats: vec![0],
                outcome,
            },
        };
        let mut expected = serde_json::to_value(table()).unwrap();
        expected["finished_at"] = json!(null);
        expected["mine"] = json!({ "seats": [0] });
        assert_eq!(serde_json::to_value(entry(None)).unwrap(), expected);
        let done = SeatOutcome {
            rank: Some(0),
            score: json!(12),
            won: true,
            rating: Some(None),
        };
        expected["mine"] =
            json!({ "seats": [0], "rank": 0, "score": 12, "won": true, "rating": null });
        assert_eq!(serde_json::to_value(entry(Some(done))).unwrap(), expected);
        let rated = SeatOutcome {
            rank: None,
            score: json!(null),
            won: false,
            rating: Some(Some(RatingChange {
                before: 1500.0,
                after: 1490.0,
                counted: true,
            })),
        };
        expected["mine"] = json!({
            "seats": [0], "rank": null, "score": null, "won": false,
            "rating": {"before": 1500.0, "after": 1490.0, "counted": true},
        });
        assert_eq!(serde_json::to_value(entry(Some(rated))).unwrap(), expected);
    }
}
