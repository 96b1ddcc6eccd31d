//! The Obelisk: cards in the order played, points by the colours it shows.
use super::*;

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
