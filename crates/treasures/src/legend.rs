//! THE Legend, the solo automa ("Become A Legend" / "Become THE Legend").
use crate::data;
use crate::gems::{Gem, Gems};
use crate::options::SoloMode;
use crate::state::{Game, LegendTurn, SPACES};

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
        let face_up = self.face_up_spaces();
        let wishes = data::get(top).icon_colours();
        let pick = legend_pick(wishes, &self.gem_areas, face_up);
        let mut turn = LegendTurn {
            ply: self.ply,
            wishes,
            collected: pick.collected(),
            ..LegendTurn::default()
        };
        for (area, taken) in self.gem_areas.iter_mut().zip(&pick.taken) {
            for gem in taken.kinds() {
                area.remove(gem, taken.get(gem));
            }
            turn.gems.add_all(taken);
        }
        let last_space = pick.last_space;
        // 4. The domino of the space of his last gem (or the leftmost, plus a blind draw).
        let leftmost = (face_up != 0).then(|| face_up.trailing_zeros() as usize);
        let space = last_space.or(leftmost);
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
        legend.turns.push(turn);
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
        legend.scored_gems[stage as usize] = [legend.gems.coloured() as u8, legend.gems.mythical()];
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

/// The gems THE Legend collects on a turn, before he takes a domino.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LegendPick {
    /// Gems taken from each space's gem area.
    pub taken: [Gems; SPACES],
    /// The space of his last gem, whose domino he then takes (`None`: he found no gem).
    pub last_space: Option<usize>,
}

impl LegendPick {
    /// The gems of the pick in the order he collects them, each with its space: his wishes
    /// (coloured gems) from the left, then the Mythicals from the left. He collects two at
    /// most.
    pub fn collected(&self) -> [Option<(Gem, u8)>; 2] {
        let mut out = [None; 2];
        let coloured = self.taken.iter().enumerate().flat_map(|(s, g)| {
            (0..5u8).flat_map(move |c| {
                std::iter::repeat_n((Gem::colour(c), s as u8), g.get(Gem::colour(c)) as usize)
            })
        });
        let mythical = self.taken.iter().enumerate().flat_map(|(s, g)| {
            std::iter::repeat_n((Gem::Mythical, s as u8), g.mythical() as usize)
        });
        for (slot, gem) in out.iter_mut().zip(coloured.chain(mythical)) {
            *slot = Some(gem);
        }
        out
    }
}

/// Steps 1 to 3 of THE Legend's turn (RULES.md): which gems he collects from `areas`, seeing
/// only the spaces of `face_up` (bit per space), wishing for the colours `wishes` (the icons
/// of his top domino). A pure function of public information, so that a player (or a bot)
/// can foresee his turn exactly as the rules play it.
pub fn legend_pick(wishes: [u8; 2], areas: &[Gems; SPACES], face_up: u8) -> LegendPick {
    let mut left = *areas;
    let mut pick = LegendPick::default();
    let mut wishes = wishes.map(Some);
    let spaces = || (0..SPACES).filter(|&s| face_up & (1 << s) != 0);
    // 2. Spaces left to right; in each, try both remaining wishes.
    let mut coloured = 0;
    for s in spaces() {
        for wish in wishes.iter_mut() {
            if let Some(colour) = *wish {
                let gem = Gem::colour(colour);
                if left[s].get(gem) > 0 {
                    left[s].remove(gem, 1);
                    pick.taken[s].add(gem, 1);
                    *wish = None;
                    coloured += 1;
                    pick.last_space = Some(s);
                }
            }
        }
    }
    // 3. A wish failed: Mythicals from the left, as many as wishes failed.
    let mut wanted = 2 - coloured;
    for s in spaces() {
        while wanted > 0 && left[s].mythical() > 0 {
            left[s].remove(Gem::Mythical, 1);
            pick.taken[s].add(Gem::Mythical, 1);
            wanted -= 1;
            pick.last_space = Some(s);
        }
    }
    pick
}

