//! `pyramidion analyse-check` in parts: a game's figures depend on its seed only, so two
//! parts appended to a results file add up to the same check as one run, and `--from` adds
//! up results files without playing.
use std::process::{Command, Output};

fn pyramidion(args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args(args)
        .output()
        .expect("binary runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The check of these tests: Pyramids, `easy` against greedy, 20 playouts per decision.
const CHECK: [&str; 7] = [
    "analyse-check",
    "--game",
    "pyramids",
    "--level",
    "easy",
    "--budget",
    "20",
];

/// Plays and analyses, on two threads.
fn check(extra: &[&str]) -> Output {
    let mut args = CHECK.to_vec();
    args.extend_from_slice(&["--threads", "2"]);
    args.extend_from_slice(extra);
    pyramidion(&args)
}

/// The same check's summary from results files, playing nothing.
fn from(results: &[&str]) -> Output {
    let mut args = CHECK.to_vec();
    args.push("--from");
    args.extend_from_slice(results);
    pyramidion(&args)
}

/// A fresh folder of this test's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pyramidion-analyse-check-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sorted_lines(path: &std::path::Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

#[test]
fn a_check_run_in_parts_adds_up_to_the_whole() {
    let dir = scratch("parts");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (whole, first, second) = (path("whole.jsonl"), path("a.jsonl"), path("b.jsonl"));
    let whole_check = [
        "--games",
        "3",
        "--agreement-games",
        "2",
        "--results",
        &whole,
    ];
    let one_run = check(&whole_check);
    let lines = sorted_lines(whole.as_ref());
    assert_eq!(lines.len(), 3, "{lines:?}");
    // The same command again resumes: nothing left to play, the same summary.
    let again = check(&whole_check);
    assert_eq!(again.stdout, one_run.stdout);
    assert_eq!(sorted_lines(whole.as_ref()), lines, "a game played again");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(
        stderr.matches("already in the results file").count(),
        3,
        "{stderr}"
    );
    // In two parts with files of their own: seeds 1–2 compared, then seeds 2–3 not (seed 2
    // twice: counted once, compared).
    check(&[
        "--games",
        "2",
        "--agreement-games",
        "2",
        "--results",
        &first,
    ]);
    check(&[
        "--seed",
        "2",
        "--games",
        "2",
        "--agreement-games",
        "0",
        "--results",
        &second,
    ]);
    let mut part_lines = sorted_lines(first.as_ref());
    part_lines.extend(sorted_lines(second.as_ref()));
    assert_eq!(part_lines.len(), 4, "{part_lines:?}");
    for line in &lines {
        assert!(part_lines.contains(line), "{line} not in {part_lines:?}");
    }
    assert_eq!(from(&[&whole]).stdout, one_run.stdout);
    assert_eq!(from(&[&first, &second]).stdout, one_run.stdout);
    let summary = String::from_utf8_lossy(&one_run.stdout);
    assert!(summary.contains(" of 3 games ("), "{summary}");
    assert!(summary.contains("(game seeds 1–3)"), "{summary}");
    assert!(summary.contains("agreement over 2 games"), "{summary}");
    assert!(summary.contains("(game seeds 1–2)"), "{summary}");
}

#[test]
fn results_of_another_check_are_refused() {
    let dir = scratch("refused");
    let path = dir.join("r.jsonl");
    let r = path.to_str().unwrap();
    check(&["--games", "1", "--agreement-games", "0", "--results", r]);
    // The same games asked for at another budget: not the same check.
    let mut args = CHECK.to_vec();
    args[6] = "40";
    args.extend_from_slice(&["--from", r]);
    let o = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args(&args)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("r.jsonl:1") && err.contains("20 playouts"),
        "{err}"
    );
    // Nor the same games judged by own points rather than the margin; a line written before
    // the measure was recorded was judged by own points.
    let refused = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
            .args(args)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?} accepted");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let mut points = CHECK.to_vec();
    points.extend_from_slice(&["--measure", "points", "--from", r]);
    assert!(refused(&points).contains("measure Margin"));
    let line = std::fs::read_to_string(&path).unwrap();
    assert!(line.contains(r#""measure":"margin""#), "{line}");
    let old = dir.join("old.jsonl");
    std::fs::write(&old, line.replace(r#""measure":"margin","#, "")).unwrap();
    let old = old.to_str().unwrap();
    assert!(refused(&[&CHECK[..], &["--from", old]].concat()).contains("measure Points"));
    points.pop();
    points.push(old);
    let o = pyramidion(&points);
    assert!(String::from_utf8_lossy(&o.stdout).contains("measure Points"));
}
