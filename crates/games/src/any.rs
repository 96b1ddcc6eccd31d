//! [`AnyGame`]: one live game of any registered kind, with a text/JSON face.
use crate::GameKind;
use pyramidion_core::record::Record;
use pyramidion_core::{ErrorCode, Notation, Outcome, Rules, Seat, Seed, ToMove};
use serde::Serialize;
use serde_json::Value;

/// An error with a stable code for the UI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GameError {
    pub code: &'static str,
    pub message: String,
}

impl GameError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
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

/// A move as it travels to clients: its record text and its structured form (`kind` and
/// named fields, flattened beside `text`).
#[derive(Clone, Debug, PartialEq, Serialize)]
// The form is the game's (each game's `MoveForm`, in its own declarations): the shell reads
// its `kind` only.
#[derive(ts_rs::TS)]
#[ts(type = "{ text: string, kind?: string } & Record<string, unknown>")]
pub struct MoveInfo {
    pub text: String,
    #[serde(flatten)]
    pub form: Value,
}

/// A move just played: who played it, its canonical text and form, and how every other
/// viewer may be shown it while the game is not over.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub seat: Seat,
    /// The move as its seat (and, once the game is over, everybody) sees it. Its text is the
    /// engine's canonical notation (what records store), whatever the client typed.
    pub full: MoveInfo,
    /// Per seat (index) and then the spectators (last): the redacted form, where it differs.
    pub redacted: Vec<Option<MoveInfo>>,
    /// Whether its seat may take it back while its turn lasts (the game's
    /// `Rules::undoable`, asked before the move was played).
    pub undoable: bool,
}

impl PlayedMove {
    /// The move as `viewer` (`None`: a spectator) may see it; `over`: the game has ended,
    /// so nothing is hidden any more.
    pub fn seen_by(&self, viewer: Option<Seat>, over: bool) -> &MoveInfo {
        if over {
            return &self.full;
        }
        let index = viewer.map_or(self.redacted.len() - 1, |s| s.index());
        self.redacted
            .get(index)
            .and_then(Option::as_ref)
            .unwrap_or(&self.full)
    }
}

/// A move's text and typed form, serialised as a [`MoveInfo`] is (`legal_json`).
#[derive(Serialize)]
struct TextAndForm<'a, M: std::fmt::Display, F: Serialize> {
    text: Shown<'a, M>,
    #[serde(flatten)]
    form: F,
}

/// A move serialised as its text without allocating it first.
struct Shown<'a, M>(&'a M);

impl<M: std::fmt::Display> Serialize for Shown<'_, M> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

fn info<G: Rules>(game: &G, m: &G::Move) -> MoveInfo {
    MoveInfo {
        text: m.to_string(),
        form: serde_json::to_value(game.form(m)).expect("move forms serialise"),
    }
}

/// Runs `$body` with `$g` bound to the boxed concrete game inside an [`AnyGame`] (a
/// reference when `$any` is one).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        $crate::registry!([$crate::__with_game_arms] $any, $g, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    (($any:expr, $g:ident, $body:expr) $($variant:ident $module:ident $krate:ident,)*) => {
        match $any {
            $($crate::AnyGame::$variant($g) => $body,)*
        }
    };
}

use crate::with_game as each;

macro_rules! define_any_game {
    (() $($variant:ident $module:ident $krate:ident,)*) => {
        /// One live game of any kind.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyGame {
            // Boxed: states are a few KiB and of different sizes.
            $($variant(Box<crate::$module::Game>),)*
        }

        impl AnyGame {
            pub fn kind(&self) -> GameKind {
                match self {
                    $(AnyGame::$variant(_) => GameKind::$variant,)*
                }
            }

            pub(crate) fn from_kind<F: GameFactory>(kind: GameKind, f: F) -> Result<AnyGame, GameError> {
                match kind {
                    $(GameKind::$variant => Ok(AnyGame::$variant(Box::new(f.make()?))),)*
                }
            }
        }
    };
}

crate::registry!([define_any_game]);

