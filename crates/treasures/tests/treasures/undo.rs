//! Taking back steps (`Rules::undoable`): a stage end's activations and discards, never a
//! turn's take, flip or placing; honest over random games, solo and multiplayer.
use pyramidion_core::Rules;
use pyramidion_testkit::undo::undo_is_honest;
use pyramidion_treasures::{Game, Move, Options, SoloMode};

#[test]
fn undoable_steps_reveal_nothing() {
    for options in [
        Options::multiplayer(2),
        Options::multiplayer(4),
        Options::solo(SoloMode::TheLegend),
    ] {
        let report =
            undo_is_honest::<Game>(&options, 1, 20).unwrap_or_else(|e| panic!("{options:?}: {e}"));
        assert!(report.undoable > 0, "{options:?}: {report:?}");
    }
}

#[test]
fn a_turn_has_nothing_to_take_back() {
    let game = Game::new(&Options::multiplayer(3), 9).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert!(legal.iter().all(|m| matches!(m, Move::Take { .. })));
    assert!(legal.iter().all(|m| !game.undoable(m)));
}
