//! Bot levels over every registered game: names round-trip, and every game lists the whole
//! ladder with budgets that grow.
use pyramidion_ai::level::{BotLevel, LADDER, UnknownLevel};
use pyramidion_games::GameKind;

#[test]
fn names_round_trip_and_unknown_is_an_error() {
    for name in BotLevel::names() {
        let level: BotLevel = name.parse().unwrap();
        assert_eq!(level.name(), name);
        assert_eq!(serde_json::to_value(level).unwrap(), name);
    }
    let spec: BotLevel = "search:5000".parse().unwrap();
    assert_eq!(spec, BotLevel::Search(5000));
    assert_eq!(spec.name(), "search:5000");
    for kind in GameKind::ALL {
        assert_eq!(spec.iterations(kind.descriptor()), Some(5000));
    }
    for bad in [
        "",
        "Greedy",
        "grandmaster",
        "search:",
        "search:0",
        "search:x",
    ] {
        assert_eq!(
            bad.parse::<BotLevel>(),
            Err(UnknownLevel(bad.to_string())),
            "{bad}"
        );
    }
}

#[test]
fn the_ladder_budgets_grow() {
    for kind in GameKind::ALL {
        // Every game's descriptor lists the whole ladder, in order.
        let listed: Vec<&str> = kind
            .descriptor()
            .bot_levels
            .iter()
            .map(|l| l.name)
            .collect();
        assert_eq!(listed, BotLevel::names(), "{kind}");
        let budgets: Vec<u32> = LADDER
            .iter()
            .filter_map(|l| {
                l.name
                    .parse::<BotLevel>()
                    .unwrap()
                    .iterations(kind.descriptor())
            })
            .collect();
        assert!(budgets.len() >= 3);
        assert!(
            budgets.windows(2).all(|w| w[0] < w[1]),
            "{kind}: {budgets:?}"
        );
    }
}
