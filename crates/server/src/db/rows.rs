//! The rows of games and seats as the server reads and writes them (typed, with their
//! `FromRow` readers and their inserts), and what a move changes besides its record. A module
//! of its own below the store, the writer, the ratings and the after-game rows, which all
//! use them and so need not use each other for them.
use crate::db::error::{Result, StoreError};
use crate::time_control::{ClockProfile, ClockState};
use sqlx::{AnyConnection, Row};

/// A stored value the server cannot read: what it is, and why.
fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{what}: {e}"))
}

/// A stored seat: who sits there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Open,
    Invited,
    /// Kept for one user (a rematch keeps each earlier player's seat): only they may take it.
    Reserved(String),
    Human(String),
    Bot(String),
}

/// A row of `seats` (`kind`, `user_id`, `bot_level`); an unknown kind reads as an open seat.
impl<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> for SeatKind {
    fn from_row(r: &'r sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        let text = |column| {
            Ok::<_, sqlx::Error>(r.try_get::<Option<String>, _>(column)?.unwrap_or_default())
        };
        Ok(match r.try_get::<String, _>("kind")?.as_str() {
            "human" => SeatKind::Human(text("user_id")?),
            "bot" => SeatKind::Bot(text("bot_level")?),
            "invited" => SeatKind::Invited,
            "reserved" => SeatKind::Reserved(text("user_id")?),
            _ => SeatKind::Open,
        })
    }
}

impl SeatKind {
    /// Not taken yet: the table waits for someone to sit there.
    pub fn is_free(&self) -> bool {
        matches!(
            self,
            SeatKind::Open | SeatKind::Invited | SeatKind::Reserved(_)
        )
    }
}

#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    /// Which game; a stored key this build does not register (a game behind a cargo feature
    /// it was built without) reads as a corrupt row.
    pub kind: pyramidion_games::GameKind,
    pub options: String,
    pub seed: u64,
    pub status: crate::game_status::GameStatus,
    pub listed: bool,
    pub invite: String,
    /// The table's clock profile (none: no clock).
    pub clock: Option<ClockProfile>,
    /// What the clock read after the last move (none before the game's first read).
    pub clock_state: Option<ClockState>,
    /// The seat to move, as of the last move (none once over, or not yet known).
    pub to_move: Option<u8>,
    pub created_by: String,
    pub result: Option<String>,
    pub created_at: i64,
    /// A rated table moves its players' ratings when it ends (`crate::db::ratings`).
    pub rated: bool,
    /// When the game ended (ms), once finished.
    pub finished_at: Option<i64>,
}

/// What a move changes besides the record: the seat to move and the clock, stored in the
/// same commit as the move.
#[derive(Clone, Debug, Default)]
pub struct TurnWrite {
    pub to_move: Option<u8>,
    /// The clock's state (JSON), when the game has a clock.
    pub clock_state: Option<String>,
    /// When the running turn's time runs out (ms since the epoch), with a clock.
    pub deadline_at: Option<i64>,
}

pub(crate) async fn insert_seat(
    conn: &mut AnyConnection,
    game_id: &str,
    seat: usize,
    kind: &SeatKind,
) -> Result<()> {
    let (k, user, bot): (&str, Option<&str>, Option<&str>) = match kind {
        SeatKind::Open => ("open", None, None),
        SeatKind::Invited => ("invited", None, None),
        SeatKind::Reserved(u) => ("reserved", Some(u), None),
        SeatKind::Human(u) => ("human", Some(u), None),
        SeatKind::Bot(level) => ("bot", None, Some(level)),
    };
    sqlx::query(
        "INSERT INTO seats (game_id, seat, kind, user_id, bot_level) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game_id)
    .bind(seat as i64)
    .bind(k)
    .bind(user)
    .bind(bot)
    .execute(conn)
    .await?;
    Ok(())
}

pub(crate) fn game_row(r: &sqlx::any::AnyRow) -> Result<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        kind: r
            .try_get::<String, _>("kind")?
            .parse()
            .map_err(|e| corrupt("a stored game kind", e))?,
        options: r.try_get("options")?,
        seed: r.try_get::<i64, _>("seed")? as u64,
        status: r
            .try_get::<String, _>("status")?
            .parse()
            .map_err(|e| corrupt("a stored game status", e))?,
        listed: r.try_get::<i64, _>("listed")? == 1,
        invite: r.try_get("invite")?,
        clock: match r.try_get::<Option<String>, _>("clock")? {
            Some(json) => Some(
                serde_json::from_str(&json).map_err(|e| corrupt("a stored clock profile", e))?,
            ),
            None => None,
        },
        clock_state: match r.try_get::<Option<String>, _>("clock_state")? {
            Some(json) => {
                Some(serde_json::from_str(&json).map_err(|e| corrupt("a stored clock state", e))?)
            }
            None => None,
        },
        to_move: r
            .try_get::<Option<i64>, _>("to_move")?
            .and_then(|s| u8::try_from(s).ok()),
        created_by: r.try_get("created_by")?,
        result: r.try_get("result")?,
        created_at: r.try_get("created_at")?,
        rated: r.try_get::<i64, _>("rated")? == 1,
        finished_at: r.try_get("finished_at")?,
    })
}

/// Inserts a game's row (and, for a rematch, the game it is the rematch of): the one place
/// a new table is written (lobby, daily challenge, rematch). `move_seconds`, the clock of
/// the first schema, is 0: the clock profile says it all.
pub(crate) async fn insert_game(
    c: &mut AnyConnection,
    g: &GameRow,
    rematch_of: Option<&str>,
) -> Result<()> {
    let clock = g.clock.as_ref().map(serde_json::to_string).transpose()?;
    sqlx::query(
        "INSERT INTO games (id, kind, options, seed, status, listed, invite, move_seconds, clock,
                            created_by, result, created_at, finished_at, rated, rematch_of)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, NULL, $10, NULL, $11, $12)",
    )
    .bind(&g.id)
    .bind(g.kind.key())
    .bind(&g.options)
    .bind(g.seed as i64)
    .bind(g.status.as_str())
    .bind(g.listed as i64)
    .bind(&g.invite)
    .bind(clock)
    .bind(&g.created_by)
    .bind(g.created_at)
    .bind(g.rated as i64)
    .bind(rematch_of)
    .execute(&mut *c)
    .await?;
    Ok(())
}
