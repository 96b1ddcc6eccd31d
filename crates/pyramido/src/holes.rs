//! How many cells of a stage dominoes can no longer fill: a maximum matching of the free
//! cells' grid graph. The rules do not need it; the greedy bots and the tests do.
use crate::play::for_each_hole;
use pyramidion_pyramid::{Block, CANVAS_SIZE, Placement, Pyramid};

/// Free cells of the current stage once its frame is known, as a bitboard on a 9×9 grid of
/// stage-local cells (bit `y * 9 + x`); 0 before stage 1's frame is forced.
pub fn free_cells(pyramid: &Pyramid) -> u128 {
    let mut free = 0u128;
    for_each_hole(pyramid, |x, y| free |= 1 << (y as u32 * 9 + x as u32));
    free
}

/// The fewest cells of the current stage that dominoes can no longer fill however the stage
/// is completed (each will need a resurfacing card): free cells minus twice a maximum matching
/// of the free cells' grid graph. Before stage 1's frame is forced, the best of the frames
/// that could still hold the blocks.
pub fn min_holes(pyramid: &Pyramid) -> u32 {
    let holes = |free: u128| free.count_ones() - 2 * max_matching(free);
    if pyramid.stage() > 0 || pyramid.canvas().frame().is_some() {
        return holes(free_cells(pyramid));
    }
    let canvas = pyramid.canvas();
    if canvas.is_empty() {
        return 0;
    }
    let occupied = canvas.occupied();
    let mut best = u32::MAX;
    for &window in frame_windows() {
        if occupied & !window == 0 {
            best = best.min(holes(window & !occupied));
            if best == 0 {
                break;
            }
        }
    }
    best
}

/// [`min_holes`] once a domino lies at `p` (a legal placement): which dominoes is irrelevant,
/// only the two cells count.
pub fn min_holes_after(pyramid: &Pyramid, p: &Placement) -> u32 {
    let blank = [Block {
        colour: 0,
        icons: 0,
    }; 2];
    let mut pyramid = pyramid.clone();
    pyramid.place(p, blank);
    min_holes(&pyramid)
}

/// Whether placing at `p` dooms a player holding `cards` unused resurfacing cards: the stage
/// would keep more cells no domino can fill than the cards can cover, so the player is
/// eliminated when the stage gets stuck (cards are never regained, and holes are counted
/// then, at least `min_holes_after` of them). The greedy bot avoids these; the table warns.
pub fn placement_dooms(pyramid: &Pyramid, p: &Placement, cards: u32) -> bool {
    min_holes_after(pyramid, p) > cards
}

/// Every 5×4 and 4×5 window of the 9×9 canvas, as cell masks (bit `y * 9 + x`).
fn frame_windows() -> &'static [u128] {
    static WINDOWS: std::sync::OnceLock<Vec<u128>> = std::sync::OnceLock::new();
    WINDOWS.get_or_init(|| {
        let n = CANVAS_SIZE as u32;
        let mut out = Vec::new();
        for (w, h) in [(5u32, 4u32), (4, 5)] {
            for y0 in 0..=n - h {
                for x0 in 0..=n - w {
                    let mut window = 0u128;
                    for y in y0..y0 + h {
                        window |= ((1u128 << w) - 1) << (y * n + x0);
                    }
                    out.push(window);
                }
            }
        }
        out
    })
}

/// Maximum matching of orthogonally adjacent cells of `free` (9×9 grid): a greedy start, then
/// augmenting paths from the unmatched cells with even `x + y`.
fn max_matching(free: u128) -> u32 {
    const NONE: u8 = u8::MAX;
    const COLUMN_0: u128 = 0x1008040201008040201; // x == 0 on every row
    const COLUMN_8: u128 = COLUMN_0 << 8;
    #[inline]
    fn neighbours(cell: u32) -> u128 {
        let b = 1u128 << cell;
        ((b << 1) & !COLUMN_0) | ((b >> 1) & !COLUMN_8) | (b << 9) | (b >> 9)
    }
    fn augment(cell: u32, free: u128, mate: &mut [u8; 81], visited: &mut u128) -> bool {
        let mut next = neighbours(cell) & free & !*visited;
        while next != 0 {
            let n = next.trailing_zeros();
            next &= next - 1;
            if *visited >> n & 1 == 1 {
                continue;
            }
            *visited |= 1 << n;
            let m = mate[n as usize];
            if m == NONE || augment(m as u32, free, mate, visited) {
                mate[n as usize] = cell as u8;
                return true;
            }
        }
        false
    }
    // With 9 columns, x + y and y * 9 + x have the same parity: even cells are even bits.
    const EVEN: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;
    let mut mate = [NONE; 81];
    let mut taken = 0u128;
    let mut unmatched = 0u128;
    let mut count = 0;
    let mut rest = free & EVEN;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        let options = neighbours(cell) & free & !taken;
        if options == 0 {
            unmatched |= 1 << cell;
        } else {
            let n = options.trailing_zeros();
            taken |= 1 << n;
            mate[n as usize] = cell as u8;
            count += 1;
        }
    }
    while unmatched != 0 {
        let cell = unmatched.trailing_zeros();
        unmatched &= unmatched - 1;
        let mut visited = 0u128;
        if augment(cell, free, &mut mate, &mut visited) {
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_core::GameRng;

    /// Fewest uncovered cells by exhaustive search: the lowest cell is covered by a domino to its
    /// east or south, or left uncovered.
    fn brute_min_holes(free: u128) -> u32 {
        if free == 0 {
            return 0;
        }
        let i = free.trailing_zeros();
        let rest = free & !(1 << i);
        let mut best = 1 + brute_min_holes(rest);
        if i % 9 < 8 && rest >> (i + 1) & 1 == 1 {
            best = best.min(brute_min_holes(rest & !(1 << (i + 1))));
        }
        if i + 9 < 81 && rest >> (i + 9) & 1 == 1 {
            best = best.min(brute_min_holes(rest & !(1 << (i + 9))));
        }
        best
    }

    #[test]
    fn matching_finds_the_fewest_holes() {
        let mut rng = GameRng::from_seed(4);
        for _ in 0..3000 {
            // Random cells of a random window (up to 5×5 at a random place).
            let (w, h) = (1 + rng.below(5), 1 + rng.below(5));
            let (x0, y0) = (rng.below(10 - w), rng.below(10 - h));
            let density = 1 + rng.below(4);
            let mut free = 0u128;
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    if rng.below(4) < density {
                        free |= 1 << (y * 9 + x);
                    }
                }
            }
            let holes = free.count_ones() - 2 * max_matching(free);
            assert_eq!(holes, brute_min_holes(free), "{free:x}");
        }
    }

    #[test]
    fn windows_cover_the_canvas() {
        assert_eq!(frame_windows().len(), 60);
        assert!(frame_windows().iter().all(|w| w.count_ones() == 20));
    }
}
