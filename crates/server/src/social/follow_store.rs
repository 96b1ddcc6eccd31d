//! Storage of follows: who follows whom (`follows`, migration 0017).
use crate::db::error::Result;
use crate::db::store::Store;
use crate::wall_clock::now_ms;
use sqlx::Row;

/// A followed account, as the friends list shows it.
pub struct Followed {
    pub user: String,
    pub name: Option<String>,
}

impl Store {
    /// `follower` follows `followed` (again: nothing changes).
    pub async fn follow(&self, follower: &str, followed: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO follows (follower, followed, created_at) VALUES ($1, $2, $3)
                     ON CONFLICT (follower, followed) DO NOTHING",
                )
                .bind(follower)
                .bind(followed)
                .bind(now_ms()),
            )
            .await
    }

    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
                    .bind(follower)
                    .bind(followed),
            )
            .await
    }

    pub async fn follows(&self, follower: &str, followed: &str) -> Result<bool> {
        let row = sqlx::query("SELECT 1 FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(row.is_some())
    }

    /// How many players `follower` follows.
    pub async fn following_count(&self, follower: &str) -> Result<i64> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM follows WHERE follower = $1")
                .bind(follower)
                .fetch_one(&mut *self.read().await?)
                .await?,
        )
    }

    /// How many players follow `followed`.
    pub async fn followers_count(&self, followed: &str) -> Result<i64> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM follows WHERE followed = $1")
                .bind(followed)
                .fetch_one(&mut *self.read().await?)
                .await?,
        )
    }

    /// The players `follower` follows, by name.
    pub async fn followed_by(&self, follower: &str) -> Result<Vec<Followed>> {
        let rows = sqlx::query(
            "SELECT f.followed, u.name FROM follows f JOIN users u ON u.id = f.followed
              WHERE f.follower = $1 ORDER BY u.name, f.followed",
        )
        .bind(follower)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Followed {
                    user: r.try_get("followed")?,
                    name: r.try_get("name")?,
                })
            })
            .collect()
    }

    /// The live games `user` sits at: (game id, listed).
    pub async fn live_games_of(&self, user: &str) -> Result<Vec<(String, bool)>> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id, g.listed, g.created_at FROM games g
               JOIN seats s ON s.game_id = g.id
              WHERE s.user_id = $1 AND s.kind = 'human' AND g.status = 'live'
              ORDER BY g.created_at DESC",
        )
        .bind(user)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get::<i64, _>("listed")? == 1)))
            .collect()
    }

    /// Accounts whose name (or a look-alike of it, `crate::names::key`) starts with `prefix`:
    /// (id, name), at most `limit`, by name.
    pub async fn search_accounts(&self, prefix: &str, limit: i64) -> Result<Vec<(String, String)>> {
        let pattern = format!("{}%", like_escape(&crate::names::key(prefix)));
        let rows = sqlx::query(
            "SELECT id, name FROM users WHERE guest = 0 AND name_key LIKE $1 ESCAPE '\\'
              ORDER BY name LIMIT $2",
        )
        .bind(pattern)
        .bind(limit)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
            .collect()
    }
}

/// `text` with LIKE's wildcards (`%`, `_`) and its escape (`\`) taken literally.
pub fn like_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
