//! Stage scoring on the top view: marked areas, the Mino bonus, the next first player.
use crate::data::{COLOURS, colour_name};
use arrayvec::ArrayVec;
use pyramidion_pyramid::pyramid::MAX_BLOCKS;
use pyramidion_pyramid::{Pyramid, TopView};
use serde::{Serialize, Serializer};

/// One marked area at a stage's end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
pub struct MarkedArea {
    #[serde(serialize_with = "colour_text")]
    #[ts(type = "string")]
    pub colour: u8,
    /// Visible jewels in the area (its points).
    pub jewels: u8,
    /// The area's lowest top-view quadrant (its name, e.g. `c4`, see core's `area_name`).
    pub anchor: u8,
    /// The top-view quadrants the area covered when it was scored (bit `q` = quadrant `q`, as
    /// in the top view), listed as quadrant numbers in views so a table can outline it.
    #[serde(serialize_with = "quadrant_list")]
    #[ts(type = "number[]")]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
pub struct StageScore {
    /// Marked areas in marker-colour order.
    #[ts(as = "Vec<MarkedArea>")]
    pub areas: ArrayVec<MarkedArea, COLOURS>,
    pub mino: u8,
    pub total: u16,
}

/// Scores `pyramid` as it is now. `markers[c]` is the index (in [`Pyramid::blocks`]) of the
/// block carrying the jewel marker of colour `c`, if placed. A marked block must be visible
/// (on the top stage), as it always is when a stage ends.
pub fn score_stage(pyramid: &Pyramid, markers: &[Option<u8>; COLOURS]) -> StageScore {
    let mut score = StageScore::default();
    let top = pyramid.top_view();
    for_each_marked_quadrant(pyramid, markers, |q| {
        let area = top.area_at(q).expect("a marked block is visible");
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
    });
    (score.mino, score.total) = mino_and_total(score.areas.iter().map(|a| a.jewels));
    score
}

/// [`score_stage`]'s total alone, without listing the areas' cells: the greedy bot weighs
/// every placement with it.
pub fn stage_total(pyramid: &Pyramid, markers: &[Option<u8>; COLOURS]) -> u16 {
    let top = pyramid.top_view();
    total_of(&marked_areas(pyramid, &top, markers))
}

/// (anchor, jewels) of each marked area of `top` (`pyramid`'s top view), once each, in
/// marker-colour order: what [`stage_total`] adds up, for a caller that adds a marker to it
/// (the greedy bot weighs both marker choices of a placement on one view).
pub(crate) fn marked_areas(
    pyramid: &Pyramid,
    top: &TopView,
    markers: &[Option<u8>; COLOURS],
) -> ArrayVec<(u8, u8), COLOURS> {
    let mut areas = ArrayVec::new();
    for block in markers.iter().flatten() {
        add_marked_area(&mut areas, top, pyramid.block_quadrant(*block as usize));
    }
    areas
}

/// Adds the area of the marked block at top-view quadrant `q` to `areas`, unless it is there
/// already (markers have distinct colours, so two never share an area; the check keeps the
/// total right for any input).
pub(crate) fn add_marked_area(areas: &mut ArrayVec<(u8, u8), COLOURS>, top: &TopView, q: u32) {
    let area = top.area_points_at(q).expect("a marked block is visible");
    if !areas.iter().any(|a| a.0 == area.0) {
        areas.push(area);
    }
}

/// The stage total of these marked areas: their jewels and the Mino bonus.
pub(crate) fn total_of(areas: &[(u8, u8)]) -> u16 {
    mino_and_total(areas.iter().map(|a| a.1)).1
}

/// Calls `f` with the top-view quadrant of each marked block, in marker-colour order.
pub(crate) fn for_each_marked_quadrant(
    pyramid: &Pyramid,
    markers: &[Option<u8>; COLOURS],
    mut f: impl FnMut(u32),
) {
    if markers.iter().all(Option::is_none) {
        return;
    }
    let quadrants: ArrayVec<u32, MAX_BLOCKS> = pyramid.block_quadrants().collect();
    for block in markers.iter().flatten() {
        f(quadrants[*block as usize]);
    }
}

/// The Mino bonus (the fewest jewels of a marked area; 0 when nothing is marked) and the
/// stage total (every marked area's jewels plus the bonus).
pub(crate) fn mino_and_total(jewels: impl Iterator<Item = u8> + Clone) -> (u8, u16) {
    let mino = jewels.clone().min().unwrap_or(0);
    (mino, jewels.map(u16::from).sum::<u16>() + u16::from(mino))
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

    /// The greedy bot's cells-free total is the stage score's total, at every ply of random
    /// games of every player count.
    #[test]
    fn stage_total_is_the_stage_score_total() {
        use crate::options::Options;
        use crate::state::Game;
        use pyramidion_core::{GameRng, Rules, Seat, ToMove};
        let mut checked = 0;
        for players in 2..=4u8 {
            for seed in 0..40 {
                let mut game = Game::new(&Options::players(players), seed).expect("a game");
                let mut rng = GameRng::from_seed(seed + 1000);
                let mut scratch = Vec::new();
                while let ToMove::Seat(_) = game.to_move() {
                    for s in 0..players {
                        let p = game.player(Seat(s));
                        let total = score_stage(p.pyramid(), p.markers()).total;
                        assert_eq!(stage_total(p.pyramid(), p.markers()), total);
                        checked += usize::from(total > 0);
                    }
                    let m = game
                        .pick_legal_move(&mut scratch, |n| rng.below(n as u32) as usize)
                        .expect("a legal move");
                    game.play(&m).expect("legal");
                }
            }
        }
        assert!(checked > 1000, "only {checked} scored positions");
    }

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
