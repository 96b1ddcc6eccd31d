//! Stages 2–4: fixed block grids inside the frame, each offset by half a block from the one
//! below, so a block's corners sit on the centres of the blocks under it.
use super::canvas::FrameRect;
use super::placement::{Dir, Placement, PlacementError, nth_slot_placement};

/// Number of stages of a pyramid.
pub const STAGES: u8 = 4;

/// The block grid of one stage (index 0 = stage 1) of a frame of a given shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StageGrid {
    /// Stage index, 0 = stage 1.
    pub stage: u8,
    pub width: u8,
    pub height: u8,
}

impl StageGrid {
    pub fn new(frame: FrameRect, stage: u8) -> StageGrid {
        debug_assert!(stage < STAGES);
        StageGrid {
            stage,
            width: frame.width() - stage,
            height: frame.height() - stage,
        }
    }

    pub fn blocks(&self) -> u8 {
        self.width * self.height
    }

    #[inline]
    pub fn bit(&self, x: u8, y: u8) -> u32 {
        1 << (y * self.width + x)
    }

    pub fn full(&self) -> u32 {
        (1u32 << self.blocks()) - 1
    }

    /// Index in the 10×10 top-view quadrant grid of the north-west quadrant of block (x, y).
    #[inline]
    pub fn quadrant_of(&self, x: u8, y: u8) -> u32 {
        (2 * y as u32 + self.stage as u32) * 10 + 2 * x as u32 + self.stage as u32
    }

    /// [`StageGrid::quadrant_of`] as (x, y) on the quadrant grid.
    #[inline]
    pub(crate) fn quadrant_xy(&self, x: u8, y: u8) -> (u32, u32) {
        let s = self.stage as u32;
        (2 * x as u32 + s, 2 * y as u32 + s)
    }

    pub fn cells(&self, p: &Placement) -> Result<[(u8, u8); 2], PlacementError> {
        let second = p.second().ok_or(PlacementError::OffBoard)?;
        let inside = |(x, y): (u8, u8)| x < self.width && y < self.height;
        if !inside((p.x, p.y)) || !inside(second) {
            return Err(PlacementError::OffBoard);
        }
        Ok([(p.x, p.y), second])
    }

    pub fn mask(&self, p: &Placement) -> Result<u32, PlacementError> {
        let [a, b] = self.cells(p)?;
        Ok(self.bit(a.0, a.1) | self.bit(b.0, b.1))
    }

    pub fn check(&self, occupied: u32, p: &Placement) -> Result<(), PlacementError> {
        if self.mask(p)? & occupied != 0 {
            return Err(PlacementError::Occupied);
        }
        Ok(())
    }

    /// Free-slot anchors (block A: the west one of a horizontal slot, the north one of a
    /// vertical slot), as bitboards in the stage's bit order. Shifts instead of a slot list:
    /// these run after every placement (the stuck test) and for every move list.
    #[inline]
    fn slot_anchors(&self, occupied: u32) -> (u32, u32) {
        let free = self.full() & !occupied;
        let last_column = FIRST_COLUMN[self.width as usize] << (self.width - 1);
        let horizontal = free & (free >> 1) & !last_column;
        let vertical = free & (free >> self.width);
        (horizontal, vertical)
    }

    /// Calls `f(x, y)` for each anchor in `anchors`, row-major (bit order).
    #[inline]
    fn for_each_anchor(&self, anchors: u32, mut f: impl FnMut(u8, u8)) {
        let row = (1u32 << self.width) - 1;
        for y in 0..self.height {
            let mut bits = anchors >> (y * self.width) & row;
            while bits != 0 {
                f(bits.trailing_zeros() as u8, y);
                bits &= bits - 1;
            }
        }
    }

    /// Every free slot in both block orders: horizontal slots row-major, then vertical ones.
    pub fn legal(&self, occupied: u32, mut f: impl FnMut(Placement)) {
        let (horizontal, vertical) = self.slot_anchors(occupied);
        self.for_each_anchor(horizontal, |x, y| {
            f(Placement::new(x, y, Dir::E));
            f(Placement::new(x + 1, y, Dir::W));
        });
        self.for_each_anchor(vertical, |x, y| {
            f(Placement::new(x, y, Dir::S));
            f(Placement::new(x, y + 1, Dir::N));
        });
    }

    /// The `n`-th placement [`StageGrid::legal`] gives, without listing the others.
    pub fn legal_nth(&self, occupied: u32, n: u32) -> Option<Placement> {
        let anchors = self.slot_anchors(occupied);
        self.nth_placement(anchors, anchors.0.count_ones(), n)
    }

    /// The placement at index `pick(count)` of the `count` that [`StageGrid::legal`] gives;
    /// `None`, without calling `pick`, when there is none.
    #[inline]
    pub fn legal_pick(&self, occupied: u32, pick: impl FnOnce(u32) -> u32) -> Option<Placement> {
        let anchors = self.slot_anchors(occupied);
        let h = anchors.0.count_ones();
        let count = 2 * (h + anchors.1.count_ones());
        (count > 0).then(|| self.nth_placement(anchors, h, pick(count)))?
    }

