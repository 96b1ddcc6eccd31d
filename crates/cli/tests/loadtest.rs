//! The load tool against the real server: it plays, counts and refuses non-loopback targets.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn loadtest_plays_games_without_errors() {
    let dir = std::env::temp_dir().join(format!("pyramidion-load-{}", std::process::id()));
    let mut server = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--http-rate",
            "1000",
            "--data-dir",
        ])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args(["loadtest", "--url", &url, "--games", "8", "--seconds", "2"])
        .output()
        .unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("errors: 0"), "{text}");
    let moves: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("moves: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(moves > 50, "{text}");
    assert!(text.contains("move round trip p99: "), "{text}");
    let refused = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args([
            "loadtest",
            "--url",
            "http://10.0.0.1:80",
            "--games",
            "1",
            "--seconds",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("only targets loopback"));
}
