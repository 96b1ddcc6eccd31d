//! Stage 1: dominoes on a 9×9 block canvas, the 5×4 / 4×5 frame floating until forced.
//!
//! The first domino always has its block A on the canvas centre (e5). Every block of a
//! legal stage 1 lies within 4 blocks of it in each direction, so 9×9 is always enough.
use super::grid::{Grid, bits};
use super::placement::{Dir, Placement, PlacementError, nth_slot_placement};
use serde::{Deserialize, Serialize};

pub const CANVAS_SIZE: u8 = 9;
pub const CANVAS_START: (u8, u8) = (4, 4);
pub const CANVAS_GRID: Grid = Grid::new(CANVAS_SIZE as u32, CANVAS_SIZE as u32);

/// The window stage 1 fills: its top-left block on the canvas and whether it is 5 wide × 4 high
/// (`wide`) or 4 wide × 5 high.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
pub struct FrameRect {
    pub x: u8,
    pub y: u8,
    pub wide: bool,
}

impl FrameRect {
    pub fn width(self) -> u8 {
        if self.wide { 5 } else { 4 }
    }
    pub fn height(self) -> u8 {
        if self.wide { 4 } else { 5 }
    }
}

const N: usize = CANVAS_SIZE as usize;
type Lines = [[u128; N]; N];

/// `COLUMNS[lo][hi]`: the canvas columns `lo..=hi`; `ROWS[lo][hi]`: rows `lo..=hi` (empty when
/// `lo > hi`).
const COLUMNS: Lines = spans(1, CANVAS_SIZE as u32);
const ROWS: Lines = spans(CANVAS_SIZE as u32, 1);

/// Unions of canvas lines `lo..=hi`, where line `i` is the cells `i * step + j * across` for
/// every `j` (columns: step 1, across 9; rows: step 9, across 1).
const fn spans(step: u32, across: u32) -> Lines {
    let mut table = [[0; N]; N];
    let mut lo = 0;
    while lo < N {
        let mut hi = lo;
        while hi < N {
            let mut line = lo;
            while line <= hi {
                let mut j = 0;
                while j < N {
                    table[lo][hi] |= 1 << (line as u32 * step + j as u32 * across);
                    j += 1;
                }
                line += 1;
            }
            hi += 1;
        }
        lo += 1;
    }
    table
}

/// Where a slot's anchor may lie along one axis so that the slot and the blocks fit a window:
/// `[orientation][shape][lo][hi]` are the lines (from `lines`) allowed when the blocks span
/// lines `lo..=hi`, for slot orientation 0 = horizontal, 1 = vertical and window shape
/// 0 = 5 wide × 4 high, 1 = 4 × 5; empty when the blocks already exceed the window. The
/// window fits exactly when it fits along both axes, so the anchors of a shape are its
/// column lines × its row lines: two lookups per shape instead of range arithmetic, after
/// every stage-1 placement.
type WindowLines = [[Lines; 2]; 2];
const WINDOW_COLUMNS: WindowLines = window_lines(&COLUMNS, [5, 4], [2, 1]);
const WINDOW_ROWS: WindowLines = window_lines(&ROWS, [4, 5], [1, 2]);

