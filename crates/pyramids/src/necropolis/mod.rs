//! A player's necropolis (Pyramid, Obelisk, Tomb) and its scoring: one file per edifice,
//! and here what they share (the constants, the card piles) and the scores of all of them.

mod obelisk;
mod pyramid;
mod tomb;

pub use obelisk::Obelisk;
pub use pyramid::{Place, PlaceError, Pyramid, PyramidScore};
pub use tomb::Tomb;

use crate::data::{CARD_WIDTH, CardId, Colour, Glyph, card};
use serde::{Deserialize, Serialize};

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

/// One player's three edifices.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Necropolis {
    pub pyramid: Pyramid,
    pub obelisk: Obelisk,
    pub tomb: Tomb,
}

/// A player's points, edifice by edifice.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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
        *t = n.tomb.stones();
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
