//! Vacations (issue 46 item 10): each one an account took, for its allowance and its state.
use crate::db::error::Result;
use crate::db::store::Store;
use sqlx::Row;

impl Store {
    /// The vacations of `user_id` that end after `since` (ms since the epoch), as (starts,
    /// ends), oldest first.
    pub async fn vacations_since(&self, user_id: &str, since: i64) -> Result<Vec<(i64, i64)>> {
        let rows = sqlx::query(
            "SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 AND ends_at > $2
             ORDER BY starts_at",
        )
        .bind(user_id)
        .bind(since)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("starts_at")?, r.try_get("ends_at")?)))
            .collect()
    }

    /// Stores a vacation of `user_id` from `starts` to `ends`.
    pub async fn add_vacation(&self, user_id: &str, starts: i64, ends: i64) -> Result<()> {
        let user = user_id.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)",
                    )
                    .bind(&user)
                    .bind(starts)
                    .bind(ends)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                })
            })
            .await
    }

    /// Ends `user_id`'s vacation (`starts`, `ends`) at `now` instead: the days after it are
    /// not used.
    pub async fn end_vacation(
        &self,
        user_id: &str,
        starts: i64,
        ends: i64,
        now: i64,
    ) -> Result<()> {
        let user = user_id.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    sqlx::query(
                        "UPDATE vacations SET ends_at = $4
                         WHERE user_id = $1 AND starts_at = $2 AND ends_at = $3",
                    )
                    .bind(&user)
                    .bind(starts)
                    .bind(ends)
                    .bind(now)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                })
            })
            .await
    }
}
