//! Forgotten Treasures' tutorial (issue 48): a turn (take a domino and a gem, flip a pile,
//! place the first domino), the stage end's activations, and a solo game's stage end against
//! THE Legend — one rule at a time, as the rulebook teaches them, each on a real deal
//! replayed through the rules. A wrong activation is answered with the points it misses,
//! computed here by the engine's own stage scoring ([`stage_points`]). The deals were found
//! by `cargo run -p pyramidion-treasures --example tutorial_deals` and frozen here; the
//! games' tests replay them.
use crate::allocation::best_plan;
use crate::{Game, Options, Phase, SoloMode};
use pyramidion_core::Seat;
use pyramidion_core::tutorial::{Gain, Lesson, Step, Tutorial, Tutorials};

/// The most points `seat` can still end the stage end with after a move: its total so far,
/// plus — while it is activating — the points of the areas it activated and the engine's
/// exact best allocation of the gems it holds over the areas still open (Mythicals kept
/// included: [`best_plan`], what the table's "best allocation" shows). Every activation of
/// an optimal plan keeps this value; one that leaves no optimal plan loses what it costs.
pub fn stage_points(game: &Game, seat: Seat) -> i32 {
    let player = game.player(seat);
    let activating = game.phase() == Phase::Activate && game.current() == seat;
    let pending = game.scoring().filter(|_| activating).map_or(0, |sc| {
        let open = sc
            .areas()
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                !sc.activations()
                    .iter()
                    .any(|(anchor, _)| *anchor == a.anchor)
            })
            .fold(0u128, |mask, (i, _)| mask | 1 << i);
        i64::from(sc.points()) + i64::from(best_plan(sc.areas(), open, player.gems()).points)
    });
    (i64::from(player.total()) + pending) as i32
}

pub const STAGE_POINTS: Gain<Game> = Gain {
    key: "stage_points",
    measure: stage_points,
};

impl Tutorials for Game {
    fn tutorial() -> Option<Tutorial<Game>> {
        let duel = Options::multiplayer(2);
        Some(Tutorial {
            lessons: vec![
                Lesson {
                    key: "turn",
                    steps: vec![
                        Step {
                            key: "take",
                            options: duel,
                            seed: 1,
                            prefix: vec![],
                            seat: Seat(0),
                            accepted: vec![
                                "take 1 green",
                                "take 1 mythical",
                                "take 3 blue",
                                "take 3 red",
                                "take 5 red",
                                "take 5 mythical",
                            ],
                            wrong: vec!["place e5 E", "take 2 purple"],
                            gain: None,
                        },
                        Step {
                            key: "flip",
                            options: duel,
                            seed: 1,
                            prefix: vec!["take 1 green"],
                            seat: Seat(0),
                            accepted: vec!["flip 1", "flip 2", "flip 4"],
                            wrong: vec!["flip 3", "place e5 E"],
                            gain: None,
                        },
                        Step {
                            key: "first",
                            options: duel,
                            seed: 1,
                            prefix: vec!["take 1 green", "flip 1"],
                            seat: Seat(0),
                            accepted: vec!["place e5 E", "place e5 S", "place e5 W", "place e5 N"],
                            wrong: vec!["place d4 E", "flip 2"],
                            gain: None,
                        },
                    ],
                },
                Lesson {
                    key: "activation",
                    steps: vec![Step {
                        key: "activate",
                        options: duel,
                        seed: 1,
                        prefix: vec![
                            "take 1 mythical",
                            "flip 2",
                            "place e5 W",
                            "take 2 mythical",
                            "flip 1",
                            "place e5 S",
                            "take 1 mythical",
                            "flip 4",
                            "place c5 W",
                            "take 5 mythical",
                            "flip 1",
                            "place f5 N",
                            "take 1 green",
                            "flip 1",
                            "place c4 E",
                            "take 1 green",
                            "flip 1",
                            "place e8 N",
                            "take 1 mythical",
                            "flip 1",
                            "place b3 E",
                            "take 3 red",
                            "flip 2",
                            "place f7 N",
                            "take 2 orange",
                            "flip 5",
                            "place e3 S",
                            "take 5 red",
                            "flip 3",
                            "place f8 E",
                            "take 4 blue",
                            "flip 2",
                            "place f3 S",
                            "take 3 blue",
                            "flip 3",
                            "place d6 S",
                            "take 2 purple",
                            "flip 5",
                            "place d2 S",
                            "take 5 red",
                            "flip 2",
                            "place e4 W",
                            "take 2 mythical",
                            "flip 4",
                            "place c2 W",
                            "take 1 purple",
                            "flip 5",
                            "place g5 N",
                            "take 4 red",
                            "flip 1",
                            "place e2 E",
                            "take 1 green",
                            "flip 1",
                            "place g7 N",
                        ],
                        seat: Seat(0),
                        accepted: vec![
                            "activate e5 1c4m",
                            "activate e1 1c",
                            "activate i5 1c",
                            "activate a3 1c",
                            "activate c1 1c",
                        ],
                        wrong: vec!["done", "take 1 red"],
                        gain: Some(STAGE_POINTS),
                    }],
                },
                Lesson {
                    key: "legend",
                    steps: vec![Step {
                        key: "stage_end",
                        options: Options::solo(SoloMode::TheLegend),
                        seed: 1,
                        prefix: vec![
                            "take 5 red",
                            "flip 4",
                            "place e5 W",
                            "take 3 red",
                            "flip 2",
                            "place c6 E",
                            "take 2 mythical",
                            "flip 3",
                            "place b6 W",
                            "take 3 mythical",
                            "flip 3",
                            "place b4 S",
                            "take 4 blue",
                            "flip 2",
                            "place b7 W",
                            "take 2 mythical",
                            "flip 2",
                            "place c5 N",
                            "take 3 mythical",
                            "flip 4",
                            "place e4 W",
                            "take 2 blue",
                            "flip 2",
                            "place e7 N",
                            "take 1 blue",
                            "flip 1",
                            "place d7 W",
                            "take 2 red",
                            "flip 2",
                            "place a5 N",
                        ],
                        seat: Seat(0),
                        accepted: vec!["activate a5 2m", "activate e1 3c", "activate i3 3c"],
                        wrong: vec!["done", "take 1 red"],
                        gain: Some(STAGE_POINTS),
                    }],
                },
            ],
            final_table: duel,
            final_solo: false,
        })
    }
}
