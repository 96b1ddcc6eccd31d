//! What Pyramids says about itself to the server, the CLI and the browser.
use pyramidion_core::descriptor::{GameDescriptor, MoveKind, SeatRange, ladder};

pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    key: "pyramids",
    name: "Pyramids",
    seats: SeatRange { min: 2, max: 5 },
    options: &[],
    // Search budgets sized to the measured cost of an iteration in this game (docs/bots.md).
    // Iterations buy less here as they grow: 1,500 was only +89 Elo below 5,000, while 500
    // is +200 below it, so the lower levels sit lower (each step measured: docs/bots.md).
    bot_levels: &ladder([25, 100, 500, 5000], [3, 11, 55, 550]),
    reference_iterations: 5000,
    setup_errors: &["bad_options", "bad_player_count"],
    move_errors: &[
        "bad_move_syntax",
        "game_over",
        "wrong_phase",
        "god_not_in_game",
        "god_set_aside",
        "god_taken",
        "no_such_pair",
        "pair_taken",
        "no_such_card",
        "place_not_open",
        "pyramid_first",
        "edifice_not_allowed",
        "edifice_already_built",
    ],
    ranking: &["score"],
    moves: &[
        MoveKind {
            kind: "god",
            fields: &["god", "number"],
            example: "god 4",
        },
        MoveKind {
            kind: "pair",
            fields: &["pair"],
            example: "pair 2",
        },
        MoveKind {
            kind: "pyramid",
            fields: &["hand", "card", "place", "row", "slot"],
            example: "pyramid 1 a1",
        },
        MoveKind {
            kind: "obelisk",
            fields: &["hand", "card"],
            example: "obelisk 2",
        },
        MoveKind {
            kind: "tomb",
            fields: &["hand", "card"],
            example: "tomb 2",
        },
        MoveKind {
            kind: "done",
            fields: &[],
            example: "done",
        },
        MoveKind {
            kind: "discard",
            fields: &["hand", "card"],
            example: "discard 1",
        },
    ],
    stage_name: "round",
    stages: 10,
    forfeit_points: 0,
};
