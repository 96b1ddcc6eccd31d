//! The scoring surface: what is seen from above, on a 10×10 quadrant grid.
use super::grid::Grid;
use super::placement::{Block, format_cell, parse_cell};
use super::quadboard::QuadBoard;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub const QUADRANT_GRID: Grid = Grid::new(10, 10);
/// Colours a game may use (Forgotten Treasures 5, Pyramido 6).
pub const MAX_COLOURS: usize = 6;
/// A pyramid shows at most 80 quadrants, so it never has more areas than this.
pub const MAX_AREAS: usize = 80;

/// What is seen from above: each visible quadrant's colour, and which visible quadrants show
/// an icon. Stored as `QuadBoard`s (the flood-fill layout); every method speaks the public
/// form, quadrant `y * 10 + x` of a `u128`, and so does serde.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "PlainTopView", into = "PlainTopView")]
pub struct TopView {
    colours: [QuadBoard; MAX_COLOURS],
    icons: QuadBoard,
}

/// The serialised (and debug) form of a [`TopView`]: one public-form board per colour.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename = "TopView")]
struct PlainTopView {
    #[serde(with = "u128_list")]
    colours: [u128; MAX_COLOURS],
    #[serde(with = "u128_text")]
    icons: u128,
}

impl From<PlainTopView> for TopView {
    fn from(plain: PlainTopView) -> TopView {
        TopView {
            colours: plain.colours.map(QuadBoard::from_grid),
            icons: QuadBoard::from_grid(plain.icons),
        }
    }
}

impl From<TopView> for PlainTopView {
    fn from(view: TopView) -> PlainTopView {
        PlainTopView {
            colours: view.colours.map(QuadBoard::to_grid),
            icons: view.icons.to_grid(),
        }
    }
}

impl std::fmt::Debug for TopView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TopView")
            .field("colours", &self.colours.map(QuadBoard::to_grid))
            .field("icons", &self.icons.to_grid())
            .finish()
    }
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

/// The four quadrants of a block whose north-west quadrant is (`x`, `y`).
#[inline]
fn block_square(x: u32, y: u32) -> QuadBoard {
    QuadBoard::square(x, y, 0b11, 0b11)
}

/// The icon quadrants of a block whose north-west quadrant is (`x`, `y`).
#[inline]
fn icon_square(x: u32, y: u32, icons: u8) -> QuadBoard {
    QuadBoard::square(x, y, (icons & 0b11) as u64, (icons >> 2 & 0b11) as u64)
}

impl TopView {
    /// Puts `block` on the four quadrants whose north-west one is `nw`, hiding what was there.
    #[inline]
    pub fn cover(&mut self, nw: u32, block: Block) {
        self.cover_at(nw % 10, nw / 10, block);
    }

    /// [`TopView::cover`] with the north-west quadrant given as (`x`, `y`).
    #[inline]
    pub(crate) fn cover_at(&mut self, x: u32, y: u32, block: Block) {
        let square = block_square(x, y);
        for c in &mut self.colours {
            *c = c.without(square);
        }
        let c = &mut self.colours[block.colour as usize];
        *c = *c | square;
        self.icons = self.icons.without(square) | icon_square(x, y, block.icons);
    }

    /// [`TopView::cover_at`] for both blocks of a domino (north-west quadrants `a.0`, `a.1` and
    /// `b.0`, `b.1`): one pass over the colours instead of two.
    #[inline]
    pub(crate) fn cover_domino_at(&mut self, a: (u32, u32, Block), b: (u32, u32, Block)) {
        let (square_a, square_b) = (block_square(a.0, a.1), block_square(b.0, b.1));
        let both = square_a | square_b;
        for c in &mut self.colours {
            *c = c.without(both);
        }
        let c = &mut self.colours[a.2.colour as usize];
        *c = *c | square_a;
        let c = &mut self.colours[b.2.colour as usize];
        *c = *c | square_b;
        self.icons = self.icons.without(both)
            | icon_square(a.0, a.1, a.2.icons)
            | icon_square(b.0, b.1, b.2.icons);
    }

    /// [`TopView::cover_at`] on four quadrants nothing covers yet (stage-1 dominoes, which
    /// never overlap): nothing to clear.
    #[inline]
    pub(crate) fn put_at(&mut self, x: u32, y: u32, block: Block) {
        let square = block_square(x, y);
        debug_assert!((self.filled_board() & square).is_empty());
        let c = &mut self.colours[block.colour as usize];
        *c = *c | square;
        self.icons = self.icons | icon_square(x, y, block.icons);
    }

    /// [`TopView::put_at`] for both blocks of a domino (see [`TopView::cover_domino_at`]).
    #[inline]
    pub(crate) fn put_domino_at(&mut self, a: (u32, u32, Block), b: (u32, u32, Block)) {
        self.put_at(a.0, a.1, a.2);
        self.put_at(b.0, b.1, b.2);
    }

