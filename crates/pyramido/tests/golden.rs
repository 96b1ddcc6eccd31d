//! Golden records: seeded games stored as text records (`result:` included), replayed move by
//! move. Any rule change that alters legality or scoring breaks them. Regenerate deliberately
//! with `cargo test -p pyramidion-pyramido --test golden bless -- --ignored`.
mod common;

use common::careful_move;
use pyramidion_core::record::Record;
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramido::{Game, Options};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// (file, players, seed, careful policy?)
const GAMES: [(&str, u8, u64, bool); 3] = [
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

#[test]
fn golden_records_replay() {
    for (file, players, seed, careful) in GAMES {
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
        // The same seeded players still choose the same moves.
        assert_eq!(
            generate(players, seed, careful).moves,
            record.moves,
            "{file}"
        );
    }
}

#[test]
#[ignore]
fn bless() {
    for (file, players, seed, careful) in GAMES {
        let record = generate(players, seed, careful);
        let policy = if careful {
            "careful random players (tests/common)"
        } else {
            "uniform random players"
        };
        let text = format!(
            "# Pyramido, {players} players, seed {seed}, {policy}.\n{}",
            record.to_text()
        );
        std::fs::write(dir().join(file), text).unwrap();
    }
}
