//! Taking back steps of one's own turn (`Rules::undoable`): honest over random games, and
//! the steps a player most wants back (the take, the placing) are offered.
use pyramidion_core::Rules;
use pyramidion_pyramido::{Game, Move, Options};
use pyramidion_testkit::undo::undo_is_honest;

#[test]
fn undoable_steps_reveal_nothing() {
    for players in 2..=4 {
        let report = undo_is_honest::<Game>(&Options::players(players), 1, 30)
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        // Most turns have a take and a placing that may be taken back.
        assert!(
            report.undoable * 4 > report.plies,
            "{players} players: {report:?}"
        );
    }
}

#[test]
fn the_take_and_the_placing_may_be_taken_back_but_not_the_refill() {
    let mut game = Game::new(&Options::players(2), 3).unwrap();
    let mover = game.to_move();
    let take = Move::Take(0);
    assert!(game.undoable(&take));
    game.play(&take).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let place = legal[0];
    assert!(game.undoable(&place), "{place}");
    game.play(&place).unwrap();
    // On to the end of the turn: every step before the refill stays the same seat's.
    while game.to_move() == mover {
        game.legal_moves(&mut legal);
        let m = legal[0];
        if matches!(m, Move::Refill(_)) {
            assert!(!game.undoable(&m), "a refill turns up a domino");
        }
        game.play(&m).unwrap();
    }
    // The other seat's first step now (a take): a pass is illegal there, and an illegal move
    // is never undoable.
    assert!(!game.undoable(&Move::Pass));
}
