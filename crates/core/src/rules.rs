//! The contract every game implements (after shakmaty and OpenSpiel).
use crate::descriptor::GameDescriptor;
pub use crate::hooks::BotHooks;
pub use crate::notation::{Notation, Redacted};
pub use crate::sampler::ViewSampler;
pub use crate::tutorial::Tutorials;
use crate::{GameRng, Seat, Seed};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

/// Whose decision it is. Automa turns (e.g. THE Legend) are resolved inside `play`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Outcome {
    /// Final score per seat.
    pub scores: Vec<i32>,
    /// Rank per seat: 0 is the winner; tied seats (after all tie-breaks) share a rank.
    pub ranks: Vec<u8>,
    /// Score of the automa opponent in solo games (it ranks 0 when it wins).
    pub automa: Option<i32>,
    /// What seats are compared on, in order (the score among them), larger first. Each key's
    /// name is a stable, translatable code (`score`, `gems_left`, `best_stage`…).
    pub keys: Vec<RankKey>,
    /// Per seat, the key that set it apart from the seat ranked just above it (`shared`
    /// when they are level on every key); `None` for the seat ranked first.
    pub decided_by: Vec<Option<&'static str>>,
}

/// One comparison of the final ranking and each seat's value for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct RankKey {
    pub name: &'static str,
    pub values: Vec<i32>,
}

impl RankKey {
    pub fn new(name: &'static str, values: impl IntoIterator<Item = i32>) -> RankKey {
        RankKey {
            name,
            values: values.into_iter().collect(),
        }
    }
}

impl Outcome {
    /// Ranks seats on `keys`, compared in order, larger first; says which key decided each
    /// seat's place. `scores` are the points shown (usually also one of the keys).
    pub fn ranked(scores: Vec<i32>, keys: Vec<RankKey>) -> Outcome {
        let seats = scores.len();
        let key_of = |s: usize| keys.iter().map(|k| k.values[s]).collect::<Vec<i32>>();
        let all: Vec<Vec<i32>> = (0..seats).map(key_of).collect();
        let ranks = rank_by_keys(&all);
        let mut order: Vec<usize> = (0..seats).collect();
        order.sort_by_key(|&s| (ranks[s], s));
        let mut decided_by = vec![None; seats];
        for pair in order.windows(2) {
            let (above, seat) = (pair[0], pair[1]);
            decided_by[seat] = Some(
                keys.iter()
                    .find(|k| k.values[above] != k.values[seat])
                    .map_or(SHARED, |k| k.name),
            );
        }
        Outcome {
            scores,
            ranks,
            automa: None,
            keys,
            decided_by,
        }
    }

    /// Whether `seat` is behind `other` on a ranking key that comes before `score` (Pyramido's
    /// `in_game`: an eliminated player ranks below every player still in, whatever the
    /// points). False where `score` is the first key or absent.
    pub fn behind_before_score(&self, seat: usize, other: usize) -> bool {
        let before = self.keys.iter().take_while(|k| k.name != "score");
        before
            .map(|k| (k.values[other], k.values[seat]))
            .find(|(o, s)| o != s)
            .is_some_and(|(o, s)| o > s)
    }

    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.ranks
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == 0)
            .map(|(i, _)| Seat(i as u8))
    }
}

/// [`Outcome::decided_by`] of a seat level on every key with the seat above it.
pub const SHARED: &str = "shared";

