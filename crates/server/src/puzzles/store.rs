//! The puzzles' tables (migration 0015): the puzzles, each player's first try of each, the
//! players' puzzle ratings per game, and the games the server's miner took.
use crate::db::error::Result;
use crate::db::store::Store;
use skillratings::glicko2::Glicko2Rating;
use sqlx::Row;
use sqlx::any::AnyRow;

/// A puzzle to store: what `pyramidion puzzles` writes (one JSON line) and the server's miner
/// makes, with the game's key.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct NewPuzzle {
    pub game: String,
    pub source: String,
    pub record: serde_json::Value,
    pub ply: u64,
    pub seat: u8,
    pub view: serde_json::Value,
    pub legal: Vec<serde_json::Value>,
    pub solutions: Vec<String>,
    pub candidates: Vec<pyramidion_ai::puzzle::Candidate>,
    #[serde(default)]
    pub themes: Vec<String>,
}

impl NewPuzzle {
    /// Its id: a hash of the game and the record up to the decision (the same decision mined
    /// twice, from the seed data and a restart, is one puzzle).
    pub fn id(&self) -> String {
        use blake2::{Blake2b512, Digest};
        let text = format!("{}\n{}", self.game, self.record);
        crate::secret::hex(&Blake2b512::digest(text.as_bytes())[..10])
    }
}

/// A stored puzzle.
#[derive(Clone, Debug)]
pub struct PuzzleRow {
    pub id: String,
    pub game: String,
    pub source: String,
    /// The record up to the decision (JSON): the server's only.
    pub record: String,
    pub seat: u8,
    /// `{view, legal}` (JSON).
    pub position: String,
    pub solutions: Vec<String>,
    pub candidates: String,
    pub themes: Vec<String>,
    pub rating: Glicko2Rating,
    pub attempts: i64,
}

/// A player's first try of a puzzle.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AttemptRow {
    pub puzzle: String,
    pub game: String,
    pub solved: bool,
    #[serde(rename = "move")]
    pub mv: String,
    pub rating_before: f64,
    pub rating_after: f64,
    pub at: i64,
}

fn puzzle_row(r: &AnyRow) -> Result<PuzzleRow> {
    let list = |col: &str| -> Result<Vec<String>> {
        let text: String = r.try_get(col)?;
        Ok(serde_json::from_str(&text).unwrap_or_default())
    };
    Ok(PuzzleRow {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        source: r.try_get("source")?,
        record: r.try_get("record")?,
        seat: r.try_get::<i64, _>("seat")? as u8,
        position: r.try_get("position")?,
        solutions: list("solutions")?,
        candidates: r.try_get("candidates")?,
        themes: list("themes")?,
        rating: Glicko2Rating {
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
        },
        attempts: r.try_get("attempts")?,
    })
}

fn attempt_row(r: &AnyRow) -> Result<AttemptRow> {
    Ok(AttemptRow {
        puzzle: r.try_get("puzzle_id")?,
        game: r.try_get("game")?,
        solved: r.try_get::<i64, _>("solved")? != 0,
        mv: r.try_get("move")?,
        rating_before: r.try_get("rating_before")?,
        rating_after: r.try_get("rating_after")?,
        at: r.try_get("at")?,
    })
}

/// A first try and the ratings it leaves, written in one commit.
pub struct AttemptWrite {
    pub user: String,
    pub puzzle: String,
    pub game: String,
    pub solved: bool,
    pub mv: String,
    pub player_before: Glicko2Rating,
    pub player_after: Glicko2Rating,
    pub puzzle_after: Glicko2Rating,
    pub at: i64,
}

impl Store {
    /// Stores `p` unless a puzzle with its id is stored; whether it was new.
    pub async fn insert_puzzle(&self, p: &NewPuzzle, at: i64) -> Result<bool> {
        Ok(self.insert_puzzles(vec![p.clone()], at).await? == 1)
    }

