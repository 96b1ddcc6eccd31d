//! Moves and their one-line text.
//!
//! ```text
//! take 2                  take the domino of quarry slot 2 (slots 1–3, left to right)
//! place e5 E              place it: block A on e5, block B east (core placement text)
//! mark A                  put the marker of block A's colour on block A (or B)
//! resurface B red se      cover block B with the red side of the red/green card, jewel in se
//! pass                    do not resurface
//! refill 3                refill the empty quarry slot from pile 3 (piles 1–4; slot i lies
//!                         between piles i and i+1)
//! cover c2 blue nw        cover the hole c2 with the blue side of the brown/blue card
//! ```
use crate::data::{CARD_SIDES, COLOURS, card_of, colour_name, parse_colour};
use crate::state::Game;
use pyramidion_core::rules::MoveParseError;
use pyramidion_pyramid::Placement;
use pyramidion_pyramid::placement::{QUADRANT_NAMES, format_cell, parse_cell};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Block A or B of the domino just placed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    A = 0,
    B = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            Side::A => 'A',
            Side::B => 'B',
        }
    }
}

/// One decision. Quarry slots (0–2), piles (0–3) and quadrants (0–3 = nw, ne, sw, se) are
/// 0-based here and 1-based / named in the text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Take the domino of a quarry slot.
    Take(u8),
    /// Place the domino just taken.
    Place(Placement),
    /// Put a jewel marker on a block of the new domino (the marker of that block's colour).
    Mark(Side),
    /// Cover an unmarked block of the new domino with a resurfacing card.
    Resurface {
        side: Side,
        colour: u8,
        quadrant: u8,
    },
    /// Decline resurfacing.
    Pass,
    /// Refill the empty quarry slot from a pile next to it.
    Refill(u8),
    /// Cover a hole of a stuck stage with a resurfacing card.
    Cover {
        x: u8,
        y: u8,
        colour: u8,
        quadrant: u8,
    },
}

fn quadrant_name(q: u8) -> &'static str {
    QUADRANT_NAMES.get(q as usize).copied().unwrap_or("?")
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Take(slot) => write!(f, "take {}", slot as u32 + 1),
            Move::Place(p) => write!(f, "place {p}"),
            Move::Mark(side) => write!(f, "mark {}", side.letter()),
            Move::Resurface {
                side,
                colour,
                quadrant,
            } => write!(
                f,
                "resurface {} {} {}",
                side.letter(),
                colour_name(colour),
                quadrant_name(quadrant)
            ),
            Move::Pass => f.write_str("pass"),
            Move::Refill(pile) => write!(f, "refill {}", pile as u32 + 1),
            Move::Cover {
                x,
                y,
                colour,
                quadrant,
            } => write!(
                f,
                "cover {} {} {}",
                format_cell(x, y),
                colour_name(colour),
                quadrant_name(quadrant)
            ),
        }
    }
}

fn parse_number(word: &str, max: u8, what: &str) -> Result<u8, String> {
    word.parse::<u8>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .map(|n| n - 1)
        .ok_or_else(|| format!("{what} '{word}' is not a number from 1 to {max}"))
}

fn parse_side(word: &str) -> Result<Side, String> {
    match word {
        "A" | "a" => Ok(Side::A),
        "B" | "b" => Ok(Side::B),
        _ => Err(format!("block '{word}' is not A or B")),
    }
}

fn parse_card_side(colour: &str, quadrant: &str) -> Result<(u8, u8), String> {
    let c = parse_colour(colour).ok_or_else(|| {
        format!("colour '{colour}' is not one of brown, blue, yellow, turquoise, red, green")
    })?;
    debug_assert!((c as usize) < COLOURS);
    let q = QUADRANT_NAMES
        .iter()
        .position(|n| *n == quadrant)
        .ok_or_else(|| format!("quadrant '{quadrant}' is not one of nw, ne, sw, se"))?;
    Ok((c, q as u8))
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| MoveParseError::new(text, reason);
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&verb, args)) = words.split_first() else {
            return Err(err("empty move".into()));
        };
        let arity = |n: usize, form: &str| {
            if args.len() == n {
                Ok(())
            } else {
                Err(err(format!("expected '{form}'")))
            }
        };
        match verb {
            "take" => {
                arity(1, "take <slot 1-3>")?;
                Ok(Move::Take(
                    parse_number(args[0], 3, "quarry slot").map_err(err)?,
                ))
            }
            "place" => {
                arity(2, "place <cell> <E|S|W|N>")?;
                let p: Placement = args.join(" ").parse().map_err(err)?;
                Ok(Move::Place(p))
            }
            "mark" => {
                arity(1, "mark <A|B>")?;
                Ok(Move::Mark(parse_side(args[0]).map_err(err)?))
            }
            "resurface" => {
                arity(3, "resurface <A|B> <colour> <quadrant>")?;
                let side = parse_side(args[0]).map_err(err)?;
                let (colour, quadrant) = parse_card_side(args[1], args[2]).map_err(err)?;
                Ok(Move::Resurface {
                    side,
                    colour,
                    quadrant,
                })
            }
            "pass" => {
                arity(0, "pass")?;
                Ok(Move::Pass)
            }
            "refill" => {
                arity(1, "refill <pile 1-4>")?;
                Ok(Move::Refill(parse_number(args[0], 4, "pile").map_err(err)?))
            }
            "cover" => {
                arity(3, "cover <cell> <colour> <quadrant>")?;
                let (x, y) = parse_cell(args[0]).map_err(err)?;
                let (colour, quadrant) = parse_card_side(args[1], args[2]).map_err(err)?;
                Ok(Move::Cover {
                    x,
                    y,
                    colour,
                    quadrant,
                })
            }
            other => Err(err(format!(
                "unknown move '{other}' (take, place, mark, resurface, pass, refill, cover)"
            ))),
        }
    }
}

