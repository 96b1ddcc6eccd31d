//! The Pyramid: its geometry, building order and scoring.
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
use super::*;
use std::fmt;

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
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct PyramidScore {
    /// Largest connected group per colour (blue, white, red, green, yellow), in stones; it
    /// travels keyed by colour name.
    #[serde(with = "crate::data::per_colour")]
    #[ts(type = "Record<Colour, number>")]
    pub groups: [u8; 5],
    /// The single longest group, scored again.
    pub longest: u8,
    /// 10 when every colour's group has at least 3 stones.
    pub bonus: u8,
    pub total: u8,
}
