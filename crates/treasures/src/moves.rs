//! Moves and their one-line text form.
//!
//! | move | text | when |
//! |---|---|---|
//! | take the domino of a space and a gem of its gem area | `take 2 red` (`take 2` if the area is empty) | turn step 1 |
//! | flip the top of a face-down pile | `flip 4` | turn step 3 |
//! | place the domino taken | `place e5 E` | turn step 4 |
//! | activate an area at stage end | `activate c4 1c` (payments `1c 2m 3c 2c2m 1c4m 6m`) | stage end |
//! | finish activating | `done` | stage end |
//! | discard a gem down to 5 | `discard blue` | stage end |
//!
//! Spaces and piles are numbered 1–5 from the left, as in the rulebook.
use crate::gems::Gem;
use pyramidion_core::rules::MoveParseError;
use pyramidion_pyramid::Placement;
use pyramidion_pyramid::topview::{area_name, parse_area_name};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How an activation is paid; `C` = gems of the area's colour, `M` = Mythical. Serialized as
/// in move texts (`1c`, `2c2m`…), so views and moves name a payment the same way.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
pub enum Payment {
    /// Single: 1 coloured gem.
    #[serde(rename = "1c")]
    C1,
    /// Single: 2 Mythicals.
    #[serde(rename = "2m")]
    M2,
    /// Doubled: 3 coloured.
    #[serde(rename = "3c")]
    C3,
    /// Doubled: 2 coloured + 2 Mythicals.
    #[serde(rename = "2c2m")]
    C2M2,
    /// Doubled: 1 coloured + 4 Mythicals.
    #[serde(rename = "1c4m")]
    C1M4,
    /// Doubled: 6 Mythicals.
    #[serde(rename = "6m")]
    M6,
}

impl Payment {
    pub const ALL: [Payment; 6] = [
        Payment::C1,
        Payment::M2,
        Payment::C3,
        Payment::C2M2,
        Payment::C1M4,
        Payment::M6,
    ];
    const NAMES: [&'static str; 6] = ["1c", "2m", "3c", "2c2m", "1c4m", "6m"];

    /// (coloured gems, Mythical gems) spent.
    pub fn cost(self) -> (u8, u8) {
        match self {
            Payment::C1 => (1, 0),
            Payment::M2 => (0, 2),
            Payment::C3 => (3, 0),
            Payment::C2M2 => (2, 2),
            Payment::C1M4 => (1, 4),
            Payment::M6 => (0, 6),
        }
    }

    pub fn doubled(self) -> bool {
        !matches!(self, Payment::C1 | Payment::M2)
    }

    /// The payment of a single (units = 1) or doubled (units = 3) activation using
    /// `coloured` coloured gems and the rest in pairs of Mythicals.
    pub fn from_units(units: u8, coloured: u8) -> Payment {
        match (units, coloured.min(units)) {
            (1, 1) => Payment::C1,
            (1, _) => Payment::M2,
            (_, 3) => Payment::C3,
            (_, 2) => Payment::C2M2,
            (_, 1) => Payment::C1M4,
            _ => Payment::M6,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl FromStr for Payment {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| format!("unknown payment '{s}' (1c, 2m, 3c, 2c2m, 1c4m, 6m)"))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Space index 0–4; `gem` is `None` only when the gem area is empty.
    Take {
        space: u8,
        gem: Option<Gem>,
    },
    Flip {
        pile: u8,
    },
    Place(Placement),
    /// `area` is the anchor quadrant of the area on the top-view grid.
    Activate {
        area: u8,
        payment: Payment,
    },
    Done,
    Discard(Gem),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Take {
                space,
                gem: Some(g),
            } => write!(f, "take {} {g}", space + 1),
            Move::Take { space, gem: None } => write!(f, "take {}", space + 1),
            Move::Flip { pile } => write!(f, "flip {}", pile + 1),
            Move::Place(p) => write!(f, "place {p}"),
            Move::Activate { area, payment } => {
                write!(f, "activate {} {}", area_name(*area), payment.name())
            }
            Move::Done => f.write_str("done"),
            Move::Discard(g) => write!(f, "discard {g}"),
        }
    }
}

fn position(text: &str, word: &str) -> Result<u8, MoveParseError> {
    match word.parse::<u8>() {
        Ok(n @ 1..=9) => Ok(n - 1),
        _ => Err(MoveParseError::new(
            text,
            format!("'{word}' is not a space number 1–5"),
        )),
    }
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |reason: &str| MoveParseError::new(text, reason);
        let gem = |w: &str| w.parse::<Gem>().map_err(|e| MoveParseError::new(text, e));
        match words.as_slice() {
            ["take", space] => Ok(Move::Take {
                space: position(text, space)?,
                gem: None,
            }),
            ["take", space, g] => Ok(Move::Take {
                space: position(text, space)?,
                gem: Some(gem(g)?),
            }),
            ["flip", pile] => Ok(Move::Flip {
                pile: position(text, pile)?,
            }),
            ["place", cell, dir] => Ok(Move::Place(
                format!("{cell} {dir}")
                    .parse()
                    .map_err(|e: String| MoveParseError::new(text, e))?,
            )),
            ["activate", area, pay] => Ok(Move::Activate {
                area: parse_area_name(area).map_err(|e| MoveParseError::new(text, e))?,
                payment: pay
                    .parse()
                    .map_err(|e: String| MoveParseError::new(text, e))?,
            }),
            ["done"] => Ok(Move::Done),
            ["discard", g] => Ok(Move::Discard(gem(g)?)),
            [] => Err(bad("empty move")),
            _ => Err(bad(
                "expected take, flip, place, activate, done or discard with their arguments",
            )),
        }
    }
}

