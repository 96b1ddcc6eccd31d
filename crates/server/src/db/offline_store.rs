//! Storage of games played offline (issue 50): a finished game written whole in one commit —
//! its row, seats, moves and result — with the upload that brought it, so that a second upload
//! of the same game (the page's id for it) finds the first instead of adding it twice.
use crate::db::error::Result;
use crate::db::rows::{GameRow, SeatKind, insert_game, insert_seat};
use crate::db::store::Store;

/// A checked offline game as it is stored: its row (finished, unrated, with its result), its
/// seats, and each move's canonical text with whether a bot played it.
pub struct OfflineGame {
    pub row: GameRow,
    pub seats: Vec<SeatKind>,
    pub moves: Vec<(String, bool)>,
    /// The page's own id for the game.
    pub client_id: String,
}

impl Store {
    /// Stores an uploaded offline game; the id of the game kept, and whether it was kept now
    /// (`false`: the same player had uploaded the same game before, whose id is returned).
    pub async fn store_offline_game(&self, g: OfflineGame) -> Result<(String, bool)> {
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let user = g.row.created_by.clone();
                    let earlier: Option<String> = sqlx::query_scalar(
                        "SELECT game_id FROM offline_games WHERE user_id = $1 AND client_id = $2",
                    )
                    .bind(&user)
                    .bind(&g.client_id)
                    .fetch_optional(&mut *c)
                    .await?;
                    if let Some(id) = earlier {
                        return Ok((id, false));
                    }
                    let at = g.row.finished_at.unwrap_or(g.row.created_at);
                    insert_game(c, &g.row, None).await?;
                    for (i, seat) in g.seats.iter().enumerate() {
                        insert_seat(c, &g.row.id, i, seat).await?;
                    }
                    // One statement per move: an upload is rare and short (a few hundred moves
                    // at most), unlike the writer's batched live moves.
                    for (ply, (text, by_bot)) in g.moves.iter().enumerate() {
                        sqlx::query(
                            "INSERT INTO moves (game_id, ply, text, by_bot, created_at)
                             VALUES ($1, $2, $3, $4, $5)",
                        )
                        .bind(&g.row.id)
                        .bind(ply as i64)
                        .bind(text)
                        .bind(i64::from(*by_bot))
                        .bind(at)
                        .execute(&mut *c)
                        .await?;
                    }
                    // `insert_game` writes a table as it starts; the end is written as a room
                    // writes it (`people_store::resign`), without the ratings' step: an offline
                    // game is never rated.
                    sqlx::query(
                        "UPDATE games SET status = 'finished', result = $1, finished_at = $2,
                           to_move = NULL, deadline_at = NULL
                         WHERE id = $3",
                    )
                    .bind(&g.row.result)
                    .bind(at)
                    .bind(&g.row.id)
                    .execute(&mut *c)
                    .await?;
                    sqlx::query(
                        "INSERT INTO offline_games (user_id, client_id, game_id, uploaded_at)
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&user)
                    .bind(&g.client_id)
                    .bind(&g.row.id)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok((g.row.id.clone(), true))
                })
            })
            .await
    }

    /// Whether a game was played offline (uploaded through `POST /api/offline-games`).
    pub async fn played_offline(&self, game_id: &str) -> Result<bool> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM offline_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_one(&mut *self.read().await?)
            .await?;
        Ok(n > 0)
    }
}
