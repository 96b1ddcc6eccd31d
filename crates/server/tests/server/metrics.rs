//! `/metrics`: moves, refusals and error answers counted with their game and code.
use crate::common::*;
use serde_json::json;

/// The value of the series `name{labels…}` holding every `label="value"` given.
async fn series(c: &mut Client, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let text = c.get("/metrics").await.text;
    text.lines().find_map(|l| {
        let (series, value) = l.rsplit_once(' ')?;
        let rest = series.strip_prefix(name)?.strip_prefix('{')?;
        labels
            .iter()
            .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")))
            .then(|| value.parse().unwrap())
    })
}

#[tokio::test]
async fn a_refused_move_is_counted_with_its_game_and_code() {
    let s = start_sqlite("metrics-refused").await;
    let mut ann = Client::guest(&s).await;
    let mut bob = Client::guest(&s).await;
    let game = "forgotten-treasures";
    let refused = "pyramidion_moves_rejected_total";
    let by = [("game", game), ("code", "wrong_phase")];
    // Every game's move counter is there from the start; no refusal yet.
    assert_eq!(
        series(&mut ann, "pyramidion_moves_total", &[("game", game)]).await,
        Some(0.0)
    );
    assert_eq!(series(&mut ann, refused, &by).await, None);
    let t = ann
        .create_table(
            game,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = bob.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.status, 200);
    let mut a = ann.socket().await;
    let state = a.subscribe(&id, None).await;
    // A placement during the take step: the engine's code is `wrong_phase`.
    a.play(&id, 0, "place e5 E").await;
    let e = a.next_of("error").await;
    assert_eq!(e["reason"], "wrong_phase", "{e}");
    assert_eq!(series(&mut ann, refused, &by).await, Some(1.0));
    a.play(&id, 0, "teleport").await;
    a.next_of("error").await;
    let syntax = [("game", game), ("code", "bad_move_syntax")];
    assert_eq!(series(&mut ann, refused, &syntax).await, Some(1.0));
    assert_eq!(series(&mut ann, refused, &by).await, Some(1.0));
    // A legal move is counted for its game.
    a.play(&id, 0, state["legal"][0]["text"].as_str().unwrap())
        .await;
    a.next_of("state").await;
    assert_eq!(
        series(&mut ann, "pyramidion_moves_total", &[("game", game)]).await,
        Some(1.0)
    );
}

#[tokio::test]
async fn error_answers_are_counted_by_code() {
    let s = start_sqlite("metrics-errors").await;
    let mut c = Client::guest(&s).await;
    let errors = "pyramidion_http_errors_total";
    assert_eq!(series(&mut c, errors, &[("code", "not_found")]).await, None);
    // One from a handler (`ApiError`), one the framework answered (rewritten to the shape).
    let r = c.get("/api/tables/000000000000000000000000").await;
    assert_eq!(r.code(), "not_found");
    let r = c.get("/no/such/file.js").await;
    assert_eq!(r.code(), "not_found");
    let r = c.post("/api/games", json!({})).await;
    assert_eq!(r.code(), "method_not_allowed");
    assert_eq!(
        series(&mut c, errors, &[("code", "not_found")]).await,
        Some(2.0)
    );
    assert_eq!(
        series(&mut c, errors, &[("code", "method_not_allowed")]).await,
        Some(1.0)
    );
}
