//! A finished game's exports (the text record, the JSON record, and its line of the player's
//! NDJSON export) are records that `pyramidion replay` verifies move by move, to the scores the
//! game ended with.
#[path = "../../../server/tests/server/common/mod.rs"]
mod common;
use common::{Client, start_sqlite};
use serde_json::json;
use std::process::Command;

fn replay(path: &std::path::Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .arg("replay")
        .arg(path)
        .output()
        .expect("pyramidion runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}: {stdout}{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[tokio::test]
async fn every_export_of_a_finished_game_replays_with_the_cli() {
    let server = start_sqlite("export-replay").await;
    let mut c = Client::guest(&server).await;
    let t = c
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&id, None).await;
    let done = ws.play_out(&id, state, 5).await;
    let scores = done["outcome"]["scores"].as_array().unwrap().clone();
    let me = c.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();

    let text = c.get(&format!("/api/games/{id}/record?format=text")).await;
    let json_record = c.get(&format!("/api/games/{id}/record?format=json")).await;
    let ndjson = c.get(&format!("/api/users/{me}/games.ndjson")).await;
    let line = ndjson.text.lines().next().expect("one game").to_string();
    let moves = serde_json::from_str::<serde_json::Value>(&line).unwrap()["moves"]
        .as_array()
        .unwrap()
        .len();
    for (name, body) in [
        ("record.txt", text.text),
        ("record.json", json_record.text),
        ("line.json", line),
    ] {
        let path = server.dir.join(name);
        std::fs::write(&path, body).unwrap();
        let out = replay(&path);
        assert!(
            out.contains(&format!("pyramids: {moves} moves verified")),
            "{name}: {out}"
        );
        for (seat, score) in scores.iter().enumerate() {
            assert!(
                out.contains(&format!("seat {seat}: {score} points")),
                "{name}: {out}"
            );
        }
    }
}
