//! The `pyramidion` binary end to end: outputs, exit codes and error messages.
use std::path::PathBuf;
use std::process::{Command, Output};

fn pyramidion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn golden(name: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../treasures/tests/golden")
        .join(name);
    root.to_string_lossy().into_owned()
}

#[test]
fn replay_verifies_and_prints_scores() {
    let o = pyramidion(&["replay", &golden("forgotten-treasures-1.txt")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("281 moves verified"), "{out}");
    assert!(out.contains("seat 0: 57 points, rank 1"), "{out}");
}

#[test]
fn replay_of_a_corrupted_record_names_the_line() {
    let text = std::fs::read_to_string(golden("forgotten-treasures-3.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("flip")).unwrap();
    let mut changed: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    changed[at] = "flip 7".into();
    let dir = std::env::temp_dir().join(format!("pyramidion-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, changed.join("\n")).unwrap();
    let o = pyramidion(&["replay", path.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains(&format!("line {}", at + 1)) && err.contains("no_such_space"),
        "{err}"
    );
    std::fs::write(&path, "game: forgotten-treasures\nseed: banana\n").unwrap();
    let o = pyramidion(&["replay", path.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("line 2: seed 'banana' is not a whole number"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&["replay", dir.join("missing.txt").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

#[test]
fn sim_prints_per_seat_statistics_and_writes_records() {
    let dir = std::env::temp_dir().join(format!("pyramidion-sim-{}", std::process::id()));
    let o = pyramidion(&[
        "sim",
        "--players",
        "3",
        "--bots",
        "greedy,random,random",
        "--games",
        "6",
        "--seed",
        "5",
        "--threads",
        "2",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "6 games (seeds 5..=10)",
        "mean score",
        "win rate",
        "0     greedy",
        "2     random",
        "mean game length",
        "games/s",
    ] {
        assert!(out.contains(needle), "missing '{needle}' in:\n{out}");
    }
    // Every written record replays.
    let records: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 6);
    for r in records {
        let o = pyramidion(&["replay", r.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // The same seeds give the same statistics whatever the thread count.
    let again = pyramidion(&[
        "sim",
        "--players",
        "3",
        "--bots",
        "greedy,random,random",
        "--games",
        "6",
        "--seed",
        "5",
        "--threads",
        "1",
    ]);
    let table = |s: &str| {
        s.lines()
            .filter(|l| l.contains("greedy") || l.contains("random"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&stdout(&again)), table(&out));
}

#[test]
fn sim_solo_reports_the_legend() {
    let o = pyramidion(&[
        "sim",
        "--solo",
        "the-legend",
        "--bots",
        "greedy",
        "--games",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("automa mean score") && out.contains("player win rate"),
        "{out}"
    );
}

#[test]
fn sim_rejects_bad_arguments_clearly() {
    let o = pyramidion(&["sim", "--bots", "clever", "--games", "1"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown bot 'clever'"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&[
        "sim",
        "--players",
        "4",
        "--bots",
        "random,random",
        "--games",
        "1",
    ]);
    assert!(
        stderr(&o).contains("2 bots given for 4 seats"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&["sim", "--players", "7", "--games", "1"]);
    assert!(stderr(&o).contains("1 to 4 players"), "{}", stderr(&o));
    let o = pyramidion(&["sim", "--game", "chess"]);
    assert!(!o.status.success());
}

#[test]
fn perft_counts_placements_of_a_record_prefix() {
    let o = pyramidion(&[
        "perft",
        "--record",
        &golden("forgotten-treasures-1.txt"),
        "--moves",
        "14",
        "--depth",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("legal moves (32)") && out.contains("perft 2: 224"),
        "{out}"
    );
    let o = pyramidion(&["perft", "--players", "2", "--depth", "1"]);
    assert!(stdout(&o).contains("perft 1:"), "{}", stdout(&o));
}

#[test]
fn bench_prints_named_figures() {
    // Format only: speed is measured by running the command, never asserted in tests.
    let o = pyramidion(&["bench", "--seconds", "0.02"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for name in [
        "random 4-player games: ",
        "stage-1 legal placement generation: ",
        "stage scoring",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "missing '{name}' in:\n{out}"
        );
    }
    assert!(out.lines().all(|l| l.contains(": ")), "{out}");
}

/// `sim --help` lists the games, their seat ranges, options and bot levels from their
/// descriptors; the flags are checked against them.
#[test]
fn sim_help_and_validation_come_from_the_descriptors() {
    use pyramidion_games::GameKind;
    let o = pyramidion(&["sim", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = stdout(&o);
    for kind in GameKind::ALL {
        let d = kind.descriptor();
        let line = format!("{}: {}–{} players", d.key, d.seats.min, d.seats.max);
        assert!(help.contains(&line), "{line} missing from:\n{help}");
        for level in d.bot_levels {
            assert!(help.contains(level.name), "{}", level.name);
        }
        for o in d.options {
            assert!(help.contains(&format!("{}={}", o.key, o.values.join("|"))));
        }
        let too_many = (d.seats.max + 1).to_string();
        let o = pyramidion(&[
            "sim",
            "--game",
            d.key,
            "--players",
            &too_many,
            "--games",
            "1",
        ]);
        assert!(!o.status.success());
        let expected = format!(
            "{} is for {} to {} players",
            d.key, d.seats.min, d.seats.max
        );
        assert!(stderr(&o).contains(&expected), "{}", stderr(&o));
        let o = pyramidion(&[
            "sim",
            "--game",
            d.key,
            "--bots",
            "no-such-bot",
            "--games",
            "1",
        ]);
        assert!(stderr(&o).contains("unknown bot"), "{}", stderr(&o));
    }
    let o = pyramidion(&["sim", "--game", "chess"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}
