//! `pyramidion-chaos` at a tiny size: three instances behind HAProxy, instances killed
//! (SIGKILL) and drained (SIGTERM) under load; it exits 0 only when no acknowledged move is
//! lost and every record replays.
use crate::cluster_support::fresh_database;
use std::process::Command;

#[tokio::test]
async fn chaos_loses_no_acknowledged_move() {
    let database = fresh_database("pyramidion_chaos_small_test").await;
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy.cfg");
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_pyramidion-chaos"))
            .args(["--database", &database, "--proxy-config", config])
            .args(["--instances", "3", "--games", "4", "--seconds", "15"])
            .args(["--kill-every", "5", "--seed", "7"])
            .output()
            .expect("pyramidion runs")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    // The figures' row: | instances | games | played | moves/s | p50 | p99 | failover | kills |
    // lost | bad | CPU per 1,000 moves | bytes per move | memory per game |
    let row: Vec<&str> = stdout
        .lines()
        .find(|l| l.starts_with("| 3 |"))
        .unwrap_or_else(|| panic!("a row of figures:\n{stdout}"))
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(row[8], "2", "two instances were killed: {stdout}");
    assert_eq!(row[9], "0", "no acknowledged move lost: {stdout}");
    assert_eq!(row[10], "0", "every record replays: {stdout}");
    // What the instances cost, measured (not "not measured"): CPU across the kills, the
    // bytes the movers received, memory per live game of each instance.
    let cpu: f64 = row[11]
        .strip_suffix(" s")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("CPU per 1,000 moves: {stdout}"));
    assert!(cpu > 0.0, "{stdout}");
    let median: u64 = row[12]
        .split_once(" median")
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("bytes per move: {stdout}"));
    assert!(median > 0, "{stdout}");
    assert!(row[13].ends_with("KiB"), "memory per game: {stdout}");
    let checked: u64 = stdout
        .lines()
        .find_map(|l| l.split_once(" acknowledged moves checked"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("a count of checked moves:\n{stdout}"));
    assert!(checked > 0, "moves were played and checked: {stdout}");
    assert!(
        stderr.contains("killing instance") && stderr.contains("draining instance"),
        "one SIGKILL and one SIGTERM: {stderr}"
    );
}
