//! A player's necropolis (Pyramid, Obelisk, Tomb) and its scoring.
//!
//! ## Pyramid geometry
//! Rows `a` (bottom) to `d` hold 4, 3, 2, 1 cards. A card is 6 units wide; the card in row `r`
//! at index `i` spans `x = 6i + 3r .. 6i + 3r + 6`, i.e. a higher card sits centred over two
//! adjacent cards of the row below, covering their upper halves. Stones are laid out on a grid
//! of unit cells, 24 columns × 4 rows, one `u128` bit board per colour (bit `24r + x`).
//! Two stones touch when they share a cell edge: within a row across card edges (`x1 == x0`),
//! and between adjacent rows where their x-intervals overlap with positive length. So stone
//! connectivity is 4-connectivity of same-colour cells, and a group's size is the number of
//! stone anchors (each stone's leftmost cell) it contains.
//!
//! ## Building order
//! Rows are filled bottom to top; a row is started only when the row below is complete. The
//! bottom row floats: its first card is `a1`, and every later one extends it on the left
//! (`a0`: the new card becomes `a1`, the others shift right) or on the right (`a{k+1}` when it
//! holds k cards). In rows `b`–`d` the slots are fixed by the completed row below (`b1` sits on
//! `a1`+`a2`, …); the first card of a row takes any slot, later ones a slot next to a card of
//! that row.
use crate::data::{CARD_WIDTH, CardId, Colour, Glyph, card};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Cards per pyramid row, bottom (`a`) to top (`d`).
pub const ROW_SIZES: [u8; 4] = [4, 3, 2, 1];
/// Cards in a complete pyramid.
pub const PYRAMID_CARDS: u8 = 10;
/// Row letters, bottom to top.
pub const ROW_LETTERS: [char; 4] = ['a', 'b', 'c', 'd'];
/// Obelisk points for a colour on 1, 2, 3, 4, 5+ cards.
pub const OBELISK_POINTS: [u8; 5] = [1, 3, 6, 10, 15];
/// Tomb points per colour majority.
pub const TOMB_MAJORITY_POINTS: u8 = 5;
/// Points per glyph in its own edifice.
pub const GLYPH_POINTS: u8 = 2;
/// Pyramid bonus when every colour scores at least [`PYRAMID_BONUS_MIN`].
pub const PYRAMID_BONUS: u8 = 10;
pub const PYRAMID_BONUS_MIN: u8 = 3;
/// Obelisk and Tomb receive at most one card per round.
pub const MAX_PILE: usize = 10;

pub(crate) const NONE: u8 = u8::MAX;
const ROW_BITS: u32 = 24;
const GRID_BITS: u32 = ROW_BITS * 4;
const GRID: u128 = (1u128 << GRID_BITS) - 1;
/// Cells with x = 0 (resp. x = 23) in each row: a horizontal shift must not cross rows.
const FIRST_COLUMN: u128 = 1 | 1 << 24 | 1 << 48 | 1 << 72;
const LAST_COLUMN: u128 = FIRST_COLUMN << 23;

/// Where a card goes in a pyramid: a row (0 = `a` .. 3 = `d`) and a slot number as written in
/// move text (see the module docs: `a0` extends the bottom row on the left).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    pub row: u8,
    pub slot: u8,
}

impl Place {
    pub const fn new(row: u8, slot: u8) -> Place {
        Place { row, slot }
    }

    /// Whether this is a place some pyramid could accept (`a0`–`a4`, `b1`–`b3`, `c1`–`c2`, `d1`).
    pub fn is_valid(self) -> bool {
        match self.row {
            0 => self.slot <= 4,
            1..=3 => (1..=ROW_SIZES[self.row as usize]).contains(&self.slot),
            _ => false,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", ROW_LETTERS[self.row as usize & 3], self.slot)
    }
}

impl std::str::FromStr for Place {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let row = chars
            .next()
            .and_then(|c| ROW_LETTERS.iter().position(|&l| l == c))
            .ok_or_else(|| format!("'{s}' is not a pyramid place (a0-a4, b1-b3, c1-c2, d1)"))?;
        let slot: u8 = chars
            .as_str()
            .parse()
            .map_err(|_| format!("'{s}' is not a pyramid place (a0-a4, b1-b3, c1-c2, d1)"))?;
        let place = Place::new(row as u8, slot);
        if place.is_valid() {
            Ok(place)
        } else {
            Err(format!(
                "'{s}' is not a pyramid place (a0-a4, b1-b3, c1-c2, d1)"
            ))
        }
    }
}

