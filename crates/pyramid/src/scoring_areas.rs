//! The scoring areas (areas showing an icon) of one top view, kept with their cells so that
//! the areas after one placement are found by flooding only around it.
//!
//! A greedy bot weighs every legal placement of a decision (Forgotten Treasures: about a
//! hundred per domino, in every playout move of the search), and listing every area of each
//! placement's view from scratch was a third of a search's time (docs/bots.md, "Where a
//! decision's time goes"). A domino changes only the areas it covers or lies next to: every
//! other area of the view before it is an area of the view after it, cells and icons alike.
use super::quadboard::QuadBoard;
use super::topview::{MAX_AREAS, TopView};
use arrayvec::ArrayVec;

/// One scoring area of the view before the placement.
#[derive(Copy, Clone, Debug)]
struct Kept {
    colour: u8,
    icons: u8,
    anchor: u8,
    cells: QuadBoard,
}

/// The scoring areas of one top view, with their cells.
#[derive(Clone, Debug)]
pub struct ScoringAreas {
    areas: ArrayVec<Kept, MAX_AREAS>,
}

impl ScoringAreas {
    pub fn new(view: &TopView) -> ScoringAreas {
        let (colours, icons) = view.boards();
        let mut areas = ArrayVec::new();
        for (colour, &board) in colours.iter().enumerate() {
            let mut seeds = board & icons;
            while !seeds.is_empty() {
                let cells = QuadBoard::component(seeds.first_one(), board);
                seeds = seeds.without(cells);
                areas.push(Kept {
                    colour: colour as u8,
                    icons: (cells & icons).count() as u8,
                    anchor: cells.first_index() as u8,
                    cells,
                });
            }
        }
        ScoringAreas { areas }
    }

    /// Calls `f(colour, icons, anchor)` for each scoring area of `after`: this view moved
    /// `shift` (`dx`, `dy`, `dy` even: stage 1's origin moving with the domino) with two
    /// blocks put on it, whose north-west quadrants are `blocks` (`y * 10 + x`), and nothing
    /// else changed ([`crate::Pyramid::placement_shift`] gives both). The areas come in no
    /// particular order. Returns the colours (bit `c`) whose areas may differ from this
    /// view's, moved: the colours of every area reported that was flooded again, and of every
    /// area of this view near the blocks; the other colours' areas are exactly this view's.
    pub fn for_each_after(
        &self,
        after: &TopView,
        blocks: [u32; 2],
        shift: (u32, u32),
        mut f: impl FnMut(u8, u8, u8),
    ) -> u32 {
        let (colours, icons) = after.boards();
        let (dx, dy) = shift;
        // Moving every quadrant by (dx, dy) adds this to its index, anchors included.
        let moved = (dx + 10 * dy) as u8;
        let squares = blocks.map(|q| (q % 10, q / 10));
        let covered = squares.iter().fold(QuadBoard::EMPTY, |b, &(x, y)| {
            b | QuadBoard::square(x, y, 0b11, 0b11)
        });
        let near = squares.iter().fold(QuadBoard::EMPTY, |b, &(x, y)| {
            b | QuadBoard::around_square(x, y)
        });
        // Every area after the placement that reaches `near` has all its icons either under
        // the blocks or in an area before it that reached `near` (an area that did not is
        // neither covered nor joined, so it is still an area of its own): flooding from
        // those icons finds exactly the areas that may have changed.
        let mut seeds = covered;
        let mut changed = 0u32;
        for a in &self.areas {
            let cells = a.cells.shifted(dx, dy);
            if (cells & near).is_empty() {
                f(a.colour, a.icons, a.anchor + moved);
            } else {
                seeds = seeds | cells;
                changed |= 1 << a.colour;
            }
        }
        let seeds = seeds & icons;
        for (colour, &board) in colours.iter().enumerate() {
            let mut left = board & seeds;
            while !left.is_empty() {
                let cells = QuadBoard::component(left.first_one(), board);
                left = left.without(cells);
                changed |= 1 << colour;
                f(
                    colour as u8,
                    (cells & icons).count() as u8,
                    cells.first_index() as u8,
                );
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topview::MAX_COLOURS;
    use crate::{Block, Pyramid};
    use pyramidion_core::GameRng;

    /// (colour, icons, anchor) sorted, of a view from scratch.
    fn from_scratch(view: &TopView) -> Vec<(u8, u8, u8)> {
        let mut all = Vec::new();
        view.for_each_scoring_area_unordered(|c, i, a| all.push((c, i, a)));
        all.sort_unstable();
        all
    }

    /// Along random pyramids built placement by placement, every legal placement of a random
    /// domino gives the areas of its view from scratch, and the colours it says are unchanged
    /// have exactly the areas they had.
    #[test]
    fn areas_after_a_placement_are_the_areas_from_scratch() {
        let mut rng = GameRng::from_seed(31);
        let (mut checked, mut shifted) = (0, 0);
        for _ in 0..200 {
            let mut pyramid = Pyramid::default();
            let block = |rng: &mut GameRng| Block {
                colour: rng.below(5) as u8,
                icons: (rng.below(16) & rng.below(16)) as u8,
            };
            loop {
                let domino = [block(&mut rng), block(&mut rng)];
                let mut legal = Vec::new();
                pyramid.legal(|p| legal.push(p));
                if legal.is_empty() {
                    pyramid.next_stage();
                    if pyramid.stage() >= crate::STAGES {
                        break;
                    }
                    continue;
                }
                let before = pyramid.top_view();
                let kept = ScoringAreas::new(&before);
                for p in &legal {
                    let Some((blocks, (dx, dy))) = pyramid.placement_shift(p) else {
                        continue;
                    };
                    let after = pyramid.top_view_after(p, domino);
                    let mut got = Vec::new();
                    let changed = kept
                        .for_each_after(&after, blocks, (dx, dy), |c, i, a| got.push((c, i, a)));
                    got.sort_unstable();
                    let expected = from_scratch(&after);
                    assert_eq!(got, expected);
                    let moved: Vec<(u8, u8, u8)> = from_scratch(&before)
                        .into_iter()
                        .map(|(c, i, a)| (c, i, a + (dx + 10 * dy) as u8))
                        .collect();
                    let same = |areas: &[(u8, u8, u8)], c| -> Vec<(u8, u8, u8)> {
                        areas.iter().copied().filter(|a| a.0 == c).collect()
                    };
                    for c in (0..MAX_COLOURS as u8).filter(|c| changed >> c & 1 == 0) {
                        assert_eq!(same(&expected, c), same(&moved, c));
                    }
                    shifted += usize::from((dx, dy) != (0, 0));
                    checked += 1;
                }
                let p = legal[rng.below(legal.len() as u32) as usize];
                pyramid.place(&p, domino);
            }
        }
        assert!(checked > 25_000, "only {checked} placements checked");
        assert!(
            shifted > 2_000,
            "only {shifted} placements moving the origin"
        );
    }

    #[test]
    fn the_box_around_a_block_is_clipped_to_the_grid() {
        for y in 0..9 {
            for x in 0..9 {
                let b = QuadBoard::around_square(x, y).to_grid();
                let mut expected = 0u128;
                for yy in y.saturating_sub(1)..=(y + 2).min(9) {
                    for xx in x.saturating_sub(1)..=(x + 2).min(9) {
                        expected |= 1 << (yy * 10 + xx);
                    }
                }
                assert_eq!(b, expected, "({x}, {y})");
            }
        }
    }
}
