//! Reading and writing tournaments (migration 0016). Entries and withdrawals are rows of
//! `tournament_entrants` written by the players' requests; the core's state, the rounds and
//! the tables are written only by the director's steps ([`commit`]), each in one
//! transaction with the games it creates, fenced by the tournament's lease and by the
//! version of the state it was computed from.
use super::row::{Status, TournamentRow};
use super::swiss_step::{Entrant, TableGame};
use crate::db::error::{Result, StoreError};
use crate::db::fence::Fence;
use crate::db::rows::{GameRow, SeatKind};
use crate::db::store::Store;
use sqlx::Row;

/// Writes a new tournament (status `open`, no state yet).
pub async fn create(store: &Store, t: &TournamentRow) -> Result<()> {
    let t = t.clone();
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO tournaments (id, name, game, options, format, seats, short_tables,
                        clock, rated, starts_at, rounds, duration_ms, min_rating, max_rating, entry,
                        club_id, invite, bot_level, created_by, created_at, status, state, version,
                        seed, finished_at, round_days)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                        $16, $17, $18, $19, $20, $21, NULL, 0, $22, NULL, $23)",
                )
                .bind(&t.id)
                .bind(&t.name)
                .bind(t.game.key())
                .bind(&t.options)
                .bind(t.format.as_str())
                .bind(i64::from(t.seats))
                .bind(i64::from(t.short_tables))
                .bind(t.clock.as_deref())
                .bind(i64::from(t.rated))
                .bind(t.starts_at)
                .bind(t.rounds.map(i64::from))
                .bind(t.duration_ms)
                .bind(t.min_rating)
                .bind(t.max_rating)
                .bind(t.entry.as_str())
                .bind(t.entry.club())
                .bind(&t.invite)
                .bind(t.bot_level.as_deref())
                .bind(&t.created_by)
                .bind(t.created_at)
                .bind(t.status.as_str())
                .bind(t.seed as i64)
                .bind(i64::from(t.round_days))
                .execute(&mut *c)
                .await?;
                Ok(())
            })
        })
        .await
}

pub async fn get(store: &Store, id: &str) -> Result<Option<TournamentRow>> {
    let row = sqlx::query("SELECT * FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *store.read().await?)
        .await?;
    row.as_ref().map(TournamentRow::read).transpose()
}

/// The tournaments to list: those taking entries or running, soonest first, then the
/// latest finished; `limit` in all.
pub async fn list(store: &Store, limit: usize) -> Result<Vec<TournamentRow>> {
    let rows = sqlx::query(
        "SELECT * FROM tournaments
         ORDER BY CASE status WHEN 'running' THEN 0 WHEN 'open' THEN 1 ELSE 2 END,
                  CASE WHEN status IN ('open', 'running') THEN starts_at ELSE -starts_at END, id
         LIMIT $1",
    )
    .bind(limit as i64)
    .fetch_all(&mut *store.read().await?)
    .await?;
    rows.iter().map(TournamentRow::read).collect()
}

/// Tournaments the director has work in: open ones whose start has come, and running ones.
pub async fn due(store: &Store, now: i64) -> Result<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM tournaments
         WHERE status = 'running' OR (status = 'open' AND starts_at <= $1) ORDER BY id",
    )
    .bind(now)
    .fetch_all(&mut *store.read().await?)
    .await?;
    rows.iter()
        .map(|r| r.try_get("id").map_err(StoreError::from))
        .collect()
}

/// The entrants, in the order they entered.
pub async fn entrants(store: &Store, id: &str) -> Result<Vec<Entrant>> {
    let rows = sqlx::query(
        "SELECT user_id, withdrawn FROM tournament_entrants WHERE tournament_id = $1
         ORDER BY joined_at, user_id",
    )
    .bind(id)
    .fetch_all(&mut *store.read().await?)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Entrant {
                user: r.try_get("user_id")?,
                withdrawn: r.try_get::<i64, _>("withdrawn")? != 0,
            })
        })
        .collect()
}

