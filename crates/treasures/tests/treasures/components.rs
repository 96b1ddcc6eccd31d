//! The project's own domino set satisfies every constraint of RULES.md ("Components").
use pyramidion_treasures::data::{self, COLOUR_NAMES, DOMINO_COUNT, GENERATOR_SEED};
use pyramidion_treasures::gems::{Gem, Gems};
use std::collections::HashSet;

#[test]
fn ninety_dominoes_with_two_icons_each() {
    let all = data::all();
    assert_eq!(all.len(), DOMINO_COUNT);
    for (i, d) in all.iter().enumerate() {
        let icons: u32 = d.blocks.iter().map(|b| b.icon_count()).sum();
        assert_eq!(icons, 2, "domino {i}");
    }
}

#[test]
fn thirty_six_blocks_and_icons_per_colour() {
    for colour in 0..5u8 {
        let blocks: Vec<_> = data::all()
            .iter()
            .flat_map(|d| d.blocks)
            .filter(|b| b.colour == colour)
            .collect();
        let icons: u32 = blocks.iter().map(|b| b.icon_count()).sum();
        let by_count = |n| blocks.iter().filter(|b| b.icon_count() == n).count();
        assert_eq!(blocks.len(), 36, "{}", COLOUR_NAMES[colour as usize]);
        assert_eq!(icons, 36, "{}", COLOUR_NAMES[colour as usize]);
        assert_eq!(
            by_count(0),
            by_count(2),
            "{}: 0-icon blocks = 2-icon blocks",
            COLOUR_NAMES[colour as usize]
        );
    }
}

#[test]
fn no_duplicate_up_to_rotation() {
    let keys: HashSet<_> = data::all().iter().map(|d| d.canonical()).collect();
    assert_eq!(keys.len(), DOMINO_COUNT);
    // The canonical key really identifies a tile with its half-turn.
    let d = data::all()[0];
    assert_eq!(d.canonical(), d.turned().canonical());
}

#[test]
fn generator_reproduces_the_shipped_file() {
    let generated = data::to_csv(&data::generate(GENERATOR_SEED));
    assert_eq!(generated, include_str!("../../data/dominoes.csv"));
    assert_eq!(data::parse_csv(&generated).unwrap(), data::all());
}

#[test]
fn malformed_rows_are_reported_with_their_line() {
    let err = data::parse_csv("id,a,b,c,d\n0,orange,nw,pink,\n").unwrap_err();
    assert!(err.contains("line 2") && err.contains("pink"), "{err}");
    let err = data::parse_csv("1,orange,nw,blue,\n").unwrap_err();
    assert!(err.contains("ids must run from 0"), "{err}");
}

#[test]
fn gem_supply() {
    let g = Gems::full_supply();
    assert_eq!(g.total(), 63);
    assert_eq!(g.get(Gem::Mythical), 18);
    assert!(Gem::ALL[..5].iter().all(|&c| g.get(c) == 9));
}
