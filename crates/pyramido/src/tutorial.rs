//! Pyramido's tutorial (issue 48): a turn (take, then place the first domino), jewel markers,
//! areas and the Mino bonus, resurfacing cards, the upper stages — one rule at a time, as the
//! rulebook teaches them, each on a real deal replayed through the rules. A wrong legal move
//! is answered with the points the learner's pyramid misses if the stage ended now
//! ([`Game::stage_value`], the engine's own scoring of the stage: marked areas and the Mino
//! bonus). The deals were found by `cargo run -p pyramidion-pyramido --example
//! tutorial_deals` and frozen here; the games' tests replay them.
use crate::{Game, Options};
use pyramidion_core::Seat;
use pyramidion_core::tutorial::{Gain, Lesson, Step, Tutorial, Tutorials};

/// The points the learner's pyramid would score if the stage ended now.
fn stage_value(game: &Game, seat: Seat) -> i32 {
    i32::from(game.stage_value(seat))
}

const STAGE_VALUE: Gain<Game> = Gain {
    key: "stage_value",
    measure: stage_value,
};

fn two() -> Options {
    Options { players: 2 }
}

impl Tutorials for Game {
    fn tutorial() -> Option<Tutorial<Game>> {
        Some(Tutorial {
            lessons: vec![
                Lesson {
                    key: "turn",
                    steps: vec![
                        Step {
                            key: "take",
                            options: two(),
                            seed: 1,
                            prefix: vec![],
                            seat: Seat(0),
                            accepted: vec!["take 1", "take 2", "take 3"],
                            wrong: vec!["place e5 E", "refill 1"],
                            gain: None,
                        },
                        Step {
                            key: "first",
                            options: two(),
                            seed: 1,
                            prefix: vec!["take 1"],
                            seat: Seat(0),
                            accepted: vec!["place e5 E", "place e5 S", "place e5 W", "place e5 N"],
                            wrong: vec!["place d4 E", "take 2"],
                            gain: None,
                        },
                    ],
                },
                Lesson {
                    key: "markers",
                    steps: vec![Step {
                        key: "choose",
                        options: two(),
                        seed: 1,
                        prefix: areas_prefix()[..80].to_vec(),
                        seat: Seat(0),
                        accepted: vec!["mark B"],
                        wrong: vec!["mark A"],
                        gain: Some(STAGE_VALUE),
                    }],
                },
                Lesson {
                    key: "resurface",
                    steps: vec![Step {
                        key: "cover",
                        options: two(),
                        seed: 1,
                        prefix: vec!["take 2", "place e5 S"],
                        seat: Seat(0),
                        accepted: vec![
                            "resurface B green nw",
                            "resurface B green ne",
                            "resurface B green sw",
                            "resurface B green se",
                        ],
                        wrong: vec!["pass"],
                        gain: Some(STAGE_VALUE),
                    }],
                },
                Lesson {
                    key: "areas",
                    steps: vec![Step {
                        key: "grow",
                        options: two(),
                        seed: 1,
                        prefix: areas_prefix(),
                        seat: Seat(1),
                        accepted: vec!["place d2 S"],
                        wrong: vec!["place c3 E"],
                        gain: Some(STAGE_VALUE),
                    }],
                },
                Lesson {
                    key: "upper",
                    steps: vec![Step {
                        key: "place",
                        options: two(),
                        seed: 1,
                        prefix: [
                            areas_prefix(),
                            vec![
                                "place d2 S",
                                "refill 3",
                                "take 3",
                                "place a4 N",
                                "pass",
                                "refill 3",
                                "take 2",
                                "place d1 W",
                                "refill 2",
                                "take 2",
                                "place a1 S",
                                "pass",
                                "refill 3",
                                "take 1",
                                "place a1 S",
                                "refill 2",
                                "take 1",
                                "place b2 S",
                                "mark A",
                                "pass",
                                "refill 1",
                                "take 1",
                                "place b2 N",
                                "mark B",
                                "refill 1",
                                "take 1",
                                "place b1 E",
                                "resurface B yellow sw",
                                "refill 1",
                                "take 2",
                                "place c2 S",
                                "refill 2",
                                "take 1",
                                "place c4 W",
                                "refill 2",
                                "take 3",
                                "place b3 W",
                                "mark B",
                                "refill 4",
                                "take 3",
                                "place b2 W",
                                "refill 4",
                                "take 2",
                            ],
                        ]
                        .concat(),
                        seat: Seat(0),
                        accepted: vec!["place b2 W", "place b2 N"],
                        wrong: vec!["place a1 E"],
                        gain: Some(STAGE_VALUE),
                    }],
                },
            ],
            final_table: two(),
            final_solo: false,
        })
    }
}

/// The moves before the "areas" lesson's step: the "markers" lesson stops 4 moves earlier,
/// the "upper" lesson goes on from there.
fn areas_prefix() -> Vec<&'static str> {
    vec![
        "take 2",
        "place e5 S",
        "resurface B green sw",
        "refill 2",
        "take 3",
        "place e5 S",
        "resurface B green ne",
        "refill 4",
        "take 3",
        "place f5 N",
        "pass",
        "refill 4",
        "take 3",
        "place e4 W",
        "resurface B yellow nw",
        "refill 3",
        "take 3",
        "place e8 N",
        "mark A",
        "pass",
        "refill 3",
        "take 3",
        "place f6 E",
        "pass",
        "refill 3",
        "take 3",
        "place d8 N",
        "resurface B blue nw",
        "refill 3",
        "take 1",
        "place f4 S",
        "resurface A blue nw",
        "refill 2",
        "take 3",
        "place g7 W",
        "pass",
        "refill 3",
        "take 3",
        "place c4 N",
        "refill 3",
        "take 3",
        "place e4 W",
        "pass",
        "refill 4",
        "take 2",
        "place d6 N",
        "refill 3",
        "take 3",
        "place g6 W",
        "pass",
        "refill 3",
        "take 2",
        "place c5 S",
        "refill 3",
        "take 3",
        "place d5 S",
        "pass",
        "refill 3",
        "take 1",
        "place e3 W",
        "refill 1",
        "take 1",
        "place g5 N",
        "pass",
        "refill 2",
        "take 3",
        "place g3 W",
        "refill 3",
        "take 1",
        "place g8 W",
        "pass",
        "refill 1",
        "take 3",
        "place g4 S",
        "refill 4",
        "take 1",
        "place a3 E",
        "refill 2",
        "take 3",
        "place c2 S",
        "mark B",
        "pass",
        "refill 3",
        "take 2",
    ]
}