    /// Stores the puzzles not stored yet, in one commit; how many were new.
    pub async fn insert_puzzles(&self, puzzles: Vec<NewPuzzle>, at: i64) -> Result<usize> {
        let start = Glicko2Rating::new();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let mut added = 0;
                    for p in &puzzles {
                        let position =
                            serde_json::json!({ "view": p.view, "legal": p.legal }).to_string();
                        let done = sqlx::query(
                            "INSERT INTO puzzles (id, game, source, record, ply, seat, position,
                             solutions, candidates, themes, rating, deviation, volatility,
                             attempts, created_at)
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 0, $14)
                             ON CONFLICT (id) DO NOTHING",
                        )
                        .bind(p.id())
                        .bind(p.game.clone())
                        .bind(p.source.clone())
                        .bind(p.record.to_string())
                        .bind(p.ply as i64)
                        .bind(i64::from(p.seat))
                        .bind(position)
                        .bind(json(&p.solutions))
                        .bind(json(&p.candidates))
                        .bind(json(&p.themes))
                        .bind(start.rating)
                        .bind(start.deviation)
                        .bind(start.volatility)
                        .bind(at)
                        .execute(&mut *c)
                        .await?;
                        added += done.rows_affected() as usize;
                    }
                    Ok(added)
                })
            })
            .await
    }

    /// How many puzzles came from the shipped seed data (`bot:` sources).
    pub async fn shipped_puzzle_count(&self) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM puzzles WHERE source LIKE 'bot:%'")
            .fetch_one(&mut *self.read().await?)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// The ids of the stored puzzles mined from bot games (the shipped ones, this build's or
    /// an earlier build's).
    pub async fn shipped_puzzle_ids(&self) -> Result<Vec<String>> {
        let rows = sqlx::query("SELECT id FROM puzzles WHERE source LIKE 'bot:%'")
            .fetch_all(&mut *self.read().await?)
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("id")?))
            .collect()
    }

    /// How many puzzles of `game` are stored.
    pub async fn puzzle_count(&self, game: &str) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM puzzles WHERE game = $1")
            .bind(game)
            .fetch_one(&mut *self.read().await?)
            .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>> {
        let row = sqlx::query("SELECT * FROM puzzles WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        row.as_ref().map(puzzle_row).transpose()
    }

    /// The puzzle of `game` nearest in rating to `rating` that `user` has not tried.
    pub async fn next_puzzle(
        &self,
        game: &str,
        user: &str,
        rating: f64,
    ) -> Result<Option<PuzzleRow>> {
        let row = sqlx::query(
            "SELECT * FROM puzzles WHERE game = $1 AND id NOT IN
             (SELECT puzzle_id FROM puzzle_attempts WHERE user_id = $2)
             ORDER BY ABS(rating - $3), id LIMIT 1",
        )
        .bind(game)
        .bind(user)
        .bind(rating)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        row.as_ref().map(puzzle_row).transpose()
    }

    /// The `index`-th puzzle of `game` by id (`index` below [`Store::puzzle_count`]).
    pub async fn puzzle_at(&self, game: &str, index: i64) -> Result<Option<PuzzleRow>> {
        let row =
            sqlx::query("SELECT * FROM puzzles WHERE game = $1 ORDER BY id LIMIT 1 OFFSET $2")
                .bind(game)
                .bind(index)
                .fetch_optional(&mut *self.read().await?)
                .await?;
        row.as_ref().map(puzzle_row).transpose()
    }

    /// `user`'s puzzle rating in `game` (a newcomer's: 1500 ± 350).
    pub async fn puzzle_rating(&self, user: &str, game: &str) -> Result<Glicko2Rating> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility FROM puzzle_ratings
             WHERE user_id = $1 AND game = $2",
        )
        .bind(user)
        .bind(game)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        Ok(match row {
            Some(r) => Glicko2Rating {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            None => Glicko2Rating::new(),
        })
    }

    /// `user`'s first try of `puzzle`, if any.
    pub async fn puzzle_attempt(&self, user: &str, puzzle: &str) -> Result<Option<AttemptRow>> {
        let row =
            sqlx::query("SELECT * FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2")
                .bind(user)
                .bind(puzzle)
                .fetch_optional(&mut *self.read().await?)
                .await?;
        row.as_ref().map(attempt_row).transpose()
    }

    /// `user`'s tries of `game`'s puzzles, newest first (at most `limit`).
    pub async fn puzzle_history(
        &self,
        user: &str,
        game: &str,
        limit: i64,
    ) -> Result<Vec<AttemptRow>> {
        let rows = sqlx::query(
            "SELECT * FROM puzzle_attempts WHERE user_id = $1 AND game = $2
             ORDER BY at DESC, puzzle_id LIMIT $3",
        )
        .bind(user)
        .bind(game)
        .bind(limit)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(attempt_row).collect()
    }

    /// Stores a first try with both new ratings, in one commit; `false` (nothing written) if
    /// the player had tried it already (two tries at once: the first one counts).
    pub async fn record_puzzle_attempt(&self, a: AttemptWrite) -> Result<bool> {
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let inserted = sqlx::query(
                        "INSERT INTO puzzle_attempts (user_id, puzzle_id, game, solved, move,
                         rating_before, rating_after, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                         ON CONFLICT (user_id, puzzle_id) DO NOTHING",
                    )
                    .bind(a.user.clone())
                    .bind(a.puzzle.clone())
                    .bind(a.game.clone())
                    .bind(i64::from(a.solved))
                    .bind(a.mv.clone())
                    .bind(a.player_before.rating)
                    .bind(a.player_after.rating)
                    .bind(a.at)
                    .execute(&mut *c)
                    .await?;
                    if inserted.rows_affected() == 0 {
                        return Ok(false);
                    }
                    let p = a.player_after;
                    sqlx::query(
                        "INSERT INTO puzzle_ratings (user_id, game, rating, deviation, volatility)
                         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, game)
                         DO UPDATE SET rating = $3, deviation = $4, volatility = $5",
                    )
                    .bind(a.user.clone())
                    .bind(a.game.clone())
                    .bind(p.rating)
                    .bind(p.deviation)
                    .bind(p.volatility)
                    .execute(&mut *c)
                    .await?;
                    let q = a.puzzle_after;
                    sqlx::query(
                        "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4,
                         attempts = attempts + 1 WHERE id = $1",
                    )
                    .bind(a.puzzle.clone())
                    .bind(q.rating)
                    .bind(q.deviation)
                    .bind(q.volatility)
                    .execute(&mut *c)
                    .await?;
                    Ok(true)
                })
            })
            .await
    }

    /// Whether `user` asked that no puzzle be made from their games.
    pub async fn puzzle_opt_out(&self, user: &str) -> Result<bool> {
        let row = sqlx::query("SELECT puzzle_opt_out FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<i64, _>("puzzle_opt_out")? != 0,
            None => false,
        })
    }

    pub async fn set_puzzle_opt_out(&self, user: &str, out: bool) -> Result<()> {
        self.writer
            .execute(
                sqlx::query("UPDATE users SET puzzle_opt_out = $2 WHERE id = $1")
                    .bind(user.to_string())
                    .bind(i64::from(out)),
            )
            .await
    }

    /// Finished public games the miner has not taken yet, oldest first (at most `limit`):
    /// listed ones, and daily challenges' (public once their day is over: the caller checks).
    pub async fn games_to_mine(&self, limit: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'finished'
             AND (listed = 1 OR id IN (SELECT game_id FROM daily_attempts))
             AND id NOT IN (SELECT game_id FROM puzzle_mined)
             ORDER BY finished_at, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Takes `game` for mining: `false` if it was taken already (by this or another instance).
    pub async fn claim_mining(&self, game: &str, at: i64) -> Result<bool> {
        let game = game.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let done = sqlx::query(
                        "INSERT INTO puzzle_mined (game_id, puzzles, at) VALUES ($1, 0, $2)
                         ON CONFLICT (game_id) DO NOTHING",
                    )
                    .bind(game)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() > 0)
                })
            })
            .await
    }

    pub async fn set_mined(&self, game: &str, puzzles: i64) -> Result<()> {
        self.writer
            .execute(
                sqlx::query("UPDATE puzzle_mined SET puzzles = $2 WHERE game_id = $1")
                    .bind(game.to_string())
                    .bind(puzzles),
            )
            .await
    }
}

/// JSON text of a list, for the columns that hold one.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".into())
}