/// The required core of a game (after shakmaty's `Position`): its types, setup, whose turn
/// it is, the legal moves, [`Rules::check`] (why a move is illegal) and
/// [`Rules::play_unchecked`], the views, the outcome and determinisation. [`Rules::play`]
/// and [`Rules::is_legal`] are provided on top of `check` and `play_unchecked` and never
/// written again by a game: one definition of "legal" per game, so that what `play` accepts
/// and what the bots play unchecked cannot drift apart (`scripts/new-game-check` refuses a
/// game that overrides them).
///
/// How moves are written for clients ([`Notation`]: the structured form, redaction) and what
/// a game knows for the bots ([`BotHooks`], every hook optional) and its tutorial
/// ([`Tutorials`], optional) and how it rebuilds a state from a seat's view ([`ViewSampler`],
/// optional) are separate traits, which
/// every game implements too (the supertraits below); a bound `G: Rules` reaches all three.
pub trait Rules:
    Clone
    + Debug
    + PartialEq
    + Send
    + Sync
    + Sized
    + 'static
    + Notation
    + BotHooks
    + Tutorials
    + ViewSampler
{
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
    type View: Serialize + Debug + PartialEq;
    type Error: std::error::Error + ErrorCode + Clone + PartialEq + Send + Sync + 'static;

    /// Key, seats, options, bot levels, error codes and move kinds (see [`GameDescriptor`]).
    const DESCRIPTOR: &'static GameDescriptor;

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
    /// Why `m` may not be played now (the game's error, whose code the descriptor lists), or
    /// `Ok` when it is legal: exactly the moves of [`Rules::legal_moves`] pass. Changes
    /// nothing.
    fn check(&self, m: &Self::Move) -> Result<(), Self::Error>;
    /// Plays a move known to be legal (from `legal_moves`, or passed by `check`), skipping
    /// the checks.
    fn play_unchecked(&mut self, m: &Self::Move);
    /// Checks the move and plays it. On error the state is unchanged. Provided; never
    /// overridden.
    fn play(&mut self, m: &Self::Move) -> Result<(), Self::Error> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }
    /// Whether `m` may be played now. Provided; never overridden.
    fn is_legal(&self, m: &Self::Move) -> bool {
        self.check(m).is_ok()
    }
    /// Whether `m`, played now by the seat to move, may be taken back by that seat before its
    /// turn ends (Board Game Arena's undo): it reveals nothing hidden from anyone and draws
    /// nothing random, it affects no other seat, and the same seat is still to move after it.
    /// The server offers the undo of a step only where this said yes when it was played, and
    /// performs it by replaying the game without it. The default, for a game that declares
    /// nothing: no move may be taken back (a game whose every move ends the turn needs no
    /// more). The harness (`pyramidion-testkit`) checks that a game's declaration is honest.
    fn undoable(&self, m: &Self::Move) -> bool {
        let _ = m;
        false
    }
    /// What `seat` may see (`None`: a spectator). The only way hidden information leaves the state.
    fn view(&self, seat: Option<Seat>) -> Self::View;
    fn outcome(&self) -> Option<Outcome>;
    /// A copy in which everything `seat` cannot see is resampled, consistently with what it can
    /// see, and the RNG is reseeded (so future chance events are unknown too).
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self;
    /// Number of moves played since setup.
    fn ply(&self) -> u32;
    /// The part of the game the next move belongs to, from 1 to the descriptor's `stages`, as
    /// the rulebook divides a game (a stage, a round: the descriptor's `stage_name`). Never
    /// decreases; the analysis totals points lost by it.
    fn stage_number(&self) -> u8;

    /// How many turns no seat has played so far: a solo mode's automa, whose turns happen
    /// inside a player's move and which the move log shows as turns of their own (each one
    /// ends the player's turn, as another seat's would). What numbers turns the way the log
    /// does where no other seat plays (`pyramidion_games::analysis::turn_at`). None by
    /// default.
    fn turns_of_no_seat(&self) -> u32 {
        0
    }
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
    fn ranked_says_which_key_decided() {
        let o = Outcome::ranked(
            vec![10, 12, 10, 10],
            vec![
                RankKey::new("score", [10, 12, 10, 10]),
                RankKey::new("gems_left", [3, 0, 3, 1]),
                RankKey::new("best_stage", [5, 9, 5, 7]),
            ],
        );
        assert_eq!(o.ranks, vec![1, 0, 1, 3]);
        assert_eq!(
            o.decided_by,
            vec![Some("score"), None, Some(SHARED), Some("gems_left")]
        );
    }

    #[test]
    fn ranks_share_ties() {
        assert_eq!(rank_by_keys(&[78, 87, 90, 82]), vec![3, 1, 0, 2]);
        assert_eq!(rank_by_keys(&[(5, 1), (5, 1), (4, 9)]), vec![0, 0, 2]);
    }
}
