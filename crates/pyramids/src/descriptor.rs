//! What Pyramids says about itself to the server, the CLI and the browser.
use pyramidion_core::descriptor::{BotLevel, GameDescriptor, MoveKind, SeatRange};

pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    key: "pyramids",
    name: "Pyramids",
    seats: SeatRange { min: 2, max: 5 },
    options: &[],
    bot_levels: &[
        BotLevel {
            name: "random",
            iterations: 0,
            think_ms: 0,
        },
        BotLevel {
            name: "greedy",
            iterations: 0,
            think_ms: 0,
        },
        BotLevel {
            name: "easy",
            iterations: 100,
            think_ms: 10,
        },
        BotLevel {
            name: "medium",
            iterations: 400,
            think_ms: 40,
        },
        BotLevel {
            name: "hard",
            iterations: 1500,
            think_ms: 150,
        },
        BotLevel {
            name: "max",
            iterations: 5000,
            think_ms: 500,
        },
    ],
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
};