/// Points of the Legend at the end of stage index `stage` (0 = stage 1).
pub fn legend_stage_points(stage: u8, coloured: u32, mythical: u32) -> u32 {
    coloured * (stage as u32 + 1) + 2 * mythical
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gems::Gems;
    use crate::options::Options;

    const O: u8 = 0;
    const B: u8 = 1;
    const R: u8 = 4;

    fn gems(list: &[(Gem, u8)]) -> Gems {
        let mut g = Gems::default();
        for &(gem, n) in list {
            g.add(gem, n);
        }
        g
    }

    /// A solo game whose Legend wishes for `wishes`, with the given gem areas; spaces 1, 3, 5
    /// face up as at setup.
    fn position(mode: SoloMode, wishes: [u8; 2], areas: [Gems; SPACES]) -> Game {
        let mut g = Game::setup(&Options::solo(mode), 7).unwrap();
        let id = (0..90u8)
            .find(|&id| {
                let mut w = data::get(id).icon_colours();
                let mut want = wishes;
                w.sort();
                want.sort();
                w == want
            })
            .expect("a domino with those icon colours");
        // Swap that domino into the Legend's pile top, wherever it is.
        let top = g.legend.as_ref().unwrap().pile[0];
        for pile in g.piles.iter_mut() {
            for d in pile.dominoes.iter_mut() {
                if *d == id {
                    *d = top;
                }
            }
        }
        g.legend.as_mut().unwrap().pile[0] = id;
        // Put the replenishing gems back so the areas are exactly as given.
        for a in &g.gem_areas {
            g.bag.add_all(a);
        }
        for a in &areas {
            for gem in Gem::ALL {
                g.bag.remove(gem, a.get(gem));
            }
        }
        g.gem_areas = areas;
        g
    }

    fn face_up_count(g: &Game) -> usize {
        g.piles.iter().filter(|p| p.face_up_top().is_some()).count()
    }

    #[test]
    fn takes_both_wishes_from_different_spaces_and_the_domino_of_the_last() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Orange, 1), (Gem::Green, 2)]);
        areas[2] = gems(&[(Gem::Blue, 1), (Gem::Mythical, 2)]);
        areas[4] = gems(&[(Gem::Orange, 3)]);
        let mut g = position(SoloMode::ALegend, [O, B], areas);
        let space3_top = g.piles[2].top().unwrap();
        g.legend_turn();
        let turn = g.legend.as_ref().unwrap().last_turn().unwrap();
        assert_eq!(turn.gems, gems(&[(Gem::Orange, 1), (Gem::Blue, 1)]));
        assert_eq!(turn.space, Some(2), "blue was his last gem, from space 3");
        assert_eq!(turn.domino, Some(space3_top));
        assert_eq!(*g.legend.as_ref().unwrap().pile.last().unwrap(), space3_top);
        assert_eq!(
            face_up_count(&g),
            3,
            "he flips the next domino of that space"
        );
        assert_eq!(g.gem_areas[2], gems(&[(Gem::Mythical, 2)]));
        assert_eq!(
            g.gem_areas[4],
            gems(&[(Gem::Orange, 3)]),
            "space 5 untouched"
        );
        assert_eq!(g.gem_areas[0].total(), 2);
    }

    #[test]
    fn his_pick_sees_only_face_up_spaces() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 1)]);
        areas[1] = gems(&[(Gem::Blue, 2), (Gem::Mythical, 1)]);
        areas[3] = gems(&[(Gem::Mythical, 1)]);
        let setup = 0b10101;
        let pick = legend_pick([B, B], &areas, setup);
        assert_eq!(
            pick,
            LegendPick::default(),
            "nothing he wants where he looks"
        );
        let pick = legend_pick([B, B], &areas, setup | 1 << 1);
        assert_eq!(pick.taken[1], gems(&[(Gem::Blue, 2)]));
        assert_eq!(pick.last_space, Some(1));
        let pick = legend_pick([B, R], &areas, setup | 1 << 3);
        assert_eq!(
            pick.taken[3],
            gems(&[(Gem::Mythical, 1)]),
            "two failed wishes"
        );
        assert_eq!(pick.taken.iter().map(Gems::total).sum::<u32>(), 1);
        assert_eq!(pick.last_space, Some(3));
    }

    #[test]
    fn takes_two_identical_wishes_in_one_space() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Blue, 1), (Gem::Mythical, 2)]);
        areas[2] = gems(&[(Gem::Red, 2), (Gem::Blue, 1)]);
        areas[4] = gems(&[(Gem::Red, 3)]);
        let mut g = position(SoloMode::ALegend, [R, R], areas);
        g.legend_turn();
        let turn = g.legend.as_ref().unwrap().last_turn().unwrap();
        assert_eq!(turn.gems, gems(&[(Gem::Red, 2)]));
        assert_eq!(turn.space, Some(2));
        assert_eq!(g.gem_areas[2], gems(&[(Gem::Blue, 1)]));
    }

    #[test]
    fn one_failed_wish_brings_one_mythical_from_the_left() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 1), (Gem::Mythical, 2)]);
        areas[2] = gems(&[(Gem::Mythical, 3)]);
        areas[4] = gems(&[(Gem::Blue, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        let space1_top = g.piles[0].top().unwrap();
        g.legend_turn();
        let turn = g.legend.as_ref().unwrap().last_turn().unwrap();
        assert_eq!(turn.gems, gems(&[(Gem::Blue, 1), (Gem::Mythical, 1)]));
        assert_eq!(
            turn.space,
            Some(0),
            "the Mythical (space 1) was his last gem"
        );
        assert_eq!(turn.domino, Some(space1_top));
        assert_eq!(g.gem_areas[0], gems(&[(Gem::Green, 1), (Gem::Mythical, 1)]));
    }

    #[test]
    fn no_coloured_gem_brings_two_mythicals_even_from_one_space() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 3)]);
        areas[2] = gems(&[(Gem::Mythical, 2), (Gem::Purple, 1)]);
        areas[4] = gems(&[(Gem::Mythical, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        g.legend_turn();
        let turn = g.legend.as_ref().unwrap().last_turn().unwrap();
        assert_eq!(turn.gems, gems(&[(Gem::Mythical, 2)]));
        assert_eq!(turn.space, Some(2));
        assert_eq!(g.gem_areas[4], gems(&[(Gem::Mythical, 3)]));
    }

    #[test]
    fn finding_nothing_takes_the_leftmost_domino_and_a_blind_gem() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 3)]);
        areas[2] = gems(&[(Gem::Purple, 3)]);
        areas[4] = gems(&[(Gem::Green, 3)]);
        // Face-down spaces keep full gem areas (nothing to replenish there).
        areas[1] = gems(&[(Gem::Blue, 3)]);
        areas[3] = gems(&[(Gem::Red, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        let space1_top = g.piles[0].top().unwrap();
        let bag_before = g.bag.total();
        g.legend_turn();
        let turn = g.legend.as_ref().unwrap().last_turn().unwrap();
        assert_eq!(turn.domino, Some(space1_top));
        assert!(turn.drew.is_some());
        assert_eq!(turn.gems.total(), 1);
        assert_eq!(g.bag.total(), bag_before - 1);
        assert_eq!(face_up_count(&g), 3);
    }

    #[test]
    fn emptied_gem_areas_are_replenished_after_his_turn() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Blue, 1)]);
        areas[2] = gems(&[(Gem::Red, 1), (Gem::Green, 2)]);
        areas[4] = gems(&[(Gem::Green, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        g.legend_turn();
        assert_eq!(
            g.gem_areas[0].total(),
            3,
            "space 1 emptied and refilled with 3"
        );
        assert_eq!(g.gem_areas[2], gems(&[(Gem::Green, 2)]));
    }

    #[test]
    fn the_legend_mode_draws_at_stage_start_with_seven_mythicals() {
        for (mode, mythicals, draws) in [
            (SoloMode::TheLegend, 7, true),
            (SoloMode::TheLegend, 6, false),
            (SoloMode::ALegend, 9, false),
        ] {
            let mut g = Game::setup(&Options::solo(mode), 3).unwrap();
            g.bag.remove(Gem::Mythical, mythicals);
            g.legend.as_mut().unwrap().gems = gems(&[(Gem::Mythical, mythicals)]);
            g.legend_stage_start();
            let l = g.legend.as_ref().unwrap();
            assert_eq!(l.stage_draw.is_some(), draws, "{mode:?} {mythicals}");
            assert_eq!(l.gems.total(), mythicals as u32 + u32::from(draws));
        }
    }

    /// His last turn as the view tells it (a spectator's view: it is public).
    fn told(g: &Game) -> crate::view::LegendTurnView {
        let view = crate::View::of(g, None);
        view.legend
            .unwrap()
            .turns
            .last()
            .cloned()
            .expect("he played")
    }

    fn gem_reasons(turn: &crate::view::LegendTurnView) -> Vec<(Gem, u8, LegendGemReason)> {
        turn.gems
            .iter()
            .map(|g| (g.gem, g.space, g.reason))
            .collect()
    }

    use crate::gems::Colour;
    use crate::view::{LegendDominoReason, LegendGemReason};

    #[test]
    fn the_view_says_both_wishes_were_found_and_the_domino_is_the_last_gems_space() {
        // Rulebook step 1: both colours found, from the left; step 3: the domino of the space
        // of his last gem.
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Orange, 1), (Gem::Green, 2)]);
        areas[2] = gems(&[(Gem::Blue, 1), (Gem::Mythical, 2)]);
        areas[4] = gems(&[(Gem::Orange, 3)]);
        let mut g = position(SoloMode::ALegend, [O, B], areas);
        g.ply = 11;
        g.legend_turn();
        let turn = told(&g);
        assert_eq!(
            turn.ply, 11,
            "his turn follows the player's move of that ply"
        );
        assert_eq!(
            gem_reasons(&turn),
            vec![
                (Gem::Orange, 0, LegendGemReason::Wish),
                (Gem::Blue, 2, LegendGemReason::Wish)
            ]
        );
        assert!(turn.missed.is_empty());
        assert_eq!(turn.space, Some(2));
        assert_eq!(turn.domino_reason, Some(LegendDominoReason::SpaceOfLastGem));
        assert_eq!(turn.drew, None);
        let mut wishes = turn.wishes;
        wishes.sort();
        assert_eq!(wishes, [Colour::Orange, Colour::Blue]);
    }

    #[test]
    fn the_view_says_two_identical_wishes_came_from_one_space() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Blue, 1), (Gem::Mythical, 2)]);
        areas[2] = gems(&[(Gem::Red, 2), (Gem::Blue, 1)]);
        areas[4] = gems(&[(Gem::Red, 3)]);
        let mut g = position(SoloMode::ALegend, [R, R], areas);
        g.legend_turn();
        let turn = told(&g);
        assert_eq!(
            gem_reasons(&turn),
            vec![
                (Gem::Red, 2, LegendGemReason::Wish),
                (Gem::Red, 2, LegendGemReason::Wish)
            ]
        );
        assert!(turn.missed.is_empty());
    }

    #[test]
    fn the_view_says_a_mythical_replaced_the_missed_wish() {
        // Step 2: one colour found nowhere, so one Mythical from the leftmost face-up space;
        // it is his last gem, so its space gives the domino.
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 1), (Gem::Mythical, 2)]);
        areas[2] = gems(&[(Gem::Mythical, 3)]);
        areas[4] = gems(&[(Gem::Blue, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        g.legend_turn();
        let turn = told(&g);
        assert_eq!(
            gem_reasons(&turn),
            vec![
                (Gem::Blue, 4, LegendGemReason::Wish),
                (Gem::Mythical, 0, LegendGemReason::MythicalForMissedWish)
            ]
        );
        assert_eq!(turn.missed, vec![Colour::Red]);
        assert_eq!(turn.space, Some(0));
        assert_eq!(turn.domino_reason, Some(LegendDominoReason::SpaceOfLastGem));
    }

    #[test]
    fn the_view_says_two_mythicals_replaced_two_missed_wishes() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 3)]);
        areas[2] = gems(&[(Gem::Mythical, 2), (Gem::Purple, 1)]);
        areas[4] = gems(&[(Gem::Mythical, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        g.legend_turn();
        let turn = told(&g);
        assert_eq!(
            gem_reasons(&turn),
            vec![
                (Gem::Mythical, 2, LegendGemReason::MythicalForMissedWish),
                (Gem::Mythical, 2, LegendGemReason::MythicalForMissedWish)
            ]
        );
        let mut missed = turn.missed.clone();
        missed.sort();
        assert_eq!(missed, vec![Colour::Blue, Colour::Red]);
    }

    #[test]
    fn the_view_says_he_found_nothing_took_the_leftmost_domino_and_drew() {
        let mut areas = [Gems::default(); SPACES];
        areas[0] = gems(&[(Gem::Green, 3)]);
        areas[2] = gems(&[(Gem::Purple, 3)]);
        areas[4] = gems(&[(Gem::Green, 3)]);
        areas[1] = gems(&[(Gem::Blue, 3)]);
        areas[3] = gems(&[(Gem::Red, 3)]);
        let mut g = position(SoloMode::ALegend, [B, R], areas);
        g.legend_turn();
        let turn = told(&g);
        assert!(turn.gems.is_empty());
        assert_eq!(turn.missed.len(), 2);
        assert_eq!(turn.space, Some(0));
        assert_eq!(
            turn.domino_reason,
            Some(LegendDominoReason::LeftmostFoundNoGem)
        );
        assert!(turn.drew.is_some());
    }

    #[test]
    fn every_turn_of_his_stays_in_the_view_and_replays_identically() {
        use pyramidion_core::Rules;
        let options = Options::solo(SoloMode::ALegend);
        let mut g = Game::new(&options, 5).unwrap();
        let mut replay = Game::new(&options, 5).unwrap();
        let mut placements = Vec::new();
        let mut legal = Vec::new();
        // Stage 1 and a bit: ten placements complete a 5x4 stage, the last one without him.
        while placements.len() < 12 {
            g.legal_moves(&mut legal);
            let m = legal[legal.len() / 2];
            if matches!(m, crate::Move::Place(_)) {
                let completes = {
                    let mut next = g.clone();
                    next.play(&m).unwrap();
                    next.players[0].stage_complete || next.stage != g.stage
                };
                placements.push((g.ply, completes));
            }
            g.play(&m).unwrap();
            replay.play(&m).unwrap();
        }
        let turns = crate::View::of(&g, None).legend.unwrap().turns;
        let expected: Vec<u32> = placements
            .iter()
            .filter(|(_, completes)| !completes)
            .map(|(ply, _)| *ply)
            .collect();
        assert_eq!(turns.iter().map(|t| t.ply).collect::<Vec<_>>(), expected);
        assert!(turns.len() >= 10, "{} turns", turns.len());
        for t in &turns {
            assert!(t.domino_reason.is_some(), "he always takes a domino here");
            // Each wish is either answered by a coloured gem or missed; only a missed wish
            // brings a Mythical.
            let mythicals = t.gems.iter().filter(|g| g.gem == Gem::Mythical).count();
            assert_eq!(t.gems.len() - mythicals + t.missed.len(), 2, "{t:?}");
            assert!(mythicals <= t.missed.len(), "{t:?}");
        }
        assert_eq!(
            crate::View::of(&replay, Some(pyramidion_core::Seat(0))),
            crate::View::of(&g, Some(pyramidion_core::Seat(0)))
        );
    }
}
