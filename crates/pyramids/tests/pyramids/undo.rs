//! Taking back steps of one's own turn (`Rules::undoable`): the pair taken and a card put in
//! one's own Tomb, never a card shown on the Pyramid or the Obelisk; honest over random games.
use pyramidion_core::Rules;
use pyramidion_pyramids::{Game, Move, Options};
use pyramidion_testkit::undo::undo_is_honest;

#[test]
fn undoable_steps_reveal_nothing() {
    for players in 2..=5 {
        let report = undo_is_honest::<Game>(&Options { players }, 1, 30)
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        assert!(report.undoable > 0, "{players} players: {report:?}");
    }
}

#[test]
fn a_pair_may_be_taken_back_but_not_a_pyramid_card() {
    let mut game = Game::new(&Options { players: 3 }, 5).unwrap();
    let mut legal = Vec::new();
    loop {
        game.legal_moves(&mut legal);
        if let Some(pair) = legal.iter().find(|m| matches!(m, Move::Pair(_))) {
            assert!(game.undoable(pair));
            game.play(&pair.clone()).unwrap();
            break;
        }
        assert!(
            legal.iter().all(|m| !game.undoable(m)),
            "a God tile ends the turn"
        );
        game.play(&legal[0].clone()).unwrap();
    }
    game.legal_moves(&mut legal);
    assert!(legal.iter().all(|m| matches!(m, Move::Pyramid(..))));
    assert!(legal.iter().all(|m| !game.undoable(m)));
}