/// A small fixed-capacity list of card ids (unused entries hold `NONE`, so equality is plain).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Stack<const N: usize> {
    len: u8,
    items: [u8; N],
}

impl<const N: usize> Stack<N> {
    pub(crate) const fn new() -> Self {
        Stack {
            len: 0,
            items: [NONE; N],
        }
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.items[..self.len as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    pub(crate) fn push(&mut self, id: u8) {
        self.items[self.len as usize] = id;
        self.len += 1;
    }

    pub(crate) fn remove(&mut self, index: usize) -> u8 {
        let len = self.len as usize;
        let id = self.items[index];
        self.items.copy_within(index + 1..len, index);
        self.items[len - 1] = NONE;
        self.len -= 1;
        id
    }

    pub(crate) fn clear(&mut self) {
        *self = Self::new();
    }
}

/// Why a card cannot go to a pyramid place.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error("the pyramid is complete")]
    Complete,
    #[error("{0} is not a place open in this pyramid")]
    NotOpen(Place),
}

/// A player's pyramid: cards by row and the derived stone bit boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pyramid {
    /// Card per row and index (`NONE` when empty); the bottom row's cards are kept at indices
    /// `0..count`.
    cells: [[u8; 4]; 4],
    /// Occupied indices per row (bit i = index i).
    occupied: [u8; 4],
    count: u8,
    colours: [u128; 5],
    anchors: u128,
}

impl Default for Pyramid {
    fn default() -> Self {
        Pyramid::new()
    }
}

impl Pyramid {
    pub const fn new() -> Pyramid {
        Pyramid {
            cells: [[NONE; 4]; 4],
            occupied: [0; 4],
            count: 0,
            colours: [0; 5],
            anchors: 0,
        }
    }

    /// Number of cards placed.
    pub fn len(&self) -> u8 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn is_complete(&self) -> bool {
        self.count == PYRAMID_CARDS
    }

    /// The row being built (the lowest incomplete one), `None` when complete.
    pub fn current_row(&self) -> Option<u8> {
        (0..4u8).find(|&r| self.occupied[r as usize].count_ones() < ROW_SIZES[r as usize] as u32)
    }

    /// The card at `row`, `index` (absolute index; in the bottom row, cards sit at `0..len`).
    pub fn card_at(&self, row: u8, index: u8) -> Option<CardId> {
        let id = *self.cells.get(row as usize)?.get(index as usize)?;
        (id != NONE).then_some(id)
    }

