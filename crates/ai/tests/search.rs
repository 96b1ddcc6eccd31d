//! The search bot: blind to what its seat cannot see, and stronger than greedy, on the games
//! with hidden information; legal and reproducible in every registered game
//! (`pyramidion-games`' test `search`, which takes its list from the registry). Correctness
//! only; speed is measured by `pyramidion bench` and `arena`.
use pyramidion_ai::search::{Playout, Search, SearchConfig};
use pyramidion_ai::seed::seat_seed;
use pyramidion_ai::{Bot, Greedy};
use pyramidion_core::{GameRng, Rules, Seat, ToMove};
use pyramidion_pyramido as pyramido;
use pyramidion_pyramids as pyramids;
use pyramidion_treasures as treasures;

/// A small, cheap configuration for the tests that are not about strength.
fn tiny(iterations: u32) -> SearchConfig {
    SearchConfig {
        iterations,
        playout: Playout::Uniform,
        ..SearchConfig::default()
    }
}

/// Two true states that look the same to the seat to move (one is a determinisation of the
/// other: its hidden piles, hands, tombs and RNG differ) get the same move from the same
/// seed: the bot's choice depends only on what its seat may see.
fn blind_to_hidden<G: Rules>(options: &G::Options, seeds: std::ops::Range<u64>) -> usize {
    let mut differing = 0;
    for seed in seeds {
        let mut game = G::new(options, seed).unwrap();
        let mut greedy = Greedy::new(seed);
        let mut rng = GameRng::from_seed(seed ^ 0xABCD);
        let mut ply = 0;
        while let ToMove::Seat(seat) = game.to_move() {
            if ply % 7 == 3 {
                let other = game.determinize(seat, &mut rng);
                assert_eq!(
                    serde_json::to_value(game.view(Some(seat))).unwrap(),
                    serde_json::to_value(other.view(Some(seat))).unwrap(),
                    "a determinisation must look the same to its seat"
                );
                differing += usize::from(other != game);
                // Uniform playouts, the guided ones every level plays, and greedy itself
                // (which samples the hidden cards too in Pyramids).
                for config in [tiny(24), SearchConfig::with_iterations(24)] {
                    let a = Search::<G>::new(config, 99).choose(&game);
                    let b = Search::<G>::new(config, 99).choose(&other);
                    assert_eq!(a, b, "seed {seed} ply {ply}: the choice read hidden state");
                }
                let a = Greedy::new(99).choose(&game);
                let b = Greedy::new(99).choose(&other);
                assert_eq!(a, b, "seed {seed} ply {ply}: greedy read hidden state");
            }
            let m = greedy.choose(&game);
            game.play(&m).unwrap();
            ply += 1;
        }
    }
    differing
}

#[test]
fn the_choice_does_not_depend_on_hidden_information() {
    let checked = blind_to_hidden::<treasures::Game>(&treasures::Options::multiplayer(3), 0..2)
        + blind_to_hidden::<treasures::Game>(
            &treasures::Options::solo(treasures::SoloMode::TheLegend),
            0..2,
        )
        + blind_to_hidden::<pyramido::Game>(&pyramido::Options { players: 3 }, 0..2)
        + blind_to_hidden::<pyramids::Game>(&pyramids::Options { players: 4 }, 0..4);
    // The positions really had different hidden states.
    assert!(
        checked > 40,
        "only {checked} positions with a different hidden state"
    );
}

/// Games of search (seat `seed % seats`) against greedy at the other seats; returns the
/// search bot's wins (rank 0, shared or not).
fn wins_against_greedy<G: Rules>(
    options: &G::Options,
    seeds: std::ops::Range<u64>,
    config: SearchConfig,
) -> u32 {
    let mut wins = 0;
    for seed in seeds {
        let mut game = G::new(options, seed).unwrap();
        let seats = game.seats() as u64;
        let me = Seat((seed % seats) as u8);
        let mut search = Search::<G>::new(config, seat_seed(seed, me.index()));
        let mut greedy = Greedy::new(seat_seed(seed, usize::from(me.0) + 1));
        while let ToMove::Seat(s) = game.to_move() {
            let m = if s == me {
                search.choose(&game)
            } else {
                greedy.choose(&game)
            };
            game.play(&m).unwrap();
        }
        wins += u32::from(game.outcome().unwrap().ranks[me.index()] == 0);
    }
    wins
}

#[test]
fn search_beats_greedy() {
    // Fixed seeds, so the counts are exact and the test cannot flake; greedy against greedy
    // wins about half of such games.
    let wins = wins_against_greedy::<pyramids::Game>(
        &pyramids::Options { players: 2 },
        0..20,
        SearchConfig::with_iterations(100),
    );
    assert!(
        wins >= 15,
        "search won {wins} of 20 Pyramids games against greedy"
    );
}

#[test]
fn move_evaluation_is_reproducible_and_leaves_the_search_unchanged() {
    let game = treasures::Game::new(&treasures::Options::multiplayer(2), 5).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let mut search = Search::<treasures::Game>::new(tiny(10), 1);
    let a = search.evaluate_move(&game, legal[0], 6, 42);
    let b = search.evaluate_move(&game, legal[0], 6, 42);
    assert_eq!(a, b);
    assert!(a.0 > 0.0 && (0.0..=1.0).contains(&a.1));
    // Evaluating does not move the search's own generator.
    let mut fresh = Search::<treasures::Game>::new(tiny(10), 1);
    assert_eq!(search.choose(&game), fresh.choose(&game));
}

/// The budget's move cap: a decision stops once its playouts have simulated
/// `iterations × plies_per_iteration` moves, however many iterations that is.
#[test]
fn a_decision_stops_at_its_move_cap() {
    let game = treasures::Game::new(&treasures::Options::multiplayer(2), 3).unwrap();
    let run = |plies_per_iteration: u32| -> u32 {
        let config = SearchConfig {
            iterations: 40,
            plies_per_iteration,
            ..SearchConfig::default()
        };
        let stats = Search::<treasures::Game>::new(config, 9).analyse(&game);
        stats.iter().map(|s| s.visits).sum()
    };
    // A 2-player game lasts well over 40 moves: at one move per iteration, the first
    // playout already spends the whole cap.
    assert_eq!(run(1), 1);
    // Uncapped in practice, every iteration runs.
    assert_eq!(run(10_000), 40);
}
