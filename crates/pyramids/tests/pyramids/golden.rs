//! Golden records: seeded random games with their full move lists and final scores.
//!
//! Each record replays (every move legal, the recorded result reached), and regenerating it
//! from its seed with the same random policy gives the same text, so an unintended change to
//! the rules, the move order, the card data or the RNG use shows up here.
//! Rewrite them after an intended change with `UPDATE_EXPECT=1 cargo test -p
//! pyramidion-pyramids --test pyramids golden` (the one golden mechanism, `pyramidion_testkit::golden`).
use pyramidion_core::record::Record;
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramids::{Game, Options};
use pyramidion_testkit::golden::expect_golden;
use std::path::PathBuf;

const GOLDEN: [(&str, u8, u64); 3] = [
    ("two-players-seed-2017.txt", 2, 2017),
    ("three-players-seed-7.txt", 3, 7),
    ("five-players-seed-42.txt", 5, 42),
];

/// A uniform random game; the policy's RNG is seeded from the game seed.
fn random_record(players: u8, seed: u64) -> (Record, Game) {
    let options = Options { players };
    let mut game = Game::new(&options, seed).unwrap();
    let mut record = Record::new(<Game as Rules>::DESCRIPTOR.key, &options, seed);
    let mut rng = GameRng::from_seed(seed ^ 0x9e37_79b9);
    let mut moves = Vec::new();
    while let ToMove::Seat(_) = game.to_move() {
        game.legal_moves(&mut moves);
        let m = moves[rng.below(moves.len() as u32) as usize];
        game.play(&m).unwrap();
        record.push(&m);
    }
    record.result = Some(game.outcome().unwrap().scores);
    (record, game)
}

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

#[test]
fn golden_records_replay() {
    for (name, players, seed) in GOLDEN {
        let (record, game) = random_record(players, seed);
        let text = record.to_text();
        expect_golden(&path(name), &text);
        let stored = std::fs::read_to_string(path(name)).unwrap();
        let parsed = Record::parse(&stored).unwrap();
        assert_eq!(parsed.result.as_ref().map(Vec::len), Some(players as usize));
        let replayed: Game = parsed.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            replayed.outcome().unwrap().scores,
            parsed.result.clone().unwrap()
        );
        assert_eq!(replayed, game);
    }
}

#[test]
fn a_tampered_record_is_refused() {
    let (name, ..) = GOLDEN[0];
    let stored = std::fs::read_to_string(path(name)).unwrap();
    // A wrong result.
    let wrong = stored.replacen("result: ", "result: 1", 1);
    assert!(Record::parse(&wrong).unwrap().replay::<Game>().is_err());
    // A move dropped from the middle desynchronises the game.
    let mut lines: Vec<&str> = stored.lines().collect();
    let first_move = lines.iter().position(|l| *l == "moves:").unwrap() + 1;
    lines.remove(first_move + 3);
    let cut = lines.join("\n");
    assert!(Record::parse(&cut).unwrap().replay::<Game>().is_err());
}