    /// Shows `block` (north-west quadrant `nw`) where `covered` does not hide it; returns the
    /// new covered mask. Used to build a view from the top stage down.
    #[inline]
    pub fn show_under(&mut self, covered: u128, nw: u32, block: Block) -> u128 {
        let mask = 0b11u128 << nw | 0b11u128 << (nw + 10);
        let visible = mask & !covered;
        let (x, y) = (nw % 10, nw / 10);
        let shown = QuadBoard::square(
            x,
            y,
            (visible >> nw) as u64 & 0b11,
            (visible >> (nw + 10)) as u64 & 0b11,
        );
        let c = &mut self.colours[block.colour as usize];
        *c = *c | shown;
        self.icons = self.icons | (icon_square(x, y, block.icons) & shown);
        covered | mask
    }

    /// The view moved `dx` quadrants east and `dy` (even) south, when stage 1's origin moves
    /// with a domino; every shown quadrant must stay inside the grid.
    #[inline]
    pub(crate) fn shifted(&self, dx: u32, dy: u32) -> TopView {
        TopView {
            colours: self.colours.map(|c| c.shifted(dx, dy)),
            icons: self.icons.shifted(dx, dy),
        }
    }

    pub fn colour_board(&self, colour: u8) -> u128 {
        self.colours[colour as usize].to_grid()
    }

    pub fn icons(&self) -> u128 {
        self.icons.to_grid()
    }

    fn filled_board(&self) -> QuadBoard {
        self.colours.iter().fold(QuadBoard::EMPTY, |m, &c| m | c)
    }

    pub fn filled(&self) -> u128 {
        self.filled_board().to_grid()
    }

    /// Colour of a visible quadrant.
    pub fn colour_at(&self, q: u32) -> Option<u8> {
        if q >= 100 {
            return None;
        }
        let (x, y) = (q % 10, q / 10);
        // Every colour tested, no early exit: which colour it is is random, and a loop that
        // stops at it mispredicts its exit.
        let found = self
            .colours
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, c)| m | u32::from(c.contains(x, y)) << i);
        (found != 0).then(|| found.trailing_zeros() as u8)
    }

    fn area(&self, colour: u8, cells: QuadBoard) -> Area {
        Area {
            colour,
            icons: (cells & self.icons).count() as u8,
            anchor: cells.first_index() as u8,
            cells: cells.to_grid(),
        }
    }

    /// Every area, by colour then anchor.
    pub fn areas(&self) -> ArrayVec<Area, MAX_AREAS> {
        let mut out = ArrayVec::new();
        for (colour, &board) in self.colours.iter().enumerate() {
            let mut found: ArrayVec<Area, MAX_AREAS> = ArrayVec::new();
            let mut rest = board;
            while !rest.is_empty() {
                let cells = QuadBoard::component(rest.any_one(), board);
                rest = rest.without(cells);
                found.push(self.area(colour as u8, cells));
            }
            found.sort_unstable_by_key(|a| a.anchor);
            out.extend(found);
        }
        out
    }

    /// Only the areas showing at least one icon (the only ones worth scoring), by colour then
    /// anchor. Same result as filtering [`TopView::areas`].
    pub fn areas_with_icons(&self) -> ArrayVec<Area, MAX_AREAS> {
        let mut out = ArrayVec::new();
        self.for_each_area_with_icons(|a| out.push(a));
        out
    }

    /// Calls `f` for each area showing an icon, by colour then anchor.
    pub fn for_each_area_with_icons(&self, mut f: impl FnMut(Area)) {
        self.for_each_scoring_area(|colour, _, anchor| {
            let seed = QuadBoard::from_grid(1 << anchor);
            let cells = QuadBoard::component(seed, self.colours[colour as usize]);
            f(self.area(colour, cells))
        });
    }

    /// Calls `f(colour, icons, anchor)` for each area showing an icon, by colour then anchor.
    pub fn for_each_scoring_area(&self, mut f: impl FnMut(u8, u8, u8)) {
        let mut found: ArrayVec<(u8, u8), MAX_AREAS> = ArrayVec::new();
        let mut colour_found = 0;
        let mut flush = |colour: u8, found: &mut ArrayVec<(u8, u8), MAX_AREAS>| {
            // Seeds are taken in board order; anchors (lowest quadrant) may differ from it.
            found.sort_unstable();
            for &(anchor, icons) in found.iter() {
                f(colour, icons, anchor);
            }
            found.clear();
        };
        self.for_each_scoring_area_unordered(|colour, icons, anchor| {
            if colour != colour_found && !found.is_empty() {
                flush(colour_found, &mut found);
            }
            colour_found = colour;
            found.push((anchor, icons));
        });
        flush(colour_found, &mut found);
    }

    /// [`TopView::for_each_scoring_area`] without ordering the areas of a colour by anchor:
    /// by colour, each colour's areas in the order found. For callers that store the areas
    /// anyway and can sort them in place (stage ends of every simulated game run this).
    /// Flood fills seeded only from icon quadrants, so icon-less regions cost nothing
    /// (measured faster than union-find or row-run labelling on this grid).
    ///
    /// One loop over every area of every colour, not one loop per colour: how many areas a
    /// colour has is random, and each colour's loop mispredicted its exit.
    #[inline]
    pub fn for_each_scoring_area_unordered(&self, mut f: impl FnMut(u8, u8, u8)) {
        let mut seeds = self.colours.map(|board| board & self.icons);
        // Bit c: colour c has seeds left.
        let mut pending = seeds
            .iter()
            .enumerate()
            .fold(0u32, |m, (c, s)| m | u32::from(!s.is_empty()) << c);
        while pending != 0 {
            let colour = pending.trailing_zeros() as usize;
            let board = self.colours[colour];
            let colour_seeds = seeds[colour];
            let cells = QuadBoard::component(colour_seeds.first_one(), board);
            // The area's icons are the seeds it holds (seeds are the colour's icons).
            let icons = (colour_seeds & cells).count() as u8;
            let rest = colour_seeds.without(cells);
            seeds[colour] = rest;
            pending &= !(u32::from(rest.is_empty()) << colour);
            f(colour as u8, icons, cells.first_index() as u8);
        }
    }

    /// The area containing quadrant `q`, if it is covered.
    pub fn area_at(&self, q: u32) -> Option<Area> {
        let (colour, cells) = self.component_at(q)?;
        Some(self.area(colour, cells))
    }

    /// The anchor and icon count of the area containing quadrant `q`, if it is covered: what
    /// scoring needs, without listing the area's cells (bots score every placement they weigh).
    pub fn area_points_at(&self, q: u32) -> Option<(u8, u8)> {
        let (_, cells) = self.component_at(q)?;
        Some((
            cells.first_index() as u8,
            (cells & self.icons).count() as u8,
        ))
    }

    fn component_at(&self, q: u32) -> Option<(u8, QuadBoard)> {
        let colour = self.colour_at(q)?;
        let seed = QuadBoard::single(q % 10, q / 10);
        Some((
            colour,
            QuadBoard::component(seed, self.colours[colour as usize]),
        ))
    }
}

