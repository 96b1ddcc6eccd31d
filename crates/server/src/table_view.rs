//! A table as clients see it, and the answers that extend it (a finished table, a list of
//! games). Only the shapes: `crate::http::api::table_of` fills them from the database. A leaf
//! below http and live, because the live side sends them too (a `table` message to the lobby's watchers,
//! `crate::live::protocol`), and it should not depend on the HTTP handlers to do so.
use pyramidion_ai::level::BotLevel;
use pyramidion_games::GameKind;
use serde_json::Value;

/// A seat of a table, as clients see it (`type` says which).
#[derive(serde::Serialize, Debug, Clone, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableSeat {
    Open,
    #[serde(rename = "invite")]
    Invited,
    /// Kept for a player (a rematch's, a pairing's) until they come.
    Reserved(SeatPerson),
    Bot {
        #[ts(type = "string")]
        level: BotLevel,
    },
    Human(SeatPerson),
}

/// The person a seat is kept for or held by.
#[derive(serde::Serialize, Debug, Clone, ts_rs::TS)]
pub struct SeatPerson {
    pub user: String,
    pub name: String,
    /// Whether it is the viewer.
    pub me: bool,
}

/// A table as clients see it (the lobby, the history, the Watch page, a rematch), with the
/// display name of every seated human. Its seats are [`TableSeat`]s but on the Watch page,
/// which rates each of them (`crate::http::meet::RatedSeat`). Built by `crate::http::api::table_of`..
#[derive(serde::Serialize, Debug, Clone, ts_rs::TS)]
pub struct Table<S = TableSeat> {
    pub id: String,
    /// The game's key.
    #[ts(type = "string")]
    pub game: GameKind,
    #[ts(type = "Record<string, unknown>")]
    pub options: Value,
    pub status: crate::game_status::GameStatus,
    pub listed: bool,
    pub rated: bool,
    pub clock: Option<crate::time_control::ClockProfile>,
    pub seats: Vec<S>,
    pub created_at: i64,
    #[ts(type = "unknown")]
    pub result: Option<Value>,
    /// Only the creator is shown the invite token (they share the link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Who may take its free seats, when not anyone (`crate::social::audience`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub audience: Option<Audience>,
}

/// Who may take a free seat at a table, when not anyone (`crate::social::audience` stores and
/// checks it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Audience {
    /// The players the table's creator follows.
    Friends,
    /// The members of a club.
    Club { club: String },
}

/// A list of games (the history, the turns page, the Watch page): each a table with the
/// fields its page adds.
#[derive(serde::Serialize)]
pub struct GameList<G> {
    pub games: Vec<G>,
}

impl<S> Table<S> {
    /// The same table with each seat made into another (the Watch page's rated seats).
    pub fn map_seats<T>(self, f: impl FnMut(S) -> T) -> Table<T> {
        Table {
            id: self.id,
            game: self.game,
            options: self.options,
            status: self.status,
            listed: self.listed,
            rated: self.rated,
            clock: self.clock,
            seats: self.seats.into_iter().map(f).collect(),
            created_at: self.created_at,
            result: self.result,
            invite: self.invite,
            audience: self.audience,
        }
    }
}

/// A table once it has finished (a replay's): when it did.
#[derive(serde::Serialize)]
pub struct FinishedTable {
    #[serde(flatten)]
    pub table: Table,
    pub finished_at: Option<i64>,
}

/// A live two-seat table (a person and a bot) with an open third seat, of the first game
/// registered (the shapes do not depend on which: the server names no game), for the tests
/// that pin the JSON of the answers extending it.
#[cfg(test)]
pub(crate) fn sample_table() -> Table {
    Table {
        id: "t1".into(),
        game: GameKind::ALL[0],
        options: serde_json::json!({ "players": 3 }),
        status: crate::game_status::GameStatus::Live,
        listed: true,
        rated: true,
        clock: None,
        seats: vec![
            TableSeat::Human(SeatPerson {
                user: "u1".into(),
                name: "Ann".into(),
                me: false,
            }),
            TableSeat::Bot {
                level: "easy".parse().unwrap(),
            },
            TableSeat::Open,
        ],
        created_at: 7,
        result: None,
        invite: None,
        audience: None,
    }
}