/// Enters `user` (again, if they had withdrawn).
pub async fn join(store: &Store, id: &str, user: &str, now: i64) -> Result<()> {
    let (id, user) = (id.to_string(), user.to_string());
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                let back = sqlx::query(
                    "UPDATE tournament_entrants SET withdrawn = 0
                     WHERE tournament_id = $1 AND user_id = $2",
                )
                .bind(&id)
                .bind(&user)
                .execute(&mut *c)
                .await?;
                if back.rows_affected() == 0 {
                    sqlx::query(
                        "INSERT INTO tournament_entrants (tournament_id, user_id, joined_at, withdrawn)
                         VALUES ($1, $2, $3, 0)",
                    )
                    .bind(&id)
                    .bind(&user)
                    .bind(now)
                    .execute(&mut *c)
                    .await?;
                }
                Ok(())
            })
        })
        .await
}

/// Withdraws `user`: not paired again (a table they sit at plays on); whether they had
/// entered.
pub async fn withdraw(store: &Store, id: &str, user: &str) -> Result<bool> {
    let (id, user) = (id.to_string(), user.to_string());
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                let done = sqlx::query(
                    "UPDATE tournament_entrants SET withdrawn = 1
                     WHERE tournament_id = $1 AND user_id = $2",
                )
                .bind(&id)
                .bind(&user)
                .execute(&mut *c)
                .await?;
                Ok(done.rows_affected() == 1)
            })
        })
        .await
}

/// Every table of the tournament with its game's result once finished.
pub async fn tables(store: &Store, id: &str) -> Result<Vec<TableGame>> {
    let rows = sqlx::query(
        "SELECT t.round, t.table_no, t.game_id, g.status, g.result
         FROM tournament_tables t JOIN games g ON g.id = t.game_id
         WHERE t.tournament_id = $1 ORDER BY t.round, t.table_no",
    )
    .bind(id)
    .fetch_all(&mut *store.read().await?)
    .await?;
    rows.iter()
        .map(|r| {
            let status: String = r.try_get("status")?;
            let result: Option<String> = r.try_get("result")?;
            Ok(TableGame {
                round: u32::try_from(r.try_get::<i64, _>("round")?)
                    .map_err(|e| StoreError::Corrupt(format!("a stored round: {e}")))?,
                table: usize::try_from(r.try_get::<i64, _>("table_no")?)
                    .map_err(|e| StoreError::Corrupt(format!("a stored table: {e}")))?,
                game: r.try_get("game_id")?,
                result: if status == "finished" {
                    result.and_then(|r| serde_json::from_str(&r).ok())
                } else {
                    None
                },
            })
        })
        .collect()
}

/// The round starts of a tournament (ms), by round.
pub async fn round_starts(store: &Store, id: &str) -> Result<Vec<(u32, i64, Option<i64>)>> {
    let rows = sqlx::query(
        "SELECT round, started_at, ended_at FROM tournament_rounds WHERE tournament_id = $1
         ORDER BY round",
    )
    .bind(id)
    .fetch_all(&mut *store.read().await?)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get::<i64, _>("round")? as u32,
                r.try_get("started_at")?,
                r.try_get("ended_at")?,
            ))
        })
        .collect()
}

/// One new game of a round (an Arena's: round 0): its row, its seats and its table's number.
#[derive(Clone)]
pub struct NewTable {
    pub round: u32,
    pub table: usize,
    pub game: GameRow,
    pub seats: Vec<SeatKind>,
}

/// What one step of the director writes.
pub struct Commit {
    pub id: String,
    /// The version of the state the step was computed from.
    pub version: i64,
    pub state: String,
    pub status: Status,
    pub now: i64,
    /// The Swiss round paired (its row is written: its key refuses a second pairing).
    pub round: Option<u32>,
    /// The new tables (a Swiss round's, or the Arena's just formed).
    pub tables: Vec<NewTable>,
    pub no_shows: Vec<String>,
}

