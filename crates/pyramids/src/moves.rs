//! Moves and their one-line text forms.
//!
//! | text | meaning |
//! |---|---|
//! | `god N` (or `god horus` …) | take God tile N (1 Horus, 2 Anubis, 3 Khepri, 4 Sekhmet, 5 Thoth) |
//! | `pair N` | take the N-th pair of the quarry (1-based, in dealing order) |
//! | `pyramid H P` | put the H-th card of your hand (1-based) at pyramid place P |
//! | `obelisk H` | put the H-th card of your hand on your Obelisk |
//! | `tomb H` | put the H-th card of your hand in your Tomb |
//! | `done` | end your building turn (after the Pyramid card) |
//! | `discard H` | at round end, discard the H-th card of your hand |
//!
//! A hand is ordered: the card kept from the previous round first, then the two cards of the
//! pair just taken, in the pair's order; removing a card closes the gap. Pyramid places are
//! `a0`–`a4`, `b1`–`b3`, `c1`–`c2`, `d1` (see [`crate::necropolis`]: `a0` extends the bottom
//! row on the left, `a{k+1}` on the right). Words are separated by single spaces.
use crate::necropolis::Place;
use pyramidion_core::rules::MoveParseError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Most cards a hand can hold (1 kept + a pair).
pub const MAX_HAND: u8 = 3;
/// Most pairs in the quarry (one per player).
pub const MAX_PAIRS: u8 = 5;

/// The five God tiles, numbered 1–5 (their number is the pair-picking order).
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "snake_case")]
pub enum God {
    Horus = 1,
    Anubis = 2,
    Khepri = 3,
    Sekhmet = 4,
    Thoth = 5,
}

impl God {
    pub const ALL: [God; 5] = [
        God::Horus,
        God::Anubis,
        God::Khepri,
        God::Sekhmet,
        God::Thoth,
    ];

    /// The tile number, 1–5.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// 0-based index.
    pub fn index(self) -> usize {
        self as usize - 1
    }

    pub fn from_number(n: u8) -> Option<God> {
        God::ALL.get((n as usize).wrapping_sub(1)).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            God::Horus => "horus",
            God::Anubis => "anubis",
            God::Khepri => "khepri",
            God::Sekhmet => "sekhmet",
            God::Thoth => "thoth",
        }
    }

    /// What the tile lets its owner build besides the mandatory Pyramid card, at a table of
    /// `players`: `(tomb, obelisk, only_one_of_them)`.
    pub fn allows(self, players: u8) -> Allowed {
        let (tomb, obelisk) = match self {
            God::Horus => (false, false),
            God::Anubis => (true, false),
            God::Khepri => (false, true),
            God::Sekhmet | God::Thoth => (true, true),
        };
        Allowed {
            tomb,
            obelisk,
            one_of: self == God::Sekhmet && players >= 4,
        }
    }
}

/// Optional edifices of a God tile (the Pyramid card is always mandatory).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Allowed {
    pub tomb: bool,
    pub obelisk: bool,
    /// Tomb **or** Obelisk, not both (Sekhmet with 4–5 players).
    pub one_of: bool,
}

/// One decision. Indices are stored 0-based; the text form is 1-based.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    God(God),
    /// Quarry pair index (0-based).
    Pair(u8),
    /// Hand index (0-based) and place.
    Pyramid(u8, Place),
    Obelisk(u8),
    Tomb(u8),
    Done,
    Discard(u8),
}

impl Move {
    /// The move's first word.
    pub fn keyword(self) -> &'static str {
        match self {
            Move::God(_) => "god",
            Move::Pair(_) => "pair",
            Move::Pyramid(..) => "pyramid",
            Move::Obelisk(_) => "obelisk",
            Move::Tomb(_) => "tomb",
            Move::Done => "done",
            Move::Discard(_) => "discard",
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::God(g) => write!(f, "god {}", g.number()),
            Move::Pair(p) => write!(f, "pair {}", p + 1),
            Move::Pyramid(h, place) => write!(f, "pyramid {} {place}", h + 1),
            Move::Obelisk(h) => write!(f, "obelisk {}", h + 1),
            Move::Tomb(h) => write!(f, "tomb {}", h + 1),
            Move::Done => f.write_str("done"),
            Move::Discard(h) => write!(f, "discard {}", h + 1),
        }
    }
}

fn number(text: &str, word: Option<&str>, what: &str, max: u8) -> Result<u8, MoveParseError> {
    let word = word.ok_or_else(|| MoveParseError::new(text, format!("missing {what}")))?;
    match word.parse::<u8>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n - 1),
        _ => Err(MoveParseError::new(
            text,
            format!("{what} must be a number from 1 to {max}, not '{word}'"),
        )),
    }
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut words = text.split(' ');
        let keyword = words.next().unwrap_or("");
        let m = match keyword {
            "god" => {
                let word = words
                    .next()
                    .ok_or_else(|| MoveParseError::new(text, "missing god number"))?;
                let god = word
                    .parse::<u8>()
                    .ok()
                    .and_then(God::from_number)
                    .or_else(|| God::ALL.into_iter().find(|g| g.name() == word))
                    .ok_or_else(|| {
                        MoveParseError::new(text, format!("no god '{word}' (1-5 or a name)"))
                    })?;
                Move::God(god)
            }
            "pair" => Move::Pair(number(text, words.next(), "pair number", MAX_PAIRS)?),
            "pyramid" => {
                let h = number(text, words.next(), "hand card number", MAX_HAND)?;
                let place = words
                    .next()
                    .ok_or_else(|| MoveParseError::new(text, "missing pyramid place"))?
                    .parse::<Place>()
                    .map_err(|e| MoveParseError::new(text, e))?;
                Move::Pyramid(h, place)
            }
            "obelisk" => Move::Obelisk(number(text, words.next(), "hand card number", MAX_HAND)?),
            "tomb" => Move::Tomb(number(text, words.next(), "hand card number", MAX_HAND)?),
            "discard" => Move::Discard(number(text, words.next(), "hand card number", MAX_HAND)?),
            "done" => Move::Done,
            _ => {
                return Err(MoveParseError::new(
                    text,
                    "expected god, pair, pyramid, obelisk, tomb, done or discard",
                ));
            }
        };
        if words.next().is_some() {
            return Err(MoveParseError::new(text, "unexpected words at the end"));
        }
        Ok(m)
    }
}

