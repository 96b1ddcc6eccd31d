//! What Pyramids adds to the shared random-simulation harness (`pyramidion-testkit`). Built
//! only with the `testkit` feature, which only this crate's tests enable.
use crate::data::CARD_COUNT;
use crate::moves::{God, MAX_HAND, MAX_PAIRS, Move};
use crate::necropolis::{NONE, Place};
use crate::state::{Game, Phase, ROUNDS};
use pyramidion_core::{GameRng, Rules, Seat};
use pyramidion_testkit::Simulate;

impl Game {
    /// Whether `seat` has placed its Pyramid card this round.
    fn has_built(&self, seat: usize) -> bool {
        match self.phase {
            Phase::ChooseGod => false,
            Phase::Discard | Phase::Over => true,
            Phase::ChoosePair | Phase::BuildPyramid | Phase::BuildMore => {
                let done = &self.order[..self.turn as usize];
                done.contains(&(seat as u8))
                    || (self.phase == Phase::BuildMore
                        && self.order[self.turn as usize] as usize == seat)
            }
        }
    }
}

/// Every card id found under a `"card"` key in a JSON text.
impl Simulate for Game {
    /// Per round at most: 5 god picks, 5 pair picks, 5 × (pyramid, obelisk, tomb, done),
    /// 5 discards.
    const MAX_PLIES: u32 = ROUNDS as u32 * (5 + 5 + 5 * 4 + 5);

    fn check_invariants(&self) -> Result<(), String> {
        let n = self.n as usize;
        // Card conservation: each of the 105 cards in exactly one place.
        let mut seen = [0u8; CARD_COUNT];
        let mut count = |ids: &[u8], place: &str| -> Result<(), String> {
            for &id in ids {
                let slot = seen
                    .get_mut(id as usize)
                    .ok_or_else(|| format!("bad card id {id} in {place}"))?;
                *slot += 1;
            }
            Ok(())
        };
        count(&self.deck[self.deck_pos as usize..], "deck")?;
        for (i, q) in self.quarry[..n].iter().enumerate() {
            let taken = self.pair_owner[i] != NONE;
            if taken != (q[0] == NONE) || taken != (q[1] == NONE) {
                return Err(format!("quarry pair {i} and its owner disagree"));
            }
            if !taken {
                count(q, "quarry")?;
            }
        }
        let discarded: Vec<u8> = self.discarded().collect();
        count(&discarded, "discard")?;
        if self.discard >> CARD_COUNT != 0 {
            return Err("discard holds ids beyond the card set".into());
        }
        for s in 0..n {
            count(self.hands[s].as_slice(), "hand")?;
            let nec = &self.necropolis[s];
            let pyramid: Vec<u8> = nec.pyramid.cards().collect();
            count(&pyramid, "pyramid")?;
            count(nec.obelisk.cards(), "obelisk")?;
            count(nec.tomb.cards(), "tomb")?;
        }
        if let Some(id) = seen.iter().position(|&k| k != 1) {
            return Err(format!("card {id} is in {} places", seen[id]));
        }
        // Deck: one card per seat at setup, one pair per seat per round dealt so far.
        if self.deck_pos as usize != n + 2 * n * (self.round as usize + 1) {
            return Err(format!(
                "deck position {} in round {}",
                self.deck_pos,
                self.round + 1
            ));
        }
        // Gods.
        let owned = self.god_owner.iter().filter(|&&o| o != NONE).count();
        if owned != self.picks as usize {
            return Err("god owners and picks disagree".into());
        }
        if (self.n == 2) != (self.set_aside != NONE) {
            return Err("a god is set aside exactly in 2-player games".into());
        }
        if self.set_aside != NONE && self.god_owner[self.set_aside as usize] != NONE {
            return Err("the set-aside god was taken".into());
        }
        if self.gods_in_game() == 4 && self.god_owner[God::Thoth.index()] != NONE {
            return Err("Thoth taken with fewer than 4 players".into());
        }
        for s in 0..n {
            let g = self.seat_god[s];
            if g != NONE && self.god_owner[g as usize] != s as u8 {
                return Err(format!("seat {s} and god {g} disagree"));
            }
        }
        // Edifices and hands.
        for s in 0..n {
            let nec = &self.necropolis[s];
            let built = self.has_built(s);
            let expected = self.round + built as u8;
            if nec.pyramid.len() != expected {
                return Err(format!(
                    "seat {s} has {} pyramid cards, expected {expected}",
                    nec.pyramid.len()
                ));
            }
            if nec.obelisk.len() > expected as usize || nec.tomb.len() > expected as usize {
                return Err(format!(
                    "seat {s} has more obelisk or tomb cards than rounds"
                ));
            }
            if nec.pyramid.rebuilt() != nec.pyramid {
                return Err(format!("seat {s}: pyramid bit boards out of date"));
            }
            let hand = self.hands[s].len();
            let limit = match self.phase {
                Phase::ChooseGod => 1,
                _ if self.pair_owner[..n].contains(&(s as u8)) => MAX_HAND as usize,
                _ => 1,
            };
            let discarded_already = self.phase == Phase::Discard
                && (s as u8 + self.n - self.first) % self.n < self.cursor;
            let limit = if discarded_already { 1 } else { limit };
            if hand > limit {
                return Err(format!("seat {s} holds {hand} cards (limit {limit})"));
            }
        }
        // Scores within bounds.
        for (s, score) in self.scores().iter().enumerate() {
            let nec = &self.necropolis[s];
            let stones = nec.pyramid.stones() as u8;
            let p = score.pyramid;
            if p.groups.iter().any(|&g| g > stones)
                || p.longest != p.groups.iter().copied().max().unwrap_or(0)
                || (p.bonus != 0 && p.bonus != 10)
                || p.total != p.groups.iter().sum::<u8>() + p.longest + p.bonus
                || p.total > 2 * stones + 10
            {
                return Err(format!("seat {s}: pyramid score {p:?} out of bounds"));
            }
            if score.obelisk > 15 || (score.obelisk == 0) != nec.obelisk.is_empty() {
                return Err(format!("seat {s}: obelisk score {}", score.obelisk));
            }
            if score.tomb > 25 || score.tomb % 5 != 0 || (score.tomb > 0 && nec.tomb.is_empty()) {
                return Err(format!("seat {s}: tomb score {}", score.tomb));
            }
            let edifice_cards = nec.pyramid.len() as usize + nec.obelisk.len() + nec.tomb.len();
            if score.glyphs as usize > 2 * edifice_cards || score.glyphs % 2 != 0 {
                return Err(format!("seat {s}: glyph score {}", score.glyphs));
            }
            let sum =
                p.total as u16 + score.obelisk as u16 + score.tomb as u16 + score.glyphs as u16;
            if score.total != sum {
                return Err(format!("seat {s}: total {} is not {sum}", score.total));
            }
        }
        if self.phase == Phase::Over && self.round + 1 != ROUNDS {
            return Err("game over before the last round".into());
        }
        Ok(())
    }

