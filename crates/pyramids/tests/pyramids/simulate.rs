//! The shared random-simulation harness over 10,000 seeded games (2,500 per player count; a
//! tenth in the first tier, see `tier_games`),
//! plus fewer games checked more densely.
//!
//! The bulk checks views and determinisation every 41 plies and probes illegal moves every 13
//! (both prime, so the checks fall on every kind of decision over the games); the dense runs
//! use the harness defaults (7 and 5) and every ply.
use pyramidion_pyramids::{Game, Options};
use pyramidion_testkit::{SimConfig, simulate, simulate_many, tier_games};

const BULK: SimConfig = SimConfig {
    view_every: 41,
    probe_every: 13,
};

fn bulk(players: u8) {
    let first_seed = players as u64 * 1_000_000;
    let games = tier_games(2500);
    let plies = simulate_many::<Game>(&Options { players }, first_seed, games, BULK)
        .unwrap_or_else(|e| panic!("{players} players: {e}"));
    // Every round has at least a god pick (or an automatic one), a Pyramid card per seat.
    assert!(plies >= games * 10 * players as u64);
}

#[test]
fn random_games_2_players() {
    bulk(2);
}

#[test]
fn random_games_3_players() {
    bulk(3);
}

#[test]
fn random_games_4_players() {
    bulk(4);
}

#[test]
fn random_games_5_players() {
    bulk(5);
}

#[test]
fn default_config_games() {
    for players in 2..=5u8 {
        simulate_many::<Game>(
            &Options { players },
            7_000 + players as u64 * 100,
            25,
            SimConfig::default(),
        )
        .unwrap_or_else(|e| panic!("{players} players: {e}"));
    }
}

#[test]
fn every_ply_checked_on_a_few_games() {
    let config = SimConfig {
        view_every: 1,
        probe_every: 1,
    };
    for players in 2..=5u8 {
        for seed in 0..3 {
            let report = simulate::<Game>(&Options { players }, seed, config)
                .unwrap_or_else(|e| panic!("{players} players: {e}"));
            assert!(report.plies > 10 * 2 * players as u32);
        }
    }
}

#[test]
fn bad_player_counts_are_refused() {
    use pyramidion_core::{ErrorCode, Rules};
    for players in [0u8, 1, 6] {
        let e = Game::new(&Options { players }, 1).unwrap_err();
        assert_eq!(e.code(), "bad_player_count");
    }
}
