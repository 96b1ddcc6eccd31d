//! The shared random-simulation harness over ≥ 10,000 seeded games (`scripts/test`; plain
//! `cargo test` plays a tenth): every player count and both solo modes. Each game checks legality, refusals, invariants, views, determinisation
//! and record replay (see `pyramidion_testkit`).
use pyramidion_testkit::{SimConfig, simulate_many, tier_games};
use pyramidion_treasures::{Game, Options, SoloMode};

fn run(options: Options, first_seed: u64, games: u64) {
    let config = SimConfig {
        view_every: 11,
        probe_every: 5,
    };
    let games = tier_games(games);
    if let Err(e) = simulate_many::<Game>(&options, first_seed, games, config) {
        panic!("{options:?}: {e}");
    }
}

#[test]
fn solo_a_legend() {
    run(Options::solo(SoloMode::ALegend), 1, 2000);
}

#[test]
fn solo_the_legend() {
    run(Options::solo(SoloMode::TheLegend), 100_001, 2000);
}

#[test]
fn two_players() {
    run(Options::multiplayer(2), 200_001, 2000);
}

#[test]
fn three_players() {
    run(Options::multiplayer(3), 300_001, 2000);
}

#[test]
fn four_players() {
    run(Options::multiplayer(4), 400_001, 2000);
}
