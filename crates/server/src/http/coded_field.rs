//! Request fields read straight into their types (a game kind, a bot level), each refused
//! with its own stable code (`unknown_game`, `unknown_bot_level`) rather than `bad_request`,
//! so that a handler never holds, nor parses by hand, the text a client sent for them.
//!
//! serde keeps only the text of a field's error, not its code: the field's deserializer
//! ([`coded`]) leaves its refusal in a slot of the thread, and [`read_body`] takes it from
//! there when the body does not deserialize. Deserializing is synchronous, so the slot is
//! filled and read on one thread, within one call, with nothing else deserializing between.
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use pyramidion_ai::level::BotLevel;
use pyramidion_games::GameKind;
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde_json::Value;
use std::cell::RefCell;
use std::fmt::Display;
use std::str::FromStr;

/// A field type read from its text whose refusal has a code of its own.
pub trait CodedField: FromStr<Err: Display> {
    /// The code (and its status) a value that does not parse is answered with.
    const REFUSED: ApiErrorCode;

    /// What the client is told of `text`, which did not parse.
    fn refusal(_text: &str, error: Self::Err) -> String {
        error.to_string()
    }
}

impl CodedField for GameKind {
    const REFUSED: ApiErrorCode = ApiErrorCode::UnknownGame;
}

impl CodedField for BotLevel {
    const REFUSED: ApiErrorCode = ApiErrorCode::UnknownBotLevel;

    /// Not the bot crate's own message: it offers `search:N` budgets, which a table does not
    /// take (its seats play the levels its game lists, checked once the game is known: every
    /// game lists the whole ladder).
    fn refusal(text: &str, _: Self::Err) -> String {
        format!(
            "unknown bot level '{text}' (levels: {})",
            BotLevel::names().join(", ")
        )
    }
}

thread_local! {
    /// The refusal of the last coded field that did not parse on this thread (see the module).
    static REFUSAL: RefCell<Option<ApiError>> = const { RefCell::new(None) };
}

/// `#[serde(deserialize_with = "crate::http::coded_field::coded")]`: the field read from its
/// text, refused with its type's code when that does not parse.
pub fn coded<'de, D: Deserializer<'de>, T: CodedField>(d: D) -> Result<T, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(|e| {
        let message = T::refusal(&text, e);
        REFUSAL.set(Some(ApiError::new(T::REFUSED, message.clone())));
        D::Error::custom(message)
    })
}

/// A request body (JSON already checked for NULs) as `T`: a coded field that does not parse
/// is answered with its code; anything else wrong is `bad_request`, as `bad_json` words it.
pub fn read_body<T: DeserializeOwned>(
    body: Value,
    bad_json: impl FnOnce(serde_json::Error) -> String,
) -> ApiResult<T> {
    REFUSAL.set(None);
    serde_json::from_value(body).map_err(|e| {
        REFUSAL
            .take()
            .unwrap_or_else(|| ApiError::bad_request(bad_json(e)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Ask {
        #[serde(deserialize_with = "coded")]
        game: GameKind,
        // Only ever refused here: a second field, to show which fault is answered.
        #[serde(default)]
        #[allow(dead_code)]
        players: u8,
    }

    fn read(body: Value) -> ApiResult<Ask> {
        read_body(body, |e| format!("invalid request body: {e}"))
    }

    /// An unknown game is `unknown_game`, whatever fails after it; any other fault of the
    /// body is `bad_request`, even right after a body with an unknown game was refused.
    #[test]
    fn a_coded_field_is_refused_with_its_code_and_nothing_else_is() {
        let key = GameKind::ALL[0].key();
        assert_eq!(read(json!({ "game": key })).unwrap().game, GameKind::ALL[0]);
        let e = read(json!({"game": "chess", "players": 2})).unwrap_err();
        assert_eq!(e.code, ApiErrorCode::UnknownGame);
        assert!(e.message.contains("unknown game 'chess'"), "{}", e.message);
        for bad in [
            json!({"game": key, "players": "two"}),
            json!({"game": key, "colour": "red"}),
            json!({"game": 7}),
            json!({}),
        ] {
            let e = read(bad.clone()).unwrap_err();
            assert_eq!(e.code, ApiErrorCode::BadRequest, "{bad}");
        }
    }

    #[test]
    fn an_unknown_bot_level_is_refused_with_its_code() {
        #[derive(Deserialize, Debug)]
        struct Seat {
            #[serde(deserialize_with = "coded")]
            level: BotLevel,
        }
        let seat: Seat = read_body(json!({"level": "max"}), |e| e.to_string()).unwrap();
        assert_eq!(seat.level.name(), "max");
        let e = read_body::<Seat>(json!({"level": "genius"}), |e| e.to_string()).unwrap_err();
        assert_eq!(e.code, ApiErrorCode::UnknownBotLevel);
        assert!(e.message.contains("'genius'"), "{}", e.message);
    }
}
