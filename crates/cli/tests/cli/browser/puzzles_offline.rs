//! Puzzles offline and their heading (issue 48): a puzzle already fetched opens with no
//! connection, the move tried then is kept on the device and sent when the connection returns
//! (the server judges it and moves the rating then); the heading says where the position
//! stands in words (stage, turn), never "move 0". In Italian, at 1280 and 375 px.
use crate::browser::puzzles::{play, rating, shown};
use crate::browser::support::{call, catalog, open_lobby, shots, start_server, viewport, world_on};
use crate::browser::webdriver::free_port;
use pyramidion_core::record::Record;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_tried_offline_is_rated_when_the_connection_returns() {
    let game = "pyramido";
    let bind = format!("127.0.0.1:{}", free_port());
    let mut w = world_on("puzzles-offline", &bind).await;
    let base = w.server.base.clone();
    let s = w.driver.session(1280, 800).await;
    open_lobby(&s, &base).await;
    s.wait_for("html[data-offline-ready=true]", 60).await;
    let it = catalog("it");
    let title = it["puzzle.title"]
        .as_str()
        .unwrap()
        .replace("{game}", it[&format!("game.{game}")].as_str().unwrap());
    s.js(
        "const l = document.getElementById('lang'); l.value = 'it'; l.dispatchEvent(new Event('change'));",
        json!([]),
    )
    .await;
    s.wait_until(
        "the lobby in Italian",
        "const a = document.querySelector(`[data-testid=puzzles-${arguments[0]}]`); return a && a.textContent === arguments[1];",
        json!([game, title]),
        20,
    )
    .await;
    s.click(&format!("[data-testid=puzzles-{game}]")).await;
    s.wait_until(
        "the puzzle page in Italian",
        "const h = document.querySelector('.puzzles h2'); return h && h.textContent === arguments[0];",
        json!([title]),
        20,
    )
    .await;
    let first = shown(&s).await;
    assert_eq!(rating(&s).await, 1500.0);

    // The heading: the stage and the turn, as the move log numbers turns; no move count.
    let record: Record = serde_json::from_value(first.record.clone()).unwrap();
    let turn = pyramidion_games::analysis::turn_at(&record).unwrap();
    let view = &first.view;
    let stage = it["stage.stage"]
        .as_str()
        .unwrap()
        .replace("{n}", &view["stage"].to_string());
    let heading = it["puzzle3.position"]
        .as_str()
        .unwrap()
        .replace("{stage}", &stage)
        .replace("{stages}", &view["stages"].to_string())
        .replace("{turn}", &turn.to_string())
        .replace("{seat}", &(first.seat + 1).to_string());
    assert_eq!(s.text("[data-testid=puzzle-position]").await, heading);
    let status = s
        .text("[data-testid=puzzle-board] [data-testid=table-status]")
        .await;
    let move_word = it["table.state"].as_str().unwrap().replace(" {n}", "");
    assert!(!status.contains(&move_word), "{status}");
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-heading-it-1280").await;
    viewport(&s, 375, 800).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-heading-it-375").await;
    viewport(&s, 1280, 800).await;

    // No connection, the server gone: the page reloaded shows the same puzzle, kept.
    s.set_offline(true).await;
    let _ = w.server.process.child.kill();
    let _ = w.server.process.child.wait();
    s.refresh().await;
    s.wait_for("[data-testid=puzzle-offline]", 30).await;
    assert_eq!(shown(&s).await.id(), first.id());
    assert_eq!(s.text("[data-testid=puzzle-position]").await, heading);
    // A wrong move, tried offline: kept, waiting; still there after a reload.
    let wrong = first
        .legal
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .find(|t| !first.solutions.contains(t))
        .unwrap();
    play(&s, &wrong).await;
    s.wait_for("[data-testid=puzzle-queued]", 20).await;
    s.refresh().await;
    s.wait_for("[data-testid=puzzle-queued]", 30).await;
    assert_eq!(shown(&s).await.id(), first.id());
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-offline-queued-it-1280")
        .await;
    viewport(&s, 375, 800).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-offline-queued-it-375")
        .await;
    viewport(&s, 1280, 800).await;

    // The connection is back (the same server on the same data): the move is sent, judged
    // (failed) and rated, and the page shows the answer.
    let _restarted = start_server(w.server.process.dir.clone(), &bind);
    s.set_offline(false).await;
    s.wait_for("[data-testid=puzzle-result][data-solved=false]", 60)
        .await;
    let history = call(
        &s,
        "GET",
        &format!("/api/puzzles/{game}/history"),
        json!(null),
    )
    .await;
    let tries = history["attempts"].as_array().unwrap();
    assert_eq!(tries.len(), 1, "{history}");
    assert_eq!(tries[0]["puzzle"], json!(first.id()));
    assert_eq!(tries[0]["move"], json!(wrong));
    assert_eq!(tries[0]["solved"], json!(false));
    assert!(
        history["rating"]["rating"].as_f64().unwrap() < 1500.0,
        "{history}"
    );
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-offline-rated-it-1280")
        .await;
    s.quit().await;
}
