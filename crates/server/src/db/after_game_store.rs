//! Storage for after the game: daily attempts, the server's secrets, rematch links.
use crate::analysis_status::AnalysisStatus;
use crate::db::error::{Result, StoreError};
use crate::db::rows::{GameRow, SeatKind, insert_game, insert_seat};
use crate::db::store::Store;
use sqlx::Row;

impl Store {
    /// A secret the server keeps (`None` before it is drawn).
    pub async fn secret(&self, name: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT value FROM server_secrets WHERE name = $1")
            .bind(name)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("value")?),
            None => None,
        })
    }

    /// Stores a secret unless one of that name exists (the first one drawn stays).
    pub async fn add_secret(&self, name: &str, value: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO server_secrets (name, value) VALUES ($1, $2)
                     ON CONFLICT (name) DO NOTHING",
                )
                .bind(name.to_string())
                .bind(value.to_string()),
            )
            .await
    }

    /// The game of `user`'s attempt at `challenge`, if any.
    pub async fn daily_attempt(&self, challenge: &str, user: &str) -> Result<Option<String>> {
        let row =
            sqlx::query("SELECT game_id FROM daily_attempts WHERE challenge = $1 AND user_id = $2")
                .bind(challenge)
                .bind(user)
                .fetch_optional(&mut *self.read().await?)
                .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("game_id")?),
            None => None,
        })
    }

    /// The (day, challenge id) of a daily game, `None` for any other game.
    pub async fn daily_challenge_of_game(&self, game_id: &str) -> Result<Option<(String, String)>> {
        let row = sqlx::query("SELECT day, challenge FROM daily_attempts WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("day")?, r.try_get("challenge")?)),
            None => None,
        })
    }

    /// The (day, player) of a daily game, `None` for any other game.
    pub async fn daily_of_game(&self, game_id: &str) -> Result<Option<(String, String)>> {
        let row = sqlx::query("SELECT day, user_id FROM daily_attempts WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("day")?, r.try_get("user_id")?)),
            None => None,
        })
    }

    /// Creates a daily challenge's game and its attempt together; false (and nothing written)
    /// when the creator already has an attempt at `challenge`.
    pub async fn create_daily_game(
        &self,
        g: &GameRow,
        seats: &[SeatKind],
        challenge: &str,
        day: &str,
    ) -> Result<bool> {
        let (g, seats) = (g.clone(), seats.to_vec());
        let (challenge, day) = (challenge.to_string(), day.to_string());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let taken = sqlx::query(
                        "SELECT game_id FROM daily_attempts WHERE challenge = $1 AND user_id = $2",
                    )
                    .bind(&challenge)
                    .bind(&g.created_by)
                    .fetch_optional(&mut *c)
                    .await?;
                    if taken.is_some() {
                        return Ok(false);
                    }
                    insert_game(c, &g, None).await?;
                    for (i, seat) in seats.iter().enumerate() {
                        insert_seat(c, &g.id, i, seat).await?;
                    }
                    // The primary key (challenge, user) also refuses a concurrent second try.
                    sqlx::query(
                        "INSERT INTO daily_attempts (challenge, user_id, day, game_id) VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&challenge)
                    .bind(&g.created_by)
                    .bind(&day)
                    .bind(&g.id)
                    .execute(&mut *c)
                    .await?;
                    Ok(true)
                })
            })
            .await
    }
}

impl Store {
    /// Creates a finished game's rematch table and its seats, linked to the game in the same
    /// commit (so a game never gets two rematches).
    pub async fn create_rematch_game(
        &self,
        g: &GameRow,
        seats: &[SeatKind],
        of: &str,
    ) -> Result<()> {
        let (g, seats, of) = (g.clone(), seats.to_vec(), of.to_string());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    insert_game(c, &g, Some(&of)).await?;
                    for (i, seat) in seats.iter().enumerate() {
                        insert_seat(c, &g.id, i, seat).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    /// The rematch table of a finished game, if one was made and not abandoned (everyone
    /// left it before it started: a new rematch may be asked for).
    pub async fn rematch_of(&self, game_id: &str) -> Result<Option<String>> {
        let row = sqlx::query(
            "SELECT id FROM games WHERE rematch_of = $1 AND status <> 'abandoned' \
             ORDER BY created_at DESC, id LIMIT 1",
        )
        .bind(game_id)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("id")?),
            None => None,
        })
    }
}

impl Store {
    /// The (status, result) of a game's analysis, if one was asked for.
    pub async fn analysis(
        &self,
        game_id: &str,
    ) -> Result<Option<(AnalysisStatus, Option<String>)>> {
        let row = sqlx::query("SELECT status, result FROM analyses WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => Some((
                r.try_get::<String, _>("status")?
                    .parse()
                    .map_err(|e| StoreError::Corrupt(format!("a stored analysis status: {e}")))?,
                r.try_get("result")?,
            )),
            None => None,
        })
    }

    /// Games whose analysis was queued and never finished (a restart cut it short), with who
    /// asked and how many times it was started.
    pub async fn queued_analyses(&self) -> Result<Vec<(String, String, i64)>> {
        let rows = sqlx::query(
            "SELECT game_id, requested_by, attempts FROM analyses WHERE status = 'queued'
              ORDER BY requested_at",
        )
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("game_id")?,
                    r.try_get::<Option<String>, _>("requested_by")?
                        .unwrap_or_default(),
                    r.try_get("attempts")?,
                ))
            })
            .collect()
    }

    /// Records that `owner`'s analysis of a game is queued: its first start when asked
    /// (`resumed` false), one more start after a restart.
    pub async fn queue_analysis(&self, game_id: &str, owner: &str, resumed: bool) -> Result<()> {
        let now = crate::wall_clock::now_ms();
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO analyses (game_id, status, result, requested_at, finished_at,
                                           requested_by, attempts)
                     VALUES ($1, 'queued', NULL, $2, NULL, $3, 1)
                     ON CONFLICT (game_id) DO UPDATE SET status = 'queued', result = NULL,
                       finished_at = NULL, requested_by = $3,
                       runner = CASE WHEN $4 = 1 OR analyses.status = 'queued'
                                     THEN analyses.runner ELSE NULL END,
                       attempts = CASE WHEN $4 = 1 THEN analyses.attempts + 1 ELSE 1 END",
                )
                .bind(game_id.to_string())
                .bind(now)
                .bind(owner.to_string())
                .bind(i64::from(resumed)),
            )
            .await
    }

    /// Records a game's analysis as `status` (`queued`, `done`, `failed`) with its result.
    pub async fn set_analysis(
        &self,
        game_id: &str,
        status: AnalysisStatus,
        result: Option<String>,
    ) -> Result<()> {
        let now = crate::wall_clock::now_ms();
        let finished = (status != AnalysisStatus::Queued).then_some(now);
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO analyses (game_id, status, result, requested_at, finished_at)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (game_id) DO UPDATE SET status = $2, result = $3, finished_at = $5",
                )
                .bind(game_id.to_string())
                .bind(status.as_str().to_string())
                .bind(result)
                .bind(now)
                .bind(finished),
            )
            .await
    }
}
