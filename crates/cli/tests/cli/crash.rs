//! The real binary is killed with SIGKILL mid-game and restarted on the same data directory:
//! every acknowledged move is still there, and the game plays on to its end.
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn start(dir: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(base.starts_with("http://127.0.0.1:"), "{line}");
    (child, base)
}

/// The next state at `at_least` or later; `held` is the last one, which a `patch` applies to.
async fn next_state(
    ws: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
    at_least: u64,
    held: &mut Option<Value>,
) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            let mut v: Value = serde_json::from_str(&t).unwrap();
            assert_ne!(v["type"], "error", "{v}");
            if v["type"] == "patch" {
                v = pyramidion_server::live::patch::rebuild(held.as_ref().unwrap(), &v).unwrap();
            }
            if v["type"] == "state" {
                *held = Some(v.clone());
                if v["state_id"].as_u64().unwrap() >= at_least {
                    return v;
                }
            }
        }
    }
}

#[tokio::test]
async fn kill_9_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("pyramidion-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut server, base) = start(&dir);
    let http = reqwest::Client::new();
    let me = http.get(format!("{base}/api/me")).send().await.unwrap();
    let cookie = me.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let table: Value = http
        .post(format!("{base}/api/tables"))
        .header("cookie", &cookie)
        .json(&json!({"game": "forgotten-treasures", "options": {"players": 1, "solo": "the-legend"}, "seats": [{"type": "me"}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game = table["id"].as_str().unwrap().to_string();
    let connect = |base: String, cookie: String| async move {
        let mut req = format!("{}/ws", base.replacen("http", "ws", 1))
            .into_client_request()
            .unwrap();
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
        tokio_tungstenite::connect_async(req).await.unwrap().0
    };
    let mut ws = connect(base.clone(), cookie.clone()).await;
    let mut held = None;
    ws.send(Message::Text(
        json!({"type": "subscribe", "game": game})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    let mut state = next_state(&mut ws, 0, &mut held).await;
    let mut acknowledged = Vec::new();
    for _ in 0..30 {
        let id = state["state_id"].as_u64().unwrap();
        let m = state["legal"][0]["text"].as_str().unwrap().to_string();
        ws.send(Message::Text(
            json!({"type": "move", "game": game, "state_id": id, "move": m})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        state = next_state(&mut ws, id + 1, &mut held).await;
        acknowledged.push(m);
    }
    // One more move sent but not waited for: it may or may not have been committed.
    let id = state["state_id"].as_u64().unwrap();
    let m = state["legal"][0]["text"].as_str().unwrap().to_string();
    ws.send(Message::Text(
        json!({"type": "move", "game": game, "state_id": id, "move": m})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();

    let (mut server, base) = start(&dir);
    let record: Value = http
        .get(format!("{base}/api/games/{game}/record"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let moves: Vec<String> = serde_json::from_value(record["moves"].clone()).unwrap();
    assert!(
        moves.len() >= acknowledged.len(),
        "{} moves stored, {} acknowledged",
        moves.len(),
        acknowledged.len()
    );
    assert_eq!(moves[..acknowledged.len()], acknowledged[..]);
    // The game was rebuilt from its record and plays on to its end.
    let mut ws = connect(base.clone(), cookie.clone()).await;
    let mut held = None;
    ws.send(Message::Text(
        json!({"type": "subscribe", "game": game})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    let mut state = next_state(&mut ws, 0, &mut held).await;
    assert_eq!(state["state_id"].as_u64().unwrap(), moves.len() as u64);
    while state["finished"] != true {
        let id = state["state_id"].as_u64().unwrap();
        let m = state["legal"][0]["text"].as_str().unwrap().to_string();
        ws.send(Message::Text(
            json!({"type": "move", "game": game, "state_id": id, "move": m})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        state = next_state(&mut ws, id + 1, &mut held).await;
    }
    let text = http
        .get(format!("{base}/api/games/{game}/record?format=text"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let path = dir.join("record.txt");
    std::fs::write(&path, text).unwrap();
    let replay = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .arg("replay")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
