//! Storing an undo (issue 46 item 9): the steps taken back leave the game's moves, so that
//! its record stays what replays, analyses and exports read (game, options, seed, moves) and
//! is the game as it is now; each is kept, with when it was taken back, in `undone_moves`,
//! which nothing replays (a moderator's question "what happened here" reads it). One commit,
//! fenced like a move: never from an instance that lost the game.
use crate::db::error::Result;
use crate::db::store::Store;
use crate::wall_clock::now_ms;
use sqlx::Row;

/// A step taken back, as `undone_moves` keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndoneMove {
    pub ply: u32,
    pub text: String,
    pub undone_at: i64,
}

impl Store {
    /// Takes the moves of `game_id` from ply `from` on out of its record, keeping them in
    /// `undone_moves`.
    pub async fn undo_moves(
        &self,
        game_id: &str,
        from: u32,
        fence: Option<crate::db::fence::Fence>,
    ) -> Result<()> {
        let game_id = game_id.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    crate::db::fence::hold_fence(c, &game_id, fence.as_ref()).await?;
                    sqlx::query(
                        "INSERT INTO undone_moves (game_id, ply, text, undone_at)
                         SELECT game_id, ply, text, CAST($3 AS BIGINT) FROM moves
                         WHERE game_id = $1 AND ply >= $2",
                    )
                    .bind(&game_id)
                    .bind(from as i64)
                    .bind(now_ms())
                    .execute(&mut *c)
                    .await?;
                    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                        .bind(&game_id)
                        .bind(from as i64)
                        .execute(&mut *c)
                        .await?;
                    Ok(())
                })
            })
            .await
    }

    /// How many steps were taken back in `game_id`: the room's state ids go on from it
    /// (`crate::live::room::Room::state_id`), so that none repeats after a restart.
    pub async fn undo_count(&self, game_id: &str) -> Result<u64> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM undone_moves WHERE game_id = $1")
            .bind(game_id)
            .fetch_one(&mut *self.read().await?)
            .await?;
        Ok(n as u64)
    }

    /// The steps taken back in `game_id`, in the order they were.
    pub async fn undone_moves(&self, game_id: &str) -> Result<Vec<UndoneMove>> {
        let rows = sqlx::query(
            "SELECT ply, text, undone_at FROM undone_moves WHERE game_id = $1
             ORDER BY undone_at, ply",
        )
        .bind(game_id)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(UndoneMove {
                    ply: r.try_get::<i64, _>("ply")? as u32,
                    text: r.try_get("text")?,
                    undone_at: r.try_get("undone_at")?,
                })
            })
            .collect()
    }
}
