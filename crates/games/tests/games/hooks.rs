//! Every bot hook of every registered game returns a legal move, on many positions
//! (`pyramidion_testkit::hooks`): the search plays them unchecked.
use pyramidion_core::Rules;
use pyramidion_games::{GameKind, dispatch};
use serde_json::{Map, Value, json};

/// The options of a table of `players` in `G`: every option that applies at its default.
fn options<G: Rules>(players: u8) -> G::Options {
    let mut o = Map::new();
    o.insert("players".into(), json!(players));
    for option in G::DESCRIPTOR.options {
        if option.applies_to(players) {
            o.insert(option.key.into(), json!(option.default));
        }
    }
    serde_json::from_value(Value::Object(o)).expect("the descriptor's options deserialise")
}

#[test]
fn every_hook_returns_a_legal_move() {
    for &kind in GameKind::ALL {
        let seats = kind.descriptor().seats;
        for players in seats.min..=seats.max {
            let positions = dispatch!(kind, G => {
                pyramidion_testkit::hooks::check_hooks::<G>(&options::<G>(players), 1, 3)
            })
            .unwrap_or_else(|e| panic!("{e}"));
            assert!(positions > 0, "{kind}, {players} players: no position");
        }
    }
}
