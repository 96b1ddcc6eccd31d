//! Every table a registered game can be played at, from its descriptor: each player count
//! with each value of the options that apply to it. Cross-game tests take their list of
//! games and tables from here, so that a new game is covered without a line in them.
use pyramidion_core::Rules;
use pyramidion_games::{GameKind, dispatch};
use serde_json::{Map, Value, json};

/// The options of every table of `G`: player counts from the fewest seats to the most, and
/// for each, every combination of the values of the options that apply.
pub fn tables<G: Rules>() -> Vec<G::Options> {
    let d = G::DESCRIPTOR;
    let mut out = Vec::new();
    for players in d.seats.min..=d.seats.max {
        let mut combinations = vec![Map::from_iter([("players".to_string(), json!(players))])];
        for option in d.options.iter().filter(|o| o.applies_to(players)) {
            combinations = combinations
                .into_iter()
                .flat_map(|c| {
                    option.values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.insert(option.key.to_string(), json!(v));
                        c
                    })
                })
                .collect();
        }
        out.extend(combinations.into_iter().map(|c| {
            serde_json::from_value(Value::Object(c)).expect("the descriptor's options deserialise")
        }));
    }
    out
}

/// How many tables `kind` has (what a test over every table multiplies its work by).
pub fn table_count(kind: GameKind) -> usize {
    dispatch!(kind, G => tables::<G>().len())
}