    /// [`StageGrid::legal_nth`], given the slot anchors and the number `h` of horizontal ones.
    fn nth_placement(
        &self,
        (horizontal, vertical): (u32, u32),
        h: u32,
        n: u32,
    ) -> Option<Placement> {
        nth_slot_placement(
            (horizontal as u128, vertical as u128),
            h,
            n,
            self.width as u32,
        )
    }

    pub fn slot_count(&self, occupied: u32) -> u32 {
        let (horizontal, vertical) = self.slot_anchors(occupied);
        horizontal.count_ones() + vertical.count_ones()
    }

    pub fn has_slot(&self, occupied: u32) -> bool {
        let (horizontal, vertical) = self.slot_anchors(occupied);
        horizontal | vertical != 0
    }
}

/// Bits `0, w, 2w, …` (one per row of a stage of width `w`, up to 5 rows), by `w`.
const FIRST_COLUMN: [u32; 6] = {
    let mut table = [0; 6];
    let mut w = 1;
    while w < 6 {
        let mut y = 0;
        while y < 5 {
            table[w] |= 1 << (y * w);
            y += 1;
        }
        w += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    const WIDE: FrameRect = FrameRect {
        x: 0,
        y: 0,
        wide: true,
    };
    const TALL: FrameRect = FrameRect {
        x: 0,
        y: 0,
        wide: false,
    };

    #[test]
    fn empty_upper_stages_have_17_7_1_slots() {
        for frame in [WIDE, TALL] {
            let counts: Vec<u32> = (1..4)
                .map(|s| StageGrid::new(frame, s).slot_count(0))
                .collect();
            assert_eq!(counts, vec![17, 7, 1]);
        }
        assert_eq!(StageGrid::new(WIDE, 0).slot_count(0), 31);
    }

    #[test]
    fn stage_three_has_four_horizontal_and_three_vertical() {
        let g = StageGrid::new(WIDE, 2);
        let mut h = 0;
        let mut v = 0;
        g.legal(0, |p| match p.dir {
            Dir::E => h += 1,
            Dir::S => v += 1,
            _ => {}
        });
        assert_eq!((h, v), (4, 3));
    }

    #[test]
    fn quadrant_offsets_are_half_blocks() {
        let s1 = StageGrid::new(WIDE, 0);
        let s2 = StageGrid::new(WIDE, 1);
        let s4 = StageGrid::new(WIDE, 3);
        assert_eq!(s1.quadrant_of(0, 0), 0);
        assert_eq!(s1.quadrant_of(4, 3), 68);
        assert_eq!(s2.quadrant_of(0, 0), 11);
        assert_eq!(s4.quadrant_of(1, 0), 3 * 10 + 5);
    }

    /// The slot table the bitboards replaced: the order `legal` must keep.
    fn slot_list(g: &StageGrid, occupied: u32) -> Vec<Placement> {
        let (w, h) = (g.width, g.height);
        let free = |x: u8, y: u8| occupied >> (y * w + x) & 1 == 0;
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w.saturating_sub(1) {
                if free(x, y) && free(x + 1, y) {
                    out.push(Placement::new(x, y, Dir::E));
                    out.push(Placement::new(x + 1, y, Dir::W));
                }
            }
        }
        for y in 0..h.saturating_sub(1) {
            for x in 0..w {
                if free(x, y) && free(x, y + 1) {
                    out.push(Placement::new(x, y, Dir::S));
                    out.push(Placement::new(x, y + 1, Dir::N));
                }
            }
        }
        out
    }

    #[test]
    fn legal_and_nth_follow_the_slot_order_for_every_occupancy() {
        for frame in [WIDE, TALL] {
            for stage in 0..STAGES {
                let g = StageGrid::new(frame, stage);
                // Every occupancy of stages 2–4, a sample of stage 1's million.
                for occ in (0..=g.full()).step_by(if stage == 0 { 97 } else { 1 }) {
                    let expected = slot_list(&g, occ);
                    let mut got = Vec::new();
                    g.legal(occ, |p| got.push(p));
                    assert_eq!(got, expected, "{stage} {occ:b}");
                    let nth: Vec<_> = (0..expected.len() as u32 + 2)
                        .map_while(|n| g.legal_nth(occ, n))
                        .collect();
                    assert_eq!(nth, expected, "{stage} {occ:b}");
                    for (i, &p) in expected.iter().enumerate() {
                        let picked = g.legal_pick(occ, |count| {
                            assert_eq!(count as usize, expected.len());
                            i as u32
                        });
                        assert_eq!(picked, Some(p));
                    }
                    if expected.is_empty() {
                        assert_eq!(g.legal_pick(occ, |_| unreachable!("no slot")), None);
                    }
                    for p in &expected {
                        assert_eq!(g.check(occ, p), Ok(()));
                    }
                }
            }
        }
    }

    #[test]
    fn has_slot_agrees_with_count() {
        let g = StageGrid::new(WIDE, 1);
        for occ in 0..=g.full() {
            assert_eq!(g.has_slot(occ), g.slot_count(occ) > 0, "{occ:b}");
        }
    }
}
