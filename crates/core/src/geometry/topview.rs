//! The scoring surface: what is seen from above, on a 10×10 quadrant grid.
use super::grid::Grid;
use super::placement::{Block, format_cell, parse_cell};
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub const QUADRANT_GRID: Grid = Grid::new(10, 10);
/// Colours a game may use (Forgotten Treasures 5, Pyramido 6).
pub const MAX_COLOURS: usize = 6;
/// A pyramid shows at most 80 quadrants, so it never has more areas than this.
pub const MAX_AREAS: usize = 80;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TopView {
    colours: [u128; MAX_COLOURS],
    icons: u128,
}

/// A 4-connected region of same-colour visible quadrants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Area {
    pub colour: u8,
    /// Visible icons inside the area.
    pub icons: u8,
    /// The lowest quadrant index of the area: its stable name (see [`area_name`]).
    pub anchor: u8,
    /// Quadrant bitboard.
    #[serde(with = "u128_text")]
    pub cells: u128,
}

/// The text name of an area: its anchor quadrant as a cell, e.g. `c4`.
pub fn area_name(anchor: u8) -> String {
    format_cell(anchor % 10, anchor / 10)
}

pub fn parse_area_name(text: &str) -> Result<u8, String> {
    let (x, y) = parse_cell(text)?;
    if x >= 10 || y >= 10 {
        return Err(format!(
            "area cell '{text}' is outside the 10×10 quadrant grid"
        ));
    }
    Ok(y * 10 + x)
}

impl TopView {
    /// Puts `block` on the four quadrants whose north-west one is `nw`, hiding what was there.
    #[inline]
    pub fn cover(&mut self, nw: u32, block: Block) {
        let mask = 0b11u128 << nw | 0b11u128 << (nw + 10);
        for c in &mut self.colours {
            *c &= !mask;
        }
        self.colours[block.colour as usize] |= mask;
        let i = block.icons as u128;
        let icons = (i & 1) << nw
            | ((i >> 1) & 1) << (nw + 1)
            | ((i >> 2) & 1) << (nw + 10)
            | ((i >> 3) & 1) << (nw + 11);
        self.icons = (self.icons & !mask) | icons;
    }

    pub fn colour_board(&self, colour: u8) -> u128 {
        self.colours[colour as usize]
    }

    pub fn icons(&self) -> u128 {
        self.icons
    }

    pub fn filled(&self) -> u128 {
        self.colours.iter().fold(0, |m, c| m | c)
    }

    /// Colour of a visible quadrant.
    pub fn colour_at(&self, q: u32) -> Option<u8> {
        self.colours
            .iter()
            .position(|c| c >> q & 1 == 1)
            .map(|c| c as u8)
    }

    /// Every area, by colour then anchor.
    pub fn areas(&self) -> ArrayVec<Area, MAX_AREAS> {
        let mut out = ArrayVec::new();
        for (colour, &board) in self.colours.iter().enumerate() {
            let mut rest = board;
            while rest != 0 {
                let seed = rest & rest.wrapping_neg();
                let cells = QUADRANT_GRID.component(seed, rest);
                rest &= !cells;
                out.push(Area {
                    colour: colour as u8,
                    icons: (cells & self.icons).count_ones() as u8,
                    anchor: cells.trailing_zeros() as u8,
                    cells,
                });
            }
        }
        out
    }

    /// The area containing quadrant `q`, if it is covered.
    pub fn area_at(&self, q: u32) -> Option<Area> {
        let colour = self.colour_at(q)?;
        let board = self.colours[colour as usize];
        let cells = QUADRANT_GRID.component(1u128 << q, board);
        Some(Area {
            colour,
            icons: (cells & self.icons).count_ones() as u8,
            anchor: cells.trailing_zeros() as u8,
            cells,
        })
    }
}

mod u128_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{v:x}"))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let t = String::deserialize(d)?;
        u128::from_str_radix(&t, 16).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::placement::{NE, NW, SE};

    #[test]
    fn covering_hides_icons_underneath() {
        let mut t = TopView::default();
        t.cover(
            0,
            Block {
                colour: 0,
                icons: NW | SE,
            },
        );
        t.cover(
            2,
            Block {
                colour: 0,
                icons: NE,
            },
        );
        assert_eq!(t.areas().len(), 1);
        assert_eq!(t.areas()[0].icons, 3);
        // A stage-2 block over the centre hides the se icon of the first block.
        t.cover(
            11,
            Block {
                colour: 1,
                icons: 0,
            },
        );
        let areas = t.areas();
        let red: Vec<_> = areas.iter().filter(|a| a.colour == 0).collect();
        assert_eq!(red.iter().map(|a| a.icons as u32).sum::<u32>(), 2);
        assert_eq!(areas.iter().filter(|a| a.colour == 1).count(), 1);
    }

    #[test]
    fn area_names_round_trip() {
        for q in [0u8, 9, 10, 55, 99] {
            assert_eq!(parse_area_name(&area_name(q)).unwrap(), q);
        }
        assert!(parse_area_name("k1").is_err());
    }
}
