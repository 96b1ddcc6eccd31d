//! Stage end: activations, points, discards, the next stage's first player, final ranking.
use crate::error::IllegalMove;
use crate::gems::{COLOURS, Gem};
use crate::moves::{Move, Payment};
use crate::pick::{locate, pick_index};
use crate::state::{Game, INVENTORY_LIMIT, Phase, STAGES, ScorableArea, ScoredArea, StageScoring};
use pyramidion_core::{Outcome, RankKey, Seat};
use pyramidion_pyramid::select::select_u8;

/// Activatable areas of a pyramid's top view: those showing at least one icon.
pub fn scorable_areas(pyramid: &pyramidion_pyramid::Pyramid) -> StageScoring {
    let mut scoring = StageScoring::default();
    push_scorable_areas(pyramid, &mut scoring);
    scoring
}

/// Fills the activatable areas of `pyramid` into `scoring` (which has none yet), by colour
/// then anchor.
fn push_scorable_areas(pyramid: &pyramidion_pyramid::Pyramid, scoring: &mut StageScoring) {
    let mut counts = [0u8; COLOURS];
    // Bit c: colour c's areas came out of anchor order (areas come by colour, so only an
    // area after one of the same colour can be out of order).
    let mut unsorted = 0u8;
    let mut last = (u8::MAX, 0);
    let areas = &mut scoring.areas;
    let index_by_anchor = &mut scoring.index_by_anchor;
    pyramid
        .top_view()
        .for_each_scoring_area_unordered(|colour, icons, anchor| {
            if last.0 == colour && last.1 > anchor {
                unsorted |= 1 << colour;
            }
            last = (colour, anchor);
            counts[colour as usize] += 1;
            index_by_anchor[anchor as usize >> 5][anchor as usize & 31] = areas.len() as u8;
            areas.push(ScorableArea {
                anchor,
                colour,
                icons,
            });
        });
    // None is activated yet: every area of a colour is open.
    let mut starts = [0; COLOURS];
    for c in 1..COLOURS {
        starts[c] = starts[c - 1] + counts[c - 1];
    }
    while unsorted != 0 {
        let c = unsorted.trailing_zeros() as usize;
        unsorted &= unsorted - 1;
        let first = starts[c] as usize;
        let colour_areas = first..first + counts[c] as usize;
        areas[colour_areas.clone()].sort_unstable_by_key(|a| a.anchor);
        for i in colour_areas {
            let anchor = areas[i].anchor as usize;
            index_by_anchor[anchor >> 5][anchor & 31] = i as u8;
        }
    }
    scoring.colour_starts = starts;
    scoring.open_by_colour = counts;
}

/// Payments that `coloured` gems of an area's colour and `mythical` Mythicals can make: bit i
/// stands for `Payment::ALL[i]` (1c 2m 3c 2c2m 1c4m 6m). Table lookups: this is on the path
/// of every stage-end move.
pub fn affordable_payments(coloured: u8, mythical: u8) -> u8 {
    const BY_COLOURED: [u8; 4] = [0b10_0010, 0b11_0011, 0b11_1011, 0b11_1111];
    const BY_MYTHICAL: [u8; 7] = [
        0b00_0101, 0b00_0101, 0b00_1111, 0b00_1111, 0b01_1111, 0b01_1111, 0b11_1111,
    ];
    BY_COLOURED[coloured.min(3) as usize] & BY_MYTHICAL[mythical.min(6) as usize]
}

/// Points each Mythical gem still held adds to a stage score when the player is done.
pub const POINTS_PER_MYTHICAL_KEPT: u16 = 1;

/// Points an activation earns: 1 per icon, 2 when doubled.
pub fn activation_points(icons: u8, payment: Payment) -> u16 {
    icons as u16 * if payment.doubled() { 2 } else { 1 }
}

impl Game {
    pub(crate) fn begin_stage_end(&mut self) {
        self.current = self.stage_first;
        self.begin_scoring();
    }

    fn begin_scoring(&mut self) {
        // Filled in place rather than moved in: a stage scoring is several hundred bytes.
        let scoring = self.scoring.insert(StageScoring::default());
        push_scorable_areas(&self.players[self.current as usize].pyramid, scoring);
        self.phase = Phase::Activate;
    }

    fn area_index(&self, anchor: u8) -> Option<usize> {
        self.scoring.as_ref()?.area_index(anchor)
    }

    pub(crate) fn check_activate(&self, anchor: u8, payment: Payment) -> Result<(), IllegalMove> {
        self.checked_area_index(anchor, payment).map(|_| ())
    }

