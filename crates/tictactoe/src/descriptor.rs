//! What tic-tac-toe says about itself to the server, the CLI and the browser.
use pyramidion_core::descriptor::{GameDescriptor, MoveKind, SeatRange, ladder};

pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    key: "tic-tac-toe",
    name: "Tic-tac-toe",
    seats: SeatRange { min: 2, max: 2 },
    options: &[],
    // A game of at most nine moves: a few hundred iterations already play it perfectly.
    bot_levels: &ladder([10, 50, 200, 1000], [1, 1, 2, 5]),
    reference_iterations: 1000,
    setup_errors: &["bad_options", "bad_player_count"],
    move_errors: &["bad_move_syntax", "game_over", "cell_taken"],
    ranking: &["score"],
    moves: &[MoveKind {
        kind: "mark",
        fields: &["row", "column"],
        example: "b2",
    }],
    stage_name: "round",
    stages: 1,
    forfeit_points: 0,
};
