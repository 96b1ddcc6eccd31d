//! The contract every game implements (after shakmaty and OpenSpiel).
use crate::{GameKind, GameRng, Seat, Seed};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

/// Whose decision it is. Automa turns (e.g. THE Legend) are resolved inside `play`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ToMove {
    Seat(Seat),
    Over,
}

/// Stable, translatable identifier of an error (`snake_case`, never renamed once shipped).
pub trait ErrorCode {
    fn code(&self) -> &'static str;
}

/// Options that cannot start a game (e.g. a player count the game does not support).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SetupError {
    pub code: &'static str,
    pub message: String,
}

impl SetupError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        SetupError {
            code,
            message: message.into(),
        }
    }
}

impl ErrorCode for SetupError {
    fn code(&self) -> &'static str {
        self.code
    }
}

/// Final result with every tie-break applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Final score per seat.
    pub scores: Vec<i32>,
    /// Rank per seat: 0 is the winner; tied seats (after all tie-breaks) share a rank.
    pub ranks: Vec<u8>,
    /// Score of the automa opponent in solo games (it ranks 0 when it wins).
    pub automa: Option<i32>,
}

impl Outcome {
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.ranks
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == 0)
            .map(|(i, _)| Seat(i as u8))
    }
}

pub trait Rules: Clone + Debug + PartialEq + Send + Sync + Sized + 'static {
    type Options: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type Move: Copy
        + Debug
        + Display
        + Eq
        + Hash
        + FromStr<Err = MoveParseError>
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    type View: Serialize + Debug;
    type Error: std::error::Error + ErrorCode + Clone + PartialEq + Send + Sync + 'static;

    const KIND: GameKind;

    fn new(options: &Self::Options, seed: Seed) -> Result<Self, SetupError>;
    fn options(&self) -> &Self::Options;
    /// Number of seats (human or bot players; the solo automa is not a seat).
    fn seats(&self) -> u8;
    fn to_move(&self) -> ToMove;
    /// Every legal move of the seat to move, in a deterministic order. Clears `out` first.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// One legal move chosen by its index: `pick(n)` gets the number of legal moves (n ≥ 1)
    /// and returns an index below `n`; the move is the one at that index of
    /// [`Rules::legal_moves`]. `None`, without calling `pick`, when there is no legal move.
    ///
    /// The default lists the moves into `scratch`. A game may override it to find the move
    /// without listing the others: listing is most of the cost of a random playout.
    fn pick_legal_move(
        &self,
        scratch: &mut Vec<Self::Move>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<Self::Move> {
        self.legal_moves(scratch);
        if scratch.is_empty() {
            return None;
        }
        Some(scratch[pick(scratch.len())])
    }
    /// Checks the move and plays it. On error the state is unchanged.
    fn play(&mut self, m: &Self::Move) -> Result<(), Self::Error>;
    /// Plays a move known to be legal (from `legal_moves`), skipping the checks.
    fn play_unchecked(&mut self, m: &Self::Move);
    /// What `seat` may see (`None`: a spectator). The only way hidden information leaves the state.
    fn view(&self, seat: Option<Seat>) -> Self::View;
    fn outcome(&self) -> Option<Outcome>;
    /// A copy in which everything `seat` cannot see is resampled, consistently with what it can
    /// see, and the RNG is reseeded (so future chance events are unknown too).
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self;
    /// Number of moves played since setup.
    fn ply(&self) -> u32;
}

/// A move's text that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read move '{text}': {reason}")]
pub struct MoveParseError {
    pub text: String,
    pub reason: String,
}

impl MoveParseError {
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        MoveParseError {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

impl ErrorCode for MoveParseError {
    fn code(&self) -> &'static str {
        "bad_move_syntax"
    }
}

/// Ranks seats by descending keys (score first, then tie-breaks); equal keys share a rank.
/// Ranks are dense in the sense of "number of seats strictly ahead".
pub fn rank_by_keys<K: Ord>(keys: &[K]) -> Vec<u8> {
    keys.iter()
        .map(|k| keys.iter().filter(|other| *other > k).count() as u8)
        .collect()
}

/// Implements `Serialize`/`Deserialize` for a move type through its text form
/// (`Display`/`FromStr`), the one way moves travel in records, the server and views.
#[macro_export]
macro_rules! serde_as_move_text {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::rules::move_text::serialize(self, s)
            }
        }
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::rules::move_text::deserialize(d)
            }
        }
    };
}

/// Serde helpers for moves that travel as their text form.
pub mod move_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use std::fmt::Display;
    use std::str::FromStr;

    pub fn serialize<M: Display, S: Serializer>(m: &M, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(m)
    }

    pub fn deserialize<'de, M, D>(d: D) -> Result<M, D::Error>
    where
        M: FromStr,
        M::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

/// Counts the move sequences of length `depth` from `game` (chance outcomes are those of the
/// state's own RNG and pile order, so the count is a property of the state).
pub fn perft<G: Rules>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = game.clone();
            next.play_unchecked(m);
            perft(&next, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties() {
        assert_eq!(rank_by_keys(&[78, 87, 90, 82]), vec![3, 1, 0, 2]);
        assert_eq!(rank_by_keys(&[(5, 1), (5, 1), (4, 9)]), vec![0, 0, 2]);
    }
}
