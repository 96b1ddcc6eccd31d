//! One player's pyramid: stage 1 on the floating canvas, stages 2–4 in the fixed frame.
use super::canvas::{Canvas, FrameRect};
use super::frame::{STAGES, StageGrid};
use super::placement::{Block, Placement, PlacementError};
use super::topview::TopView;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

/// A block as it lies: stage index (0 = stage 1), stage-local block coordinates (stage 1: the
/// canvas), and the block turned as placed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlacedBlock {
    pub stage: u8,
    pub x: u8,
    pub y: u8,
    pub block: Block,
}

/// 20 + 12 + 6 + 2 blocks.
pub const MAX_BLOCKS: usize = 40;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pyramid {
    /// Current stage index (0 = stage 1); `STAGES` once the pyramid is finished.
    stage: u8,
    canvas: Canvas,
    frame: Option<FrameRect>,
    /// Occupancy of stages 2, 3, 4 (stage-local block bits).
    upper: [u32; 3],
    placed: ArrayVec<PlacedBlock, MAX_BLOCKS>,
    /// The top view, kept up to date once stage 1's frame is forced (before that it is rebuilt
    /// on demand, because its quadrant origin moves with the bounding box).
    view: TopView,
}

impl Pyramid {
    pub fn stage(&self) -> u8 {
        self.stage
    }

    pub fn frame(&self) -> Option<FrameRect> {
        self.frame
    }

    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    pub fn blocks(&self) -> &[PlacedBlock] {
        &self.placed
    }

    /// Dominoes placed on the current stage.
    pub fn dominoes_on_stage(&self) -> usize {
        self.placed.iter().filter(|b| b.stage == self.stage).count() / 2
    }

    fn upper_grid(&self) -> Option<(StageGrid, u32)> {
        let frame = self.frame?;
        (1..STAGES).contains(&self.stage).then(|| {
            (
                StageGrid::new(frame, self.stage),
                self.upper[self.stage as usize - 1],
            )
        })
    }

    pub fn legal(&self, f: impl FnMut(Placement)) {
        if self.stage == 0 {
            self.canvas.legal(f);
        } else if let Some((grid, occupied)) = self.upper_grid() {
            grid.legal(occupied, f);
        }
    }

    /// Number of placements [`Pyramid::legal`] gives (each slot in both block orders).
    #[inline]
    pub fn legal_count(&self) -> u32 {
        2 * self.slot_count()
    }

    /// The `n`-th placement [`Pyramid::legal`] gives, without listing the others (random
    /// playouts pick one move among many).
    #[inline]
    pub fn legal_nth(&self, n: u32) -> Option<Placement> {
        if self.stage == 0 {
            self.canvas.legal_nth(n)
        } else {
            let (grid, occupied) = self.upper_grid()?;
            grid.legal_nth(occupied, n)
        }
    }

    /// The placement at index `pick(count)` of the `count` that [`Pyramid::legal`] gives;
    /// `None`, without calling `pick`, when there is none (a random playout's choice).
    #[inline]
    pub fn legal_pick(&self, pick: impl FnOnce(u32) -> u32) -> Option<Placement> {
        if self.stage == 0 {
            self.canvas.legal_pick(pick)
        } else {
            let (grid, occupied) = self.upper_grid()?;
            grid.legal_pick(occupied, pick)
        }
    }

    #[inline]
    pub fn has_slot(&self) -> bool {
        if self.stage == 0 {
            self.canvas.has_slot()
        } else {
            self.upper_grid()
                .is_some_and(|(grid, occupied)| grid.has_slot(occupied))
        }
    }

    pub fn slot_count(&self) -> u32 {
        if self.stage == 0 {
            self.canvas.slot_count()
        } else {
            self.upper_grid()
                .map_or(0, |(grid, occupied)| grid.slot_count(occupied))
        }
    }

    #[inline]
    pub fn check(&self, p: &Placement) -> Result<(), PlacementError> {
        if self.stage == 0 {
            self.canvas.check(p)
        } else {
            let (grid, occupied) = self.upper_grid().ok_or(PlacementError::OffBoard)?;
            grid.check(occupied, p)
        }
    }

