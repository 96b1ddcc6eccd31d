//! Stages 2–4: fixed block grids inside the frame, each offset by half a block from the one
//! below, so a block's corners sit on the centres of the blocks under it.
use super::canvas::FrameRect;
use super::placement::{Dir, Placement, PlacementError};

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

    /// Every free slot in both block orders: horizontal slots row-major, then vertical ones.
    pub fn legal(&self, occupied: u32, mut f: impl FnMut(Placement)) {
        for slot in slots(self.width, self.height) {
            if occupied & slot.mask == 0 {
                f(Placement::new(slot.x, slot.y, slot.dir));
                let (bx, by) = match slot.dir {
                    Dir::E => (slot.x + 1, slot.y),
                    _ => (slot.x, slot.y + 1),
                };
                f(Placement::new(
                    bx,
                    by,
                    if slot.dir == Dir::E { Dir::W } else { Dir::N },
                ));
            }
        }
    }

    pub fn slot_count(&self, occupied: u32) -> u32 {
        let mut n = 0;
        self.legal(occupied, |_| n += 1);
        n / 2
    }

    pub fn has_slot(&self, occupied: u32) -> bool {
        slots(self.width, self.height)
            .iter()
            .any(|s| occupied & s.mask == 0)
    }
}

/// A domino slot of a stage grid: block A at (x, y), B east or south.
#[derive(Copy, Clone, Debug)]
struct Slot {
    x: u8,
    y: u8,
    dir: Dir,
    mask: u32,
}

/// The slots of one grid shape, keyed by (width, height).
type SlotTable = Vec<((u8, u8), Vec<Slot>)>;

/// Slots of every grid shape a frame can have (stages 1–4 of 5×4 and 4×5), computed once.
fn slots(width: u8, height: u8) -> &'static [Slot] {
    static TABLES: std::sync::LazyLock<SlotTable> = std::sync::LazyLock::new(|| {
        let mut tables = Vec::new();
        for (w, h) in [(5u8, 4u8), (4, 5)] {
            for stage in 0..STAGES {
                let (w, h) = (w - stage, h - stage);
                let bit = |x: u8, y: u8| 1u32 << (y * w + x);
                let mut list = Vec::new();
                for y in 0..h {
                    for x in 0..w.saturating_sub(1) {
                        list.push(Slot {
                            x,
                            y,
                            dir: Dir::E,
                            mask: bit(x, y) | bit(x + 1, y),
                        });
                    }
                }
                for y in 0..h.saturating_sub(1) {
                    for x in 0..w {
                        list.push(Slot {
                            x,
                            y,
                            dir: Dir::S,
                            mask: bit(x, y) | bit(x, y + 1),
                        });
                    }
                }
                tables.push(((w, h), list));
            }
        }
        tables
    });
    TABLES
        .iter()
        .find(|(dims, _)| *dims == (width, height))
        .map_or(&[], |(_, list)| list.as_slice())
}

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

    #[test]
    fn has_slot_agrees_with_count() {
        let g = StageGrid::new(WIDE, 1);
        for occ in 0..=g.full() {
            assert_eq!(g.has_slot(occ), g.slot_count(occ) > 0, "{occ:b}");
        }
    }
}
