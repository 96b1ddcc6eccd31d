//! Determinisation for one seat: the cards it cannot see (the deck, the other hands and,
//! before the end, the other tombs) reshuffled among their places, and a fresh generator.
use crate::data::CARD_COUNT;
use crate::state::{Game, Phase};
use pyramidion_core::{GameRng, Seat};

impl Game {
    /// [`pyramidion_core::Rules::determinize`] for `seat`.
    pub(crate) fn determinized(&self, seat: Seat, rng: &mut GameRng) -> Game {
        let mut g = self.clone();
        let me = seat.index();
        let tombs_hidden = self.phase != Phase::Over;
        // The hidden cards as a set of ids, so that the sample depends on what is hidden, not
        // on its true order: card ids are distinct and below 128, and the set lists them in id
        // order in one pass, where sorting them took a sixth of an analysis' time (this runs
        // once per playout).
        const _: () = assert!(CARD_COUNT <= 128);
        let mut hidden = 0u128;
        let mut k = 0;
        let mut take = |cards: &[u8]| {
            for &id in cards {
                hidden |= 1 << id;
            }
            k += cards.len();
        };
        take(&self.deck[self.deck_pos as usize..]);
        for s in (0..self.n as usize).filter(|&s| s != me) {
            take(self.hands[s].as_slice());
            if tombs_hidden {
                take(self.necropolis[s].tomb.cards());
            }
        }
        debug_assert_eq!(hidden.count_ones() as usize, k, "hidden cards are distinct");
        let mut pool = [0u8; CARD_COUNT];
        for slot in &mut pool[..k] {
            *slot = hidden.trailing_zeros() as u8;
            hidden &= hidden - 1;
        }
        rng.shuffle(&mut pool[..k]);
        let mut cards = pool[..k].iter().copied();
        for slot in &mut g.deck[self.deck_pos as usize..] {
            *slot = cards.next().expect("pool covers the deck");
        }
        for s in (0..self.n as usize).filter(|&s| s != me) {
            let hand_len = g.hands[s].len();
            g.hands[s].clear();
            for _ in 0..hand_len {
                g.hands[s].push(cards.next().expect("pool covers the hands"));
            }
            if tombs_hidden {
                let tomb_len = g.necropolis[s].tomb.len();
                g.necropolis[s].tomb.clear();
                for _ in 0..tomb_len {
                    g.necropolis[s]
                        .tomb
                        .push(cards.next().expect("pool covers the tombs"));
                }
            }
        }
        debug_assert!(cards.next().is_none());
        g.rng = rng.fork();
        g
    }
}
