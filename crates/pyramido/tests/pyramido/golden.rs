//! Golden records: seeded games stored as text records (`result:` included), replayed move by
//! move, and regenerated from their seeds by the same players. Any rule change that alters
//! legality or scoring breaks them. Regenerate deliberately with
//! `UPDATE_EXPECT=1 cargo test -p pyramidion-pyramido --test pyramido golden` (the one golden
//! mechanism, `pyramidion_testkit::golden`).

use crate::common::careful_move;
use pyramidion_core::record::Record;
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramido::{Game, Options};
use pyramidion_testkit::golden::expect_golden;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// (file, players, seed, careful policy?)
const GOLDEN_FILES: [(&str, u8, u64, bool); 3] = [
    ("2p-careful-seed-1.txt", 2, 1, true),
    ("4p-careful-seed-2.txt", 4, 2, true),
    ("3p-random-seed-3.txt", 3, 3, false),
];

fn generate(players: u8, seed: u64, careful: bool) -> Record {
    let options = Options::players(players);
    let mut game = Game::new(&options, seed).unwrap();
    let mut record = Record::new(Game::DESCRIPTOR.key, &options, seed);
    let mut rng = GameRng::from_seed(seed);
    let mut buf = Vec::new();
    while let ToMove::Seat(_) = game.to_move() {
        let m = if careful {
            careful_move(&game, &mut rng, &mut buf)
        } else {
            game.legal_moves(&mut buf);
            buf[rng.below(buf.len() as u32) as usize]
        };
        game.play(&m).unwrap();
        record.push(&m);
    }
    record.result = Some(game.outcome().unwrap().scores);
    record
}

/// The stored text: a comment naming the players, then the record.
fn golden_text(players: u8, seed: u64, careful: bool) -> String {
    let policy = if careful {
        "careful random players (tests/common)"
    } else {
        "uniform random players"
    };
    format!(
        "# Pyramido, {players} players, seed {seed}, {policy}.\n{}",
        generate(players, seed, careful).to_text()
    )
}

#[test]
fn golden_records_replay() {
    for (file, players, seed, careful) in GOLDEN_FILES {
        // The same seeded players still choose the same moves (UPDATE_EXPECT=1 rewrites).
        expect_golden(&dir().join(file), &golden_text(players, seed, careful));
        let text =
            std::fs::read_to_string(dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let record = Record::parse(&text).unwrap();
        assert!(record.result.is_some(), "{file} has a result");
        let game: Game = record.replay().unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(game.to_move(), ToMove::Over, "{file} is a complete game");
        assert_eq!(game.seats(), players);
        if careful {
            assert!(
                game.players().iter().all(|p| p.scores().len() == 4),
                "{file} goes through the 4 stages"
            );
        }
    }
}