    /// Every card, bottom row first, left to right.
    pub fn cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.cells
            .iter()
            .flatten()
            .copied()
            .filter(|&id| id != NONE)
    }

    /// The places open now, in move order (row `a`: left then right; other rows: by slot).
    /// At most 3 (a row of 3 empty slots).
    pub fn open_places(&self) -> impl Iterator<Item = Place> + use<> {
        let mut out = [Place::new(0, 0); 3];
        let mut n = 0;
        if let Some(row) = self.current_row() {
            let occ = self.occupied[row as usize];
            if row == 0 {
                if occ == 0 {
                    out[0] = Place::new(0, 1);
                    n = 1;
                } else {
                    out[0] = Place::new(0, 0);
                    out[1] = Place::new(0, occ.count_ones() as u8 + 1);
                    n = 2;
                }
            } else {
                let size = ROW_SIZES[row as usize];
                for i in 0..size {
                    if self.index_open(row, i) {
                        out[n] = Place::new(row, i + 1);
                        n += 1;
                    }
                }
            }
        }
        out.into_iter().take(n)
    }

    fn index_open(&self, row: u8, index: u8) -> bool {
        let occ = self.occupied[row as usize];
        occ & (1 << index) == 0 && (occ == 0 || occ & ((1 << index) << 1 | (1 << index) >> 1) != 0)
    }

    /// Whether `place` is open now.
    pub fn is_open(&self, place: Place) -> bool {
        let Some(row) = self.current_row() else {
            return false;
        };
        if place.row != row || !place.is_valid() {
            return false;
        }
        if row == 0 {
            let k = self.occupied[0].count_ones() as u8;
            if k == 0 {
                place.slot == 1
            } else {
                place.slot == 0 || place.slot == k + 1
            }
        } else {
            self.index_open(row, place.slot - 1)
        }
    }

    /// Places `id` at `place` if it is open.
    pub fn place(&mut self, id: CardId, place: Place) -> Result<(), PlaceError> {
        if self.is_complete() {
            return Err(PlaceError::Complete);
        }
        if !self.is_open(place) {
            return Err(PlaceError::NotOpen(place));
        }
        self.place_unchecked(id, place);
        Ok(())
    }

    pub(crate) fn place_unchecked(&mut self, id: CardId, place: Place) {
        let row = place.row as usize;
        let index = if row == 0 {
            let k = self.occupied[0].count_ones() as usize;
            if place.slot == 0 && k > 0 {
                // Extend left: shift the whole bottom row (the only row built yet) right.
                self.cells[0].copy_within(0..k, 1);
                for c in &mut self.colours {
                    *c <<= CARD_WIDTH;
                }
                self.anchors <<= CARD_WIDTH;
                0
            } else {
                k
            }
        } else {
            place.slot as usize - 1
        };
        self.cells[row][index] = id;
        self.occupied[row] = if row == 0 {
            // The bottom row always occupies indices 0..k.
            (self.occupied[0] << 1) | 1
        } else {
            self.occupied[row] | 1 << index
        };
        self.count += 1;
        let offset = ROW_BITS * row as u32 + (CARD_WIDTH as u32 * index as u32) + 3 * row as u32;
        let c = card(id);
        for (board, &cells) in self.colours.iter_mut().zip(&c.cells) {
            *board |= (cells as u128) << offset;
        }
        self.anchors |= (c.anchors as u128) << offset;
    }

    /// Size (in stones) of the largest connected group of `colour`.
    pub fn largest_group(&self, colour: Colour) -> u8 {
        largest_group(self.colours[colour.index()], self.anchors)
    }

    /// Pyramid points (glyphs not included).
    pub fn score(&self) -> PyramidScore {
        let mut groups = [0u8; 5];
        for (g, &board) in groups.iter_mut().zip(&self.colours) {
            *g = largest_group(board, self.anchors);
        }
        let longest = groups.iter().copied().max().unwrap_or(0);
        let bonus = if groups.iter().all(|&g| g >= PYRAMID_BONUS_MIN) {
            PYRAMID_BONUS
        } else {
            0
        };
        PyramidScore {
            groups,
            longest,
            bonus,
            total: groups.iter().sum::<u8>() + longest + bonus,
        }
    }

    /// Number of stones in the pyramid.
    pub fn stones(&self) -> u32 {
        self.anchors.count_ones()
    }

    /// Glyph points: Pyramid glyphs in the pyramid.
    pub fn glyph_points(&self) -> u8 {
        GLYPH_POINTS
            * self
                .cards()
                .filter(|&id| card(id).glyph == Some(Glyph::Pyramid))
                .count() as u8
    }

    /// Recomputes the bit boards from the cards (for invariant checks).
    #[cfg(feature = "testkit")]
    pub(crate) fn rebuilt(&self) -> Pyramid {
        let mut p = Pyramid::new();
        for row in 0..4u8 {
            for index in 0..4u8 {
                if let Some(id) = self.card_at(row, index) {
                    // Bottom-row cards are appended left to right: slot index + 1 is "right".
                    p.place_unchecked(id, Place::new(row, index + 1));
                }
            }
        }
        p
    }
}

/// Largest 4-connected component of `board`, counted in stone anchors.
fn largest_group(board: u128, anchors: u128) -> u8 {
    let mut rest = board;
    let mut best = 0;
    while rest != 0 {
        let mut group = rest & rest.wrapping_neg();
        loop {
            let grown = (group
                | (group << 1 & !FIRST_COLUMN)
                | (group >> 1 & !LAST_COLUMN)
                | group << ROW_BITS
                | group >> ROW_BITS)
                & board;
            if grown == group {
                break;
            }
            group = grown;
        }
        rest &= !group;
        best = best.max((group & anchors & GRID).count_ones() as u8);
    }
    best
}

/// A pyramid's points: the largest group per colour, the longest group once more, the bonus.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PyramidScore {
    /// Largest connected group per colour (blue, white, red, green, yellow), in stones.
    pub groups: [u8; 5],
    /// The single longest group, scored again.
    pub longest: u8,
    /// 10 when every colour's group has at least 3 stones.
    pub bonus: u8,
    pub total: u8,
}

/// Obelisk: cards in the order played (each covers the top half of the previous one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Obelisk {
    cards: Stack<MAX_PILE>,
    /// Cards showing each colour.
    presence: [u8; 5],
}

impl Default for Obelisk {
    fn default() -> Self {
        Obelisk::new()
    }
}

impl Obelisk {
    pub const fn new() -> Obelisk {
        Obelisk {
            cards: Stack::new(),
            presence: [0; 5],
        }
    }

    pub fn cards(&self) -> &[CardId] {
        self.cards.as_slice()
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.len() == 0
    }

