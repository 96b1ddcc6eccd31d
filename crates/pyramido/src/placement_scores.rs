//! The stage total after each placement of one decision, without copying the pyramid.
//!
//! The greedy bot (which plays every move of the search's playouts) weighs about a hundred
//! placements for each domino it might take, and scoring a placed copy of the pyramid from
//! scratch was half of the search's time. A domino only changes the areas it covers or lies
//! next to, so the areas of the markers already placed are measured once per decision and,
//! after each placement, only the ones the new domino touches are measured again.
use crate::data::COLOURS;
use crate::scoring::{for_each_marked_quadrant, mino_and_total};
use arrayvec::ArrayVec;
use pyramidion_pyramid::{Block, Placement, Pyramid, TopView};

/// Top-view grid width, in quadrants (`q = 10·y + x`).
const WIDTH: u32 = 10;

/// One marked area as it lies before the placement.
#[derive(Copy, Clone, Debug)]
struct Marked {
    /// The marked block's north-west quadrant.
    quadrant: u32,
    anchor: u8,
    jewels: u8,
    cells: u128,
}

/// The marked areas of one pyramid, ready to score its placements.
pub struct PlacementScores<'a> {
    pyramid: &'a Pyramid,
    marked: ArrayVec<Marked, COLOURS>,
}

/// One placement's new top view and what it changed.
pub struct AfterPlacement {
    view: TopView,
    /// North-west quadrant of the new blocks A and B.
    quadrants: [u32; 2],
    /// (anchor, jewels) of each area marked before the placement, as it is after it.
    areas: ArrayVec<(u8, u8), COLOURS>,
}

impl<'a> PlacementScores<'a> {
    /// `None` before stage 1's frame is forced: the top view's origin may still move with the
    /// next domino, and a placed copy must be scored instead ([`crate::stage_total`]).
    pub fn new(pyramid: &'a Pyramid, markers: &[Option<u8>; COLOURS]) -> Option<Self> {
        pyramid.frame().or(pyramid.canvas().frame())?;
        let view = pyramid.top_view();
        let mut marked = ArrayVec::new();
        for_each_marked_quadrant(pyramid, markers, |quadrant| {
            let area = view.area_at(quadrant).expect("a marked block is visible");
            marked.push(Marked {
                quadrant,
                anchor: area.anchor,
                jewels: area.icons,
                cells: area.cells,
            });
        });
        Some(PlacementScores { pyramid, marked })
    }

    /// The pyramid once `domino` lies at `p` (a legal placement), markers unchanged.
    pub fn after(&self, p: &Placement, domino: [Block; 2]) -> AfterPlacement {
        let view = self.pyramid.top_view_after(p, domino);
        let quadrants = self
            .pyramid
            .placement_quadrants(p)
            .expect("the origin is fixed (checked by `new`)");
        let touched = quadrants.iter().fold(0, |acc, &q| acc | around_block(q));
        let mut areas = ArrayVec::new();
        for m in &self.marked {
            let area = if m.cells & touched == 0 {
                (m.anchor, m.jewels)
            } else {
                view.area_points_at(m.quadrant)
                    .expect("a marked block stays visible on its stage")
            };
            if !areas.iter().any(|a: &(u8, u8)| a.0 == area.0) {
                areas.push(area);
            }
        }
        AfterPlacement {
            view,
            quadrants,
            areas,
        }
    }
}

impl AfterPlacement {
    /// The stage total if it ended now, with a new marker on block `side` (0: A, 1: B) of the
    /// new domino, or no new marker.
    pub fn total(&self, new_marker: Option<usize>) -> u16 {
        let mut areas = self.areas.clone();
        if let Some(side) = new_marker {
            let area = self
                .view
                .area_points_at(self.quadrants[side])
                .expect("a new block is visible");
            // One marker per colour, on a colour whose marker is free: the new area is never
            // one of the marked ones, and there is room for it.
            if !areas.iter().any(|a| a.0 == area.0) {
                areas.push(area);
            }
        }
        mino_and_total(areas.iter().map(|a| a.1)).1
    }
}

/// The 2×2 quadrants of the block at north-west quadrant `q` and every quadrant next to them
/// (diagonals included, which is more than needed and harmless): an area outside it is
/// neither covered nor joined by the block.
fn around_block(q: u32) -> u128 {
    let (x, y) = ((q % WIDTH) as i32, (q / WIDTH) as i32);
    let mut cells = 0u128;
    for yy in (y - 1).max(0)..=(y + 2).min(WIDTH as i32 - 1) {
        for xx in (x - 1).max(0)..=(x + 2).min(WIDTH as i32 - 1) {
            cells |= 1u128 << (yy as u32 * WIDTH + xx as u32);
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::dominoes;
    use crate::options::Options;
    use crate::play::mark_options;
    use crate::scoring::stage_total;
    use crate::state::Game;
    use pyramidion_core::{GameRng, Rules, Seat, ToMove};

    /// At every decision of random games, for every legal placement of every domino in the
    /// quarry and every marker choice, the incremental total is the total of the placed copy.
    #[test]
    fn incremental_totals_match_scoring_a_placed_copy() {
        let (mut placements, mut marked) = (0usize, 0usize);
        for seed in 0..100 {
            let players = 2 + (seed % 3) as u8;
            let mut game = Game::new(&Options::players(players), seed).expect("a game");
            let mut rng = GameRng::from_seed(seed + 500);
            let mut scratch = Vec::new();
            while let ToMove::Seat(seat) = game.to_move() {
                let player = game.player(Seat(seat.0));
                if let Some(scores) = PlacementScores::new(player.pyramid(), player.markers()) {
                    let mut legal = Vec::new();
                    player.pyramid().legal(|p| legal.push(p));
                    for domino in game.quarry().into_iter().flatten() {
                        let blocks = dominoes()[domino as usize].blocks;
                        for p in &legal {
                            let after = scores.after(p, blocks);
                            let mut placed = player.pyramid().clone();
                            placed.place(p, blocks);
                            let a = placed.blocks().len() - 2;
                            let new = [placed.blocks()[a].block, placed.blocks()[a + 1].block];
                            let options = mark_options(new, player.markers());
                            assert_eq!(
                                after.total(None),
                                stage_total(&placed, player.markers()),
                                "seed {seed}, {p:?}"
                            );
                            placements += 1;
                            for side in (0..2).filter(|s| options >> s & 1 == 1) {
                                let mut markers = *player.markers();
                                markers[new[side].colour as usize] = Some((a + side) as u8);
                                assert_eq!(
                                    after.total(Some(side)),
                                    stage_total(&placed, &markers),
                                    "seed {seed}, {p:?}, side {side}"
                                );
                                marked += 1;
                            }
                        }
                    }
                }
                let m = game
                    .pick_legal_move(&mut scratch, |n| rng.below(n as u32) as usize)
                    .expect("a legal move");
                game.play(&m).expect("legal");
            }
        }
        assert!(placements > 50_000, "only {placements} placements checked");
        assert!(marked > 10_000, "only {marked} marker choices checked");
    }
}