    /// Places `domino` (its blocks [A, B] lying east-west) at `p`, which must have passed
    /// [`Pyramid::check`].
    pub fn place(&mut self, p: &Placement, domino: [Block; 2]) {
        let [a, b] = p.orient(domino);
        let (bx, by) = p.second().expect("checked placement");
        let stage = self.stage;
        // One capacity check for both blocks.
        let blocks = [
            PlacedBlock {
                stage,
                x: p.x,
                y: p.y,
                block: a,
            },
            PlacedBlock {
                stage,
                x: bx,
                y: by,
                block: b,
            },
        ];
        self.placed
            .try_extend_from_slice(&blocks)
            .expect("a pyramid holds at most 40 blocks");
        if stage == 0 {
            let was_forced = self.canvas.frame().is_some();
            self.canvas.place(p);
            if was_forced {
                // Stage-1 dominoes never overlap: nothing under them to hide.
                let (x0, y0) = self.canvas.min();
                self.view.put_domino_at(
                    (2 * (p.x - x0) as u32, 2 * (p.y - y0) as u32, a),
                    (2 * (bx - x0) as u32, 2 * (by - y0) as u32, b),
                );
            } else if self.canvas.frame().is_some() {
                // The frame is forced from now on, and with it the view's origin. Only
                // dominoes lie on the canvas yet, and they never overlap: put them down.
                let (x0, y0) = self.canvas.min();
                self.view = TopView::default();
                for pb in &self.placed {
                    debug_assert_eq!(pb.stage, 0);
                    let (x, y) = (2 * (pb.x - x0) as u32, 2 * (pb.y - y0) as u32);
                    self.view.put_at(x, y, pb.block);
                }
            }
        } else if let Some((grid, _)) = self.upper_grid() {
            self.upper[self.stage as usize - 1] |= grid.bit(p.x, p.y) | grid.bit(bx, by);
            let (ax, ay) = grid.quadrant_xy(p.x, p.y);
            let (bx, by) = grid.quadrant_xy(bx, by);
            self.view.cover_domino_at((ax, ay, a), (bx, by, b));
        }
    }

    /// The top view once `domino` lies at `p` (which must have passed [`Pyramid::check`]),
    /// leaving the pyramid as it is. Bots weigh every placement this way: once stage 1's frame
    /// is forced it costs one view update instead of a copy of the whole pyramid.
    pub fn top_view_after(&self, p: &Placement, domino: [Block; 2]) -> TopView {
        let [a, b] = p.orient(domino);
        let (bx, by) = p.second().expect("checked placement");
        let mut view = self.view;
        if self.stage == 0 && self.canvas.frame().is_some() {
            // The origin is fixed: the same update `place` makes.
            let (x0, y0) = self.canvas.min();
            view.put_domino_at(
                (2 * (p.x - x0) as u32, 2 * (p.y - y0) as u32, a),
                (2 * (bx - x0) as u32, 2 * (by - y0) as u32, b),
            );
            return view;
        }
        if let Some((grid, _)) = self.upper_grid() {
            let (ax, ay) = grid.quadrant_xy(p.x, p.y);
            let (bx, by) = grid.quadrant_xy(bx, by);
            view.cover_domino_at((ax, ay, a), (bx, by, b));
            return view;
        }
        // Stage 1 before its frame is forced: the origin may move with this domino.
        let mut after = self.clone();
        after.place(p, domino);
        after.top_view()
    }

    /// [`Pyramid::top_view_after`], given this pyramid's [`Pyramid::top_view`] (`view`). Before
    /// stage 1's frame is forced the pyramid keeps no view, and copying the pyramid to place
    /// each domino weighed and build its view was a fifth of Forgotten Treasures' greedy: a
    /// bot weighing many placements builds the view once, and each placement moves it to its
    /// new origin (stage-1 dominoes never overlap, and a legal placement keeps the blocks
    /// inside a 10×10 quadrant box) and puts the domino on it.
    pub fn top_view_after_on(&self, view: &TopView, p: &Placement, domino: [Block; 2]) -> TopView {
        if self.stage != 0 || self.canvas.frame().is_some() || self.canvas.is_empty() {
            return self.top_view_after(p, domino);
        }
        let [a, b] = p.orient(domino);
        let (bx, by) = p.second().expect("checked placement");
        let (x0, y0) = self.canvas.min();
        let (nx, ny) = (x0.min(p.x).min(bx), y0.min(p.y).min(by));
        let mut after = view.shifted(2 * (x0 - nx) as u32, 2 * (y0 - ny) as u32);
        after.put_domino_at(
            (2 * (p.x - nx) as u32, 2 * (p.y - ny) as u32, a),
            (2 * (bx - nx) as u32, 2 * (by - ny) as u32, b),
        );
        after
    }

