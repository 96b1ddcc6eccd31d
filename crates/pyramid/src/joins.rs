//! Whether a placement joins areas: two or more areas of one colour, apart before, one area
//! after (a puzzle theme of both games: the top view's areas are what scores).
use crate::grid::Grid;
use crate::placement::{Block, Placement};
use crate::pyramid::Pyramid;

/// The top view's quadrant grid (10 × 10, bit `y * 10 + x`).
const QUADRANTS: Grid = Grid::new(10, 10);

impl Pyramid {
    /// Whether `domino` at `p` (checked) makes one area, on the top view, of two or more areas
    /// of its block's colour that were apart before it. Read from the pyramid and the domino
    /// only: what its owner sees.
    pub fn joins_areas(&self, p: &Placement, domino: [Block; 2]) -> bool {
        let mut after = self.clone();
        after.place(p, domino);
        let view = after.top_view();
        let placed: Vec<u32> = after
            .block_quadrants()
            .skip(after.blocks().len() - 2)
            .collect();
        // The two blocks' quadrants.
        let covered = placed.iter().fold(0u128, |m, &nw| {
            m | (0b11u128 << nw) | (0b11u128 << (nw + 10))
        });
        // Once the quadrant origin is fixed (stage 1's frame forced, or an upper stage) the view
        // before is in the same coordinates and says which pieces were already one area (they
        // may have met under the quadrants now covered). Before that, the domino lies on empty
        // cells of stage 1: pieces apart after it, without it, were apart before it.
        let before = self.view_is_kept().then(|| self.top_view());
        for &nw in &placed {
            let Some(area) = view.area_at(nw) else {
                continue;
            };
            let mut rest = area.cells & !covered;
            let mut apart = 0;
            let mut seen = 0u128;
            while rest != 0 {
                let seed = rest & rest.wrapping_neg();
                let piece = QUADRANTS.component(seed, rest);
                rest &= !piece;
                let was = match &before {
                    Some(v) => QUADRANTS.component(seed, v.colour_board(area.colour)),
                    None => piece,
                };
                if was & seen == 0 {
                    apart += 1;
                    seen |= was;
                }
            }
            if apart >= 2 {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::canvas::CANVAS_START;
    use crate::placement::{Block, Dir, Placement};
    use crate::pyramid::Pyramid;

    const B: u8 = 1;
    const R: u8 = 0;
    const G: u8 = 2;

    fn domino(a: u8, b: u8) -> [Block; 2] {
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

    /// Blue at (x, y) and at (x + 1, y + 1): two blue areas touching only at a corner.
    fn two_blue_areas() -> (Pyramid, u8, u8) {
        let (x, y) = CANVAS_START;
        let mut p = Pyramid::default();
        p.place(&Placement::new(x, y, Dir::S), domino(B, R));
        p.place(&Placement::new(x + 1, y + 1, Dir::E), domino(B, G));
        (p, x, y)
    }

    #[test]
    fn a_block_between_two_areas_of_its_colour_joins_them() {
        let (p, x, y) = two_blue_areas();
        let m = Placement::new(x + 1, y, Dir::E);
        assert_eq!(p.check(&m), Ok(()));
        assert!(p.joins_areas(&m, domino(B, G)));
    }

    #[test]
    fn a_block_that_only_grows_one_area_joins_nothing() {
        let (p, x, y) = two_blue_areas();
        // Green next to blue on both sides, blue beside green: nothing of one colour meets.
        assert!(!p.joins_areas(&Placement::new(x + 1, y, Dir::E), domino(G, B)));
        // Blue below the first blue only.
        assert!(!p.joins_areas(&Placement::new(x - 1, y, Dir::S), domino(B, B)));
    }
}