pyramidion_core::serde_as_move_text!(Move);

/// The structured form of a move that clients act on (see [`crate::descriptor`]). Spaces and
/// piles are 0-based here; texts number them from 1.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveForm {
    Take {
        space: u8,
        gem: Option<Gem>,
    },
    Flip {
        pile: u8,
    },
    /// Block A at (`x`, `y`) on the stage being built, block B towards `dir`; `cells` are the
    /// two blocks' cells, A first.
    Place {
        x: u8,
        y: u8,
        dir: pyramidion_pyramid::Dir,
        cells: [(u8, u8); 2],
    },
    /// `points`: what the activation adds to the stage score.
    Activate {
        area: String,
        payment: Payment,
        points: u16,
    },
    Done,
    Discard {
        gem: Gem,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use pyramidion_pyramid::Dir;

    /// Views (JSON) and move texts name every payment alike.
    #[test]
    fn payments_serialize_as_their_move_text() {
        for p in Payment::ALL {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, format!("\"{}\"", p.name()));
            assert_eq!(serde_json::from_str::<Payment>(&json).unwrap(), p);
        }
    }

    fn any_move() -> impl Strategy<Value = Move> {
        let gem = (0usize..6).prop_map(Gem::from_index);
        prop_oneof![
            (0u8..5, proptest::option::of(gem.clone()))
                .prop_map(|(space, gem)| Move::Take { space, gem }),
            (0u8..5).prop_map(|pile| Move::Flip { pile }),
            (0u8..9, 0u8..9, 0usize..4).prop_map(|(x, y, d)| Move::Place(Placement::new(
                x,
                y,
                Dir::ALL[d]
            ))),
            (0u8..100, 0usize..6).prop_map(|(area, p)| Move::Activate {
                area,
                payment: Payment::ALL[p]
            }),
            Just(Move::Done),
            gem.prop_map(Move::Discard),
        ]
    }

    proptest! {
        #[test]
        fn text_round_trips(m in any_move()) {
            let text = m.to_string();
            prop_assert_eq!(text.parse::<Move>().unwrap(), m);
            let json = serde_json::to_string(&m).unwrap();
            prop_assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), m);
        }

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,30}") {
            let _ = s.parse::<Move>();
        }
    }

    #[test]
    fn payments_cover_every_unit_split() {
        for p in Payment::ALL {
            let (c, m) = p.cost();
            let units = c + m / 2;
            assert_eq!(units, if p.doubled() { 3 } else { 1 });
            assert_eq!(Payment::from_units(units, c), p);
        }
    }

    #[test]
    fn examples() {
        assert_eq!(
            "take 2 red".parse::<Move>().unwrap(),
            Move::Take {
                space: 1,
                gem: Some(Gem::Red)
            }
        );
        assert_eq!(
            "activate c4 2c2m".parse::<Move>().unwrap().to_string(),
            "activate c4 2c2m"
        );
        assert!("take 0 red".parse::<Move>().is_err());
        assert!("activate k1 1c".parse::<Move>().is_err());
    }
}