    /// Adds a card on top. Panics beyond [`MAX_PILE`] cards (one per round).
    pub fn push(&mut self, id: CardId) {
        self.cards.push(id);
        let presence = card(id).presence;
        for (c, n) in self.presence.iter_mut().enumerate() {
            *n += (presence >> c) & 1;
        }
    }

    /// Number of cards (stages) on which `colour` appears.
    pub fn stages_with(&self, colour: Colour) -> u8 {
        self.presence[colour.index()]
    }

    /// Points of the colour present on the most cards (only one colour scores).
    pub fn score(&self) -> u8 {
        match self.presence.iter().copied().max().unwrap_or(0) {
            0 => 0,
            n => OBELISK_POINTS[(n as usize).min(5) - 1],
        }
    }

    pub fn glyph_points(&self) -> u8 {
        GLYPH_POINTS
            * self
                .cards()
                .iter()
                .filter(|&&id| card(id).glyph == Some(Glyph::Obelisk))
                .count() as u8
    }
}

/// Tomb: a face-down pile, seen by its owner only until the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tomb {
    cards: Stack<MAX_PILE>,
    /// Stones per colour.
    stones: [u8; 5],
}

impl Default for Tomb {
    fn default() -> Self {
        Tomb::new()
    }
}

impl Tomb {
    pub const fn new() -> Tomb {
        Tomb {
            cards: Stack::new(),
            stones: [0; 5],
        }
    }

    pub fn cards(&self) -> &[CardId] {
        self.cards.as_slice()
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.len() == 0
    }

    /// Adds a card. Panics beyond [`MAX_PILE`] cards (one per round).
    pub fn push(&mut self, id: CardId) {
        self.cards.push(id);
        for (n, &k) in self.stones.iter_mut().zip(&card(id).stone_counts) {
            *n += k;
        }
    }

    /// Stones of each colour (blue, white, red, green, yellow).
    pub fn stones(&self) -> [u8; 5] {
        self.stones
    }

    pub fn glyph_points(&self) -> u8 {
        GLYPH_POINTS
            * self
                .cards()
                .iter()
                .filter(|&&id| card(id).glyph == Some(Glyph::Tomb))
                .count() as u8
    }

    pub(crate) fn clear(&mut self) {
        *self = Tomb::new();
    }
}

/// One player's three edifices.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Necropolis {
    pub pyramid: Pyramid,
    pub obelisk: Obelisk,
    pub tomb: Tomb,
}

/// A player's points, edifice by edifice.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub pyramid: PyramidScore,
    pub obelisk: u8,
    /// 5 per colour in which this tomb holds strictly more stones than every other tomb.
    pub tomb: u8,
    /// 2 per glyph lying in its own edifice.
    pub glyphs: u8,
    pub total: u16,
}

/// The colours (blue, white, red, green, yellow) in which the tomb of `seat` holds strictly
/// more stones than every other tomb: a tie for the most stones wins nothing.
pub fn tomb_majorities(tombs: &[[u8; 5]], seat: usize) -> [bool; 5] {
    let own = tombs[seat];
    std::array::from_fn(|c| {
        own[c] > 0
            && tombs
                .iter()
                .enumerate()
                .all(|(s, t)| s == seat || t[c] < own[c])
    })
}

/// The colours in which the tomb of `seat` shares the most stones with another tomb: a tie,
/// which scores nothing.
pub fn tomb_ties(tombs: &[[u8; 5]], seat: usize) -> [bool; 5] {
    let own = tombs[seat];
    std::array::from_fn(|c| {
        let others = tombs
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat)
            .map(|(_, t)| t[c]);
        own[c] > 0 && others.clone().all(|n| n <= own[c]) && others.into_iter().any(|n| n == own[c])
    })
}

/// Tomb points of `seat`: 5 per colour where its stones strictly exceed every other tomb's.
pub fn tomb_points(tombs: &[[u8; 5]], seat: usize) -> u8 {
    TOMB_MAJORITY_POINTS * tomb_majorities(tombs, seat).iter().filter(|&&w| w).count() as u8
}

/// The full score of `seat` among `necropolises` (every player's, for the tomb majorities).
pub fn score_of(necropolises: &[Necropolis], seat: usize) -> Score {
    let mut tombs = [[0u8; 5]; 5];
    for (t, n) in tombs.iter_mut().zip(necropolises) {
        *t = n.tomb.stones;
    }
    let n = &necropolises[seat];
    let pyramid = n.pyramid.score();
    let obelisk = n.obelisk.score();
    let tomb = tomb_points(&tombs[..necropolises.len()], seat);
    let glyphs = n.pyramid.glyph_points() + n.obelisk.glyph_points() + n.tomb.glyph_points();
    Score {
        pyramid,
        obelisk,
        tomb,
        glyphs,
        total: pyramid.total as u16 + obelisk as u16 + tomb as u16 + glyphs as u16,
    }
}

