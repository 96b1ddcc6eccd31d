//! What goes over an internal link (docs/protocol.md, "Internal link"): JSON text frames,
//! each tagged with its game, commands one way and the owner's answers the other.
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::live::endings::Action;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// A frame from the forwarding instance: a command for `game`'s room.
#[derive(Serialize, Deserialize)]
pub(super) struct ForwardFrame {
    pub game: String,
    pub cmd: Forward,
}

/// A frame from the owner: what `game`'s room said. (A struct around the enum, not a
/// flattened one: a raw message cannot come from serde's buffer, which flattening uses.)
#[derive(Serialize, Deserialize)]
pub(super) struct BackFrame {
    pub game: String,
    pub back: Back,
}

/// A command for the owner's room, from a connection of the instance that forwards it.
#[derive(Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(super) enum Forward {
    Subscribe {
        conn: u64,
        user: Option<String>,
        last_event: Option<u64>,
    },
    Unsubscribe {
        conn: u64,
    },
    Move {
        conn: u64,
        user: String,
        state_id: u64,
        text: String,
    },
    Chat {
        conn: u64,
        user: String,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
    },
    Progress {
        req: u64,
    },
    Act {
        req: u64,
        user: Option<String>,
        action: Action,
    },
    /// The forwarding instance no longer forwards this game: every connection it had there
    /// is unsubscribed (what closing a per-game link used to say).
    Leave,
}

/// What the owner sends back. Externally tagged: a raw message inside an internally tagged
/// enum cannot be read back (serde buffers such an enum's content, and a `RawValue` cannot
/// come from a buffer).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Back {
    /// A message of the room for connection `conn` of the forwarding instance.
    Msg {
        conn: u64,
        msg: Box<RawValue>,
    },
    Progress {
        req: u64,
        stage: u8,
        moves: u64,
    },
    Answer {
        req: u64,
        ok: Option<crate::live::endings::Done>,
        error: Option<RefusedAct>,
    },
    /// The owner no longer runs the game here (it ended, or another instance owns it).
    Closed {
        reason: String,
    },
}

#[derive(Serialize, Deserialize)]
pub(super) struct RefusedAct {
    status: u16,
    code: String,
    message: String,
}

/// A code that came over a link: one of the server's, or a rules crate's code (the stable
/// names the UI translates), interned once.
fn intern(code: &str) -> crate::error_code::Code {
    if let Some(known) = ApiErrorCode::parse(code) {
        return known.into();
    }
    static CODES: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<&'static str>>> =
        std::sync::LazyLock::new(Default::default);
    let mut codes = CODES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = codes.get(code) {
        return crate::error_code::Code::Rules(known);
    }
    let leaked: &'static str = Box::leak(code.to_string().into_boxed_str());
    codes.insert(leaked);
    crate::error_code::Code::Rules(leaked)
}

pub(super) fn unavailable(game: &str) -> ApiError {
    ApiError::new(
        ApiErrorCode::Unavailable,
        format!("the server running game {game} is changing: try again in a few seconds"),
    )
}

/// The answer to an action the owner ran (or could not).
pub(super) fn answer(
    game: &str,
    ok: Option<crate::live::endings::Done>,
    error: Option<RefusedAct>,
) -> crate::live::endings::Answer {
    match (ok, error) {
        (Some(v), _) => Ok(v),
        (None, Some(e)) => Err(ApiError::with_status(
            StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            intern(&e.code),
            e.message,
        )),
        (None, None) => Err(unavailable(game)),
    }
}

/// An action's answer, as it goes back over the link.
pub(super) fn answered(req: u64, answer: crate::live::endings::Answer) -> Back {
    match answer {
        Ok(v) => Back::Answer {
            req,
            ok: Some(v),
            error: None,
        },
        Err(e) => Back::Answer {
            req,
            ok: None,
            error: Some(RefusedAct {
                status: e.status.as_u16(),
                code: e.code.to_string(),
                message: e.message,
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_with_their_game_and_a_raw_message() {
        let back = BackFrame {
            game: "g1".into(),
            back: Back::Msg {
                conn: 3,
                msg: RawValue::from_string(r#"{"type":"pong","id":1}"#.into()).unwrap(),
            },
        };
        let text = serde_json::to_string(&back).unwrap();
        assert_eq!(
            text,
            r#"{"game":"g1","back":{"msg":{"conn":3,"msg":{"type":"pong","id":1}}}}"#
        );
        let read: BackFrame = serde_json::from_str(&text).unwrap();
        assert_eq!(read.game, "g1");
        assert!(
            matches!(read.back, Back::Msg { conn: 3, msg } if msg.get() == r#"{"type":"pong","id":1}"#)
        );
        let leave = ForwardFrame {
            game: "g2".into(),
            cmd: Forward::Leave,
        };
        let text = serde_json::to_string(&leave).unwrap();
        assert_eq!(text, r#"{"game":"g2","cmd":{"op":"leave"}}"#);
        let read: ForwardFrame = serde_json::from_str(&text).unwrap();
        assert!(matches!(read.cmd, Forward::Leave));
    }
}
