//! WebSocket messages, typed per direction (see docs/protocol.md).
use crate::live::clock::ClockView;
use pyramidion_core::Outcome;
use pyramidion_games::MoveInfo;
use serde::{Deserialize, Serialize};

/// A move played, as one connection may see it (other seats' hidden cards redacted until the
/// game is over): its number (`ply`, from 0), who played it, its text and structured form.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(type = "{ ply: number, seat: number } & MoveInfo")]
pub struct SeenMove {
    pub ply: u32,
    pub seat: u8,
    #[serde(flatten)]
    pub info: MoveInfo,
}

#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Follow a game; with `last_event`, also receive the moves made since then.
    Subscribe {
        game: String,
        #[serde(default)]
        #[ts(optional)]
        last_event: Option<u64>,
        /// The table's invite: an unlisted game is followed by its players and by whoever
        /// holds it.
        #[serde(default)]
        #[ts(optional)]
        invite: Option<String>,
    },
    Unsubscribe {
        game: String,
    },
    /// Play `move` (its text form) on the state numbered `state_id`.
    Move {
        game: String,
        state_id: u64,
        #[serde(rename = "move")]
        text: String,
    },
    Ping {
        #[serde(default)]
        #[ts(optional)]
        id: Option<u64>,
    },
    /// A chat message at `game`'s table: plain `text`, or a quick `phrase` key.
    Chat {
        game: String,
        #[serde(default)]
        #[ts(optional)]
        text: Option<String>,
        #[serde(default)]
        #[ts(optional)]
        phrase: Option<String>,
    },
    /// Be told of every change of an open listed table (`table` messages).
    WatchLobby,
    UnwatchLobby,
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Hello {
        user: String,
        name: String,
        guest: bool,
    },
    /// The state of a game as this connection's seat may see it. `event` = number of moves
    /// played; `state_id` = the state's number, which grows with every move and every undo
    /// (`crate::live::room::Room::state_id`); `missed` lists the moves after the
    /// subscriber's `last_event`.
    /// (Boxed: every message is as large as the largest variant, and each one queued is an
    /// allocation of that size, `crate::queue`.)
    State(Box<StateMsg>),
    /// The next state of a game, to a connection that holds the state `from` of it (its
    /// last `state`, for the same seat): `patch` turns that state's document into this
    /// one's (`crate::live::patch`); `clock` is whole. A client that does not hold `from`
    /// subscribes again with its last event (see docs/protocol.md, "Patches").
    Patch {
        game: String,
        state_id: u64,
        event: u64,
        from: u64,
        clock: Option<Box<ClockView>>,
        /// The operations, in order (`live::patch` writes them from the two states' texts).
        #[ts(type = "([path: string, value: unknown] | [path: string])[]")]
        patch: Box<serde_json::value::RawValue>,
    },
    /// A seat's clock ran out (`timeout_bot_move`: a bot played for it;
    /// `seat_to_bot`: it timed out too often, a bot plays it to the end).
    Notice {
        game: String,
        kind: &'static str,
        seat: u8,
        #[serde(rename = "move")]
        played: SeenMove,
        /// The seat's time-outs so far, and after how many a bot takes the seat over.
        timeouts: u32,
        bot_after: u32,
    },
    /// To every connection of the other players of finished `game`: `by` offers a rematch at
    /// `table` (their seats there are kept for them: joining it accepts).
    RematchOffer {
        game: String,
        table: String,
        by: String,
    },
    /// To every connection of a user a seat is kept for at a new table (a friend's
    /// challenge): `by` offers them a game of `game` at `table` (joining it accepts).
    Challenge {
        table: String,
        /// The game's key.
        #[ts(type = "string")]
        game: pyramidion_games::GameKind,
        by: String,
    },
    /// Quick pairing, to every connection of a waiting user: who waits for the same setting
    /// (`crate::http::meet::Tally`: those who could sit with them, those waiting for the other
    /// kind of game, those out of range), or (`table`) the table just made for them.
    Pairing {
        waiting: usize,
        other_kind: usize,
        out_of_range: usize,
        table: Option<String>,
    },
    /// A chat message at a table this connection follows (and may read).
    Chat {
        game: String,
        message: Box<crate::db::chat_message::ChatMessage>,
    },
    /// To every connection of a user seated in `game`, when the seat to move changes:
    /// whether the user is to move there now.
    Turn {
        game: String,
        your_turn: bool,
        finished: bool,
    },
    /// A tournament changed (a round started, a result moved the standings, it finished): to
    /// its entrants (with their game in the round just started) and to the lobby's watchers.
    Tournament(Box<crate::live::tournament_msg::TournamentMsg>),
    /// To connections watching the lobby: a listed table was created or changed (it left the
    /// lobby when its `status` is no longer `open`).
    Table {
        table: Box<crate::table_view::Table>,
    },
    Error {
        #[ts(type = "string")]
        code: crate::error_code::Code,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        /// The rules engine's reason for an `illegal_move` (e.g. `slot_occupied`).
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        state_id: Option<u64>,
    },
    Pong {
        id: Option<u64>,
    },
    /// A message another instance of the cluster wrote for this connection (`crate::cluster`),
    /// passed on as it is.
    #[serde(untagged)]
    #[ts(skip)]
    Relayed(Box<serde_json::value::RawValue>),
}