/// Builds a game of whichever type a registry arm asks for.
pub(crate) trait GameFactory {
    fn make<G: Rules>(self) -> Result<G, GameError>;
}

struct FromOptions<'a>(&'a Value, Seed);

impl GameFactory for FromOptions<'_> {
    fn make<G: Rules>(self) -> Result<G, GameError> {
        let options: G::Options = if self.0.is_null() {
            G::Options::default()
        } else {
            serde_json::from_value(self.0.clone())
                .map_err(|e| GameError::new("bad_options", e.to_string()))?
        };
        G::new(&options, self.1).map_err(|e| GameError::new(e.code, e.message))
    }
}

struct FromRecord<'a>(&'a Record, Option<usize>);

impl GameFactory for FromRecord<'_> {
    fn make<G: Rules>(self) -> Result<G, GameError> {
        self.0
            .replay_prefix(self.1)
            .map_err(|e| GameError::new(e.code(), e.to_string()))
    }
}

impl AnyGame {
    pub fn new(kind: GameKind, options: &Value, seed: Seed) -> Result<AnyGame, GameError> {
        Self::from_kind(kind, FromOptions(options, seed))
    }

    /// Rebuilds a game from its record, verifying every move.
    pub fn from_record(record: &Record) -> Result<AnyGame, GameError> {
        Self::from_record_prefix(record, None)
    }

    /// Rebuilds the game of a record after its first `moves` moves (all when `None`).
    pub fn from_record_prefix(record: &Record, moves: Option<usize>) -> Result<AnyGame, GameError> {
        let kind: GameKind = record
            .game
            .parse()
            .map_err(|e: crate::UnknownGame| GameError::new("unknown_game", e.to_string()))?;
        Self::from_kind(kind, FromRecord(record, moves))
    }

    pub fn descriptor(&self) -> &'static crate::GameDescriptor {
        self.kind().descriptor()
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

    /// The part of the game being played (what the descriptor's `stage_name` counts).
    pub fn stage_number(&self) -> u8 {
        each!(self, g => g.stage_number())
    }

    pub fn options(&self) -> Value {
        each!(self, g => serde_json::to_value(g.options()).expect("options serialise"))
    }

    /// The legal moves of the seat to move, with their structured forms.
    pub fn legal_moves(&self) -> Vec<MoveInfo> {
        each!(self, g => {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves.iter().map(|m| info(g.as_ref(), m)).collect()
        })
    }

    /// The legal moves of the seat to move as the JSON text of [`AnyGame::legal_moves`]
    /// (the same bytes), written straight from each game's typed form: what the server
    /// sends on every state, where building a `Value` per move was a measurable part of a
    /// move's CPU (issue 52; docs/performance.md).
    pub fn legal_json(&self) -> Box<serde_json::value::RawValue> {
        each!(self, g => {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let infos: Vec<_> = moves
                .iter()
                .map(|m| TextAndForm { text: Shown(m), form: g.form(m) })
                .collect();
            serde_json::value::to_raw_value(&infos).expect("move forms serialise")
        })
    }

    /// The legal moves' texts only.
    pub fn legal_texts(&self) -> Vec<String> {
        each!(self, g => {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves.iter().map(|m| m.to_string()).collect()
        })
    }

