//! WebSocket messages, typed per direction (see docs/protocol.md).
use pyramidion_core::Outcome;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Follow a game; with `last_event`, also receive the moves made since then.
    Subscribe {
        game: String,
        #[serde(default)]
        last_event: Option<u64>,
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
        id: Option<u64>,
    },
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Hello {
        user: String,
        name: String,
        guest: bool,
    },
    /// The state of a game as this connection's seat may see it. `event` = `state_id` = number
    /// of moves played; `missed` lists the moves after the subscriber's `last_event`.
    State {
        game: String,
        state_id: u64,
        event: u64,
        seat: Option<u8>,
        to_move: Option<u8>,
        last_move: Option<String>,
        missed: Vec<String>,
        view: Box<serde_json::value::RawValue>,
        /// Legal moves of `seat`, when it is its turn.
        legal: Vec<String>,
        finished: bool,
        outcome: Option<Outcome>,
    },
    /// A seat's clock ran out: a bot played for it.
    Notice {
        game: String,
        kind: &'static str,
        seat: u8,
        #[serde(rename = "move")]
        text: String,
    },
    Error {
        code: &'static str,
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
}

impl ServerMsg {
    pub fn error(code: &'static str, message: impl Into<String>, game: Option<&str>) -> ServerMsg {
        ServerMsg::Error {
            code,
            message: message.into(),
            game: game.map(str::to_string),
            reason: None,
            state_id: None,
        }
    }
}