/// Commits a step in one transaction: the new state over the version it was computed from,
/// the round's row (its key refuses a round paired twice), its games, seats and tables, the
/// no-shows' withdrawals. Nothing is written (`Ok(false)`) when another step committed
/// first or when `fence` no longer holds the tournament's lease.
pub async fn commit(store: &Store, step: Commit, fence: Option<Fence>) -> Result<bool> {
    let lease = super::lease_of(&step.id);
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                // Under a shared lock on the lease row: a take-over waits for this commit.
                match crate::db::fence::hold_fence(c, &lease, fence.as_ref()).await {
                    Err(StoreError::MoveRefused(_)) => return Ok(false),
                    other => other?,
                }
                let finished = matches!(step.status, Status::Finished | Status::Cancelled);
                let updated = sqlx::query(
                    "UPDATE tournaments SET state = $1, status = $2, version = version + 1,
                        finished_at = $3
                     WHERE id = $4 AND version = $5",
                )
                .bind(&step.state)
                .bind(step.status.as_str())
                .bind(finished.then_some(step.now))
                .bind(&step.id)
                .bind(step.version)
                .execute(&mut *c)
                .await?;
                if updated.rows_affected() != 1 {
                    return Ok(false);
                }
                for user in &step.no_shows {
                    sqlx::query(
                        "UPDATE tournament_entrants SET withdrawn = 1
                         WHERE tournament_id = $1 AND user_id = $2",
                    )
                    .bind(&step.id)
                    .bind(user)
                    .execute(&mut *c)
                    .await?;
                }
                if step.round.is_some() || finished {
                    sqlx::query(
                        "UPDATE tournament_rounds SET ended_at = $1
                         WHERE tournament_id = $2 AND ended_at IS NULL",
                    )
                    .bind(step.now)
                    .bind(&step.id)
                    .execute(&mut *c)
                    .await?;
                }
                if let Some(round) = step.round {
                    sqlx::query(
                        "INSERT INTO tournament_rounds (tournament_id, round, started_at, ended_at)
                         VALUES ($1, $2, $3, NULL)",
                    )
                    .bind(&step.id)
                    .bind(i64::from(round))
                    .bind(step.now)
                    .execute(&mut *c)
                    .await?;
                }
                {
                    for t in &step.tables {
                        crate::db::rows::insert_game(c, &t.game, None).await?;
                        for (i, seat) in t.seats.iter().enumerate() {
                            crate::db::rows::insert_seat(c, &t.game.id, i, seat).await?;
                        }
                        sqlx::query(
                            "INSERT INTO tournament_tables (tournament_id, round, table_no, game_id)
                             VALUES ($1, $2, $3, $4)",
                        )
                        .bind(&step.id)
                        .bind(i64::from(t.round))
                        .bind(t.table as i64)
                        .bind(&t.game.id)
                        .execute(&mut *c)
                        .await?;
                    }
                }
                Ok(true)
            })
        })
        .await
}

/// The tournaments `user` entered and has not withdrawn from, not finished.
pub async fn entered_by(store: &Store, user: &str) -> Result<Vec<String>> {
    let rows = sqlx::query(
        "SELECT e.tournament_id FROM tournament_entrants e
         JOIN tournaments t ON t.id = e.tournament_id
         WHERE e.user_id = $1 AND e.withdrawn = 0 AND t.status IN ('open', 'running')",
    )
    .bind(user)
    .fetch_all(&mut *store.read().await?)
    .await?;
    rows.iter()
        .map(|r| r.try_get("tournament_id").map_err(StoreError::from))
        .collect()
}

/// Moves the start of open tournament `id` of `creator` to `now`; whether it was theirs and
/// still open.
pub async fn start_now(store: &Store, id: &str, creator: &str, now: i64) -> Result<bool> {
    let (id, creator) = (id.to_string(), creator.to_string());
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                let done = sqlx::query(
                    "UPDATE tournaments SET starts_at = $1
                     WHERE id = $2 AND created_by = $3 AND status = 'open' AND starts_at > $1",
                )
                .bind(now)
                .bind(&id)
                .bind(&creator)
                .execute(&mut *c)
                .await?;
                Ok(done.rows_affected() == 1)
            })
        })
        .await
}
