//! The shared random-simulation harness over many seeded games, and the same checks over
//! careful random games that reach the upper stages.

use crate::common::careful_move;
use pyramidion_core::{GameRng, Seat};
use pyramidion_pyramido::{Game, Move, Options, Status};
use pyramidion_testkit::{SimConfig, simulate_many, simulate_many_with, simulate_with, tier_games};

/// Views and determinisation are checked every 41 plies (and at the end) in the bulk runs:
/// building them dominates the cost. A smaller run checks them every 7.
const BULK: SimConfig = SimConfig {
    view_every: 41,
    probe_every: 5,
};

/// Half the games uniform random, which mostly end on stage 1 (stuck players are
/// eliminated); half by careful players, which reach stages 2-4 and their rules.
fn run(players: u8, first_seed: u64, games: u64, config: SimConfig) {
    let games = tier_games(games) / 2;
    let options = Options::players(players);
    simulate_many::<Game>(&options, first_seed, games, config)
        .unwrap_or_else(|e| panic!("{players} players, uniform: {e}"));
    let mut buf = Vec::new();
    let mut careful =
        |game: &Game, _: &[Move], rng: &mut GameRng| careful_move(game, rng, &mut buf);
    simulate_many_with::<Game>(&options, first_seed + games, games, config, &mut careful)
        .unwrap_or_else(|e| panic!("{players} players, careful: {e}"));
}

#[test]
fn harness_2_players() {
    run(2, 0, 4000, BULK);
    run(2, 50_000, 300, SimConfig::default());
}

#[test]
fn harness_3_players() {
    run(3, 100_000, 3000, BULK);
    run(3, 150_000, 200, SimConfig::default());
}

#[test]
fn harness_4_players() {
    run(4, 200_000, 3000, BULK);
    run(4, 250_000, 200, SimConfig::default());
}

/// The harness over careful players, watching the rule the harness cannot know: the lowest
/// stage score starts the next stage (ties: first in turn order).
#[test]
fn careful_games_reach_the_end_and_the_lowest_score_starts_each_stage() {
    let mut complete = 0;
    let mut covered = 0;
    let mut eliminated = 0;
    let config = SimConfig {
        view_every: 11,
        probe_every: 5,
    };
    for seed in 0..240u64 {
        let players = 2 + (seed % 3) as u8;
        let options = Options::players(players);
        let mut buf = Vec::new();
        let mut stage = 0;
        let mut first = Seat(0);
        let mut policy = |game: &Game, _: &[Move], rng: &mut GameRng| {
            if game.stage() != stage {
                let scores: Vec<Option<u16>> = game
                    .players()
                    .iter()
                    .map(|p| {
                        (p.status() != Status::Eliminated).then(|| p.scores().last().unwrap().total)
                    })
                    .collect();
                let order = (0..players).map(|k| (first.0 + k) % players);
                let best = order
                    .filter(|&s| scores[s as usize].is_some())
                    .min_by_key(|&s| scores[s as usize])
                    .unwrap();
                assert_eq!(game.first_player(), Seat(best), "seed {seed}: {scores:?}");
                assert_eq!(game.current(), Seat(best));
                stage = game.stage();
                first = game.first_player();
            }
            careful_move(game, rng, &mut buf)
        };
        let game = simulate_with::<Game>(&options, seed, config, &mut policy)
            .unwrap_or_else(|e| panic!("{e}"))
            .game;
        if game.players().iter().all(|p| p.scores().len() == 4) {
            complete += 1;
        }
        covered += game
            .players()
            .iter()
            .filter(|p| p.pyramid().blocks().len() > 2 * p.dominoes().len())
            .count();
        eliminated += game
            .players()
            .iter()
            .filter(|p| p.status() == Status::Eliminated)
            .count();
    }
    // The careful players do reach the end, cover holes, and sometimes still lose.
    assert!(complete > 100, "{complete} complete games");
    assert!(covered > 0 && eliminated > 0, "{covered} {eliminated}");
    println!("{complete} complete games, {covered} players covered holes, {eliminated} eliminated");
}
