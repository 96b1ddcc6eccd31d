//! The analysis's measure. The tests that analyse records of real games (elimination, the
//! report's totals, two seeds' agreement) are the registry's (`crates/games/tests/games/
//! analysis.rs`): this crate names no game.
use super::*;

/// The margin is a seat's points minus the best other seat's, THE Legend's in solo, and
/// its own points where it plays alone with no opponent; `points` ignores the others.
#[test]
fn the_margin_is_counted_against_the_best_other_seat() {
    use pyramidion_core::Outcome;
    let three = Outcome::ranked(vec![40, 55, 47], Vec::new());
    assert_eq!(Measure::Margin.of(&three, 0, 0), -15.0);
    assert_eq!(Measure::Margin.of(&three, 1, 0), 8.0);
    assert_eq!(Measure::Margin.of(&three, 2, 0), -8.0);
    assert_eq!(Measure::Points.of(&three, 2, 0), 47.0);
    let mut solo = Outcome::ranked(vec![61], Vec::new());
    assert_eq!(Measure::Margin.of(&solo, 0, 0), 61.0);
    solo.automa = Some(70);
    assert_eq!(Measure::Margin.of(&solo, 0, 0), -9.0);
    assert_eq!(Measure::Points.of(&solo, 0, 0), 61.0);
    assert_eq!("margin".parse(), Ok(Measure::Margin));
    assert_eq!("points".parse(), Ok(Measure::Points));
    assert!("lead".parse::<Measure>().is_err());
}

/// A seat behind on a key that outranks the score (an elimination) lost, whatever the
/// points: at 0 to 0 it is behind by the forfeit, and leading on points does not help;
/// the seat that outlasted it won by as much; the seats still in the game compare points
/// among themselves. A tie-break after the score changes nothing: level points are a
/// margin of 0.
#[test]
fn an_elimination_is_a_loss_by_the_forfeit_whatever_the_points() {
    use pyramidion_core::{Outcome, RankKey};
    let eliminated = |scores: Vec<i32>, in_game: Vec<i32>| {
        let keys = vec![
            RankKey::new("in_game", in_game),
            RankKey::new("score", scores.clone()),
        ];
        Outcome::ranked(scores, keys)
    };
    let first_stage = eliminated(vec![0, 0], vec![0, 1]);
    assert_eq!(Measure::Margin.of(&first_stage, 0, 66), -66.0);
    assert_eq!(Measure::Margin.of(&first_stage, 1, 66), 66.0);
    let leader = eliminated(vec![40, 30], vec![0, 1]);
    assert_eq!(Measure::Margin.of(&leader, 0, 66), -66.0);
    assert_eq!(Measure::Margin.of(&leader, 1, 66), 66.0);
    let late = eliminated(vec![50, 80, 20], vec![1, 1, 0]);
    assert_eq!(Measure::Margin.of(&late, 2, 66), -80.0);
    assert_eq!(Measure::Margin.of(&late, 0, 66), -30.0);
    assert_eq!(Measure::Margin.of(&late, 1, 66), 30.0);
    assert_eq!(Measure::Points.of(&late, 2, 66), 20.0);
    let tie_break = Outcome::ranked(
        vec![30, 30],
        vec![
            RankKey::new("score", [30, 30]),
            RankKey::new("gems_left", [2, 1]),
        ],
    );
    assert_eq!(tie_break.ranks, vec![0, 1]);
    assert_eq!(Measure::Margin.of(&tie_break, 1, 66), 0.0);
}
