//! What Pyramido says about itself to the server, the CLI and the browser.
use pyramidion_core::descriptor::{GameDescriptor, MoveKind, SeatRange, ladder};

pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    key: "pyramido",
    name: "Pyramido",
    seats: SeatRange { min: 2, max: 4 },
    options: &[],
    // Search budgets sized to the measured cost of an iteration in this game (docs/bots.md).
    bot_levels: &ladder([50, 150, 400, 1000], [14, 42, 112, 280]),
    reference_iterations: 1000,
    setup_errors: &["bad_options", "bad_player_count", "bad_deck"],
    move_errors: &[
        "bad_move_syntax",
        "game_over",
        "wrong_step",
        "no_such_quarry_slot",
        "empty_quarry_slot",
        "off_board",
        "slot_occupied",
        "not_connected",
        "outside_frame",
        "first_domino_not_at_start",
        "block_marked",
        "unknown_colour",
        "bad_quadrant",
        "card_already_used",
        "no_such_pile",
        "pile_not_adjacent",
        "empty_pile",
        "wrong_hole",
    ],
    ranking: &["in_game", "score", "unused_cards", "best_stage"],
    moves: &[
        MoveKind {
            kind: "take",
            fields: &["slot"],
            example: "take 2",
        },
        MoveKind {
            kind: "place",
            fields: &["x", "y", "dir", "cells", "eliminates"],
            example: "place e5 E",
        },
        MoveKind {
            kind: "mark",
            fields: &["side", "x", "y"],
            example: "mark A",
        },
        MoveKind {
            kind: "resurface",
            fields: &["side", "x", "y", "colour", "card", "quadrant"],
            example: "resurface B red se",
        },
        MoveKind {
            kind: "pass",
            fields: &[],
            example: "pass",
        },
        MoveKind {
            kind: "refill",
            fields: &["pile", "slot"],
            example: "refill 3",
        },
        MoveKind {
            kind: "cover",
            fields: &["x", "y", "cell", "colour", "card", "quadrant"],
            example: "cover c2 blue nw",
        },
    ],
    stage_name: "stage",
    stages: 4,
    // The mean score of a finished game between two greedy bots: 65.9 and 67.1 over 300
    // games (`pyramidion sim --game pyramido --players 2 --bots greedy,greedy --games 300
    // --seed 1`). An elimination counts as losing by at least that.
    forfeit_points: 66,
};
