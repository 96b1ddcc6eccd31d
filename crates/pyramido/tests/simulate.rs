//! The shared random-simulation harness over many seeded games, and the same checks over
//! careful random games that reach the upper stages.
mod common;

use common::careful_move;
use pyramidion_core::record::Record;
use pyramidion_core::{GameRng, Rules, Seat, ToMove};
use pyramidion_pyramido::{Game, Options, Status};
use pyramidion_testkit::{SimConfig, Simulate, simulate_many};

/// Views and determinisation are checked every 41 plies (and at the end) in the bulk runs:
/// building and serialising them dominates the cost. A smaller run checks them every 7.
const BULK: SimConfig = SimConfig {
    view_every: 41,
    probe_every: 5,
};

fn run(players: u8, first_seed: u64, games: u64, config: SimConfig) -> u64 {
    simulate_many::<Game>(&Options::players(players), first_seed, games, config)
        .unwrap_or_else(|e| panic!("{players} players: {e}"))
}

#[test]
fn harness_2_players() {
    run(2, 0, 4000, BULK);
    run(2, 50_000, 150, SimConfig::default());
}

#[test]
fn harness_3_players() {
    run(3, 100_000, 3000, BULK);
    run(3, 150_000, 100, SimConfig::default());
}

#[test]
fn harness_4_players() {
    run(4, 200_000, 3000, BULK);
    run(4, 250_000, 100, SimConfig::default());
}

/// The harness's checks, by hand, over games of careful random players.
#[test]
fn careful_games_keep_every_invariant() {
    let mut complete = 0;
    let mut covered = 0;
    let mut eliminated = 0;
    for seed in 0..240u64 {
        let players = 2 + (seed % 3) as u8;
        let options = Options::players(players);
        let mut game = Game::new(&options, seed).unwrap();
        let mut record = Record::new(Game::DESCRIPTOR.key, &options, seed);
        let mut rng = GameRng::from_seed(seed + 7);
        let mut buf = Vec::new();
        let mut stage = 0;
        let mut first = Seat(0);
        while let ToMove::Seat(_) = game.to_move() {
            game.check_invariants()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            if game.stage() != stage {
                // The lowest stage score starts the next stage; ties: first in turn order.
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
            if game.ply() % 11 == 0 {
                for s in 0..players {
                    game.check_view(Some(Seat(s))).unwrap();
                    let det = game.determinize(Seat(s), &mut rng);
                    det.check_invariants().unwrap();
                    assert_eq!(det.view(Some(Seat(s))), game.view(Some(Seat(s))));
                }
            }
            let m = careful_move(&game, &mut rng, &mut buf);
            let mut unchecked = game.clone();
            unchecked.play_unchecked(&m);
            game.play(&m)
                .unwrap_or_else(|e| panic!("seed {seed}: {m} refused: {e}"));
            assert_eq!(unchecked, game);
            record.push(&m);
        }
        game.check_invariants().unwrap();
        assert!(game.ply() <= <Game as Simulate>::MAX_PLIES);
        let outcome = game.outcome().unwrap();
        record.result = Some(outcome.scores.clone());
        let replayed: Game = Record::parse(&record.to_text()).unwrap().replay().unwrap();
        assert_eq!(replayed, game);
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
