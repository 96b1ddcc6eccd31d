//! Every kind of illegal move is refused with its own code, and the state stays unchanged.
use pyramidion_core::{ErrorCode, GameRng, Rules, Seat, ToMove};
use pyramidion_pyramids::{Game, God, Move, Options, Phase};
use std::collections::BTreeSet;

fn new(players: u8, seed: u64) -> Game {
    Game::new(&Options { players }, seed).unwrap()
}

fn legal(game: &Game) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// Plays random legal moves until `stop` holds.
fn until(mut game: Game, seed: u64, stop: impl Fn(&Game) -> bool) -> Game {
    let mut rng = GameRng::from_seed(seed);
    while !stop(&game) {
        let moves = legal(&game);
        assert!(!moves.is_empty(), "game over before the situation arose");
        game.play(&moves[rng.below(moves.len() as u32) as usize])
            .unwrap();
    }
    game
}

/// Plays `text` and checks the refusal: its code, its absence from `legal_moves`, the state.
fn refuse(game: &Game, text: &str, code: &str, codes: &mut BTreeSet<&'static str>) {
    let m: Move = text.parse().unwrap();
    assert!(!legal(game).contains(&m), "'{text}' is listed as legal");
    let mut copy = game.clone();
    let e = copy.play(&m).unwrap_err();
    assert_eq!(e.code(), code, "'{text}': {e}");
    assert_eq!(&copy, game, "'{text}' changed the state");
    assert!(!e.to_string().is_empty());
    codes.insert(e.code());
}

/// Seat 0 takes `god` in round 1 of a `players` game, then plays randomly to its turn.
fn with_god(players: u8, god: God, phase: Phase) -> Game {
    let seed = (0..50)
        .find(|&s| new(players, s).set_aside() != Some(god))
        .unwrap();
    let mut game = new(players, seed);
    game.play(&Move::God(god)).unwrap();
    until(game, seed, |g| {
        g.phase() == phase && g.to_move() == ToMove::Seat(Seat(0))
    })
}

#[test]
fn every_illegal_move_kind_has_its_code() {
    let mut codes = BTreeSet::new();
    let c = &mut codes;

    // God selection.
    let game = new(3, 1);
    refuse(&game, "god 5", "god_not_in_game", c);
    refuse(&game, "pair 1", "wrong_phase", c);
    refuse(&game, "discard 1", "wrong_phase", c);
    refuse(&game, "done", "wrong_phase", c);
    let mut taken = game.clone();
    taken.play(&Move::God(God::Anubis)).unwrap();
    refuse(&taken, "god 2", "god_taken", c);
    let two = new(2, 1);
    let out = two.set_aside().unwrap();
    refuse(&two, &format!("god {}", out.number()), "god_set_aside", c);
    refuse(&two, "god thoth", "god_not_in_game", c);

    // Pair selection.
    let game = until(new(2, 2), 2, |g| g.phase() == Phase::ChoosePair);
    refuse(&game, "pair 3", "no_such_pair", c);
    refuse(&game, "pair 5", "no_such_pair", c);
    refuse(&game, "god 1", "wrong_phase", c);
    refuse(&game, "pyramid 1 a1", "wrong_phase", c);
    let game = until(new(3, 3), 3, |g| {
        g.phase() == Phase::ChoosePair && g.quarry().any(|p| p.is_none())
    });
    let taken = game.quarry().position(|p| p.is_none()).unwrap() + 1;
    refuse(&game, &format!("pair {taken}"), "pair_taken", c);

    // The Pyramid card.
    let game = with_god(3, God::Anubis, Phase::BuildPyramid);
    assert_eq!(game.hand(Seat(0)).len(), 3);
    refuse(&game, "pyramid 1 a0", "place_not_open", c);
    refuse(&game, "pyramid 1 a2", "place_not_open", c);
    refuse(&game, "pyramid 2 b1", "place_not_open", c);
    refuse(&game, "tomb 1", "pyramid_first", c);
    refuse(&game, "obelisk 1", "pyramid_first", c);
    refuse(&game, "done", "pyramid_first", c);
    refuse(&game, "discard 1", "wrong_phase", c);
    let mut later = game.clone();
    later.play(&"pyramid 1 a1".parse().unwrap()).unwrap();
    // Anubis: the Tomb only.
    assert_eq!(later.phase(), Phase::BuildMore);
    refuse(&later, "obelisk 1", "edifice_not_allowed", c);
    refuse(&later, "pyramid 1 a2", "edifice_already_built", c);
    refuse(&later, "tomb 3", "no_such_card", c);
    refuse(&later, "pair 1", "wrong_phase", c);

    // Thoth: one card per edifice per turn.
    let game = with_god(4, God::Thoth, Phase::BuildPyramid);
    let mut g = game.clone();
    g.play(&"pyramid 2 a1".parse().unwrap()).unwrap();
    g.play(&"obelisk 1".parse().unwrap()).unwrap();
    refuse(&g, "obelisk 1", "edifice_already_built", c);
    g.play(&"tomb 1".parse().unwrap()).unwrap();
    assert_ne!(
        g.builder().map(|b| b.0),
        Some(Seat(0)),
        "nothing left to build: turn over"
    );

    // Khepri: the Obelisk only.
    let game = with_god(5, God::Khepri, Phase::BuildMore);
    refuse(&game, "tomb 1", "edifice_not_allowed", c);

    // Discards.
    let game = until(new(2, 4), 4, |g| g.phase() == Phase::Discard);
    refuse(&game, "discard 3", "no_such_card", c);
    refuse(&game, "done", "wrong_phase", c);

    // After the end.
    let over = until(new(2, 5), 5, |g| g.phase() == Phase::Over);
    for text in ["god 1", "pair 1", "pyramid 1 d1", "done", "discard 1"] {
        refuse(&over, text, "game_over", c);
    }

    // Every illegal-move code the descriptor lists (the syntax code has its own test) is met.
    let all: BTreeSet<&str> = <Game as Rules>::DESCRIPTOR
        .move_errors
        .iter()
        .copied()
        .filter(|c| *c != "bad_move_syntax")
        .collect();
    assert_eq!(all.len(), 12);
    assert_eq!(codes, all);
}

#[test]
fn unparsable_moves_have_the_syntax_code() {
    for text in ["", "god 9", "pyramid 1 e1", "pyramid 4 a1", "pass"] {
        let e = text.parse::<Move>().unwrap_err();
        assert_eq!(e.code(), "bad_move_syntax");
    }
}

#[test]
fn play_unchecked_matches_play_on_legal_moves() {
    let mut rng = GameRng::from_seed(3);
    for players in 2..=5 {
        let mut game = new(players, 77);
        while let ToMove::Seat(_) = game.to_move() {
            let moves = legal(&game);
            for m in &moves {
                let mut a = game.clone();
                let mut b = game.clone();
                a.play(m).unwrap();
                b.play_unchecked(m);
                assert_eq!(a, b);
            }
            game.play(&moves[rng.below(moves.len() as u32) as usize])
                .unwrap();
        }
    }
}