    /// [`Game::check_activate`], giving the index of the area in the stage scoring.
    #[inline]
    pub(crate) fn checked_area_index(
        &self,
        anchor: u8,
        payment: Payment,
    ) -> Result<usize, IllegalMove> {
        let scoring = self.scoring.as_ref().expect("scoring phase");
        let i = self.area_index(anchor).ok_or(IllegalMove::UnknownArea)?;
        if scoring.activated >> i & 1 == 1 {
            return Err(IllegalMove::AreaAlreadyActivated);
        }
        let gems = self.players[self.current as usize].gems;
        let (c, m) = payment.cost();
        // `|`, not `||`: one test, which legal moves always pass (a second mispredicted).
        if (gems.get(Gem::colour(scoring.areas[i].colour)) < c) | (gems.mythical() < m) {
            return Err(IllegalMove::InsufficientGems);
        }
        Ok(i)
    }

    pub(crate) fn apply_activate(&mut self, anchor: u8, payment: Payment) {
        let i = self.area_index(anchor).expect("checked area");
        self.apply_activate_at(i, anchor, payment);
    }

    /// [`Game::apply_activate`] of the area at index `i` of the stage scoring (checked).
    #[inline]
    pub(crate) fn apply_activate_at(&mut self, i: usize, anchor: u8, payment: Payment) {
        let scoring = self.scoring.as_mut().expect("scoring phase");
        let area = scoring.areas[i];
        let (c, m) = payment.cost();
        let colour = Gem::colour(area.colour);
        let gems = &mut self.players[self.current as usize].gems;
        gems.remove(colour, c);
        gems.remove(Gem::Mythical, m);
        scoring.spent.add(colour, c);
        scoring.spent.add(Gem::Mythical, m);
        scoring.activated |= 1 << i;
        scoring.open_by_colour[area.colour as usize] -= 1;
        scoring.activations.push((anchor, payment));
        scoring.points += activation_points(area.icons, payment);
    }

    /// The player has placed their gems: score the stage, then discard down to 5 if needed.
    pub(crate) fn apply_done(&mut self) {
        let scoring = self.scoring.as_ref().expect("scoring phase");
        let (points, spent) = (scoring.points, scoring.spent);
        let stage = self.stage as usize;
        let player = &mut self.players[self.current as usize];
        for &(anchor, payment) in &scoring.activations {
            if let Some(area) = scoring.area_index(anchor).map(|i| scoring.areas[i]) {
                player.scored_areas.push(ScoredArea {
                    stage: stage as u8,
                    area,
                    payment,
                });
            }
        }
        self.scoring = None;
        player.stage_scores[stage] =
            points + player.gems.mythical() as u16 * POINTS_PER_MYTHICAL_KEPT;
        self.discard.add_all(&spent);
        if self.must_discard() {
            self.phase = Phase::Discard;
        } else {
            self.next_scorer();
        }
    }

    fn must_discard(&self) -> bool {
        self.stage + 1 < STAGES
            && self.players[self.current as usize].gems.total() > INVENTORY_LIMIT
    }

