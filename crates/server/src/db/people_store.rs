//! Storage for playing with people (issue 27): resignations and early ends.
use crate::db::error::Result;
use crate::db::store::Store;
use crate::wall_clock::now_ms;
use sqlx::Row;

impl Store {
    /// Stores resignations (`(seat, order)` at move `ply`), and with `end` = (ending, result)
    /// the game's early end in the same commit, moving ratings as for any end.
    pub async fn resign(
        &self,
        game_id: &str,
        seats: Vec<(u8, usize)>,
        ply: i64,
        end: Option<(String, String)>,
        fence: Option<crate::db::fence::Fence>,
    ) -> Result<()> {
        let game_id = game_id.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    // Like a move: never from an instance that lost the game.
                    crate::db::fence::hold_fence(c, &game_id, fence.as_ref()).await?;
                    let at = now_ms();
                    for (seat, ord) in seats {
                        sqlx::query(
                            "INSERT INTO resignations (game_id, seat, ord, ply, at)
                             VALUES ($1, $2, $3, $4, $5)",
                        )
                        .bind(&game_id)
                        .bind(seat as i64)
                        .bind(ord as i64)
                        .bind(ply)
                        .bind(at)
                        .execute(&mut *c)
                        .await?;
                    }
                    if let Some((ending, result)) = end {
                        sqlx::query(
                            "UPDATE games SET status = 'finished', result = $1, ending = $2,
                               finished_at = $3, to_move = NULL, deadline_at = NULL
                             WHERE id = $4",
                        )
                        .bind(&result)
                        .bind(&ending)
                        .bind(at)
                        .bind(&game_id)
                        .execute(&mut *c)
                        .await?;
                        crate::db::ratings::on_game_end(c, &game_id, &result).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    /// The seats resigned in a game, in order.
    pub async fn resignations(&self, game_id: &str) -> Result<Vec<u8>> {
        let rows = sqlx::query("SELECT seat FROM resignations WHERE game_id = $1 ORDER BY ord")
            .bind(game_id)
            .fetch_all(&mut *self.read().await?)
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<i64, _>("seat")? as u8))
            .collect()
    }

    /// Why a game ended early (`resigned`, `abandoned`, `claimed`), if it did.
    pub async fn ending(&self, game_id: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT ending FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("ending")?,
            None => None,
        })
    }

    /// Live games against bots only (one person, every other seat a bot) in which nothing was
    /// played since `before` (ms since the epoch).
    pub async fn stale_bot_games(&self, before: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g WHERE g.status = 'live'
               AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id
                               AND s.kind NOT IN ('human', 'bot'))
               AND (SELECT COUNT(DISTINCT s.user_id) FROM seats s
                    WHERE s.game_id = g.id AND s.kind = 'human') = 1
               AND COALESCE((SELECT MAX(m.created_at) FROM moves m WHERE m.game_id = g.id),
                            g.created_at) < $1",
        )
        .bind(before)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }
}
