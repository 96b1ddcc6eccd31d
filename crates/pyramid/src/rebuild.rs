//! A pyramid rebuilt from its blocks as a view shows them (a game's sampler, issue 50): the
//! blocks come two by two in the order they were placed, A then B, so each pair is one
//! placement, replayed through [`Pyramid::check`] and [`Pyramid::place`] so that the canvas,
//! the frame and the top view come out as play made them.
use crate::placement::{Block, Dir, Placement};
use crate::pyramid::{PlacedBlock, Pyramid};

impl Pyramid {
    /// The pyramid whose blocks are `blocks` (in placement order), each pair being domino
    /// `dominoes[i]`'s blocks `[A, B]` lying east-west, and whose current stage index is
    /// `stage`. An error names what no play could have made.
    pub fn rebuilt(
        blocks: &[PlacedBlock],
        dominoes: &[[Block; 2]],
        stage: u8,
    ) -> Result<Pyramid, String> {
        if blocks.len() != 2 * dominoes.len() {
            return Err(format!(
                "{} blocks for {} dominoes",
                blocks.len(),
                dominoes.len()
            ));
        }
        let mut pyramid = Pyramid::default();
        for (pair, domino) in blocks.chunks_exact(2).zip(dominoes) {
            let [a, b] = [pair[0], pair[1]];
            if a.stage != b.stage || a.stage < pyramid.stage() {
                return Err("blocks out of placement order".into());
            }
            while pyramid.stage() < a.stage {
                pyramid.next_stage();
            }
            let delta = (
                i32::from(b.x) - i32::from(a.x),
                i32::from(b.y) - i32::from(a.y),
            );
            let dir = Dir::ALL
                .into_iter()
                .find(|d| d.delta() == delta)
                .ok_or("a domino's blocks apart")?;
            let p = Placement::new(a.x, a.y, dir);
            pyramid.check(&p).map_err(|e| e.to_string())?;
            pyramid.place(&p, *domino);
            if pyramid.blocks()[pyramid.blocks().len() - 2..] != [a, b] {
                return Err("a block that is not its domino's, turned".into());
            }
        }
        if stage < pyramid.stage() {
            return Err("a stage below the blocks'".into());
        }
        while pyramid.stage() < stage {
            pyramid.next_stage();
        }
        Ok(pyramid)
    }
}
