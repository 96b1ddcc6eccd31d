//! THE Legend, the solo automa ("Become A Legend" / "Become THE Legend").
use crate::dominoes;
use crate::game::{Game, LegendTurn, SPACES};
use crate::gems::Gem;
use crate::options::SoloMode;
use arrayvec::ArrayVec;

impl Game {
    /// One Legend turn, exactly as in RULES.md ("THE Legend's turn").
    pub(crate) fn legend_turn(&mut self) {
        let Some(legend) = self.legend.as_ref() else {
            return;
        };
        let top = *legend
            .pile
            .last()
            .expect("the Legend's pile is never empty");
        // 1. His wishes: the colours of the icons of his top domino (two entries).
        let mut wishes = dominoes::get(top).icon_colours().map(Some);
        let mut turn = LegendTurn::default();
        let mut last_space = None;
        let face_up: ArrayVec<usize, SPACES> = (0..SPACES)
            .filter(|&s| self.piles[s].face_up_top().is_some())
            .collect();
        // 2. Spaces left to right; in each, try both remaining wishes.
        let mut coloured = 0;
        for &s in &face_up {
            for wish in wishes.iter_mut() {
                if let Some(colour) = *wish {
                    let gem = Gem::colour(colour);
                    if self.gem_areas[s].get(gem) > 0 {
                        self.gem_areas[s].remove(gem, 1);
                        turn.gems.add(gem, 1);
                        *wish = None;
                        coloured += 1;
                        last_space = Some(s);
                    }
                }
            }
        }
        // 3. A wish failed: Mythicals from the left, as many as wishes failed.
        let mut wanted = 2 - coloured;
        for &s in &face_up {
            while wanted > 0 && self.gem_areas[s].mythical() > 0 {
                self.gem_areas[s].remove(Gem::Mythical, 1);
                turn.gems.add(Gem::Mythical, 1);
                wanted -= 1;
                last_space = Some(s);
            }
        }
        // 4. The domino of the space of his last gem (or the leftmost, plus a blind draw).
        let space = last_space.or(face_up.first().copied());
        if let Some(s) = space {
            let id = self.take_domino(s);
            if self.piles[s].flippable() {
                self.piles[s].face_up = true;
            }
            turn.space = Some(s as u8);
            turn.domino = Some(id);
            self.legend.as_mut().expect("solo").pile.push(id);
        }
        if last_space.is_none() {
            turn.drew = self.draw_gem();
            if let Some(g) = turn.drew {
                turn.gems.add(g, 1);
            }
        }
        // 5. Empty gem areas are replenished as usual.
        for s in 0..SPACES {
            self.replenish(s);
        }
        let legend = self.legend.as_mut().expect("solo");
        legend.gems.add_all(&turn.gems);
        legend.last_turn = Some(turn);
    }

    /// Stage-end scoring of the Legend: coloured gems are worth the stage number each and are
    /// discarded; Mythicals are worth 2 each and kept.
    pub(crate) fn legend_stage_end(&mut self) {
        let stage = self.stage;
        let Some(legend) = self.legend.as_mut() else {
            return;
        };
        legend.stage_scores[stage as usize] =
            legend_stage_points(stage, legend.gems.coloured(), legend.gems.mythical() as u32)
                as u16;
        for c in 0..5 {
            let gem = Gem::colour(c);
            let n = legend.gems.get(gem);
            legend.gems.remove(gem, n);
            self.discard.add(gem, n);
        }
    }

    /// "Become THE Legend": at the start of a stage, ≥ 7 Mythicals earn him a blind draw.
    pub(crate) fn legend_stage_start(&mut self) {
        let draws = matches!(
            self.legend.as_ref(),
            Some(l) if l.mode == SoloMode::TheLegend && l.gems.mythical() >= 7
        );
        let drew = if draws { self.draw_gem() } else { None };
        if let Some(legend) = self.legend.as_mut() {
            legend.stage_draw = drew;
            if let Some(g) = drew {
                legend.gems.add(g, 1);
            }
        }
    }
}

/// Points of the Legend at the end of stage index `stage` (0 = stage 1).
pub fn legend_stage_points(stage: u8, coloured: u32, mythical: u32) -> u32 {
    coloured * (stage as u32 + 1) + 2 * mythical
}