    #[inline]
    pub(crate) fn check_discard(&self, gem: Gem) -> Result<(), IllegalMove> {
        if self.players[self.current as usize].gems.get(gem) == 0 {
            return Err(IllegalMove::GemNotInInventory);
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn apply_discard(&mut self, gem: Gem) {
        self.players[self.current as usize].gems.remove(gem, 1);
        self.discard.add(gem, 1);
        if !self.must_discard() {
            self.next_scorer();
        }
    }

    /// Players score in the stage's turn order.
    fn next_scorer(&mut self) {
        let n = self.players.len() as u8;
        let done = (self.current + n - self.stage_first) % n + 1;
        if done < n {
            self.current = (self.stage_first + done) % n;
            self.begin_scoring();
        } else {
            self.finish_stage();
        }
    }

    fn finish_stage(&mut self) {
        self.legend_stage_end();
        if self.stage + 1 == STAGES {
            self.phase = Phase::Over;
            return;
        }
        self.stage_first = self.next_first_player();
        self.stage += 1;
        for p in &mut self.players {
            p.pyramid.next_stage();
            p.stage_complete = false;
        }
        self.legend_stage_start();
        self.current = self.stage_first;
        self.phase = Phase::Take;
    }

    /// Lowest stage score starts the next stage; ties go to the tied player who comes first in
    /// the current stage's turn order. In solo the player always starts.
    pub fn next_first_player(&self) -> u8 {
        let n = self.players.len() as u8;
        let stage = self.stage as usize;
        (0..n)
            .map(|k| (self.stage_first + k) % n)
            .min_by_key(|&s| self.players[s as usize].stage_scores[stage])
            .expect("at least one player")
    }

    /// Final result: highest total; ties → most gems left → best single stage → shared.
    /// Solo: the player must beat THE Legend (he wins ties).
    pub fn final_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores: Vec<i32> = self.players.iter().map(|p| p.total() as i32).collect();
        if let Some(legend) = &self.legend {
            // THE Legend wins ties: the player must score strictly more.
            let automa = legend.total() as i32;
            let won = scores[0] > automa;
            return Some(Outcome {
                ranks: vec![u8::from(!won)],
                automa: Some(automa),
                keys: vec![RankKey::new("score", scores.iter().copied())],
                decided_by: vec![(scores[0] == automa).then_some("automa_wins_ties")],
                scores,
            });
        }
        let keys = vec![
            RankKey::new("score", scores.iter().copied()),
            RankKey::new(
                "gems_left",
                self.players.iter().map(|p| p.gems.total() as i32),
            ),
            RankKey::new(
                "best_stage",
                self.players
                    .iter()
                    .map(|p| *p.stage_scores.iter().max().expect("4 stages") as i32),
            ),
        ];
        Some(Outcome::ranked(scores, keys))
    }

    /// Payments the player to move can afford, per area colour (see [`affordable_payments`]).
    fn affordable_by_colour(&self) -> [u8; COLOURS] {
        let gems = self.players[self.current as usize].gems;
        std::array::from_fn(|c| {
            affordable_payments(gems.get(Gem::colour(c as u8)), gems.mythical())
        })
    }

    pub(crate) fn scoring_moves(&self, out: &mut Vec<Move>) {
        match self.phase {
            Phase::Activate => {
                let scoring = self.scoring.as_ref().expect("scoring phase");
                let affordable = self.affordable_by_colour();
                for area in scoring.open_areas() {
                    let mut payments = affordable[area.colour as usize];
                    while payments != 0 {
                        let payment = Payment::ALL[payments.trailing_zeros() as usize];
                        payments &= payments - 1;
                        out.push(Move::Activate {
                            area: area.anchor,
                            payment,
                        });
                    }
                }
                out.push(Move::Done);
            }
            Phase::Discard => {
                for gem in self.players[self.current as usize].gems.kinds() {
                    out.push(Move::Discard(gem));
                }
            }
            _ => {}
        }
    }

    /// The move of [`Game::scoring_moves`] at index `pick(n)`, `n` being how many it lists,
    /// found without listing them (see [`pick_index`]).
    pub(crate) fn pick_scoring_move(&self, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
        match self.phase {
            Phase::Activate => {
                let scoring = self.scoring.as_ref().expect("scoring phase");
                let affordable = self.affordable_by_colour();
                // Every open area of a colour offers the same payments: count per colour.
                let per_area = affordable.map(u8::count_ones);
                let per_colour: [u32; COLOURS] =
                    std::array::from_fn(|c| per_area[c] * scoring.open_by_colour[c] as u32);
                // `done` comes last, as a group of one after the colours.
                let mut groups = [1; COLOURS + 1];
                groups[..COLOURS].copy_from_slice(&per_colour);
                let n = pick_index(groups.iter().sum::<u32>(), pick)?;
                let (c, n) = locate(&groups, n);
                if c == COLOURS {
                    return Some(Move::Done);
                }
                let area = scoring.open_area(c as u8, n / per_area[c]);
                let payment = select_u8(affordable[c], n % per_area[c]) as usize;
                Some(Move::Activate {
                    area: area.anchor,
                    payment: Payment::ALL[payment],
                })
            }
            Phase::Discard => {
                let kinds = self.players[self.current as usize].gems.kinds_mask();
                let n = pick_index(kinds.count_ones(), pick)?;
                Some(Move::Discard(Gem::ALL[select_u8(kinds, n) as usize]))
            }
            _ => None,
        }
    }

    pub(crate) fn seat_to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(Seat(self.current))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affordable_payments_match_costs() {
        for coloured in 0..6 {
            for mythical in 0..10 {
                let direct = Payment::ALL.iter().enumerate().fold(0u8, |mask, (i, p)| {
                    let (c, m) = p.cost();
                    mask | (u8::from(coloured >= c && mythical >= m) << i)
                });
                assert_eq!(
                    affordable_payments(coloured, mythical),
                    direct,
                    "{coloured} {mythical}"
                );
            }
        }
    }
}