mod u128_list {
    use super::MAX_COLOURS;
    use serde::{Deserialize, Deserializer, Serializer, de::Error, ser::SerializeSeq};
    pub fn serialize<S: Serializer>(v: &[u128; MAX_COLOURS], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(MAX_COLOURS))?;
        for x in v {
            seq.serialize_element(&format!("{x:x}"))?;
        }
        seq.end()
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u128; MAX_COLOURS], D::Error> {
        let texts = Vec::<String>::deserialize(d)?;
        let mut out = [0; MAX_COLOURS];
        if texts.len() != MAX_COLOURS {
            return Err(D::Error::custom("wrong number of colour boards"));
        }
        for (o, t) in out.iter_mut().zip(texts) {
            *o = u128::from_str_radix(&t, 16).map_err(D::Error::custom)?;
        }
        Ok(out)
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
    use crate::placement::{NE, NW, SE};

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

    /// Building from the top down (`show_under`) equals covering from the bottom up, and the
    /// icon-seeded areas are exactly the areas with icons.
    #[test]
    fn top_down_build_and_icon_areas_agree_with_plain_ones() {
        let mut rng = pyramidion_core::GameRng::from_seed(4);
        for _ in 0..500 {
            let blocks: Vec<(u32, Block)> = (0..40)
                .map(|_| {
                    let nw = rng.below(9) + 10 * rng.below(9);
                    (
                        nw,
                        Block {
                            colour: rng.below(6) as u8,
                            icons: rng.below(16) as u8,
                        },
                    )
                })
                .collect();
            let mut up = TopView::default();
            for &(nw, b) in &blocks {
                up.cover(nw, b);
            }
            let mut down = TopView::default();
            let mut covered = 0;
            for &(nw, b) in blocks.iter().rev() {
                covered = down.show_under(covered, nw, b);
            }
            assert_eq!(up, down);
            let plain: Vec<Area> = up.areas().into_iter().filter(|a| a.icons > 0).collect();
            assert_eq!(plain, up.areas_with_icons().to_vec());
        }
    }

    #[test]
    fn area_names_round_trip() {
        for q in [0u8, 9, 10, 55, 99] {
            assert_eq!(parse_area_name(&area_name(q)).unwrap(), q);
        }
        assert!(parse_area_name("k1").is_err());
    }
}
