//! The analysis's measure. The tests that analyse records of real games (elimination, the
//! report's totals, two seeds' agreement) are the registry's (`crates/games/tests/games/
//! analysis.rs`): this crate names no game.
use super::*;
use crate::judge::judge;

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

/// A race's outcome: the candidates kept, their values, and every call to play (move, first
/// future, end).
struct Raced {
    kept: Vec<usize>,
    values: Vec<Vec<f64>>,
    asked: Vec<(usize, u32, u32)>,
}

/// A decision's candidates on futures where every move meets the same luck (`shared`, by
/// the future's number: common random numbers) and a little of its own.
fn raced(worth: &[f64], played: usize, budget: u32) -> Raced {
    let shared = |i: u32| f64::from((i * 7919) % 23) - 11.0;
    let own = |m: usize, i: u32| ((i as usize * 31 + m * 17) % 7) as f64 - 3.0;
    let moves: Vec<usize> = (0..worth.len()).collect();
    let mut asked = Vec::new();
    let (kept, values) = race(&moves, played, budget, MAX_FUTURES, |m, futures| {
        asked.push((m, futures.start, futures.end));
        futures.map(|i| worth[m] + shared(i) + own(m, i)).collect()
    });
    Raced {
        kept,
        values,
        asked,
    }
}

/// Half the budget is shared by every candidate; the ones then clearly worse than the leader
/// get no more, and the rest goes to the others on further futures, the same for each: the
/// leader, the move played (however bad) and the close ones.
#[test]
fn a_race_gives_the_futures_of_the_clearly_worse_to_the_close_ones() {
    let worth = [10.0, 9.5, -10.0, -12.0, -15.0, -20.0, -30.0, -40.0];
    let Raced {
        kept,
        values,
        asked,
    } = raced(&worth, 3, 4000);
    assert_eq!(kept, vec![0, 1, 3]);
    // 250 futures each, then the other 2,000 playouts among three: 666 more each.
    let first: Vec<_> = asked.iter().filter(|a| a.1 == 0).collect();
    assert_eq!(first.len(), 8);
    assert!(first.iter().all(|a| a.2 == 250));
    let more: Vec<_> = asked.iter().filter(|a| a.1 != 0).collect();
    assert_eq!(more, vec![&(0, 250, 916), &(1, 250, 916), &(3, 250, 916)]);
    assert!(values.iter().all(|v| v.len() == 916));
    // Kept values are in order, future by future: the leader is still 10 points above the
    // move played, on average over the same futures.
    let lead = values[0]
        .iter()
        .zip(&values[2])
        .map(|(a, b)| a - b)
        .sum::<f64>()
        / 916.0;
    assert!((lead - 22.0).abs() < 1.0, "{lead}");
    let v = judge(&values, 2, 8);
    assert_eq!((v.best, v.flag), (0, Some("blunder")));
}

/// Where every candidate is close, none is dropped and the race is an even share (two
/// candidates: half the budget each, as before the race); where the move played is clearly
/// the best, the others are dropped and nothing is lost.
#[test]
fn a_race_among_equals_is_an_even_share() {
    let Raced { kept, values, .. } = raced(&[5.0, 5.0, 5.0, 5.0], 1, 4000);
    assert_eq!(kept, vec![0, 1, 2, 3]);
    assert!(values.iter().all(|v| v.len() == 1000));
    let Raced { kept, values, .. } = raced(&[5.0, 5.0], 0, 4000);
    assert_eq!(kept, vec![0, 1]);
    assert!(values.iter().all(|v| v.len() == 2000));
    let Raced { kept, values, .. } = raced(&[5.0, -30.0, -2.0], 0, 4000);
    assert_eq!(kept, vec![0]);
    assert_eq!(judge(&values, 0, 3).lost, 0.0);
}
