//! Stage scoring on the top view: marked areas, the Mino bonus, the next first player.
use crate::data::{COLOURS, colour_name};
use arrayvec::ArrayVec;
use pyramidion_pyramid::Pyramid;
use pyramidion_pyramid::pyramid::MAX_BLOCKS;
use serde::{Serialize, Serializer};

/// One marked area at a stage's end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct MarkedArea {
    #[serde(serialize_with = "colour_text")]
    pub colour: u8,
    /// Visible jewels in the area (its points).
    pub jewels: u8,
    /// The area's lowest top-view quadrant (its name, e.g. `c4`, see core's `area_name`).
    pub anchor: u8,
    /// The top-view quadrants the area covered when it was scored (bit `q` = quadrant `q`, as
    /// in the top view), listed as quadrant numbers in views so a table can outline it.
    #[serde(serialize_with = "quadrant_list")]
    pub cells: u128,
}

fn quadrant_list<S: Serializer>(cells: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq((0..128u8).filter(|q| cells >> q & 1 == 1))
}

fn colour_text<S: Serializer>(c: &u8, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(colour_name(*c))
}

/// A stage's score: each marked area scores its visible jewels, plus the Mino bonus (the
/// jewels of the marked area with the fewest jewels; 0 when nothing is marked).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct StageScore {
    /// Marked areas in marker-colour order.
    pub areas: ArrayVec<MarkedArea, COLOURS>,
    pub mino: u8,
    pub total: u16,
}

/// Scores `pyramid` as it is now. `markers[c]` is the index (in [`Pyramid::blocks`]) of the
/// block carrying the jewel marker of colour `c`, if placed. A marked block must be visible
/// (on the top stage), as it always is when a stage ends.
pub fn score_stage(pyramid: &Pyramid, markers: &[Option<u8>; COLOURS]) -> StageScore {
    let mut score = StageScore::default();
    if markers.iter().all(Option::is_none) {
        return score;
    }
    let top = pyramid.top_view();
    let quadrants: ArrayVec<u32, MAX_BLOCKS> = pyramid.block_quadrants().collect();
    for block in markers.iter().flatten() {
        let area = top
            .area_at(quadrants[*block as usize])
            .expect("a marked block is visible");
        // Markers have distinct colours and sit on blocks of their colour, so two markers never
        // share an area; the check keeps the function right for any input.
        if !score.areas.iter().any(|a| a.anchor == area.anchor) {
            score.areas.push(MarkedArea {
                colour: area.colour,
                jewels: area.icons,
                anchor: area.anchor,
                cells: area.cells,
            });
        }
    }
    score.mino = score.areas.iter().map(|a| a.jewels).min().unwrap_or(0);
    score.total = score.areas.iter().map(|a| a.jewels as u16).sum::<u16>() + score.mino as u16;
    score
}

/// The first player of the next stage: the lowest stage score; ties go to the tied player who
/// comes first in the current stage's turn order (which starts at `first`). `scores[seat]` is
/// `None` for an eliminated seat.
pub fn next_first_player(first: u8, scores: &[Option<u16>]) -> Option<u8> {
    let n = scores.len() as u8;
    let mut best: Option<(u16, u8)> = None;
    for k in 0..n {
        let seat = (first + k) % n;
        if let Some(s) = scores[seat as usize]
            && best.is_none_or(|(b, _)| s < b)
        {
            best = Some((s, seat));
        }
    }
    best.map(|(_, seat)| seat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_score_starts_and_ties_follow_turn_order() {
        // The rulebook's example: the 4th player, with 18, starts stage 2.
        assert_eq!(
            next_first_player(0, &[Some(24), Some(23), Some(29), Some(18)]),
            Some(3)
        );
        // Tie between seats 1 and 3: with seat 2 first this stage, the order is 2, 3, 0, 1.
        assert_eq!(
            next_first_player(2, &[Some(30), Some(21), Some(25), Some(21)]),
            Some(3)
        );
        assert_eq!(
            next_first_player(0, &[Some(30), Some(21), Some(25), Some(21)]),
            Some(1)
        );
        // Eliminated seats never start.
        assert_eq!(next_first_player(0, &[None, Some(21), Some(25)]), Some(1));
        assert_eq!(next_first_player(0, &[None, None]), None);
    }
}
