//! What Pyramido adds to the shared simulation harness.
use crate::data::{CARDS, COLOURS, DOMINO_COUNT, card_of};
use crate::moves::{Move, Side};
use crate::state::{
    Game, MAX_DOMINOES_PER_PLAYER, PILES, Phase, QUARRY_SLOTS, STAGE_BLOCKS, Status,
};
use pyramidion_core::{GameRng, Rules, Seat};
use pyramidion_pyramid::{Dir, Placement};
use pyramidion_testkit::Simulate;

/// Turns per player (10 + 6 + 3 + 1), each at most take, place, mark, resurface, refill,
/// plus one cover per resurfacing card.
pub const MAX_PLIES: u32 = 4 * (MAX_DOMINOES_PER_PLAYER as u32 * 5 + CARDS as u32);

impl Simulate for Game {
    const MAX_PLIES: u32 = MAX_PLIES;

    fn check_invariants(&self) -> Result<(), String> {
        // Every domino exactly once: quarry, piles, hand, pyramids.
        let mut seen = 0u128;
        let mut count = 0;
        let mut add = |d: u8, place: &str| -> Result<(), String> {
            if d as usize >= DOMINO_COUNT || seen >> d & 1 == 1 {
                return Err(format!("domino {d} twice or unknown ({place})"));
            }
            seen |= 1 << d;
            count += 1;
            Ok(())
        };
        for d in self.quarry().iter().flatten() {
            add(*d, "quarry")?;
        }
        for p in 0..PILES {
            for d in self.pile_contents(p) {
                add(*d, "pile")?;
            }
        }
        if let Some(d) = self.held() {
            add(d, "hand")?;
        }
        for p in self.players() {
            for &d in p.dominoes() {
                add(d, "pyramid")?;
            }
        }
        if count != DOMINO_COUNT {
            return Err(format!("{count} dominoes instead of 90"));
        }
        // At least 7 dominoes stay in the piles (90 − 3 in the quarry − 20 × 4 placed), and an
        // emptied pile takes the bottom half of the largest: no pile is ever empty.
        if let Some(p) = (0..PILES).find(|&p| self.pile_size(p) == 0) {
            return Err(format!("pile {} is empty", p + 1));
        }
        // The quarry has a hole only for the slot being refilled (or when both piles next to it
        // are empty).
        for (slot, d) in self.quarry().iter().enumerate() {
            let refilling = self.empty_slot() == Some(slot as u8);
            if d.is_none()
                && !refilling
                && (self.pile_size(slot) > 0 || self.pile_size(slot + 1) > 0)
            {
                return Err(format!("quarry slot {} empty", slot + 1));
            }
            if d.is_some() && refilling {
                return Err(format!("quarry slot {} taken but full", slot + 1));
            }
        }
        let alive = self
            .players()
            .iter()
            .filter(|p| p.status() != Status::Eliminated)
            .count();
        if alive == 0 || (alive == 1 && self.phase() != Phase::Over) {
            return Err(format!("{alive} players alive and the game goes on"));
        }
        if self.phase() != Phase::Over && self.player(self.current()).status() != Status::Building {
            return Err(format!("{} to move but not building", self.current()));
        }
        for (seat, p) in self.players().iter().enumerate() {
            let what = |e: String| format!("seat {seat}: {e}");
            let blocks = p.pyramid().blocks();
            let cards_used = p.cards().iter().flatten().count();
            // Blocks: two per domino plus one per hole card.
            let singles = blocks.len() as isize - 2 * p.dominoes().len() as isize;
            if singles < 0 || singles as usize > cards_used {
                return Err(what(format!(
                    "{} blocks for {} dominoes",
                    blocks.len(),
                    p.dominoes().len()
                )));
            }
            // Cards: each used card lies on a block of one of its colours with one jewel.
            for (k, c) in p.cards().iter().enumerate() {
                if let Some(i) = c {
                    let b = blocks
                        .get(*i as usize)
                        .ok_or_else(|| what("card on no block".into()))?;
                    if card_of(b.block.colour) != k || b.block.icons.count_ones() != 1 {
                        return Err(what(format!("card {k} is not a card block")));
                    }
                }
            }
            // Markers: on a jewel block of their colour on the current stage.
            let stage = p.pyramid().stage();
            for (c, m) in p.markers().iter().enumerate() {
                if let Some(i) = m {
                    let b = blocks
                        .get(*i as usize)
                        .ok_or_else(|| what("marker on no block".into()))?;
                    if b.block.colour as usize != c || b.block.icons == 0 || b.stage != stage {
                        return Err(what(format!("marker {c} on a wrong block")));
                    }
                }
            }
            if p.status() != Status::Eliminated && self.phase() != Phase::Over {
                let on_stage = blocks.iter().filter(|b| b.stage == stage).count();
                let cap = STAGE_BLOCKS[stage as usize] as usize;
                // A stage fills up during its last turn, which ends after the refill.
                let mid_turn = seat == self.current().index()
                    && matches!(self.phase(), Phase::Mark | Phase::Resurface | Phase::Refill);
                let full = on_stage == cap;
                if on_stage > cap
                    || (p.status() == Status::Done && !full)
                    || (p.status() == Status::Building && full && !mid_turn)
                {
                    return Err(what(format!(
                        "{on_stage} blocks on stage {} ({:?})",
                        stage + 1,
                        p.status()
                    )));
                }
                if stage != self.stage() {
                    return Err(what("pyramid on another stage".into()));
                }
            }
            // Scores: one per completed stage, each the marked areas plus the smallest again,
            // never more than twice the jewels in the pyramid.
            let jewels: u32 = blocks.iter().map(|b| b.block.icons.count_ones()).sum();
            let mut sum = 0;
            for s in p.scores() {
                let areas: u16 = s.areas.iter().map(|a| a.jewels as u16).sum();
                let min = s.areas.iter().map(|a| a.jewels).min().unwrap_or(0);
                if s.mino != min || s.total != areas + min as u16 || s.total as u32 > 2 * jewels {
                    return Err(what(format!("bad stage score {s:?}")));
                }
                if s.areas.len() > COLOURS {
                    return Err(what("more marked areas than markers".into()));
                }
                sum += s.total;
            }
            if sum != p.total() {
                return Err(what("total is not the sum of the stages".into()));
            }
            let completed = if self.phase() == Phase::Over && alive > 1 {
                4
            } else {
                self.stage() as usize
            };
            if p.status() != Status::Eliminated && p.scores().len() != completed {
                return Err(what(format!(
                    "{} stage scores after {completed} stages",
                    p.scores().len()
                )));
            }
        }
        Ok(())
    }