pyramidion_core::serde_as_move_text!(Move);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn text_forms() {
        let cases = [
            (Move::God(God::Khepri), "god 3"),
            (Move::Pair(1), "pair 2"),
            (Move::Pyramid(0, Place::new(2, 2)), "pyramid 1 c2"),
            (Move::Pyramid(2, Place::new(0, 0)), "pyramid 3 a0"),
            (Move::Obelisk(0), "obelisk 1"),
            (Move::Tomb(2), "tomb 3"),
            (Move::Done, "done"),
            (Move::Discard(1), "discard 2"),
        ];
        for (m, text) in cases {
            assert_eq!(m.to_string(), text);
            assert_eq!(text.parse::<Move>().unwrap(), m);
            assert_eq!(serde_json::to_string(&m).unwrap(), format!("\"{text}\""));
            assert_eq!(
                serde_json::from_str::<Move>(&format!("\"{text}\"")).unwrap(),
                m
            );
        }
        assert_eq!("god thoth".parse::<Move>().unwrap(), Move::God(God::Thoth));
        for bad in [
            "",
            "god",
            "god 0",
            "god 6",
            "god ra",
            "pair 0",
            "pair 6",
            "pyramid 1",
            "pyramid 4 a1",
            "pyramid 1 b4",
            "obelisk",
            "tomb x",
            "done 1",
            "discard 0",
            "skip",
            "pair  1",
            "Pair 1",
        ] {
            let e = bad.parse::<Move>().unwrap_err();
            assert_eq!(e.text, bad);
        }
    }

    fn any_move() -> impl Strategy<Value = Move> {
        let place = (0u8..4, 0u8..5)
            .prop_map(|(r, s)| Place::new(r, s))
            .prop_filter("valid place", |p| p.is_valid());
        prop_oneof![
            (1u8..=5).prop_map(|n| Move::God(God::from_number(n).unwrap())),
            (0u8..5).prop_map(Move::Pair),
            (0u8..3, place).prop_map(|(h, p)| Move::Pyramid(h, p)),
            (0u8..3).prop_map(Move::Obelisk),
            (0u8..3).prop_map(Move::Tomb),
            Just(Move::Done),
            (0u8..3).prop_map(Move::Discard),
        ]
    }

    proptest! {
        #[test]
        fn text_round_trips(m in any_move()) {
            prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }

        #[test]
        fn parsing_never_panics(s in "[a-z0-9 ]{0,16}") {
            if let Ok(m) = s.parse::<Move>() {
                prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            }
        }
    }
}

/// The structured form of a move that clients act on (see [`crate::descriptor`]). `hand` is
/// the 0-based hand position and `card` the card it names; both are `None` in the redacted
/// form other seats get of a move that hides its card (a card put in a Tomb or discarded).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveForm {
    God {
        god: God,
        number: u8,
    },
    Pair {
        pair: u8,
    },
    Pyramid {
        hand: u8,
        card: Option<crate::data::CardId>,
        place: String,
        row: u8,
        slot: u8,
    },
    Obelisk {
        hand: u8,
        card: Option<crate::data::CardId>,
    },
    Tomb {
        hand: Option<u8>,
        card: Option<crate::data::CardId>,
    },
    Done,
    Discard {
        hand: Option<u8>,
        card: Option<crate::data::CardId>,
    },
}

impl MoveForm {
    /// The form of `m` with the cards of `hand`, the hand of the seat that plays it.
    pub fn of(m: &Move, hand: &[crate::data::CardId]) -> MoveForm {
        let card = |h: u8| hand.get(h as usize).copied();
        match *m {
            Move::God(god) => MoveForm::God {
                god,
                number: god.number(),
            },
            Move::Pair(pair) => MoveForm::Pair { pair },
            Move::Pyramid(h, place) => MoveForm::Pyramid {
                hand: h,
                card: card(h),
                place: place.to_string(),
                row: place.row,
                slot: place.slot,
            },
            Move::Obelisk(h) => MoveForm::Obelisk {
                hand: h,
                card: card(h),
            },
            Move::Tomb(h) => MoveForm::Tomb {
                hand: Some(h),
                card: card(h),
            },
            Move::Done => MoveForm::Done,
            Move::Discard(h) => MoveForm::Discard {
                hand: Some(h),
                card: card(h),
            },
        }
    }

    /// What the other seats may be shown of `m` before the game ends: the hand position of
    /// a card going to a Tomb or the discard would tell them which card it is (the order of
    /// a hand follows from public moves), so it is replaced by `?`.
    pub fn redacted(m: &Move) -> Option<(String, MoveForm)> {
        match m {
            Move::Tomb(_) => Some((
                "tomb ?".to_string(),
                MoveForm::Tomb {
                    hand: None,
                    card: None,
                },
            )),
            Move::Discard(_) => Some((
                "discard ?".to_string(),
                MoveForm::Discard {
                    hand: None,
                    card: None,
                },
            )),
            _ => None,
        }
    }
}
