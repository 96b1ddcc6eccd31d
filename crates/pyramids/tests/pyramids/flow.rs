//! God tiles per player count, the 2-player cycle, turn order, permissions, round end.
use pyramidion_core::{GameRng, Rules, Seat, ToMove};
use pyramidion_pyramids::{Game, God, Move, Options, Phase};

fn new(players: u8, seed: u64) -> Game {
    Game::new(&Options { players }, seed).unwrap()
}

fn legal(game: &Game) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

fn available_gods(game: &Game) -> Vec<u8> {
    legal(game)
        .into_iter()
        .map(|m| match m {
            Move::God(g) => g.number(),
            other => panic!("{other} during god selection"),
        })
        .collect()
}

fn round_starts(game: &Game) -> bool {
    game.phase() == Phase::ChooseGod && God::ALL.iter().all(|&g| game.god_owner(g).is_none())
}

/// Plays random games and calls `at_round_start` at the first god pick of every round.
fn random_games(
    players: u8,
    seeds: std::ops::Range<u64>,
    mut at_round_start: impl FnMut(u64, &Game),
) {
    let mut rng = GameRng::from_seed(99);
    for seed in seeds {
        let mut game = new(players, seed);
        let mut moves = Vec::new();
        let mut last_round = 0;
        while let ToMove::Seat(_) = game.to_move() {
            if round_starts(&game) && game.round() != last_round {
                last_round = game.round();
                at_round_start(seed, &game);
            }
            game.legal_moves(&mut moves);
            game.play(&moves[rng.below(moves.len() as u32) as usize])
                .unwrap();
        }
        assert_eq!(last_round, 10);
    }
}

#[test]
fn god_tiles_by_player_count() {
    for players in [3u8, 4, 5] {
        random_games(players, 0..20, |_, game| {
            let expected: Vec<u8> = if players == 3 {
                vec![1, 2, 3, 4]
            } else {
                vec![1, 2, 3, 4, 5]
            };
            assert_eq!(available_gods(game), expected, "{players} players");
            assert_eq!(game.set_aside(), None);
        });
    }
}

#[test]
fn two_players_cycle_the_set_aside_tile() {
    let mut first_round = [0u32; 4];
    let mut previous: Option<God> = None;
    random_games(2, 0..200, |_, game| {
        let out = game.set_aside().expect("a tile is set aside every round");
        assert!(out != God::Thoth);
        let expected: Vec<u8> = (1..=4).filter(|&g| g != out.number()).collect();
        assert_eq!(available_gods(game), expected);
        if game.round() == 1 {
            first_round[out.index()] += 1;
        } else {
            let prev = previous.unwrap();
            assert_eq!(out.number(), prev.number() % 4 + 1, "1 → 2 → 3 → 4 → 1");
        }
        previous = Some(out);
    });
    // Round 1 draws the tile at random: every one of 1-4 occurs.
    assert!(first_round.iter().all(|&k| k > 20), "{first_round:?}");
}

#[test]
fn picking_order_and_building_order() {
    for players in 2..=5u8 {
        let mut rng = GameRng::from_seed(7);
        for seed in 0..20 {
            let mut game = new(players, seed);
            let mut moves = Vec::new();
            let mut builders: Vec<(u8, Seat)> = Vec::new();
            let mut pickers: Vec<Seat> = Vec::new();
            let mut round = 1;
            while let ToMove::Seat(seat) = game.to_move() {
                if game.round() != round {
                    round = game.round();
                    builders.clear();
                    pickers.clear();
                }
                assert_eq!(
                    game.first_player(),
                    Seat((round - 1) % players),
                    "token passes left"
                );
                match game.phase() {
                    Phase::ChooseGod => {
                        let k = pickers.len() as u8;
                        assert_eq!(
                            seat,
                            Seat((game.first_player().0 + k) % players),
                            "clockwise"
                        );
                        pickers.push(seat);
                    }
                    Phase::ChoosePair => {
                        let god = game.god_of(seat).unwrap().number();
                        if let Some(&(last, _)) = builders.last() {
                            assert!(god > last, "pairs are taken in god-number order");
                        }
                        builders.push((god, seat));
                    }
                    _ => {}
                }
                game.legal_moves(&mut moves);
                game.play(&moves[rng.below(moves.len() as u32) as usize])
                    .unwrap();
            }
        }
    }
}

/// Round 1 with `god` for seat 0 (the first picker): plays to seat 0's Pyramid card and places
/// it. Returns `None` when `god` is set aside (2 players).
fn after_pyramid(players: u8, god: God, seed: u64) -> Option<Game> {
    let mut game = new(players, seed);
    game.play(&Move::God(god)).ok()?;
    let mut rng = GameRng::from_seed(seed);
    loop {
        let moves = legal(&game);
        let ToMove::Seat(seat) = game.to_move() else {
            panic!("game over in round 1")
        };
        if seat == Seat(0) && game.phase() == Phase::BuildPyramid {
            game.play(&moves[0]).unwrap();
            return Some(game);
        }
        game.play(&moves[rng.below(moves.len() as u32) as usize])
            .unwrap();
    }
}