    fn check_view(&self, seat: Option<Seat>) -> Result<(), String> {
        // Walks the view's structs: no serialisation, and the view types have no field for
        // the deck's order, the seed or the RNG, so only cards can leak.
        let mut shown: Vec<u64> = self
            .view(seat)
            .card_ids()
            .into_iter()
            .map(u64::from)
            .collect();
        shown.sort_unstable();
        let visible: Vec<u64> = self
            .visible_cards(seat)
            .into_iter()
            .map(u64::from)
            .collect();
        if shown != visible {
            let hidden: Vec<u64> = shown
                .iter()
                .copied()
                .filter(|c| !visible.contains(c))
                .collect();
            return Err(format!(
                "view for {seat:?} shows cards {shown:?}, expected {visible:?} (hidden ones shown: {hidden:?})"
            ));
        }
        Ok(())
    }

    fn probe_moves(&self, rng: &mut GameRng, out: &mut Vec<Move>) {
        out.clear();
        out.extend(God::ALL.map(Move::God));
        out.extend((0..MAX_PAIRS).map(Move::Pair));
        for h in 0..MAX_HAND {
            out.push(Move::Obelisk(h));
            out.push(Move::Tomb(h));
            out.push(Move::Discard(h));
        }
        out.push(Move::Done);
        for _ in 0..6 {
            let row = rng.below(4) as u8;
            let slot = if row == 0 {
                rng.below(5) as u8
            } else {
                1 + rng.below(4 - row as u32) as u8
            };
            out.push(Move::Pyramid(
                rng.below(MAX_HAND as u32) as u8,
                Place::new(row, slot),
            ));
        }
    }
}