/// The fields of a `state` message.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct StateMsg {
    pub game: String,
    pub state_id: u64,
    pub event: u64,
    pub seat: Option<u8>,
    pub to_move: Option<u8>,
    /// The last move, as this connection may see it.
    pub last_move: Option<SeenMove>,
    pub missed: Vec<SeenMove>,
    /// The game's `View` (its declarations: `web/js/wire/<game>.d.ts`).
    #[ts(type = "unknown")]
    pub view: Box<serde_json::value::RawValue>,
    /// Legal moves of `seat`, when it is its turn: record text and structured form, written
    /// as JSON straight from the games' forms (`AnyGame::legal_json`).
    #[ts(as = "Vec<MoveInfo>")]
    pub legal: Box<serde_json::value::RawValue>,
    pub finished: bool,
    pub outcome: Option<Outcome>,
    /// Each seat's time left and whose clock runs (none: the table has no clock).
    pub clock: Option<Box<ClockView>>,
    /// Seats a bot plays: bot seats, resigned seats, and seats that timed out too often.
    pub bots: Vec<bool>,
    /// Seats resigned, in order (they rank last, the first to resign lowest).
    pub resigned: Vec<u8>,
    /// When the game ended before its rules said so: `{ending, ranks, resigned}` and `absent`
    /// when any (`ending`: `resigned`, `abandoned` or `claimed`); `outcome` is then null.
    pub ending: Option<crate::live::endings::EarlyResult>,
    /// The seats whose player is away while the game runs: the others may claim the game
    /// against them (`POST /api/games/{id}/claim`). The server says it; clients do not work it
    /// out from the clock.
    pub away: Vec<u8>,
    /// Whether this connection's seat may take back the last step now (`POST
    /// /api/games/{id}/undo`): the server decides from the game's rules; clients do not work
    /// it out.
    pub undo: bool,
    /// A daily challenge's finished game whose end position is sealed until its day is over
    /// for everyone (`view` is then the position before the last move, while `outcome` is
    /// the final result): which challenge, and when its end and the day's ranking open.
    /// Absent for any other game, and once the day is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sealed: Option<SealedEnd>,
}

/// See [`StateMsg::sealed`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct SealedEnd {
    pub challenge: String,
    /// When the day's deals, records and ranking become public (ms since the epoch).
    pub public_at: i64,
}

impl ServerMsg {
    pub fn error(
        code: impl Into<crate::error_code::Code>,
        message: impl Into<String>,
        game: Option<&str>,
    ) -> ServerMsg {
        ServerMsg::Error {
            code: code.into(),
            message: message.into(),
            game: game.map(str::to_string),
            reason: None,
            state_id: None,
        }
    }
}

#[cfg(test)]
mod tests {
    /// A message is as large as its largest variant, and every message queued for a socket
    /// is an allocation of that size (`crate::queue`): a large variant is boxed.
    #[test]
    fn a_message_is_small() {
        let size = std::mem::size_of::<super::ServerMsg>();
        assert!(size <= 128, "ServerMsg is {size} bytes");
    }
}
