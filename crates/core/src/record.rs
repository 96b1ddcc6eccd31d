//! Game records: a game is `(kind, options, seed, moves)`.
//!
//! Text form (one move per line, `#` starts a comment line):
//! ```text
//! game: forgotten-treasures
//! options: {"players":2}
//! seed: 42
//! result: 61 58
//! moves:
//! take 1 red
//! flip 2
//! place e5 E
//! ```
//! `result` (final scores per seat) is optional; when present, replay checks it.
//! The JSON form has the same fields (`moves` an array of move texts).
use crate::Seed;
use crate::rules::{ErrorCode, Rules};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The game's key (its descriptor's `key`); which games exist is the registry's business.
    pub game: String,
    pub options: serde_json::Value,
    pub seed: Seed,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Vec<i32>>,
    pub moves: Vec<String>,
    /// Line of each move in the text it was read from (for error messages).
    #[serde(skip)]
    pub move_lines: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("record is not valid JSON: {0}")]
    Json(String),
    #[error("record is for game '{found}', not '{expected}'")]
    WrongGame {
        expected: &'static str,
        found: String,
    },
    #[error("options do not fit the game: {0}")]
    Options(String),
    #[error("cannot set up the game: {0}")]
    Setup(String),
    #[error("{place}: cannot read move '{text}': {message}")]
    BadMove {
        place: String,
        text: String,
        message: String,
    },
    #[error("{place}: illegal move '{text}': {message} [{code}]")]
    Illegal {
        place: String,
        text: String,
        code: &'static str,
        message: String,
    },
    #[error("recorded result {expected:?} but the replay ends with {found:?}")]
    ResultMismatch {
        expected: Vec<i32>,
        found: Option<Vec<i32>>,
    },
}

impl ErrorCode for RecordError {
    fn code(&self) -> &'static str {
        match self {
            RecordError::Syntax { .. } | RecordError::Json(_) => "bad_record",
            RecordError::WrongGame { .. } => "wrong_game",
            RecordError::Options(_) | RecordError::Setup(_) => "bad_options",
            RecordError::BadMove { .. } => "bad_move_syntax",
            RecordError::Illegal { code, .. } => code,
            RecordError::ResultMismatch { .. } => "result_mismatch",
        }
    }
}

impl Record {
    pub fn new<O: Serialize>(game: &str, options: &O, seed: Seed) -> Record {
        Record {
            game: game.to_string(),
            options: serde_json::to_value(options).expect("options serialise"),
            seed,
            result: None,
            moves: Vec::new(),
            move_lines: Vec::new(),
        }
    }

    /// Where move `index` came from, for messages.
    pub fn place_of(&self, index: usize) -> String {
        match self.move_lines.get(index) {
            Some(line) => format!("line {line} (move {})", index + 1),
            None => format!("move {}", index + 1),
        }
    }

