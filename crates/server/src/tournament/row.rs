//! A tournament's stored row: its settings, its status and the pure core's state.
use super::entry::Entry;
use crate::db::error::{Result, StoreError};
use crate::db::rows::corrupt;
use pyramidion_games::GameKind;
use serde::Serialize;
use sqlx::Row;

/// How long a clockless Swiss round may last by default, from its pairing: a week, what a
/// turn-based round of a few moves a day takes with room for a weekend away (Board Game
/// Arena's turn-based tournaments give days per round too).
pub const DEFAULT_ROUND_DAYS: u32 = 7;

/// The days a creator may give a round: at least one (a game of a few moves a day needs
/// that), at most a month (a longer round holds every other entrant up for longer than a
/// tournament is worth waiting for).
pub const ROUND_DAYS: std::ops::RangeInclusive<u32> = 1..=30;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    Swiss,
    Arena,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::Arena => "arena",
        }
    }
}

/// `open` (taking entries) → `running` → `finished`; `cancelled` when too few entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Running,
    Finished,
    Cancelled,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }

    fn read(s: &str) -> Option<Status> {
        Some(match s {
            "open" => Status::Open,
            "running" => Status::Running,
            "finished" => Status::Finished,
            "cancelled" => Status::Cancelled,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    pub game: GameKind,
    /// The game's options (JSON) but `players`: each table sets it to its size.
    pub options: String,
    pub format: Format,
    pub seats: u8,
    pub short_tables: bool,
    /// A clock profile key; none: turn-based games.
    pub clock: Option<String>,
    pub rated: bool,
    pub starts_at: i64,
    pub rounds: Option<u32>,
    pub duration_ms: Option<i64>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    pub entry: Entry,
    pub invite: String,
    /// The level of the bots that fill tables (a name the game lists); none: no bots.
    pub bot_level: Option<String>,
    pub created_by: String,
    pub created_at: i64,
    pub status: Status,
    /// The core's state as JSON, once started.
    pub state: Option<String>,
    pub version: i64,
    pub seed: u64,
    pub finished_at: Option<i64>,
    /// How many days a round of a clockless Swiss may last (`super::deadline`);
    /// [`DEFAULT_ROUND_DAYS`] for the tournaments made before it was an option.
    pub round_days: u32,
    /// Why it was cancelled, when not for too few players: `club_deleted`.
    pub cancelled_because: Option<String>,
}

fn int<T: TryFrom<i64>>(v: i64, what: &str) -> Result<T> {
    T::try_from(v).map_err(|_| StoreError::Corrupt(format!("a stored {what}: {v}")))
}

impl TournamentRow {
    pub fn read(r: &sqlx::any::AnyRow) -> Result<TournamentRow> {
        let format = match r.try_get::<String, _>("format")?.as_str() {
            "swiss" => Format::Swiss,
            "arena" => Format::Arena,
            other => return Err(corrupt("a stored tournament format", other)),
        };
        let status: String = r.try_get("status")?;
        let entry: String = r.try_get("entry")?;
        Ok(TournamentRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            game: r
                .try_get::<String, _>("game")?
                .parse()
                .map_err(|e| corrupt("a stored game kind", e))?,
            options: r.try_get("options")?,
            format,
            seats: int(r.try_get("seats")?, "table size")?,
            short_tables: r.try_get::<i64, _>("short_tables")? != 0,
            clock: r.try_get("clock")?,
            rated: r.try_get::<i64, _>("rated")? != 0,
            starts_at: r.try_get("starts_at")?,
            rounds: r
                .try_get::<Option<i64>, _>("rounds")?
                .map(|v| int(v, "round count"))
                .transpose()?,
            duration_ms: r.try_get("duration_ms")?,
            min_rating: r.try_get("min_rating")?,
            max_rating: r.try_get("max_rating")?,
            entry: Entry::read(&entry, r.try_get("club_id")?)
                .ok_or_else(|| corrupt("a stored entry condition", &entry))?,
            invite: r.try_get("invite")?,
            bot_level: r.try_get("bot_level")?,
            created_by: r.try_get("created_by")?,
            created_at: r.try_get("created_at")?,
            status: Status::read(&status).ok_or_else(|| corrupt("a stored status", &status))?,
            state: r.try_get("state")?,
            version: r.try_get("version")?,
            seed: r.try_get::<i64, _>("seed")? as u64,
            finished_at: r.try_get("finished_at")?,
            round_days: r
                .try_get::<Option<i64>, _>("round_days")?
                .map(|v| int(v, "round length in days"))
                .transpose()?
                .unwrap_or(DEFAULT_ROUND_DAYS),
            cancelled_because: r.try_get("cancelled_because")?,
        })
    }

    /// The options of a table of `players` seats.
    pub fn table_options(&self, players: usize) -> serde_json::Value {
        let mut options: serde_json::Value =
            serde_json::from_str(&self.options).unwrap_or_else(|_| serde_json::json!({}));
        if let Some(map) = options.as_object_mut() {
            map.insert("players".into(), players.into());
        }
        options
    }
}