/// `window[shape]`: the window's extent along the axis; `slot[orientation]`: the slot's.
const fn window_lines(lines: &Lines, window: [usize; 2], slot: [usize; 2]) -> WindowLines {
    let mut table = [[[[0; N]; N]; 2]; 2];
    let mut orientation = 0;
    while orientation < 2 {
        let mut shape = 0;
        while shape < 2 {
            let (w, d) = (window[shape], slot[orientation]);
            let mut lo = 0;
            while lo < N {
                let mut hi = lo;
                while hi < N && hi - lo < w {
                    // Anchor lines: from the last that still reaches `hi` in a window to the
                    // first that keeps `lo` in it (and the slot on the canvas).
                    let first = (hi + 1).saturating_sub(w);
                    let last = if lo + w - d < N - d {
                        lo + w - d
                    } else {
                        N - d
                    };
                    if first <= last {
                        table[orientation][shape][lo][hi] = lines[first][last];
                    }
                    hi += 1;
                }
                lo += 1;
            }
            shape += 1;
        }
        orientation += 1;
    }
    table
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Canvas {
    occupied: u128,
    min_x: u8,
    max_x: u8,
    min_y: u8,
    max_y: u8,
    /// Legal slot anchors (horizontal, vertical), recomputed on every placement: move
    /// generation, the stuck test and move checks then cost a few instructions.
    anchors: (u128, u128),
}

impl Canvas {
    pub fn is_empty(&self) -> bool {
        self.occupied == 0
    }

    pub fn occupied(&self) -> u128 {
        self.occupied
    }

    pub fn block_count(&self) -> u32 {
        self.occupied.count_ones()
    }

    /// Top-left corner of the blocks' bounding box (meaningless when empty).
    pub fn min(&self) -> (u8, u8) {
        (self.min_x, self.min_y)
    }

    /// The frame, once the blocks force it (bounding box exactly 5×4 or 4×5).
    pub fn frame(&self) -> Option<FrameRect> {
        if self.is_empty() {
            return None;
        }
        let w = self.max_x - self.min_x + 1;
        let h = self.max_y - self.min_y + 1;
        // `&` and `|`, not `&&` and `||`: whether a random stage 1 is forced yet is a coin
        // toss, and the branches mispredicted after every stage-1 placement.
        let wide = (w == 5) & (h == 4);
        ((w == 4) & (h == 5) | wide).then_some(FrameRect {
            x: self.min_x,
            y: self.min_y,
            wide,
        })
    }

    /// Anchor cells (west block of a horizontal pair, north block of a vertical pair) whose
    /// domino together with the current blocks fits in some 5×4 or 4×5 window.
    #[inline]
    fn window_anchors(&self, horizontal: bool) -> u128 {
        let o = usize::from(!horizontal);
        let (x0, x1) = (self.min_x as usize, self.max_x as usize);
        let (y0, y1) = (self.min_y as usize, self.max_y as usize);
        (0..2).fold(0, |anchors, shape| {
            anchors | WINDOW_COLUMNS[o][shape][x0][x1] & WINDOW_ROWS[o][shape][y0][y1]
        })
    }

    /// Horizontal and vertical anchor bitboards of every legal slot.
    fn slot_anchors(&self) -> (u128, u128) {
        self.anchors
    }

    fn compute_anchors(&self) -> (u128, u128) {
        let g = &CANVAS_GRID;
        let empty = g.full & !self.occupied;
        let touching = g.neighbours(self.occupied) & empty;
        let last_col = COLUMNS[N - 1][N - 1];
        let horizontal = empty
            & (empty >> 1)
            & !last_col
            & (touching | (touching >> 1))
            & self.window_anchors(true);
        let vertical = empty
            & (empty >> CANVAS_SIZE)
            & (touching | (touching >> CANVAS_SIZE))
            & self.window_anchors(false);
        (horizontal, vertical)
    }

    /// Calls `f` for every legal placement, in a fixed order: horizontal slots then vertical
    /// ones by anchor index, each slot in both block orders.
    pub fn legal(&self, mut f: impl FnMut(Placement)) {
        if self.is_empty() {
            let (x, y) = CANVAS_START;
            for dir in Dir::ALL {
                f(Placement::new(x, y, dir));
            }
            return;
        }
        let n = CANVAS_SIZE as u32;
        let (horizontal, vertical) = self.slot_anchors();
        for i in bits(horizontal) {
            let (x, y) = ((i % n) as u8, (i / n) as u8);
            f(Placement::new(x, y, Dir::E));
            f(Placement::new(x + 1, y, Dir::W));
        }
        for i in bits(vertical) {
            let (x, y) = ((i % n) as u8, (i / n) as u8);
            f(Placement::new(x, y, Dir::S));
            f(Placement::new(x, y + 1, Dir::N));
        }
    }

    /// The `n`-th placement [`Canvas::legal`] gives, without listing the others.
    #[inline]
    pub fn legal_nth(&self, n: u32) -> Option<Placement> {
        self.nth_placement(n, self.anchors.0.count_ones())
    }

    /// The placement at index `pick(count)` of the `count` that [`Canvas::legal`] gives;
    /// `None`, without calling `pick`, when there is none. (A random playout's choice,
    /// counting the slots once.)
    #[inline]
    pub fn legal_pick(&self, pick: impl FnOnce(u32) -> u32) -> Option<Placement> {
        if self.is_empty() {
            return self.legal_nth(pick(Dir::ALL.len() as u32));
        }
        let (horizontal, vertical) = self.anchors;
        let h = horizontal.count_ones();
        let count = 2 * (h + vertical.count_ones());
        (count > 0).then(|| self.nth_placement(pick(count), h))?
    }

    /// [`Canvas::legal_nth`], given the number of horizontal slots `h`.
    fn nth_placement(&self, n: u32, h: u32) -> Option<Placement> {
        if self.is_empty() {
            let (x, y) = CANVAS_START;
            return Dir::ALL
                .get(n as usize)
                .map(|&dir| Placement::new(x, y, dir));
        }
        nth_slot_placement(self.anchors, h, n, CANVAS_SIZE as u32)
    }

    /// Number of free slots (pairs of cells), ignoring block order.
    pub fn slot_count(&self) -> u32 {
        if self.is_empty() {
            return 2;
        }
        let (h, v) = self.slot_anchors();
        h.count_ones() + v.count_ones()
    }

    pub fn has_slot(&self) -> bool {
        self.is_empty() || {
            let (h, v) = self.slot_anchors();
            h | v != 0
        }
    }

    /// Both cells of `p`, or `OffBoard`.
    pub fn cells(p: &Placement) -> Result<[(u8, u8); 2], PlacementError> {
        let second = p.second().ok_or(PlacementError::OffBoard)?;
        let inside = |(x, y): (u8, u8)| x < CANVAS_SIZE && y < CANVAS_SIZE;
        if !inside((p.x, p.y)) || !inside(second) {
            return Err(PlacementError::OffBoard);
        }
        Ok([(p.x, p.y), second])
    }

    #[inline]
    pub fn check(&self, p: &Placement) -> Result<(), PlacementError> {
        let cells = Self::cells(p)?;
        if self.is_empty() {
            return if (p.x, p.y) == CANVAS_START {
                Ok(())
            } else {
                Err(PlacementError::FirstNotAtStart)
            };
        }
        let (ax, ay) = (cells[0].0.min(cells[1].0), cells[0].1.min(cells[1].1));
        let horizontal = cells[0].1 == cells[1].1;
        let anchor = CANVAS_GRID.bit(ax as u32, ay as u32);
        let (h, v) = self.anchors;
        if anchor & if horizontal { h } else { v } != 0 {
            return Ok(());
        }
        // Refused: find out why.
        let mask = cells
            .iter()
            .fold(0, |m, &(x, y)| m | CANVAS_GRID.bit(x as u32, y as u32));
        if mask & self.occupied != 0 {
            return Err(PlacementError::Occupied);
        }
        if CANVAS_GRID.neighbours(self.occupied) & mask == 0 {
            return Err(PlacementError::NotConnected);
        }
        debug_assert_eq!(self.window_anchors(horizontal) & anchor, 0);
        Err(PlacementError::OutsideFrame)
    }

    /// Adds the domino's cells. The placement must have passed [`Canvas::check`].
    pub fn place(&mut self, p: &Placement) {
        let (bx, by) = p.second().expect("checked placement");
        if self.is_empty() {
            self.min_x = p.x.min(bx);
            self.max_x = p.x.max(bx);
            self.min_y = p.y.min(by);
            self.max_y = p.y.max(by);
        } else {
            self.min_x = self.min_x.min(p.x).min(bx);
            self.max_x = self.max_x.max(p.x).max(bx);
            self.min_y = self.min_y.min(p.y).min(by);
            self.max_y = self.max_y.max(p.y).max(by);
        }
        self.occupied |=
            CANVAS_GRID.bit(p.x as u32, p.y as u32) | CANVAS_GRID.bit(bx as u32, by as u32);
        self.anchors = self.compute_anchors();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(c: &Canvas) -> Vec<Placement> {
        let mut v = Vec::new();
        c.legal(|p| v.push(p));
        v
    }

    /// Independent brute force: try every placement on the canvas with plain loops.
    fn brute_force(c: &Canvas, blocks: &[(u8, u8)]) -> usize {
        let mut n = 0;
        for y in 0..CANVAS_SIZE {
            for x in 0..CANVAS_SIZE {
                for dir in Dir::ALL {
                    let p = Placement::new(x, y, dir);
                    let Ok(cells) = Canvas::cells(&p) else {
                        continue;
                    };
                    if cells.iter().any(|c| blocks.contains(c)) {
                        continue;
                    }
                    let touches = cells.iter().any(|&(cx, cy)| {
                        blocks.iter().any(|&(bx, by)| {
                            (cx as i32 - bx as i32).abs() + (cy as i32 - by as i32).abs() == 1
                        })
                    });
                    if !touches {
                        continue;
                    }
                    let all: Vec<_> = blocks.iter().chain(cells.iter()).collect();
                    let w = all.iter().map(|c| c.0).max().unwrap()
                        - all.iter().map(|c| c.0).min().unwrap()
                        + 1;
                    let h = all.iter().map(|c| c.1).max().unwrap()
                        - all.iter().map(|c| c.1).min().unwrap()
                        + 1;
                    if (w <= 5 && h <= 4) || (w <= 4 && h <= 5) {
                        n += 1;
                    }
                }
            }
        }
        let _ = c;
        n
    }

    /// The window tables agree with the range arithmetic they replace, for every bounding box.
    #[test]
    fn window_tables_match_range_arithmetic() {
        let n = CANVAS_SIZE as i32;
        for (x0, x1, y0, y1) in (0..n).flat_map(|x0| {
            (x0..n).flat_map(move |x1| {
                (0..n).flat_map(move |y0| (y0..n).map(move |y1| (x0, x1, y0, y1)))
            })
        }) {
            let c = Canvas {
                occupied: 1,
                min_x: x0 as u8,
                max_x: x1 as u8,
                min_y: y0 as u8,
                max_y: y1 as u8,
                anchors: (0, 0),
            };
            for (horizontal, (dw, dh)) in [(true, (2, 1)), (false, (1, 2))] {
                let mut expected = 0;
                for (w, h) in [(5, 4), (4, 5)] {
                    if x1 - x0 + 1 > w || y1 - y0 + 1 > h {
                        continue;
                    }
                    let xs = CANVAS_GRID.columns(x1 - w + 1, (x0 + w - dw).min(n - dw));
                    let ys = CANVAS_GRID.rows(y1 - h + 1, (y0 + h - dh).min(n - dh));
                    expected |= xs & ys;
                }
                assert_eq!(
                    c.window_anchors(horizontal),
                    expected,
                    "{x0} {x1} {y0} {y1}"
                );
            }
        }
    }

    #[test]
    fn empty_stage_one_has_four_moves() {
        assert_eq!(legal(&Canvas::default()).len(), 4);
    }

    #[test]
    fn after_one_horizontal_domino_32_moves() {
        let mut c = Canvas::default();
        c.place(&Placement::new(4, 4, Dir::E));
        assert_eq!(c.slot_count(), 16);
        assert_eq!(legal(&c).len(), 32);
        assert_eq!(brute_force(&c, &[(4, 4), (5, 4)]), 32);
        for p in legal(&c) {
            assert_eq!(c.check(&p), Ok(()), "{p}");
        }
    }

    #[test]
    fn legal_matches_brute_force_on_random_fills() {
        let mut rng = pyramidion_core::GameRng::from_seed(11);
        for _ in 0..300 {
            let mut c = Canvas::default();
            let mut blocks = Vec::new();
            loop {
                let moves = legal(&c);
                if moves.is_empty() {
                    break;
                }
                if !c.is_empty() {
                    assert_eq!(moves.len(), brute_force(&c, &blocks));
                }
                let nth: Vec<_> = (0..moves.len() as u32 + 2)
                    .map_while(|n| c.legal_nth(n))
                    .collect();
                assert_eq!(nth, moves);
                for (i, &m) in moves.iter().enumerate() {
                    let picked = c.legal_pick(|count| {
                        assert_eq!(count as usize, moves.len());
                        i as u32
                    });
                    assert_eq!(picked, Some(m));
                }
                if moves.is_empty() {
                    assert_eq!(c.legal_pick(|_| unreachable!("no move to pick")), None);
                }
                let p = moves[rng.below(moves.len() as u32) as usize];
                c.place(&p);
                blocks.push((p.x, p.y));
                blocks.push(p.second().unwrap());
            }
            // Stuck or full: the frame is always forced by then.
            assert!(c.frame().is_some(), "{blocks:?}");
        }
    }

    #[test]
    fn check_reports_each_reason() {
        let mut c = Canvas::default();
        assert_eq!(
            c.check(&Placement::new(0, 0, Dir::E)),
            Err(PlacementError::FirstNotAtStart)
        );
        assert_eq!(
            c.check(&Placement::new(8, 0, Dir::E)),
            Err(PlacementError::OffBoard)
        );
        assert_eq!(
            c.check(&Placement::new(0, 0, Dir::N)),
            Err(PlacementError::OffBoard)
        );
        c.place(&Placement::new(4, 4, Dir::E));
        assert_eq!(
            c.check(&Placement::new(5, 4, Dir::S)),
            Err(PlacementError::Occupied)
        );
        assert_eq!(
            c.check(&Placement::new(4, 6, Dir::E)),
            Err(PlacementError::NotConnected)
        );
        c.place(&Placement::new(6, 4, Dir::E));
        // Now 4 wide: a fifth and sixth column cannot both be used.
        assert_eq!(
            c.check(&Placement::new(2, 4, Dir::E)),
            Err(PlacementError::OutsideFrame)
        );
        assert_eq!(c.check(&Placement::new(3, 4, Dir::S)), Ok(()));
    }
}
