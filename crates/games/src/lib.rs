//! Every game of the platform behind one registry, keyed by [`GameKind`].
//!
//! [`AnyGame`] is the text/JSON face of a game for the server and tools: options, moves and
//! views travel as JSON or move text, errors as stable codes. Code that wants the concrete
//! types (simulation, bots) dispatches on the kind with [`dispatch!`].
#![forbid(unsafe_code)]

pub use pyramidion_core::GameKind;
pub use pyramidion_pyramido as pyramido;
pub use pyramidion_pyramids as pyramids;
pub use pyramidion_treasures as treasures;

use pyramidion_core::record::Record;
use pyramidion_core::{ErrorCode, Outcome, Rules, Seat, Seed, ToMove};
use serde_json::Value;

/// Runs `$body` with `$G` bound to the concrete game type of `$kind` (a `GameKind`);
/// evaluates `$missing` (with `$kind` in scope) for kinds not registered yet.
#[macro_export]
macro_rules! dispatch {
    ($kind:expr, $G:ident => $body:expr, _ => $missing:expr) => {
        match $kind {
            $crate::GameKind::ForgottenTreasures => {
                type $G = $crate::treasures::Game;
                $body
            }
            $crate::GameKind::Pyramido => {
                type $G = $crate::pyramido::Game;
                $body
            }
            $crate::GameKind::Pyramids => {
                type $G = $crate::pyramids::Game;
                $body
            }
            #[allow(unreachable_patterns)]
            _ => $missing,
        }
    };
}

/// The games registered in this build.
pub fn registered() -> Vec<GameKind> {
    GameKind::ALL
        .into_iter()
        .filter(|k| dispatch!(*k, G => { let _ = std::marker::PhantomData::<G>; true }, _ => false))
        .collect()
}

/// An error with a stable code for the UI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GameError {
    pub code: &'static str,
    pub message: String,
}

impl GameError {
    fn new(code: &'static str, message: impl Into<String>) -> Self {
        GameError {
            code,
            message: message.into(),
        }
    }
}

impl ErrorCode for GameError {
    fn code(&self) -> &'static str {
        self.code
    }
}

/// One live game of any kind.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyGame {
    // Boxed: states are a few KiB and of different sizes.
    ForgottenTreasures(Box<treasures::Game>),
    Pyramido(Box<pyramido::Game>),
    Pyramids(Box<pyramids::Game>),
}

/// Applies `$body` to the concrete game inside an `AnyGame`.
macro_rules! each {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::ForgottenTreasures($g) => $body,
            AnyGame::Pyramido($g) => $body,
            AnyGame::Pyramids($g) => $body,
        }
    };
}

fn parse_options<O: serde::de::DeserializeOwned + Default>(
    options: &Value,
) -> Result<O, GameError> {
    if options.is_null() {
        return Ok(O::default());
    }
    serde_json::from_value(options.clone())
        .map_err(|e| GameError::new("bad_options", e.to_string()))
}

impl AnyGame {
    pub fn new(kind: GameKind, options: &Value, seed: Seed) -> Result<AnyGame, GameError> {
        let setup = |e: pyramidion_core::SetupError| GameError::new(e.code, e.message);
        match kind {
            GameKind::ForgottenTreasures => Ok(AnyGame::ForgottenTreasures(Box::new(
                treasures::Game::new(&parse_options(options)?, seed).map_err(setup)?,
            ))),
            GameKind::Pyramido => Ok(AnyGame::Pyramido(Box::new(
                pyramido::Game::new(&parse_options(options)?, seed).map_err(setup)?,
            ))),
            GameKind::Pyramids => Ok(AnyGame::Pyramids(Box::new(
                pyramids::Game::new(&parse_options(options)?, seed).map_err(setup)?,
            ))),
        }
    }

    /// Rebuilds a game from its record, verifying every move.
    pub fn from_record(record: &Record) -> Result<AnyGame, GameError> {
        let err = |e: pyramidion_core::record::RecordError| GameError::new(e.code(), e.to_string());
        match record.game {
            GameKind::ForgottenTreasures => Ok(AnyGame::ForgottenTreasures(Box::new(
                record.replay().map_err(err)?,
            ))),
            GameKind::Pyramido => Ok(AnyGame::Pyramido(Box::new(record.replay().map_err(err)?))),
            GameKind::Pyramids => Ok(AnyGame::Pyramids(Box::new(record.replay().map_err(err)?))),
        }
    }

    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::ForgottenTreasures(_) => GameKind::ForgottenTreasures,
            AnyGame::Pyramido(_) => GameKind::Pyramido,
            AnyGame::Pyramids(_) => GameKind::Pyramids,
        }
    }

    pub fn seats(&self) -> u8 {
        each!(self, g => g.seats())
    }

    pub fn to_move(&self) -> ToMove {
        each!(self, g => g.to_move())
    }

    pub fn ply(&self) -> u32 {
        each!(self, g => g.ply())
    }

    pub fn legal_moves(&self) -> Vec<String> {
        each!(self, g => {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves.iter().map(|m| m.to_string()).collect()
        })
    }

    /// Parses and plays a move given as text. On error nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<(), GameError> {
        each!(self, g => {
            let m = text.parse().map_err(|e: pyramidion_core::rules::MoveParseError| GameError::new(e.code(), e.to_string()))?;
            g.play(&m).map_err(|e| GameError::new(e.code(), e.to_string()))
        })
    }

    pub fn view(&self, seat: Option<Seat>) -> Value {
        each!(self, g => serde_json::to_value(g.view(seat)).expect("views serialise"))
    }

    /// The view already serialised (what the server sends: no intermediate `Value` tree).
    pub fn view_json(&self, seat: Option<Seat>) -> Box<serde_json::value::RawValue> {
        each!(self, g => serde_json::value::to_raw_value(&g.view(seat)).expect("views serialise"))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_and_errors() {
        assert!(registered().contains(&GameKind::ForgottenTreasures));
        let mut g = AnyGame::new(
            GameKind::ForgottenTreasures,
            &serde_json::json!({"players": 3}),
            1,
        )
        .unwrap();
        assert_eq!(g.seats(), 3);
        assert_eq!(g.play_text("flip 2").unwrap_err().code, "wrong_phase");
        assert_eq!(g.play_text("jump").unwrap_err().code, "bad_move_syntax");
        let first = g.legal_moves()[0].clone();
        g.play_text(&first).unwrap();
        assert_eq!(g.ply(), 1);
        let bad = AnyGame::new(
            GameKind::ForgottenTreasures,
            &serde_json::json!({"players": "x"}),
            1,
        );
        assert_eq!(bad.unwrap_err().code, "bad_options");
        let bad = AnyGame::new(
            GameKind::ForgottenTreasures,
            &serde_json::json!({"players": 9}),
            1,
        );
        assert_eq!(bad.unwrap_err().code, "bad_player_count");
    }
}
