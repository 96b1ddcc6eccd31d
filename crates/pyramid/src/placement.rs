//! Dominoes, blocks, orientations and the text form of a placement.
use super::select::select_u128;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Icon (gem/jewel) positions inside a block: bit 0 = nw, 1 = ne, 2 = sw, 3 = se.
pub type Quadrants = u8;
pub const NW: Quadrants = 1;
pub const NE: Quadrants = 2;
pub const SW: Quadrants = 4;
pub const SE: Quadrants = 8;
pub const QUADRANT_NAMES: [&str; 4] = ["nw", "ne", "sw", "se"];

/// One half of a domino as it lies: a colour index (game-defined) and its icon quadrants.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
pub struct Block {
    pub colour: u8,
    pub icons: Quadrants,
}

impl Block {
    pub fn icon_count(self) -> u32 {
        self.icons.count_ones()
    }

    /// The same block turned a quarter clockwise `quarters` times.
    #[inline]
    pub fn rotated(self, quarters: u8) -> Block {
        Block {
            colour: self.colour,
            icons: ROTATIONS[(quarters % 4) as usize][(self.icons & 0xf) as usize],
        }
    }
}

/// Quadrant masks turned a quarter clockwise n times (nw→ne→se→sw→nw).
const ROTATIONS: [[Quadrants; 16]; 4] = {
    let mut table = [[0; 16]; 4];
    let mut m = 0;
    while m < 16 {
        let mut r = m as u8;
        let mut q = 0;
        while q < 4 {
            table[q][m] = r;
            r = ((r & NW) << 1) | ((r & NE) << 2) | ((r & SE) >> 1) | ((r & SW) >> 2);
            q += 1;
        }
        m += 1;
    }
    table
};

/// Parses quadrant lists such as `nw se` (space separated, empty for none).
pub fn parse_quadrants(text: &str) -> Result<Quadrants, String> {
    let mut m = 0;
    for word in text.split_whitespace() {
        let i = QUADRANT_NAMES
            .iter()
            .position(|q| *q == word)
            .ok_or_else(|| format!("unknown quadrant '{word}'"))?;
        if m & (1 << i) != 0 {
            return Err(format!("quadrant '{word}' repeated"));
        }
        m |= 1 << i;
    }
    Ok(m)
}

pub fn format_quadrants(m: Quadrants) -> String {
    (0..4)
        .filter(|i| m & (1 << i) != 0)
        .map(|i| QUADRANT_NAMES[i])
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a domino's block B lies relative to its block A. A domino is defined with B east of A;
/// `S`, `W`, `N` are that domino turned 1, 2, 3 quarters clockwise (icons turn with it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
pub enum Dir {
    E,
    S,
    W,
    N,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::E, Dir::S, Dir::W, Dir::N];

    pub fn quarters(self) -> u8 {
        self as u8
    }

    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
            Dir::N => (0, -1),
        }
    }

    pub fn letter(self) -> char {
        ['E', 'S', 'W', 'N'][self as usize]
    }
}

/// A domino on a stage grid: block A at (`x`, `y`) (stage-local block coordinates), block B
/// one step in direction `dir`. Text form: column letter + 1-based row, then the direction,
/// e.g. `e5 E`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
pub struct Placement {
    pub x: u8,
    pub y: u8,
    pub dir: Dir,
}

impl Placement {
    pub fn new(x: u8, y: u8, dir: Dir) -> Self {
        Placement { x, y, dir }
    }

    /// Block B's coordinates, if non-negative.
    pub fn second(&self) -> Option<(u8, u8)> {
        let (dx, dy) = self.dir.delta();
        let x = self.x as i32 + dx;
        let y = self.y as i32 + dy;
        (x >= 0 && y >= 0).then_some((x as u8, y as u8))
    }

    /// The two blocks of `domino` (given as [A, B] lying east-west) as they lie in this placement.
    pub fn orient(&self, domino: [Block; 2]) -> [Block; 2] {
        let q = self.dir.quarters();
        [domino[0].rotated(q), domino[1].rotated(q)]
    }
}