    fn check_view(&self, seat: Option<Seat>) -> Result<(), String> {
        let view = self.view(seat);
        let mut hidden = 0u128;
        for d in self.hidden() {
            hidden |= 1 << d;
        }
        for id in view.domino_ids() {
            if hidden >> id & 1 == 1 {
                return Err(format!("view of {seat:?} shows hidden domino {id}"));
            }
        }
        for (p, pile) in view.piles.iter().enumerate() {
            if pile.size != self.pile_size(p) || pile.top.as_ref().map(|d| d.id) != self.pile_top(p)
            {
                return Err(format!("pile {} misreported", p + 1));
            }
        }
        // The view types have no field for the seed or the RNG: only dominoes can leak.
        Ok(())
    }

    fn probe_moves(&self, rng: &mut GameRng, out: &mut Vec<Move>) {
        out.clear();
        let side = |r: &mut GameRng| if r.below(2) == 0 { Side::A } else { Side::B };
        for slot in 0..=QUARRY_SLOTS as u8 {
            out.push(Move::Take(slot));
        }
        for pile in 0..=PILES as u8 {
            out.push(Move::Refill(pile));
        }
        out.extend([Move::Pass, Move::Mark(Side::A), Move::Mark(Side::B)]);
        for _ in 0..8 {
            out.push(Move::Place(Placement::new(
                rng.below(10) as u8,
                rng.below(10) as u8,
                Dir::ALL[rng.below(4) as usize],
            )));
            out.push(Move::Resurface {
                side: side(rng),
                colour: rng.below(COLOURS as u32 + 1) as u8,
                quadrant: rng.below(5) as u8,
            });
            out.push(Move::Cover {
                x: rng.below(9) as u8,
                y: rng.below(9) as u8,
                colour: rng.below(COLOURS as u32 + 1) as u8,
                quadrant: rng.below(5) as u8,
            });
        }
        if let Some(&(x, y)) = self.holes().first() {
            for colour in 0..COLOURS as u8 {
                out.push(Move::Cover {
                    x,
                    y,
                    colour,
                    quadrant: rng.below(4) as u8,
                });
            }
        }
    }
}
