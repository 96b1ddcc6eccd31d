//! Golden records: seeded games with their full move lists and final scores, replayed move by
//! move; and perft counts at positions along them. A rule change that alters any of these must
//! be deliberate: `crates/cli/tests/cli/golden.rs` regenerates these records with their bots and
//! `UPDATE_EXPECT=1` rewrites them (see docs/tests.md).
use pyramidion_core::Rules;
use pyramidion_core::record::Record;
use pyramidion_core::rules::perft;
use pyramidion_treasures::Game;
use std::path::Path;

fn golden(name: &str) -> Record {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Record::parse(&text).unwrap()
}

#[test]
fn golden_records_replay_to_their_results() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let record = golden(&name);
        assert!(record.result.is_some(), "{name} has no result");
        let game: Game = record.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(game.outcome().is_some(), "{name}: not finished");
        // Both forms carry the same game.
        let again: Game = Record::parse(&record.to_json()).unwrap().replay().unwrap();
        assert_eq!(again, game);
        n += 1;
    }
    assert!(n >= 3);
}

#[test]
fn perft_counts() {
    let table = include_str!("../perft.txt");
    let mut n = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let record = golden(f[0]);
        let game: Game = record.replay_prefix(Some(f[1].parse().unwrap())).unwrap();
        assert_eq!(
            perft(&game, f[2].parse().unwrap()),
            f[3].parse::<u64>().unwrap(),
            "{line}"
        );
        n += 1;
    }
    assert!(n >= 5);
}

#[test]
fn corrupted_records_name_the_line() {
    let mut text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/forgotten-treasures-3.txt"),
    )
    .unwrap();
    // Replace the 10th move with an illegal one.
    let lines: Vec<&str> = text.lines().collect();
    let first_move = lines.iter().position(|l| *l == "moves:").unwrap() + 1;
    let target = first_move + 9;
    let mut changed: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    changed[target] = "flip 9".into();
    text = changed.join("\n");
    let err = Record::parse(&text).unwrap().replay::<Game>().unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!("line {} (move 10)", target + 1)),
        "{msg}"
    );
    changed[target] = "fly away".into();
    let err = Record::parse(&changed.join("\n"))
        .unwrap()
        .replay::<Game>()
        .unwrap_err();
    assert!(
        err.to_string().contains(&format!("line {}", target + 1)),
        "{err}"
    );
    // A wrong recorded result is reported.
    let mut record = golden("forgotten-treasures-3.txt");
    record.result = Some(vec![1, 2]);
    assert!(matches!(
        record.replay::<Game>(),
        Err(pyramidion_core::record::RecordError::ResultMismatch { .. })
    ));
}