/// The `n`-th placement of a stage's move list, given its slot anchors (block A's cell, on a
/// board `width` cells wide) and the number `h` of horizontal ones. Lists give each horizontal
/// slot as `x y E` then `x+1 y W`, then each vertical one as `x y S` then `x y+1 N`, by anchor
/// index; `None` past the end. Shared by stage 1's canvas and the upper stages' grids.
#[inline]
pub(crate) fn nth_slot_placement(
    (horizontal, vertical): (u128, u128),
    h: u32,
    n: u32,
    width: u32,
) -> Option<Placement> {
    let slot = n / 2;
    let is_horizontal = slot < h;
    let (anchors, rank) = if is_horizontal {
        (horizontal, slot)
    } else {
        (vertical, slot - h)
    };
    if rank >= anchors.count_ones() {
        return None;
    }
    let i = select_u128(anchors, rank);
    let (x, y) = ((i % width) as u8, (i / width) as u8);
    // Arithmetic and a lookup rather than a `match`: random playouts pick the slot's
    // orientation and block order at random, and the branches mispredicted.
    const DIRS: [Dir; 4] = [Dir::S, Dir::N, Dir::E, Dir::W];
    let second = n % 2 == 1;
    Some(Placement::new(
        x + u8::from(is_horizontal & second),
        y + u8::from(!is_horizontal & second),
        DIRS[usize::from(is_horizontal) * 2 + usize::from(second)],
    ))
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{} {}",
            (b'a' + self.x) as char,
            self.y + 1,
            self.dir.letter()
        )
    }
}

impl FromStr for Placement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let (Some(cell), Some(dir), None) = (words.next(), words.next(), words.next()) else {
            return Err("a placement is a cell and a direction, e.g. 'e5 E'".into());
        };
        let (x, y) = parse_cell(cell)?;
        let dir = match dir {
            "E" | "e" => Dir::E,
            "S" | "s" => Dir::S,
            "W" | "w" => Dir::W,
            "N" | "n" => Dir::N,
            _ => return Err(format!("direction '{dir}' is not one of E, S, W, N")),
        };
        Ok(Placement { x, y, dir })
    }
}

/// `c4` → (2, 3). Columns a–z, rows from 1.
pub fn parse_cell(cell: &str) -> Result<(u8, u8), String> {
    let mut chars = cell.chars();
    let col = chars
        .next()
        .filter(|c| c.is_ascii_lowercase())
        .ok_or_else(|| format!("cell '{cell}' must start with a column letter"))?;
    let row: u8 = chars
        .as_str()
        .parse()
        .ok()
        .filter(|r| *r >= 1)
        .ok_or_else(|| format!("cell '{cell}' must end with a row number from 1"))?;
    Ok((col as u8 - b'a', row - 1))
}

pub fn format_cell(x: u8, y: u8) -> String {
    format!("{}{}", (b'a' + x) as char, y + 1)
}

/// Why a placement is refused (each with its own stable code).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("the domino would leave the stage")]
    OffBoard,
    #[error("a block of this stage is already there")]
    Occupied,
    #[error("on stage 1 a domino must touch an earlier one along a full block side")]
    NotConnected,
    #[error("stage 1 must fit a 5×4 or 4×5 frame")]
    OutsideFrame,
    #[error("the first domino is placed with its block A on e5")]
    FirstNotAtStart,
}

impl PlacementError {
    pub fn code(self) -> &'static str {
        match self {
            PlacementError::OffBoard => "off_board",
            PlacementError::Occupied => "slot_occupied",
            PlacementError::NotConnected => "not_connected",
            PlacementError::OutsideFrame => "outside_frame",
            PlacementError::FirstNotAtStart => "first_domino_not_at_start",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_turns_quadrants_clockwise() {
        let b = Block {
            colour: 0,
            icons: NW,
        };
        assert_eq!(b.rotated(1).icons, NE);
        assert_eq!(b.rotated(2).icons, SE);
        assert_eq!(b.rotated(3).icons, SW);
        assert_eq!(b.rotated(4).icons, NW);
        let two = Block {
            colour: 0,
            icons: NW | SW,
        };
        assert_eq!(two.rotated(1).icons, NW | NE);
    }

    #[test]
    fn placement_text_round_trips() {
        for dir in Dir::ALL {
            let p = Placement::new(3, 7, dir);
            assert_eq!(p.to_string().parse::<Placement>().unwrap(), p);
        }
        assert_eq!(
            "e5 E".parse::<Placement>().unwrap(),
            Placement::new(4, 4, Dir::E)
        );
        assert!("e0 E".parse::<Placement>().is_err());
        assert!("e5 X".parse::<Placement>().is_err());
        assert!("5e E".parse::<Placement>().is_err());
    }

    #[test]
    fn quadrant_lists() {
        assert_eq!(parse_quadrants("nw se").unwrap(), NW | SE);
        assert_eq!(parse_quadrants("").unwrap(), 0);
        assert!(parse_quadrants("nw nw").is_err());
        assert_eq!(format_quadrants(NE | SW), "ne sw");
    }
}
