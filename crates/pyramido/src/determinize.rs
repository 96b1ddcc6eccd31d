//! Determinisation: the hidden dominoes (below the pile tops) reshuffled among their places.
use crate::state::{Game, PILE_CAPACITY};
use arrayvec::ArrayVec;
use pyramidion_core::GameRng;

impl Game {
    /// A copy of the game with the hidden dominoes reshuffled ([`pyramidion_core::Rules::determinize`]).
    pub(crate) fn determinized(&self, rng: &mut GameRng) -> Game {
        // Every seat sees the same: all placed dominoes, the quarry, the pile tops and sizes.
        // Hidden are the dominoes below the pile tops; reshuffle them among those places. No
        // chance event follows setup, so the state holds no generator to reseed.
        let mut hidden: ArrayVec<u8, PILE_CAPACITY> = self.hidden().collect();
        // Sorted first, so that the sample depends on what is hidden, not on its true order.
        hidden.sort_unstable();
        rng.shuffle(&mut hidden);
        let mut copy = self.clone();
        let mut next = hidden.into_iter();
        for pile in copy.piles.iter_mut() {
            let below = pile.len().saturating_sub(1);
            for slot in &mut pile[..below] {
                *slot = next.next().expect("as many hidden dominoes as places");
            }
        }
        copy
    }
}
