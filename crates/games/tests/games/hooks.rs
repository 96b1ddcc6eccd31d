//! Every bot hook of every registered game returns a legal move, at every table, on many
//! positions (`pyramidion_testkit::hooks`): the search plays them unchecked.
use crate::tables::tables;
use pyramidion_games::{GameKind, dispatch};

#[test]
fn every_hook_returns_a_legal_move() {
    for &kind in GameKind::ALL {
        dispatch!(kind, G => {
            for options in tables::<G>() {
                let positions = pyramidion_testkit::hooks::check_hooks::<G>(&options, 1, 3)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(positions > 0, "{kind} {options:?}: no position");
            }
        });
    }
}