fn kinds(game: &Game) -> Vec<&'static str> {
    if game.builder().map(|b| b.0) != Some(Seat(0)) || game.phase() != Phase::BuildMore {
        return vec![];
    }
    let mut k: Vec<&str> = legal(game).iter().map(|m| m.keyword()).collect();
    k.dedup();
    k
}

#[test]
fn what_each_god_lets_you_build() {
    for players in 2..=5u8 {
        for god in God::ALL {
            let Some(game) = (0..10).find_map(|seed| after_pyramid(players, god, seed)) else {
                assert!(
                    players <= 3 && god == God::Thoth,
                    "{god:?} must be available"
                );
                continue;
            };
            let expected: &[&str] = match god {
                God::Horus => &[],
                God::Anubis => &["tomb", "done"],
                God::Khepri => &["obelisk", "done"],
                God::Sekhmet | God::Thoth => &["obelisk", "tomb", "done"],
            };
            assert_eq!(kinds(&game), expected, "{players} players, {god:?}");
            if expected.len() == 3 {
                let mut g = game.clone();
                g.play(&Move::Obelisk(0)).unwrap();
                let after: &[&str] = if god == God::Sekhmet && players >= 4 {
                    &[]
                } else {
                    &["tomb", "done"]
                };
                assert_eq!(
                    kinds(&g),
                    after,
                    "{players} players, {god:?}, after the obelisk"
                );
                let mut g = game.clone();
                g.play(&Move::Tomb(1)).unwrap();
                let after: &[&str] = if god == God::Sekhmet && players >= 4 {
                    &[]
                } else {
                    &["obelisk", "done"]
                };
                assert_eq!(
                    kinds(&g),
                    after,
                    "{players} players, {god:?}, after the tomb"
                );
            }
            // `done` ends the turn.
            if !expected.is_empty() {
                let mut g = game.clone();
                g.play(&Move::Done).unwrap();
                assert!(kinds(&g).is_empty());
                assert_eq!(g.hand(Seat(0)).len(), 2);
            }
        }
    }
}

#[test]
fn forced_choices_are_automatic() {
    // 5 players: the fifth picker gets the last tile without a move.
    let game = new(5, 3);
    let mut g = game.clone();
    for _ in 0..4 {
        let m = legal(&g)[0];
        g.play(&m).unwrap();
    }
    assert_eq!(g.phase(), Phase::ChoosePair);
    assert!(God::ALL.iter().all(|&god| g.god_owner(god).is_some()));
    assert_eq!(g.ply(), 4);
    // The last builder takes the last pair without a move.
    let mut g = new(3, 3);
    let mut rng = GameRng::from_seed(1);
    while g.round() == 1 {
        let last_builder = God::ALL.iter().rev().find_map(|&god| g.god_owner(god));
        if let Some((seat, ..)) = g.builder()
            && g.phase() != Phase::ChooseGod
            && Some(seat) == last_builder
        {
            assert_eq!(
                g.phase(),
                Phase::BuildPyramid,
                "no pair choice for the last builder"
            );
            assert_eq!(g.hand(seat).len(), 3);
            assert!(g.quarry().all(|p| p.is_none()));
            return;
        }
        let moves = legal(&g);
        g.play(&moves[rng.below(moves.len() as u32) as usize])
            .unwrap();
    }
    panic!("the last builder never came");
}

#[test]
fn round_end_discards_and_game_end() {
    for players in 2..=5u8 {
        let mut rng = GameRng::from_seed(11);
        for seed in 0..30 {
            let mut game = new(players, seed);
            let mut moves = Vec::new();
            let mut discard_moves = 0;
            while let ToMove::Seat(seat) = game.to_move() {
                if game.phase() == Phase::ChooseGod {
                    for s in 0..players {
                        assert!(game.hand(Seat(s)).len() <= 1, "at most one card kept");
                    }
                }
                if game.phase() == Phase::Discard {
                    assert_eq!(game.hand(seat).len(), 2);
                    assert!(game.round() < 10, "no discard after the last round");
                    discard_moves += 1;
                }
                game.legal_moves(&mut moves);
                game.play(&moves[rng.below(moves.len() as u32) as usize])
                    .unwrap();
            }
            assert_eq!(game.discarded().count(), discard_moves);
            assert_eq!(game.round(), 10);
            let n = players as usize;
            assert_eq!(game.deck_len(), 105 - n - 20 * n);
            for s in 0..players {
                assert!(game.necropolis(Seat(s)).pyramid.is_complete());
            }
            assert!(game.outcome().is_some());
            assert!(legal(&game).is_empty());
        }
    }
}