    /// Parses and plays a move given as text; returns it as every viewer may see it. On error
    /// nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove, GameError> {
        let seats = self.seats();
        each!(self, g => {
            let seat = match g.to_move() {
                ToMove::Seat(s) => s,
                ToMove::Over => return Err(GameError::new("game_over", "the game is over")),
            };
            let m = text.parse().map_err(|e: pyramidion_core::rules::MoveParseError| {
                GameError::new(e.code(), e.to_string())
            })?;
            // Checked before its forms are made: a form may read what the move would do,
            // which only a legal move can (Pyramido's `eliminates` panicked on an illegal
            // placement typed by a player; found by the fuzz test).
            g.check(&m).map_err(|e| GameError::new(e.code(), e.to_string()))?;
            let full = info(g.as_ref(), &m);
            let redacted = (0..seats)
                .map(|s| Some(Seat(s)))
                .chain([None])
                .map(|viewer| {
                    g.redacted(&m, viewer).map(|r| MoveInfo {
                        text: r.text,
                        form: serde_json::to_value(r.form).expect("move forms serialise"),
                    })
                })
                .collect();
            let undoable = g.undoable(&m);
            g.play_unchecked(&m);
            Ok(PlayedMove { seat, full, redacted, undoable })
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
    use serde_json::json;

    #[test]
    fn errors_have_codes() {
        let mut g = AnyGame::new(GameKind::ALL[0], &json!({"players": 3}), 1).unwrap();
        assert_eq!(g.seats(), 3);
        assert_eq!(g.play_text("flip 2").unwrap_err().code, "wrong_phase");
        assert_eq!(g.play_text("jump").unwrap_err().code, "bad_move_syntax");
        let first = g.legal_moves()[0].clone();
        let played = g.play_text(&first.text).unwrap();
        assert_eq!(played.full, first);
        assert_eq!(g.ply(), 1);
        let bad = AnyGame::new(GameKind::ALL[0], &json!({"players": "x"}), 1);
        assert_eq!(bad.unwrap_err().code, "bad_options");
        let bad = AnyGame::new(GameKind::ALL[0], &json!({"players": 9}), 1);
        assert_eq!(bad.unwrap_err().code, "bad_player_count");
    }

    /// Moves are stored in the engine's notation, not as typed.
    #[test]
    fn played_text_is_canonical() {
        let mut g = AnyGame::new(GameKind::ALL[0], &json!({"players": 2}), 1).unwrap();
        let first = g.legal_moves()[0].text.clone();
        let sloppy = format!("  {}  ", first.replace(' ', "   "));
        assert_eq!(g.play_text(&sloppy).unwrap().full.text, first);
    }

    /// The legal moves written straight as JSON say what `legal_moves` says, at every
    /// position of a few games of every kind (with every seat count).
    #[test]
    fn legal_json_is_the_legal_moves() {
        for &kind in GameKind::ALL {
            let d = kind.descriptor();
            for players in d.seats.min..=d.seats.max {
                for seed in 0..3 {
                    let options = json!({ "players": players });
                    let Ok(mut g) = AnyGame::new(kind, &options, seed) else {
                        continue;
                    };
                    loop {
                        let legal = g.legal_moves();
                        let written: Value = serde_json::from_str(g.legal_json().get()).unwrap();
                        assert_eq!(written, serde_json::to_value(&legal).unwrap(), "{kind}");
                        let Some(m) =
                            legal.get((g.ply() as usize * 13 + seed as usize) % legal.len().max(1))
                        else {
                            break;
                        };
                        let text = m.text.clone();
                        g.play_text(&text).unwrap();
                    }
                }
            }
        }
    }

    /// Every legal move has a structured form whose kind the descriptor lists, with exactly
    /// the fields it lists.
    #[test]
    fn forms_match_descriptors() {
        for &kind in GameKind::ALL {
            let d = kind.descriptor();
            let players = d.seats.max;
            let mut g = AnyGame::new(kind, &json!({ "players": players }), 7).unwrap();
            for _ in 0..400 {
                let legal = g.legal_moves();
                let Some(m) = legal.get(g.ply() as usize * 7 % legal.len().max(1)) else {
                    break;
                };
                for m in &legal {
                    let form = m.form.as_object().expect("forms are objects");
                    let k = form["kind"].as_str().expect("a kind tag");
                    let mk = d.move_kind(k).unwrap_or_else(|| panic!("{kind}: kind {k}"));
                    let mut fields: Vec<&str> = form.keys().map(String::as_str).collect();
                    fields.retain(|f| *f != "kind");
                    let mut listed = mk.fields.to_vec();
                    fields.sort();
                    listed.sort();
                    assert_eq!(fields, listed, "{kind}: fields of {k}");
                }
                let text = m.text.clone();
                g.play_text(&text).unwrap();
            }
        }
    }
}