pyramidion_core::serde_as_move_text!(Move);

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_pyramid::Dir;

    #[test]
    fn text_round_trips() {
        let moves = [
            Move::Take(0),
            Move::Take(2),
            Move::Place(Placement::new(4, 4, Dir::E)),
            Move::Place(Placement::new(0, 2, Dir::N)),
            Move::Mark(Side::A),
            Move::Mark(Side::B),
            Move::Resurface {
                side: Side::B,
                colour: 4,
                quadrant: 3,
            },
            Move::Pass,
            Move::Refill(3),
            Move::Cover {
                x: 2,
                y: 1,
                colour: 1,
                quadrant: 0,
            },
        ];
        let texts = [
            "take 1",
            "take 3",
            "place e5 E",
            "place a3 N",
            "mark A",
            "mark B",
            "resurface B red se",
            "pass",
            "refill 4",
            "cover c2 blue nw",
        ];
        for (m, t) in moves.iter().zip(texts) {
            assert_eq!(m.to_string(), t);
            assert_eq!(t.parse::<Move>().unwrap(), *m);
            let json = serde_json::to_string(m).unwrap();
            assert_eq!(json, format!("\"{t}\""));
            assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), *m);
        }
    }

    #[test]
    fn bad_text_is_refused() {
        for bad in [
            "",
            "take",
            "take 0",
            "take 4",
            "take x",
            "place e5",
            "place e5 X",
            "place 5e E",
            "mark C",
            "mark A B",
            "resurface A pink nw",
            "resurface A red north",
            "resurface red nw",
            "pass now",
            "refill 5",
            "cover c2 blue",
            "cover 2c blue nw",
            "jump",
        ] {
            let e = bad.parse::<Move>().unwrap_err();
            assert_eq!(
                pyramidion_core::ErrorCode::code(&e),
                "bad_move_syntax",
                "{bad}"
            );
        }
    }
}

/// The structured form of a move that clients act on (see [`crate::descriptor`]). Slots and
/// piles are 0-based here; texts number them from 1. Cells are stage-local block coordinates.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveForm {
    Take {
        slot: u8,
    },
    /// Block A at (`x`, `y`), block B towards `dir`; `cells` are both blocks' cells, A first.
    /// `eliminates`: this placement dooms the mover (see [`crate::placement_dooms`]): the
    /// stage would keep more holes than their unused resurfacing cards can cover.
    Place {
        x: u8,
        y: u8,
        dir: pyramidion_pyramid::Dir,
        cells: [(u8, u8); 2],
        eliminates: bool,
    },
    /// `x`, `y`: the cell of the block that gets the marker.
    Mark {
        side: char,
        x: u8,
        y: u8,
    },
    Resurface {
        side: char,
        x: u8,
        y: u8,
        colour: &'static str,
        /// The card's two sides' colours.
        card: [&'static str; 2],
        quadrant: &'static str,
    },
    Pass,
    /// Refill quarry slot `slot` (the empty one) from pile `pile`.
    Refill {
        pile: u8,
        slot: Option<u8>,
    },
    Cover {
        x: u8,
        y: u8,
        cell: String,
        colour: &'static str,
        /// The card's two sides' colours.
        card: [&'static str; 2],
        quadrant: &'static str,
    },
}

impl MoveForm {
    /// The form of `m`, a move of the seat to move in `game`.
    pub fn of(game: &Game, m: &Move) -> MoveForm {
        let new_block = |side: Side| {
            let player = game.player(game.current());
            game.new_blocks()
                .and_then(|first| player.pyramid().blocks().get(first + side.index()))
                .map_or((0, 0), |b| (b.x, b.y))
        };
        match *m {
            Move::Take(slot) => MoveForm::Take { slot },
            Move::Place(p) => MoveForm::Place {
                x: p.x,
                y: p.y,
                dir: p.dir,
                cells: [(p.x, p.y), p.second().unwrap_or((p.x, p.y))],
                eliminates: {
                    let player = game.player(game.current());
                    p.second().is_some()
                        && crate::placement_dooms(player.pyramid(), &p, player.unused_cards())
                },
            },
            Move::Mark(side) => {
                let (x, y) = new_block(side);
                MoveForm::Mark {
                    side: side.letter(),
                    x,
                    y,
                }
            }
            Move::Resurface {
                side,
                colour,
                quadrant,
            } => {
                let (x, y) = new_block(side);
                MoveForm::Resurface {
                    side: side.letter(),
                    x,
                    y,
                    colour: colour_name(colour),
                    card: CARD_SIDES[card_of(colour) % CARD_SIDES.len()],
                    quadrant: quadrant_name(quadrant),
                }
            }
            Move::Pass => MoveForm::Pass,
            Move::Refill(pile) => MoveForm::Refill {
                pile,
                slot: game.empty_slot(),
            },
            Move::Cover {
                x,
                y,
                colour,
                quadrant,
            } => MoveForm::Cover {
                x,
                y,
                cell: format_cell(x, y),
                colour: colour_name(colour),
                card: CARD_SIDES[card_of(colour) % CARD_SIDES.len()],
                quadrant: quadrant_name(quadrant),
            },
        }
    }
}
