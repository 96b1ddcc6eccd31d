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

/// A record of `kind` whose last move parses but is illegal: the first move text legal
/// earlier in the game that is no longer legal, played after the moves before it. The game's
/// own code for refusing it comes along.
fn record_ending_in_an_illegal_move(
    kind: pyramidion_games::GameKind,
) -> (pyramidion_core::record::Record, &'static str) {
    use pyramidion_games::AnyGame;
    let options = serde_json::json!({ "players": 2.max(kind.descriptor().seats.min) });
    let mut game = AnyGame::new(kind, &options, 3).unwrap();
    let mut record = pyramidion_core::record::Record::new(kind.key(), &options, 3);
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..200 {
        let legal = game.legal_texts();
        for text in &seen {
            if legal.contains(text) {
                continue;
            }
            let mut copy = game.clone();
            let refused = copy.play_text(text).unwrap_err();
            record.push(text);
            return (record, refused.code);
        }
        seen.extend(legal.iter().cloned());
        // The second legal move, not the first: a first move can be legal forever after.
        let m = legal[1.min(legal.len() - 1)].clone();
        record.push(&game.play_text(&m).unwrap().full.text);
    }
    panic!("{kind}: no move legal once and illegal later in 200 plies");
}

/// `pyramidion analyse` refuses a record with an illegal move as `replay` does: the place and
/// the game's code on standard error, exit status 1 (a panic is 101), in every game.
#[test]
fn analyse_refuses_an_illegal_record_in_every_game() {
    let dir = std::env::temp_dir().join(format!("pyramidion-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for &kind in pyramidion_games::GameKind::ALL {
        let (record, code) = record_ending_in_an_illegal_move(kind);
        let path = dir.join(format!("{kind}.txt"));
        std::fs::write(&path, record.to_text()).unwrap();
        let place = format!("move {}", record.moves.len());
        let file = path.to_str().unwrap();
        for args in [&["analyse", "--budget", "4", file][..], &["replay", file]] {
            let command = args[0];
            let o = pyramidion(args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{kind} {command}: {err}");
            assert!(
                err.starts_with("error: ") && err.contains(&place) && err.contains(code),
                "{kind} {command}: {err}"
            );
            assert!(!err.contains("panicked"), "{kind} {command}: {err}");
        }
    }
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
            // Thinking times differ from run to run; the results do not.
            .filter(|l| (l.contains("greedy") || l.contains("random")) && !l.contains("thinking"))
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
        stderr(&o).contains("unknown bot level 'clever'"),
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

#[test]
fn arena_plays_paired_games_and_writes_json() {
    let dir = std::env::temp_dir().join(format!("pyramidion-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("arena.json");
    let o = pyramidion(&[
        "arena",
        "--game",
        "pyramids",
        "--players",
        "2",
        "--bots",
        "search:8,greedy",
        "--pairs",
        "3",
        "--threads",
        "2",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("3 pairs, 6 games"), "{out}");
    assert!(out.contains("search:8 over greedy"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["games"], 6);
    // The final report, not a checkpoint of the pairs done so far.
    assert_eq!(report["complete"], true);
    assert_eq!(report["bots"][0]["bot"], "search:8");
    assert_eq!(report["bots"][1]["bot"], "greedy");
    let score = report["a_over_b"]["score"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&score));
    // Each bot's own score and Elo against the other: the match's estimate, mirrored.
    assert_eq!(report["bots"][0]["against_the_other"], report["a_over_b"]);
    let b = &report["bots"][1]["against_the_other"];
    let f = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap();
    assert!((f(b, "score") - (1.0 - score)).abs() < 1e-12);
    assert!((f(b, "score_low") - (1.0 - f(&report["a_over_b"], "score_high"))).abs() < 1e-12);
    // Same seeds, one thread: the same games.
    let again = pyramidion(&[
        "arena",
        "--game",
        "pyramids",
        "--bots",
        "search:8,greedy",
        "--pairs",
        "3",
        "--threads",
        "1",
    ]);
    // The results repeat: each bot's line up to its mean points (the timing columns
    // after it differ from run to run), and the Elo line.
    let results = |s: &str| -> Vec<String> {
        let lines: Vec<&str> = s.lines().collect();
        lines[2..4]
            .iter()
            .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
            .chain(lines[4..].iter().map(|l| l.to_string()))
            .collect()
    };
    assert_eq!(results(&stdout(&again)), results(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_sprt_stops_and_unknown_levels_are_refused() {
    let o = pyramidion(&[
        "arena",
        "--game",
        "pyramids",
        "--bots",
        "greedy,random",
        "--pairs",
        "200",
        "--sprt",
        "0,100,0.05,0.05",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(
        !out.contains(": 200 pairs"),
        "the SPRT should stop early: {out}"
    );
    let o = pyramidion(&["arena", "--bots", "greedy,grandmaster", "--pairs", "1"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown bot level 'grandmaster'"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&["sim", "--bots", "grandmaster", "--games", "1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unknown bot level"), "{}", stderr(&o));
}

#[test]
fn serve_refuses_bad_rates_and_analysis_budgets() {
    for (flag, value) in [
        ("--ws-rate", "0"),
        ("--http-rate", "-5"),
        ("--ws-rate", "inf"),
    ] {
        let arg = format!("{flag}={value}");
        let o = pyramidion(&["serve", "--bind", "127.0.0.1:0", &arg]);
        assert!(!o.status.success(), "{flag} {value}");
        assert!(
            stderr(&o).contains(&format!("{flag} must be a positive number")),
            "{}",
            stderr(&o)
        );
    }
    // More connections than this process may open files.
    let o = pyramidion(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--max-connections=18446744073709551000",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--max-connections 18446744073709551000 needs about"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--trusted-proxy=10.0.0.0/33",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--trusted-proxy: '10.0.0.0/33' is not a CIDR network"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--push-allow-host=push.example.org,not a host",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(
            "--push-allow-host: 'not a host' is not a host name, an address or a CIDR network"
        ),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&["serve", "--bind", "127.0.0.1:0", "--push-timeout=0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--push-timeout and --push-workers must be at least 1"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&["serve", "--bind", "127.0.0.1:0", "--analysis-budget=0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--analysis-budget must be at least 1 playout"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&["serve", "--bind", "127.0.0.1:0", "--bot-threads=0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--bot-threads must be at least 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ladder_plays_each_level_against_the_one_below() {
    let dir = std::env::temp_dir().join(format!("pyramidion-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("ladder.json");
    let o = pyramidion(&[
        "ladder",
        "--game",
        "pyramids",
        "--levels",
        "random,greedy,search:4",
        "--pairs",
        "30",
        "--threads",
        "2",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("greedy > random"), "{out}");
    assert!(out.contains("search:4 > greedy"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0]["lower"], "random");
    assert_eq!(steps[0]["upper"], "greedy");
    assert_eq!(steps[0]["upper_iterations"], serde_json::Value::Null);
    assert_eq!(steps[1]["upper_iterations"], 4);
    assert_eq!(steps[0]["match"]["games"], 60);
    assert_eq!(steps[0]["match"]["bots"][0]["bot"], "greedy");
    // Greedy against random is the one step sure to hold: far more than 100 Elo over 60
    // games, with an interval well above zero.
    assert_eq!(steps[0]["holds"], true, "{out}");
    assert!(steps[0]["match"]["a_over_b"]["elo_low"].as_f64().unwrap() > 0.0);
    let all = steps.iter().all(|s| s["holds"] == true);
    assert_eq!(report["holds"], all);
    // One level is not a ladder.
    let o = pyramidion(&["ladder", "--game", "pyramids", "--levels", "greedy"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("at least two levels"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyse_reports_every_decision_and_writes_json() {
    let dir = std::env::temp_dir().join(format!("pyramidion-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("records");
    let o = pyramidion(&[
        "sim",
        "--game",
        "pyramids",
        "--players",
        "2",
        "--bots",
        "random,greedy",
        "--games",
        "1",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record = records.join("pyramids-1.txt");
    let json = dir.join("analysis.json");
    let values = dir.join("values.jsonl");
    let o = pyramidion(&[
        "analyse",
        record.to_str().unwrap(),
        "--budget",
        "16",
        "--seed",
        "3",
        "--json",
        json.to_str().unwrap(),
        "--values",
        values.to_str().unwrap(),
        "--max-futures",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("seat 0:") && out.contains("points lost"),
        "{out}"
    );
    // Pyramids is played over 10 rounds: a line per seat and round.
    assert!(
        out.contains("  round 1: ") && out.contains("  round 10: "),
        "{out}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let decisions = report["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty());
    for d in decisions {
        assert!(d["lost"].as_f64().unwrap() >= 0.0);
        assert!(d["best_points"].as_f64().unwrap() >= d["played_points"].as_f64().unwrap());
        assert!(d["lost_low"].as_f64().unwrap() <= d["lost"].as_f64().unwrap());
        assert!(d["lost_high"].as_f64().unwrap() >= d["lost"].as_f64().unwrap());
        // Both moves reach the replay in structured form, to be drawn and said in words.
        assert_eq!(d["best_move"]["text"], d["best"]);
        assert!(d["played_move"]["kind"].is_string(), "{d}");
        assert!((1..=10).contains(&d["stage"].as_u64().unwrap()));
    }
    // The candidates' values, decision by decision (`--values`, to study the judge): those
    // kept to the end of the futures' race (the move played among them), on the same futures,
    // as many as asked at the most, and the played one's mean is the report's.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&values)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), decisions.len());
    for (line, d) in lines.iter().zip(decisions) {
        assert_eq!((&line["ply"], &line["seat"]), (&d["ply"], &d["seat"]));
        let candidates = line["values"].as_array().unwrap();
        assert!(
            (1..=d["candidates"].as_u64().unwrap()).contains(&(candidates.len() as u64)),
            "{line} {d}"
        );
        let played = &candidates[line["played"].as_u64().unwrap() as usize];
        let futures: Vec<f64> = played
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!((1..=5).contains(&futures.len()), "{line}");
        assert!(
            candidates
                .iter()
                .all(|c| c.as_array().unwrap().len() == futures.len())
        );
        let mean = futures.iter().sum::<f64>() / futures.len() as f64;
        assert!(
            (mean - d["played_points"].as_f64().unwrap()).abs() < 1e-9,
            "{line} {d}"
        );
    }
    assert_eq!(report["stage_name"], "round");
    // The judge's measure unless asked otherwise: the lead over the best other seat.
    assert_eq!(report["measure"], "margin");
    for seat in report["seats"].as_array().unwrap() {
        let stages = seat["stages"].as_array().unwrap();
        assert_eq!(stages.len(), 10);
        let decisions: u64 = stages
            .iter()
            .map(|s| s["decisions"].as_u64().unwrap())
            .sum();
        assert_eq!(decisions, seat["decisions"].as_u64().unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_refuses_a_bad_smtp_url_or_sender_clearly() {
    let dir = std::env::temp_dir().join(format!("pyramidion-cli-smtp-{}", std::process::id()));
    let data = dir.to_str().unwrap();
    let o = pyramidion(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--data-dir",
        data,
        "--smtp",
        "mail.example.org",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--smtp is not an smtp:// or smtps:// URL"),
        "{}",
        stderr(&o)
    );
    let o = pyramidion(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--data-dir",
        data,
        "--smtp",
        "smtp://127.0.0.1:9",
        "--mail-from",
        "not an address",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--mail-from `not an address` is not an address"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