    /// Reads either form (JSON if the text starts with `{`).
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.trim_start().starts_with('{') {
            serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))
        } else {
            Self::parse_text(text)
        }
    }

    pub fn parse_text(text: &str) -> Result<Record, RecordError> {
        let mut game = None;
        let mut options = None;
        let mut seed = None;
        let mut result = None;
        let mut moves = Vec::new();
        let mut move_lines = Vec::new();
        let mut in_moves = false;
        let syntax = |line: usize, message: String| RecordError::Syntax { line, message };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            if in_moves {
                moves.push(content.to_string());
                move_lines.push(line);
                continue;
            }
            if content == "moves:" {
                in_moves = true;
                continue;
            }
            let Some((key, value)) = content.split_once(':') else {
                return Err(syntax(
                    line,
                    format!("expected 'key: value' or 'moves:', found '{content}'"),
                ));
            };
            let value = value.trim();
            match key.trim() {
                "game" => {
                    if value.is_empty() {
                        return Err(syntax(line, "empty 'game:' header".into()));
                    }
                    game = Some(value.to_string())
                }
                "options" => {
                    options = Some(
                        serde_json::from_str(value)
                            .map_err(|e| syntax(line, format!("options are not JSON: {e}")))?,
                    )
                }
                "seed" => {
                    seed = Some(value.parse::<Seed>().map_err(|_| {
                        syntax(line, format!("seed '{value}' is not a whole number"))
                    })?)
                }
                "result" => {
                    result = Some(
                        value
                            .split_whitespace()
                            .map(|s| s.parse::<i32>())
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(|_| {
                                syntax(line, format!("result '{value}' is not a list of scores"))
                            })?,
                    )
                }
                other => return Err(syntax(line, format!("unknown header '{other}'"))),
            }
        }
        let end = text.lines().count();
        Ok(Record {
            game: game.ok_or_else(|| syntax(end, "missing 'game:' header".into()))?,
            options: options.unwrap_or(serde_json::Value::Null),
            seed: seed.ok_or_else(|| syntax(end, "missing 'seed:' header".into()))?,
            result,
            moves,
            move_lines,
        })
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "game: {}", self.game);
        let _ = writeln!(s, "options: {}", self.options);
        let _ = writeln!(s, "seed: {}", self.seed);
        if let Some(result) = &self.result {
            let scores: Vec<String> = result.iter().map(|r| r.to_string()).collect();
            let _ = writeln!(s, "result: {}", scores.join(" "));
        }
        s.push_str("moves:\n");
        for m in &self.moves {
            s.push_str(m);
            s.push('\n');
        }
        s
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("record serialises")
    }

    pub fn push<M: std::fmt::Display>(&mut self, m: &M) {
        self.moves.push(m.to_string());
    }

    /// Sets up the game of this record and plays `limit` moves (all if `None`), verifying each.
    /// When every move is played and a result is recorded, the final scores must match it.
    pub fn replay_prefix<R: Rules>(&self, limit: Option<usize>) -> Result<R, RecordError> {
        if self.game != R::DESCRIPTOR.key {
            return Err(RecordError::WrongGame {
                expected: R::DESCRIPTOR.key,
                found: self.game.clone(),
            });
        }
        let options: R::Options = if self.options.is_null() {
            R::Options::default()
        } else {
            serde_json::from_value(self.options.clone())
                .map_err(|e| RecordError::Options(e.to_string()))?
        };
        let mut game =
            R::new(&options, self.seed).map_err(|e| RecordError::Setup(e.to_string()))?;
        let n = limit.unwrap_or(self.moves.len()).min(self.moves.len());
        for (index, text) in self.moves[..n].iter().enumerate() {
            let m: R::Move =
                text.parse()
                    .map_err(|e: crate::rules::MoveParseError| RecordError::BadMove {
                        place: self.place_of(index),
                        text: text.clone(),
                        message: e.reason,
                    })?;
            game.play(&m).map_err(|e| RecordError::Illegal {
                place: self.place_of(index),
                text: text.clone(),
                code: e.code(),
                message: e.to_string(),
            })?;
        }
        if n == self.moves.len()
            && let Some(expected) = &self.result
        {
            let found = game.outcome().map(|o| o.scores);
            if found.as_ref() != Some(expected) {
                return Err(RecordError::ResultMismatch {
                    expected: expected.clone(),
                    found,
                });
            }
        }
        Ok(game)
    }

    pub fn replay<R: Rules>(&self) -> Result<R, RecordError> {
        self.replay_prefix(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        let mut r = Record::new(
            "forgotten-treasures",
            &serde_json::json!({"players": 2}),
            42,
        );
        r.push(&"take 1 red");
        r.push(&"place e5 E");
        r.result = Some(vec![10, -2]);
        let back = Record::parse(&r.to_text()).unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!(back.move_lines, vec![6, 7]);
        assert_eq!(back.result, r.result);
        assert_eq!(
            (&back.game, back.seed, &back.options),
            (&r.game, r.seed, &r.options)
        );
        let json = Record::parse(&r.to_json()).unwrap();
        assert_eq!(json.moves, r.moves);
    }

    use proptest::prelude::*;

    proptest! {
        /// Any record with printable one-line moves survives both forms unchanged.
        #[test]
        fn both_forms_round_trip(
            seed in any::<u64>(),
            players in 1u8..6,
            moves in proptest::collection::vec("[a-z0-9]{1,8}( [a-z0-9]{1,8}){0,2}", 0..40),
            result in proptest::option::of(proptest::collection::vec(-50i32..200, 1..5)),
        ) {
            let mut r = Record::new("pyramids", &serde_json::json!({"players": players}), seed);
            r.moves = moves;
            r.result = result;
            let text = Record::parse(&r.to_text()).unwrap();
            prop_assert_eq!((&text.moves, text.seed, &text.result, &text.options), (&r.moves, r.seed, &r.result, &r.options));
            let json = Record::parse(&r.to_json()).unwrap();
            prop_assert_eq!((&json.moves, json.seed, &json.result), (&r.moves, r.seed, &r.result));
        }

        /// Garbage is refused with an error, never a panic.
        #[test]
        fn garbage_never_panics(text in "\\PC{0,200}") {
            let _ = Record::parse(&text);
        }
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let e = Record::parse("game: forgotten-treasures\nseed: x\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: seed 'x' is not a whole number");
        let e = Record::parse("game:\n").unwrap_err();
        assert!(e.to_string().starts_with("line 1: empty 'game:' header"));
        let e = Record::parse("game: pyramids\nfoo\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2:"));
        assert!(Record::parse("{ not json").is_err());
    }
}
