//! What each legal placement of one decision would score if the stage ended right after it:
//! greedy's value of a placement, computed near the placement only.
//!
//! Greedy weighs every placement of every domino it may take, in every move of the search's
//! playouts; scoring each placement's whole top view (every area flooded, every colour's
//! knapsack) was two thirds of a search (docs/bots.md, "Where a decision's time goes"). A
//! domino changes only the areas it covers or lies next to, so the areas of the view before
//! it and each colour's knapsack table are found once per decision, and each placement
//! floods and tables again only what it changed. The values are those of scoring the whole
//! view (the test below compares them over thousands of decisions), so greedy chooses the
//! same moves.
use crate::allocation::{ColourValues, best_points, best_points_of};
use crate::gems::{COLOURS, Gem, Gems};
use crate::state::ScorableArea;
use arrayvec::ArrayVec;
use pyramidion_pyramid::scoring_areas::ScoringAreas;
use pyramidion_pyramid::topview::MAX_AREAS;
use pyramidion_pyramid::{Block, Placement, Pyramid, TopView};

/// The placements of one pyramid, ready to be valued for any domino and inventories.
pub(crate) struct PlacementValues<'a> {
    pyramid: &'a Pyramid,
    /// Its top view, moved and added to for each placement before stage 1's frame is forced
    /// ([`Pyramid::top_view_after_on`]).
    view: TopView,
    /// `None` on an empty pyramid, whose placements' views are scored whole.
    before: Option<Before>,
}

/// The view before the placement: its areas and each colour's table.
struct Before {
    areas: ScoringAreas,
    tables: [ColourValues; COLOURS],
}

/// The most units any inventory of `inventories` can spend on each colour.
fn units_needed(inventories: &[Gems]) -> [usize; COLOURS] {
    std::array::from_fn(|c| {
        inventories
            .iter()
            .map(|g| ColourValues::units_for(g.get(Gem::colour(c as u8)), g.mythical() / 2))
            .max()
            .unwrap_or(0)
    })
}

impl<'a> PlacementValues<'a> {
    /// The placements of `pyramid`, to be valued with any domino and inventories.
    pub(crate) fn new(pyramid: &'a Pyramid) -> PlacementValues<'a> {
        let view = pyramid.top_view();
        let before = (pyramid.stage() > 0 || !pyramid.canvas().is_empty()).then(|| {
            let areas = ScoringAreas::new(&view);
            let mut all: ArrayVec<ScorableArea, MAX_AREAS> = ArrayVec::new();
            view.for_each_scoring_area_unordered(|colour, icons, anchor| {
                all.push(ScorableArea {
                    anchor,
                    colour,
                    icons,
                })
            });
            // Full tables, once per decision: a colour that a placement leaves alone uses its
            // table with every inventory.
            let tables = std::array::from_fn(|c| {
                let icons = all.iter().filter(|a| a.colour == c as u8).map(|a| a.icons);
                ColourValues::new(icons, usize::MAX)
            });
            Before { areas, tables }
        });
        PlacementValues {
            pyramid,
            view,
            before,
        }
    }

    /// The stage points of the view with `domino` at `p` (legal), for each inventory of
    /// `inventories`, into `out` (as long).
    pub(crate) fn values(
        &self,
        p: &Placement,
        domino: [Block; 2],
        inventories: &[Gems],
        out: &mut [u32],
    ) {
        let view = self.pyramid.top_view_after_on(&self.view, p, domino);
        let mut areas: ArrayVec<ScorableArea, MAX_AREAS> = ArrayVec::new();
        let push = |areas: &mut ArrayVec<ScorableArea, MAX_AREAS>, colour, icons, anchor| {
            areas.push(ScorableArea {
                anchor,
                colour,
                icons,
            })
        };
        let (Some(before), Some((blocks, shift))) = (&self.before, self.pyramid.placement_shift(p))
        else {
            view.for_each_scoring_area_unordered(|c, i, a| push(&mut areas, c, i, a));
            for (o, gems) in out.iter_mut().zip(inventories) {
                *o = best_points(&areas, *gems);
            }
            return;
        };
        let changed = before
            .areas
            .for_each_after(&view, blocks, shift, |c, i, a| push(&mut areas, c, i, a));
        let units = units_needed(inventories);
        let mut tables = before.tables;
        for (c, table) in tables.iter_mut().enumerate() {
            if changed >> c & 1 == 1 {
                let icons = areas
                    .iter()
                    .filter(|a| a.colour == c as u8)
                    .map(|a| a.icons);
                *table = ColourValues::new(icons, units[c]);
            }
        }
        for (o, gems) in out.iter_mut().zip(inventories) {
            *o = best_points_of(&tables, *gems);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Options, Phase, SoloMode, data};
    use pyramidion_core::{GameRng, Rules, ToMove};

    /// The reference: every area of the placed view flooded, one knapsack over all of them
    /// (greedy's scoring before [`PlacementValues`]).
    fn whole_view_value(view: &TopView, gems: Gems) -> u32 {
        let mut areas: ArrayVec<ScorableArea, MAX_AREAS> = ArrayVec::new();
        view.for_each_scoring_area_unordered(|colour, icons, anchor| {
            areas.push(ScorableArea {
                anchor,
                colour,
                icons,
            })
        });
        best_points(&areas, gems)
    }

    /// At every decision of seeded games (2 to 4 players, and solo), every legal placement of
    /// every face-up domino, with the player's gems and each gem a take could add, is valued
    /// as the whole placed view scores.
    #[test]
    fn values_are_the_whole_view_values() {
        let mut checked = 0usize;
        for seed in 0..40u64 {
            let options = match seed % 4 {
                3 => Options::solo(SoloMode::TheLegend),
                n => Options::multiplayer(2 + n as u8),
            };
            let mut game = Game::new(&options, seed).expect("a game");
            let mut rng = GameRng::from_seed(seed + 900);
            let mut scratch = Vec::new();
            while let ToMove::Seat(seat) = game.to_move() {
                if matches!(game.phase(), Phase::Take | Phase::Place) {
                    let player = game.player(seat);
                    let gems = player.gems();
                    let mut inventories = vec![gems];
                    for g in Gem::ALL {
                        let mut more = gems;
                        more.add(g, 1);
                        inventories.push(more);
                    }
                    let values = PlacementValues::new(player.pyramid());
                    let mut legal = Vec::new();
                    player.pyramid().legal(|p| legal.push(p));
                    let mut out = vec![0; inventories.len()];
                    let dominoes = game
                        .piles()
                        .iter()
                        .filter_map(|p| p.face_up_top())
                        .map(|id| data::get(id).blocks)
                        .chain(game.hand_domino().map(|d| d.blocks));
                    for domino in dominoes {
                        for p in &legal {
                            values.values(p, domino, &inventories, &mut out);
                            let view = player.pyramid().top_view_after(p, domino);
                            for (got, gems) in out.iter().zip(&inventories) {
                                assert_eq!(*got, whole_view_value(&view, *gems), "seed {seed}");
                            }
                            checked += 1;
                        }
                    }
                }
                // Greedy's moves and random ones, so that both kinds of pyramid are met.
                let m = if rng.below(2) == 0 {
                    crate::heuristic::greedy_move(&game, &mut rng)
                } else {
                    game.pick_legal_move(&mut scratch, |n| rng.below(n as u32) as usize)
                        .expect("a legal move")
                };
                game.play(&m).expect("legal");
            }
        }
        assert!(checked > 100_000, "only {checked} placements checked");
    }
}
