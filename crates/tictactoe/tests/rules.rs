//! The rules of tic-tac-toe, stated as tests: the counts every player knows, a win, a draw,
//! refusals that change nothing, and the shared simulation harness over many seeded games.
use pyramidion_core::rules::perft;
use pyramidion_core::{Notation, Rules, Seat, ToMove};
use pyramidion_testkit::players::{GreedyPlayer, RandomPlayer};
use pyramidion_testkit::{SimConfig, simulate_many, tier_games};
use pyramidion_tictactoe::{Game, Mark, Move, Options};

fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(&m.parse().unwrap()).unwrap();
    }
}

#[test]
fn the_known_move_sequence_counts() {
    let game = Game::new(&Options::default(), 1).unwrap();
    // 9 × 8 × … , less the games already won at ply 5 (1,440 of 15,120) and ply 6.
    let counts: Vec<u64> = (1..=6).map(|d| perft(&game, d)).collect();
    assert_eq!(counts, [9, 72, 504, 3024, 15120, 54720]);
}

#[test]
fn three_in_a_row_wins_and_ends_the_game() {
    let mut game = Game::new(&Options::default(), 3).unwrap();
    let x = game.first_player();
    assert_eq!(game.to_move(), ToMove::Seat(Seat(x)));
    // X: a1 b1 c1 (the top row); O: a2 b2.
    play(&mut game, "a1 a2 b1 b2 c1");
    assert_eq!(game.winner(), Some(Mark::X));
    assert_eq!(game.to_move(), ToMove::Over);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.ranks[usize::from(x)], 0);
    assert_eq!(outcome.ranks[usize::from(1 - x)], 1);
    let refused = game.clone();
    assert_eq!(
        game.play(&"c3".parse().unwrap()).unwrap_err().to_string(),
        "the game is over"
    );
    assert_eq!(game, refused);
}

#[test]
fn a_full_board_without_a_line_is_a_shared_draw() {
    let mut game = Game::new(&Options::default(), 0).unwrap();
    play(&mut game, "b2 a1 c1 a3 a2 c2 b1 b3 c3");
    assert_eq!(game.winner(), None);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.ranks, [0, 0]);
    assert_eq!(outcome.decided_by, [None, Some("shared")]);
}

#[test]
fn a_taken_cell_and_bad_text_are_refused_with_their_codes() {
    use pyramidion_core::ErrorCode;
    let mut game = Game::new(&Options::default(), 0).unwrap();
    play(&mut game, "b2");
    let before = game.clone();
    let err = game.play(&"b2".parse().unwrap()).unwrap_err();
    assert_eq!(err.code(), "cell_taken");
    assert_eq!(game, before);
    for bad in ["", "d1", "a4", "b", "b22", "B2"] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?}");
    }
    assert_eq!(
        Game::new(&Options { players: 3 }, 0).unwrap_err().code,
        "bad_player_count"
    );
}

#[test]
fn move_texts_round_trip_and_forms_give_cells_as_numbers() {
    let game = Game::new(&Options::default(), 0).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    for m in &legal {
        assert_eq!(m.to_string().parse::<Move>().unwrap(), *m);
        let form = serde_json::to_value(game.form(m)).unwrap();
        assert_eq!(form["kind"], "mark");
        assert_eq!(form["row"], m.row);
        assert_eq!(form["column"], m.column);
    }
}

#[test]
fn greedy_takes_a_win_and_blocks_a_loss() {
    let mut greedy = GreedyPlayer::new(5);
    let mut game = Game::new(&Options::default(), 0).unwrap();
    // X a1 b1, O a2 b2: X to move wins at c1.
    play(&mut game, "a1 a2 b1 b2");
    assert_eq!(greedy.choose(&game).to_string(), "c1");
    // X a1 a2, O b2: O to move must block a3.
    let mut game = Game::new(&Options::default(), 0).unwrap();
    play(&mut game, "a1 b2 a2");
    assert_eq!(greedy.choose(&game).to_string(), "a3");
}

#[test]
fn greedy_never_loses_to_random_often() {
    let mut lost = 0;
    for seed in 0..200u64 {
        let mut game = Game::new(&Options::default(), seed).unwrap();
        let mut greedy = GreedyPlayer::new(seed);
        let mut random = RandomPlayer::new(seed);
        while let ToMove::Seat(s) = game.to_move() {
            let m = if s.0 == 0 {
                greedy.choose(&game)
            } else {
                random.choose(&game)
            };
            game.play(&m).unwrap();
        }
        lost += u32::from(game.outcome().unwrap().ranks[0] == 1);
    }
    assert!(lost < 20, "greedy lost {lost} of 200 to random");
}

#[test]
fn random_games_pass_the_shared_harness() {
    let games = tier_games(10_000);
    let plies = simulate_many::<Game>(&Options::default(), 0, games, SimConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(plies >= games * 5);
}

/// Every move ends the turn: the game declares nothing to undo (the rules contract's default),
/// and the harness agrees over random games.
#[test]
fn no_move_can_be_taken_back() {
    let report = pyramidion_testkit::undo::undo_is_honest::<Game>(&Options::default(), 0, 200)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.plies >= 200 * 5);
    assert_eq!(report.undoable, 0);
}
