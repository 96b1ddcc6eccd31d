//! Puzzles from real games (`pyramidion_ai::puzzle`): what a puzzle shows is the deciding
//! seat's view and nothing more (the leak test's method: states that seat cannot tell apart
//! give the same puzzle position), and a kept puzzle is confirmed by a fresh judge run.
use pyramidion_ai::puzzle::{PuzzleConfig, judge_position, position_of};
use pyramidion_ai::{Bot, Greedy};
use pyramidion_core::record::Record;
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_games::{GameKind, dispatch};

/// Every few decisions of a greedy game, the deciding seat's puzzle position is the same in
/// every state the seat cannot tell from the real one (resampled hands, piles, draws): the
/// position carries nothing hidden from it.
fn same_position_whatever_is_hidden<G: Rules>(seed: u64) -> usize {
    let options: G::Options = serde_json::from_value(serde_json::json!({
        "players": G::DESCRIPTOR.seats.min.max(2)
    }))
    .unwrap();
    let mut game = G::new(&options, seed).unwrap();
    let mut bot = Greedy::new(seed);
    let mut rng = GameRng::from_seed(seed ^ 0x9022);
    let mut checked = 0;
    while let ToMove::Seat(seat) = game.to_move() {
        if game.ply() % 4 == 0 {
            let shown = position_of(&game, seat);
            for _ in 0..3 {
                let other = game.determinize(seat, &mut rng);
                assert_eq!(
                    position_of(&other, seat),
                    shown,
                    "{} seed {seed} ply {}: the position depends on what {seat:?} cannot see",
                    G::DESCRIPTOR.key,
                    game.ply()
                );
            }
            checked += 1;
        }
        let m = bot.choose(&game);
        game.play(&m).unwrap();
    }
    checked
}

#[test]
fn a_puzzles_position_shows_nothing_hidden_from_its_seat() {
    for &kind in GameKind::ALL {
        for seed in 1..=3 {
            let checked = dispatch!(kind, G => same_position_whatever_is_hidden::<G>(seed));
            assert!(checked > 0, "{kind}");
        }
    }
}

/// The judge's budget in the tests: a tenth of the miner's (a debug build plays slowly); the
/// figure at the full budget is in docs/puzzles.md with its command.
const BUDGET: u32 = 1_600;

#[test]
fn kept_puzzles_are_confirmed_by_a_fresh_judge_run() {
    use pyramidion_games::pyramido;
    let options = pyramido::Options { players: 2 };
    let seed = 3;
    let mut game = pyramido::Game::new(&options, seed).unwrap();
    let mut record = Record::new("pyramido", &options, seed);
    let mut bots = [Greedy::new(seed), Greedy::new(seed + 1)];
    while let ToMove::Seat(s) = game.to_move() {
        let m = bots[s.index()].choose(&game);
        game.play(&m).unwrap();
        record.push(&m);
    }
    let config = PuzzleConfig {
        budget: BUDGET,
        seed: 1,
    };
    let mut dropped = 0;
    let plies = 0..60;
    let kept =
        pyramidion_games::analysis::mine_plies(&record, config, plies, &mut dropped).unwrap();
    assert!(!kept.is_empty(), "a game's first 60 moves hold a puzzle");
    // A third seed, twice the budget: the same solutions, a margin still clear.
    let fresh = PuzzleConfig {
        budget: 2 * BUDGET,
        seed: 77,
    };
    let mut confirmed = 0;
    for p in &kept {
        let at: pyramido::Game = record.replay_prefix(Some(p.ply)).unwrap();
        let played = record.moves[p.ply].parse().unwrap();
        let again = judge_position(&at, played, fresh, p.ply as u64).unwrap();
        if again.is_clear() && again.solutions == p.solutions {
            confirmed += 1;
        }
        // Every solution is a legal move shown with the puzzle, and every candidate has points.
        for s in &p.solutions {
            assert!(p.legal.iter().any(|m| m["text"] == s.as_str()), "{s}");
        }
        assert!(p.candidates.len() >= 2);
        assert!(p.solutions.contains(&p.candidates[0].text));
        assert!(p.margin_low >= pyramidion_ai::puzzle::MARGIN);
    }
    assert_eq!(
        confirmed,
        kept.len(),
        "{confirmed} of {} confirmed ({dropped} dropped by the miner's own second run)",
        kept.len()
    );
}
