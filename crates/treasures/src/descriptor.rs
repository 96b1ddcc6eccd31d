//! What Forgotten Treasures says about itself to the server, the CLI and the browser.
use pyramidion_core::descriptor::{GameDescriptor, MoveKind, OptionDescriptor, SeatRange, ladder};

pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    key: "forgotten-treasures",
    name: "Pyramido: Forgotten Treasures",
    seats: SeatRange { min: 1, max: 4 },
    options: &[OptionDescriptor {
        key: "solo",
        values: &["the-legend", "a-legend"],
        default: "the-legend",
        players: &[1],
    }],
    // Search budgets sized to the measured cost of an iteration in this game (docs/bots.md).
    bot_levels: &ladder([40, 120, 250, 1000], [9, 28, 58, 230]),
    reference_iterations: 1000,
    setup_errors: &[
        "bad_options",
        "bad_player_count",
        "solo_mode_required",
        "solo_mode_needs_one_player",
    ],
    move_errors: &[
        "bad_move_syntax",
        "game_over",
        "wrong_phase",
        "no_such_space",
        "space_face_down",
        "gem_not_available",
        "gem_required",
        "pile_not_flippable",
        "off_board",
        "slot_occupied",
        "not_connected",
        "outside_frame",
        "first_domino_not_at_start",
        "unknown_area",
        "area_already_activated",
        "insufficient_gems",
        "gem_not_in_inventory",
    ],
    ranking: &["score", "gems_left", "best_stage"],
    moves: &[
        MoveKind {
            kind: "take",
            fields: &["space", "gem"],
            example: "take 2 red",
        },
        MoveKind {
            kind: "flip",
            fields: &["pile"],
            example: "flip 4",
        },
        MoveKind {
            kind: "place",
            fields: &["x", "y", "dir", "cells"],
            example: "place e5 E",
        },
        MoveKind {
            kind: "activate",
            fields: &["area", "payment", "points"],
            example: "activate c4 2c2m",
        },
        MoveKind {
            kind: "done",
            fields: &[],
            example: "done",
        },
        MoveKind {
            kind: "discard",
            fields: &["gem"],
            example: "discard blue",
        },
    ],
    stage_name: "stage",
    stages: 4,
    forfeit_points: 0,
};