    /// How the top view changes when a domino lies at `p` (checked), as
    /// [`Pyramid::top_view_after_on`] changes it: the north-west quadrants of blocks A and B
    /// once placed, and how far (`dx`, `dy`) in quadrants the blocks already there move with
    /// the origin (before stage 1's frame is forced; (0, 0) after). `None` on an empty canvas.
    pub fn placement_shift(&self, p: &Placement) -> Option<([u32; 2], (u32, u32))> {
        if self.stage != 0 || self.canvas.frame().is_some() {
            return Some((self.placement_quadrants(p)?, (0, 0)));
        }
        if self.canvas.is_empty() {
            return None;
        }
        let (bx, by) = p.second()?;
        let (x0, y0) = self.canvas.min();
        let (nx, ny) = (x0.min(p.x).min(bx), y0.min(p.y).min(by));
        let q = |x: u8, y: u8| 20 * (y - ny) as u32 + 2 * (x - nx) as u32;
        Some((
            [q(p.x, p.y), q(bx, by)],
            (2 * (x0 - nx) as u32, 2 * (y0 - ny) as u32),
        ))
    }

    /// The top-view quadrants (north-west, as [`Pyramid::block_quadrants`] gives them) of the
    /// two blocks of `p` (checked) once placed, block A first; `None` before stage 1's frame is
    /// forced, when the quadrant origin may move with this domino. With
    /// [`Pyramid::top_view_after`], a bot can score a placement without copying the pyramid.
    pub fn placement_quadrants(&self, p: &Placement) -> Option<[u32; 2]> {
        let (bx, by) = p.second()?;
        if self.stage == 0 {
            self.canvas.frame()?;
            let (x0, y0) = self.canvas.min();
            let q = |x: u8, y: u8| 20 * (y - y0) as u32 + 2 * (x - x0) as u32;
            return Some([q(p.x, p.y), q(bx, by)]);
        }
        let (grid, _) = self.upper_grid()?;
        let q = |x: u8, y: u8| {
            let (qx, qy) = grid.quadrant_xy(x, y);
            qy * 10 + qx
        };
        Some([q(p.x, p.y), q(bx, by)])
    }

    /// Replaces the block at `index` of [`Pyramid::blocks`] (e.g. a resurfacing card).
    pub fn replace_block(&mut self, index: usize, block: Block) {
        self.placed[index].block = block;
        self.view = self.build_top_view();
    }

    /// Moves on to the next stage. Leaving stage 1 fixes the frame, which stage 1 always
    /// forces by the time no slot is left.
    pub fn next_stage(&mut self) {
        if self.stage == 0 {
            self.frame = self.canvas.frame();
            debug_assert!(self.frame.is_some(), "stage 1 ended without a forced frame");
            if self.frame.is_none() {
                self.view = self.build_top_view();
            }
        }
        self.stage = (self.stage + 1).min(STAGES);
    }

    /// The visible surface. Before the frame is fixed, quadrants are counted from the
    /// bounding box of stage 1, which always fits the 10×10 grid.
    pub fn top_view(&self) -> TopView {
        if self.view_is_kept() {
            self.view
        } else {
            self.build_top_view()
        }
    }

    /// Whether `view` is current: from the moment stage 1's frame is forced, which fixes the
    /// quadrant origin (stage ends then read the view twice: to score and to go on).
    pub(crate) fn view_is_kept(&self) -> bool {
        self.frame.is_some() || self.canvas.frame().is_some()
    }

    fn build_top_view(&self) -> TopView {
        let origin = match self.frame {
            Some(f) => (f.x, f.y),
            None => self.canvas.min(),
        };
        // Blocks lie in stage order: covering them in that order leaves each quadrant showing
        // the last block put over it.
        let mut view = TopView::default();
        for pb in &self.placed {
            let (x, y) = self.quadrant_xy(pb, origin);
            view.cover_at(x, y, pb.block);
        }
        view
    }

