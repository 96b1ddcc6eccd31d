//! The rows of games, seats and users as the server reads and writes them, and what a move
//! changes besides its record. A module of its own below the store, the writer, the ratings
//! and the after-game rows, which all use them and so need not use each other for them.
//!
//! A row is read in two steps: its columns as stored, by name (a `Stored*` struct deriving
//! `sqlx::FromRow`: text and integers, which both SQLite and PostgreSQL give back through
//! `sqlx::Any`), then made into the typed row once, here (`TryFrom`), where a value the
//! server cannot read is a corrupt row ([`StoreError::Corrupt`]), said with what it is.
use crate::db::error::{Result, StoreError};
use crate::time_control::{ClockProfile, ClockState};
use pyramidion_ai::level::BotLevel;
use pyramidion_games::GameKind;
use sqlx::AnyConnection;

/// A stored value the server cannot read: what it is, and why.
pub(crate) fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
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
    /// A bot of a level checked when the seat was made (the table's game lists it).
    Bot(BotLevel),
}

/// The columns of a `seats` row that say who sits there.
#[derive(sqlx::FromRow)]
pub(crate) struct StoredSeat {
    kind: String,
    user_id: Option<String>,
    bot_level: Option<String>,
}

/// The columns a seat is read from, in seat order (for [`StoredSeat`]).
pub(crate) const SEATS_OF_GAME: &str =
    "SELECT kind, user_id, bot_level FROM seats WHERE game_id = $1 ORDER BY seat";

/// A `seats.kind` value the server does not know: the database was written by another
/// version, or edited by hand.
#[derive(Debug, thiserror::Error)]
#[error("unknown seat kind `{0}`")]
pub(crate) struct UnknownSeatKind(String);

/// A kind this build does not know is a corrupt row, never an open seat: a stranger could
/// take the seat of a player (or a bot) the row held. So is a bot level it does not know
/// (renamed, or edited by hand): a bot that played another level than its table says would
/// change the game, and its rating's key.
impl TryFrom<StoredSeat> for SeatKind {
    type Error = StoreError;
    fn try_from(seat: StoredSeat) -> Result<Self> {
        let user = seat.user_id.unwrap_or_default();
        Ok(match seat.kind.as_str() {
            "human" => SeatKind::Human(user),
            "bot" => SeatKind::Bot(
                seat.bot_level
                    .unwrap_or_default()
                    .parse()
                    .map_err(|e| corrupt("a stored bot level", e))?,
            ),
            "invited" => SeatKind::Invited,
            "reserved" => SeatKind::Reserved(user),
            "open" => SeatKind::Open,
            other => {
                return Err(corrupt(
                    "a stored seat kind",
                    UnknownSeatKind(other.to_string()),
                ));
            }
        })
    }
}

/// The seats of stored rows, in their order.
pub(crate) fn read_seats(rows: Vec<StoredSeat>) -> Result<Vec<SeatKind>> {
    rows.into_iter().map(SeatKind::try_from).collect()
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
    pub kind: GameKind,
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
    let (k, user, bot): (&str, Option<&str>, Option<std::borrow::Cow<str>>) = match kind {
        SeatKind::Open => ("open", None, None),
        SeatKind::Invited => ("invited", None, None),
        SeatKind::Reserved(u) => ("reserved", Some(u), None),
        SeatKind::Human(u) => ("human", Some(u), None),
        SeatKind::Bot(level) => ("bot", None, Some(level.name())),
    };
    sqlx::query(
        "INSERT INTO seats (game_id, seat, kind, user_id, bot_level) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game_id)
    .bind(seat as i64)
    .bind(k)
    .bind(user)
    .bind(bot.as_deref())
    .execute(conn)
    .await?;
    Ok(())
}

/// The columns of a `games` row that make a [`GameRow`], as stored (a `SELECT *` reads the
/// others too: they are read where they are needed). Flags are 0 or 1; the seed is a
/// non-negative BIGINT.
#[derive(sqlx::FromRow)]
pub(crate) struct StoredGame {
    id: String,
    kind: String,
    options: String,
    seed: i64,
    status: String,
    listed: i64,
    invite: String,
    clock: Option<String>,
    clock_state: Option<String>,
    to_move: Option<i64>,
    created_by: String,
    result: Option<String>,
    created_at: i64,
    rated: i64,
    finished_at: Option<i64>,
}

impl TryFrom<StoredGame> for GameRow {
    type Error = StoreError;
    fn try_from(g: StoredGame) -> Result<Self> {
        Ok(GameRow {
            id: g.id,
            kind: g
                .kind
                .parse()
                .map_err(|e| corrupt("a stored game kind", e))?,
            options: g.options,
            seed: g.seed as u64,
            status: g
                .status
                .parse()
                .map_err(|e| corrupt("a stored game status", e))?,
            listed: g.listed == 1,
            invite: g.invite,
            clock: g
                .clock
                .map(|json| serde_json::from_str(&json))
                .transpose()
                .map_err(|e| corrupt("a stored clock profile", e))?,
            clock_state: g
                .clock_state
                .map(|json| serde_json::from_str(&json))
                .transpose()
                .map_err(|e| corrupt("a stored clock state", e))?,
            to_move: g.to_move.and_then(|s| u8::try_from(s).ok()),
            created_by: g.created_by,
            result: g.result,
            created_at: g.created_at,
            rated: g.rated == 1,
            finished_at: g.finished_at,
        })
    }
}

/// The games of stored rows, in their order.
pub(crate) fn read_games(rows: Vec<StoredGame>) -> Result<Vec<GameRow>> {
    rows.into_iter().map(GameRow::try_from).collect()
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

/// A user, as the store reads one (by id, or by name to sign in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    pub id: String,
    /// None for a guest (shown by a name made from its id: `crate::identity::display_name`).
    pub name: Option<String>,
    /// None for a guest, and for an account made before passwords (none can sign in).
    pub password_hash: Option<String>,
    pub guest: bool,
}

/// The columns of a `users` row that [`UserRow`] holds, as stored (`guest` is 0 or 1).
#[derive(sqlx::FromRow)]
pub(crate) struct StoredUser {
    id: String,
    name: Option<String>,
    password_hash: Option<String>,
    guest: i64,
}

impl From<StoredUser> for UserRow {
    fn from(u: StoredUser) -> Self {
        UserRow {
            id: u.id,
            name: u.name,
            password_hash: u.password_hash,
            guest: u.guest == 1,
        }
    }
}
