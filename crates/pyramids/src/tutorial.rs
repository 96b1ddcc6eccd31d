//! Pyramids' tutorial (issue 48): God tiles, building the Pyramid, the Obelisk — one rule at
//! a time, as the rulebook teaches them, each on a real deal replayed through the rules. A
//! wrong legal move is answered with the points it misses on what the learner can see of
//! their own edifices ([`visible_points`]: every Tomb is hidden until the end, so Tomb
//! majorities are never part of a figure shown). The deals were found by `cargo run -p
//! pyramidion-pyramids --example tutorial_deals` and frozen here; the games' tests replay
//! them.
use crate::{Game, Options};
use pyramidion_core::Seat;
use pyramidion_core::tutorial::{Gain, Lesson, Step, Tutorial, Tutorials};

/// The points `seat`'s edifices score now, but for Tomb majorities (which depend on the other
/// Tombs, hidden): its Pyramid, its Obelisk and its glyphs.
pub fn visible_points(game: &Game, seat: Seat) -> i32 {
    let score = game.score(seat);
    i32::from(score.total) - i32::from(score.tomb)
}

pub const VISIBLE_POINTS: Gain<Game> = Gain {
    key: "visible_points",
    measure: visible_points,
};

impl Tutorials for Game {
    fn tutorial() -> Option<Tutorial<Game>> {
        Some(Tutorial {
            lessons: vec![
                Lesson {
                    key: "gods",
                    steps: vec![Step {
                        key: "choose",
                        options: Options::default(),
                        seed: 1,
                        prefix: vec![],
                        seat: Seat(0),
                        accepted: vec!["god 1", "god 2", "god 4"],
                        wrong: vec!["god 3", "pair 1"],
                        gain: None,
                    }],
                },
                Lesson {
                    key: "pyramid",
                    steps: vec![Step {
                        key: "place",
                        options: Options::default(),
                        seed: 1,
                        prefix: pyramid_prefix(),
                        seat: Seat(1),
                        accepted: vec!["pyramid 2 a2"],
                        wrong: vec!["pyramid 1 a0", "god 1"],
                        gain: Some(VISIBLE_POINTS),
                    }],
                },
                Lesson {
                    key: "obelisk",
                    steps: vec![Step {
                        key: "stack",
                        options: Options::default(),
                        seed: 1,
                        prefix: [
                            pyramid_prefix(),
                            vec![
                                "pyramid 2 a2",
                                "tomb 1",
                                "pyramid 1 a0",
                                "obelisk 2",
                                "god 2",
                                "god 4",
                                "pair 2",
                                "pyramid 3 a3",
                                "tomb 1",
                                "pyramid 1 a3",
                                "tomb 1",
                                "obelisk 1",
                                "god 3",
                                "god 1",
                                "pair 2",
                                "pyramid 3 a4",
                                "pyramid 1 a4",
                            ],
                        ]
                        .concat(),
                        seat: Seat(1),
                        accepted: vec!["obelisk 1"],
                        wrong: vec!["done", "god 1"],
                        gain: Some(VISIBLE_POINTS),
                    }],
                },
            ],
            final_table: Options::default(),
            final_solo: false,
        })
    }
}

/// The moves before the "pyramid" lesson's step: the "obelisk" lesson goes on from there.
fn pyramid_prefix() -> Vec<&'static str> {
    vec![
        "god 1",
        "god 2",
        "pair 1",
        "pyramid 3 a1",
        "pyramid 1 a1",
        "tomb 2",
        "discard 2",
        "god 2",
        "god 3",
        "pair 2",
    ]
}