    /// North-west quadrant of a placed block on the top-view grid, as (x, y).
    fn quadrant_xy(&self, pb: &PlacedBlock, origin: (u8, u8)) -> (u32, u32) {
        if pb.stage == 0 {
            (2 * (pb.x - origin.0) as u32, 2 * (pb.y - origin.1) as u32)
        } else {
            let frame = self.frame.expect("upper stages need a frame");
            StageGrid::new(frame, pb.stage).quadrant_xy(pb.x, pb.y)
        }
    }

    fn quadrant_of(&self, pb: &PlacedBlock, origin: (u8, u8)) -> u32 {
        let (x, y) = self.quadrant_xy(pb, origin);
        y * 10 + x
    }

    /// North-west quadrant, on the top-view grid, of the placed block at `index` of
    /// [`Pyramid::blocks`]: one of [`Pyramid::block_quadrants`] without the others (a bot
    /// scoring the marked blocks of each placement it weighs needs a few of forty).
    pub fn block_quadrant(&self, index: usize) -> u32 {
        let origin = match self.frame {
            Some(f) => (f.x, f.y),
            None => self.canvas.min(),
        };
        self.quadrant_of(&self.placed[index], origin)
    }

    /// North-west quadrant, on the top-view grid, of each placed block (same order as
    /// [`Pyramid::blocks`]).
    pub fn block_quadrants(&self) -> impl Iterator<Item = u32> + '_ {
        let origin = match self.frame {
            Some(f) => (f.x, f.y),
            None => self.canvas.min(),
        };
        self.placed
            .iter()
            .map(move |pb| self.quadrant_of(pb, origin))
    }

    /// Puts one single block (e.g. a resurfacing card filling a hole no domino fits) at
    /// (`x`, `y`) of the current stage, in stage-local coordinates (stage 1: the canvas). The
    /// caller checks that the cell is a free cell of the stage (stage 1: inside the forced
    /// frame). Stages 2–4 mark the cell occupied; on stage 1 the canvas only tracks domino
    /// cells, so the cell stays free there for [`Pyramid::legal`] — harmless for a hole, which
    /// no domino can reach (no free neighbour inside the frame).
    pub fn place_block(&mut self, x: u8, y: u8, block: Block) {
        // Keep the top view current (it is kept incrementally once the frame is forced).
        if let Some((grid, _)) = self.upper_grid() {
            self.upper[self.stage as usize - 1] |= grid.bit(x, y);
            let (qx, qy) = grid.quadrant_xy(x, y);
            self.view.cover_at(qx, qy, block);
        } else if self.stage == 0 && self.view_is_kept() {
            let (x0, y0) = self.canvas.min();
            self.view
                .cover_at(2 * (x - x0) as u32, 2 * (y - y0) as u32, block);
        }
        let stage = self.stage;
        self.placed.push(PlacedBlock { stage, x, y, block });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Dir;

    fn d(a: u8, b: u8) -> [Block; 2] {
        [
            Block {
                colour: a,
                icons: 1,
            },
            Block {
                colour: b,
                icons: 0,
            },
        ]
    }

    /// Fills stage 1 row by row with horizontal dominoes, then checks the upper stages.
    #[test]
    fn full_pyramid_has_20_dominoes() {
        let mut p = Pyramid::default();
        let mut placed = 0;
        for stage in 0..STAGES {
            while p.has_slot() {
                let mut first = None;
                p.legal(|m| {
                    if first.is_none() {
                        first = Some(m)
                    }
                });
                let m = first.unwrap();
                assert_eq!(p.check(&m), Ok(()));
                p.place(&m, d(stage, stage + 1));
                placed += 1;
            }
            p.next_stage();
        }
        // A greedy first-slot fill may leave gaps on stage 1, but never more than 20 dominoes.
        assert!((14..=20).contains(&placed), "{placed}");
        assert_eq!(p.stage(), STAGES);
    }

    /// The incrementally kept view equals a rebuild from the blocks, on random pyramids, and
    /// `top_view_after` predicts it for every placement.
    #[test]
    fn kept_top_view_matches_rebuild() {
        let mut rng = pyramidion_core::GameRng::from_seed(8);
        let mut kept = 0;
        for _ in 0..200 {
            let mut p = Pyramid::default();
            for _ in 0..STAGES {
                loop {
                    let mut moves = Vec::new();
                    p.legal(|m| moves.push(m));
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len() as u32) as usize];
                    let block = |rng: &mut pyramidion_core::GameRng| Block {
                        colour: rng.below(5) as u8,
                        icons: rng.below(16) as u8,
                    };
                    let d = [block(&mut rng), block(&mut rng)];
                    // Every placement's predicted view is the view that placing it gives.
                    for other in &moves {
                        let mut after = p.clone();
                        after.place(other, d);
                        assert_eq!(p.top_view_after(other, d), after.top_view());
                        assert_eq!(
                            p.top_view_after_on(&p.top_view(), other, d),
                            after.top_view()
                        );
                        if let Some((quadrants, _)) = p.placement_shift(other) {
                            let all: Vec<u32> = after.block_quadrants().collect();
                            assert_eq!(quadrants[..], all[all.len() - 2..]);
                        }
                        // And its blocks' quadrants, whenever the origin is fixed.
                        if let Some(quadrants) = p.placement_quadrants(other) {
                            let all: Vec<u32> = after.block_quadrants().collect();
                            assert_eq!(quadrants[..], all[all.len() - 2..]);
                            for (i, q) in all.iter().enumerate() {
                                assert_eq!(after.block_quadrant(i), *q);
                            }
                            kept += 1;
                        }
                    }
                    p.place(&m, d);
                    assert_eq!(p.top_view(), p.build_top_view());
                }
                p.next_stage();
                assert_eq!(p.top_view(), p.build_top_view());
            }
        }
        assert!(kept > 10_000, "only {kept} placements with a fixed origin");
    }

    /// `place_block` into the holes a random fill leaves keeps the view current too.
    #[test]
    fn kept_top_view_follows_single_blocks() {
        let mut rng = pyramidion_core::GameRng::from_seed(9);
        for _ in 0..200 {
            let mut p = Pyramid::default();
            for stage in 0..STAGES {
                loop {
                    let mut moves = Vec::new();
                    p.legal(|m| moves.push(m));
                    let Some(&m) = moves.get(rng.below(moves.len().max(1) as u32) as usize) else {
                        break;
                    };
                    p.place(
                        &m,
                        [
                            Block {
                                colour: 1,
                                icons: 3,
                            },
                            Block {
                                colour: 2,
                                icons: 8,
                            },
                        ],
                    );
                }
                let (w, h, x0, y0) = match (stage, p.canvas.frame(), p.frame) {
                    (0, Some(f), _) => (f.width(), f.height(), f.x, f.y),
                    (_, _, Some(f)) => {
                        let g = StageGrid::new(f, stage);
                        (g.width, g.height, 0, 0)
                    }
                    _ => unreachable!("stage 1 always ends with a forced frame"),
                };
                for y in y0..y0 + h {
                    for x in x0..x0 + w {
                        let free = if stage == 0 {
                            p.canvas.occupied() >> (y as u32 * 9 + x as u32) & 1 == 0
                        } else {
                            p.upper[stage as usize - 1] >> (y * w + x) & 1 == 0
                        };
                        if free {
                            p.place_block(
                                x,
                                y,
                                Block {
                                    colour: 3,
                                    icons: 5,
                                },
                            );
                            assert_eq!(p.top_view(), p.build_top_view());
                        }
                    }
                }
                p.next_stage();
                assert_eq!(p.top_view(), p.build_top_view());
            }
        }
    }

    #[test]
    fn top_view_of_a_single_domino() {
        let mut p = Pyramid::default();
        p.place(&Placement::new(4, 4, Dir::S), d(2, 3));
        let t = p.top_view();
        let areas = t.areas();
        assert_eq!(areas.len(), 2);
        // Turned a quarter clockwise: A's nw icon is now ne, A on top.
        assert_eq!(t.icons(), 1u128 << 1);
        assert_eq!(t.colour_at(0), Some(2));
        assert_eq!(t.colour_at(20), Some(3));
    }
}
