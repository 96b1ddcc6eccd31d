//! The search bot in every registered game, at every table: it plays only legal moves and the
//! same seed and budget play the same game. (Its blindness to hidden information and its
//! strength are tested on the games that have them, in `pyramidion-ai`'s own tests.)
use crate::tables::{table_count, tables};
use pyramidion_ai::Bot;
use pyramidion_ai::search::{Playout, Search, SearchConfig};
use pyramidion_ai::seed::seat_seed;
use pyramidion_core::{Rules, ToMove};
use pyramidion_games::{GameKind, dispatch};

/// A small, cheap configuration: legality does not depend on the budget.
fn tiny(iterations: u32) -> SearchConfig {
    SearchConfig {
        iterations,
        playout: Playout::Uniform,
        ..SearchConfig::default()
    }
}

/// Plays a game with a search bot at every seat, each with its seat's configuration; `play`
/// (checked) must accept every move. The moves' texts.
fn all_search_by_seat<G: Rules>(
    options: &G::Options,
    seed: u64,
    config: impl Fn(usize) -> SearchConfig,
) -> Vec<String> {
    let mut game = G::new(options, seed).unwrap();
    let mut bots: Vec<Search<G>> = (0..game.seats())
        .map(|s| Search::new(config(s.into()), seat_seed(seed, s.into())))
        .collect();
    let mut moves = Vec::new();
    while let ToMove::Seat(s) = game.to_move() {
        let m = bots[s.index()].choose(&game);
        game.play(&m).unwrap_or_else(|e| {
            panic!(
                "{} seed {seed}: illegal search move {m}: {e}",
                G::DESCRIPTOR.key
            )
        });
        moves.push(m.to_string());
    }
    assert!(game.outcome().is_some());
    moves
}

fn all_search<G: Rules>(options: &G::Options, seed: u64, config: SearchConfig) -> Vec<String> {
    all_search_by_seat::<G>(options, seed, |_| config)
}

#[test]
fn plays_only_legal_moves_in_every_game_and_table() {
    for &kind in GameKind::ALL {
        dispatch!(kind, G => {
            for options in tables::<G>() {
                for seed in 0..3 {
                    all_search::<G>(&options, seed, tiny(6));
                }
            }
        });
    }
}

#[test]
fn same_seed_and_budget_same_game() {
    let config = SearchConfig::with_iterations(12);
    for &kind in GameKind::ALL {
        dispatch!(kind, G => {
            let options = &tables::<G>()[table_count(kind) / 2];
            assert_eq!(
                all_search::<G>(options, 3, config),
                all_search::<G>(options, 3, config),
                "{kind}"
            );
        });
    }
}

/// Thousands of seeded games of every game and table (1,000 seeds each in `scripts/test`;
/// plain `cargo test` plays a tenth), search at every seat with a tiny budget: legality does
/// not depend on it. In one seed in twenty one seat (a different one from game to game) plays
/// the guided playouts and widening every level uses: whole greedy games per iteration, so
/// dear that with every seat on them these games were three quarters of the test's CPU; the
/// other seats play uniform ones.
#[test]
fn thousands_of_games_only_legal_moves() {
    let seeds = pyramidion_testkit::tier_games(1000);
    let config = |seed: u64, seats: usize, seat: usize| {
        if seed.is_multiple_of(20) && seat as u64 == (seed / 20) % seats as u64 {
            SearchConfig::with_iterations(2)
        } else {
            tiny(2)
        }
    };
    for &kind in GameKind::ALL {
        dispatch!(kind, G => {
            for options in tables::<G>() {
                let seats = usize::from(G::new(&options, 0).unwrap().seats());
                // Each game is independent: spread the seeds over the cores.
                pyramidion_testkit::each_seed_on_every_core(seeds, |seed| {
                    all_search_by_seat::<G>(&options, seed, |s| config(seed, seats, s));
                });
            }
        });
    }
}