/// Every player's full score.
pub fn score_all(necropolises: &[Necropolis]) -> Vec<Score> {
    (0..necropolises.len())
        .map(|s| score_of(necropolises, s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tomb_majorities_are_strict_and_ties_score_nothing() {
        // Blue: seat 0 alone has the most; red: seats 0 and 1 tie; green: nobody has any.
        let tombs = [[3, 0, 2, 0, 0], [1, 0, 2, 0, 1], [0, 0, 1, 0, 0]];
        assert_eq!(
            tomb_majorities(&tombs, 0),
            [true, false, false, false, false]
        );
        assert_eq!(tomb_ties(&tombs, 0), [false, false, true, false, false]);
        assert_eq!(tomb_ties(&tombs, 1), [false, false, true, false, false]);
        assert_eq!(
            tomb_majorities(&tombs, 1),
            [false, false, false, false, true]
        );
        assert_eq!(tomb_points(&tombs, 0), 5);
        assert_eq!(tomb_points(&tombs, 1), 5);
        assert_eq!(tomb_points(&tombs, 2), 0);
        assert_eq!(tomb_ties(&tombs, 2), [false; 5]);
    }
    use crate::data::cards;

    fn two_stone(a: Colour, b: Colour) -> CardId {
        cards()
            .iter()
            .find(|c| c.colours().eq([a, b]) && c.glyph.is_none())
            .unwrap()
            .id
    }

    #[test]
    fn bottom_row_floats() {
        let mut p = Pyramid::new();
        assert_eq!(p.open_places().collect::<Vec<_>>(), [Place::new(0, 1)]);
        let x = two_stone(Colour::Red, Colour::Blue);
        let y = two_stone(Colour::Blue, Colour::Red);
        p.place(x, Place::new(0, 1)).unwrap();
        assert_eq!(
            p.open_places().collect::<Vec<_>>(),
            [Place::new(0, 0), Place::new(0, 2)]
        );
        p.place(y, Place::new(0, 0)).unwrap();
        assert_eq!(p.card_at(0, 0), Some(y));
        assert_eq!(p.card_at(0, 1), Some(x));
        // blue(y right) touches blue? y = blue,red ; x = red,blue: y's red touches x's red.
        assert_eq!(p.largest_group(Colour::Red), 2);
        assert_eq!(p.largest_group(Colour::Blue), 1);
        assert_eq!(p.rebuilt(), p);
        assert_eq!(
            p.place(x, Place::new(1, 1)),
            Err(PlaceError::NotOpen(Place::new(1, 1)))
        );
    }

    #[test]
    fn upper_rows_need_adjacency() {
        let mut p = Pyramid::new();
        let id = two_stone(Colour::Red, Colour::Blue);
        for slot in 1..=4 {
            p.place_unchecked(id, Place::new(0, slot));
        }
        assert_eq!(p.current_row(), Some(1));
        assert_eq!(p.open_places().count(), 3);
        p.place(id, Place::new(1, 1)).unwrap();
        assert_eq!(p.open_places().collect::<Vec<_>>(), [Place::new(1, 2)]);
        assert!(!p.is_open(Place::new(1, 3)));
        p.place(id, Place::new(1, 2)).unwrap();
        p.place(id, Place::new(1, 3)).unwrap();
        assert_eq!(
            p.open_places().collect::<Vec<_>>(),
            [Place::new(2, 1), Place::new(2, 2)]
        );
        p.place(id, Place::new(2, 2)).unwrap();
        p.place(id, Place::new(2, 1)).unwrap();
        p.place(id, Place::new(3, 1)).unwrap();
        assert!(p.is_complete());
        assert_eq!(p.open_places().count(), 0);
        assert_eq!(p.place(id, Place::new(3, 1)), Err(PlaceError::Complete));
        assert_eq!(p.rebuilt(), p);
    }

    #[test]
    fn place_text() {
        for s in ["a0", "a4", "b1", "b3", "c2", "d1"] {
            assert_eq!(s.parse::<Place>().unwrap().to_string(), s);
        }
        for s in ["a5", "b0", "b4", "c3", "d2", "e1", "", "a", "ax"] {
            assert!(s.parse::<Place>().is_err(), "{s}");
        }
    }
}
