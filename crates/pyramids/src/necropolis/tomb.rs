//! The Tomb: a face-down pile, its stones counted per colour.
use super::*;

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
