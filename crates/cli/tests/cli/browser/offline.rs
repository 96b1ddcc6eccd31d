//! Offline play (issue 50): with the connection cut — Chromium's offline emulation, and the
//! server stopped — the site starts from the service worker's copy, a solo Forgotten Treasures
//! game against THE Legend is dealt and played to its end in the page by clicking, surviving a
//! reload mid-game; once the connection is back the game is uploaded, replayed by the server
//! and found in the player's history as played offline (unrated).
use crate::browser::forgotten_treasures::play_step;
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, exists, open_lobby, start_server, table_state, viewport, world_on,
};
use crate::browser::webdriver::{Session, free_port};
use serde_json::json;
use std::path::Path;

/// The engines' module the page plays with: built by `scripts/build-wasm` (scripts/test builds
/// it before the browser suite), never committed.
fn module_built() {
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/wasm/pyramidion_wasm_bg.wasm");
    assert!(
        wasm.exists(),
        "{} is missing: run scripts/build-wasm --features tic-tac-toe first",
        wasm.display()
    );
}

async fn shot(s: &Session, name: &str) {
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&artifacts(), name).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solo_game_played_offline_survives_a_reload_and_reaches_the_history() {
    module_built();
    let port = free_port();
    let bind = format!("127.0.0.1:{port}");
    let mut w = world_on("offline", &bind).await;
    let base = w.server.base.clone();
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;
    // The service worker keeps the site (every file, the engines' module) and controls the
    // page: from now on it starts with no connection.
    s.wait_for("html[data-offline-ready=true]", 60).await;
    s.wait_for("[data-testid=way-offline]", 15).await;

    // The connection is cut: the page's network, and the server itself.
    s.set_offline(true).await;
    let _ = w.server.process.child.kill();
    let _ = w.server.process.child.wait();
    // Opened anew with no server: the site comes from the worker's copy, and the lobby, which
    // cannot reach the server, offers to play offline.
    s.refresh().await;
    s.wait_for("[data-testid=offline-offer] a", 30).await;
    shot(&s, "offline-lobby-1280").await;
    s.click("[data-testid=offline-offer] a").await;
    s.wait_for("[data-testid=offline-the-legend]", 30).await;
    viewport(&s, PHONE.0, PHONE.1).await;
    shot(&s, "offline-list-375").await;
    viewport(&s, DESKTOP.0, DESKTOP.1).await;
    s.click("[data-testid=offline-the-legend]").await;
    s.wait_for("[data-testid=ft-table]", 30).await;
    let mut steps = 0;
    let mut by_hand = true;
    while steps < 6 {
        assert!(
            play_step(&s, steps, &mut by_hand).await,
            "the game ended early"
        );
        steps += 1;
    }
    shot(&s, "offline-playing-1280").await;

    // Reloaded mid-game (still offline): the same position, from IndexedDB.
    let (state, phase) = table_state(&s).await;
    let hash = s.js("return location.hash;", json!([])).await;
    s.refresh().await;
    s.wait_until(
        "the offline game back after the reload",
        "const t = document.querySelector('[data-testid=ft-table]');
         return t && t.dataset.stateId === String(arguments[0]) && location.hash === arguments[1];",
        json!([state, hash]),
        30,
    )
    .await;
    assert_eq!(table_state(&s).await, (state, phase));
    assert!(
        s.text("[data-testid=offline-kind]")
            .await
            .contains("offline")
    );
    // In French, on a phone.
    s.click("[data-testid=language] option[value=fr]").await;
    s.wait_until(
        "the page in French",
        "return document.documentElement.lang === 'fr' || document.querySelector('[data-testid=offline-kind]').textContent.includes('hors ligne');",
        json!([]),
        15,
    )
    .await;
    viewport(&s, PHONE.0, PHONE.1).await;
    shot(&s, "offline-playing-375-fr").await;
    viewport(&s, DESKTOP.0, DESKTOP.1).await;

    // Played to the end, still offline: kept to upload.
    loop {
        if !play_step(&s, steps, &mut by_hand).await {
            break;
        }
        steps += 1;
        assert!(steps < 400, "the game should end");
    }
    assert!(!by_hand, "an area was activated by hand at a stage end");
    s.wait_for("[data-testid=result]", 15).await;
    s.wait_for("[data-testid=offline-end][data-status=over]", 15)
        .await;
    shot(&s, "offline-over-1280-fr").await;
    let ranking = s.find_all("[data-testid=ranking] tbody tr").await;
    assert_eq!(ranking.len(), 2, "the player and THE Legend");

    // The connection is back: the same server on the same data, the page online.
    let _restarted = start_server(w.server.process.dir.clone(), &bind);
    s.set_offline(false).await;
    s.wait_for("[data-testid=offline-end][data-status=uploaded]", 60)
        .await;
    s.click("[data-testid=offline-replay]").await;
    s.wait_for("[data-testid=replay]", 30).await;
    // In the history, played offline and unrated.
    s.goto(&format!("{base}/#/history")).await;
    s.wait_for("[data-testid=history-offline]", 30).await;
    let entries = s.find_all(".history-item").await;
    assert_eq!(entries.len(), 1);
    shot(&s, "offline-history-1280-fr").await;
    let games = s
        .js(
            "return fetch('/api/me/games').then((r) => r.json());",
            json!([]),
        )
        .await;
    let game = &games["games"][0];
    assert_eq!(game["offline"], true, "{games}");
    assert_eq!(game["rated"], false, "{games}");
    assert_eq!(game["status"], "finished", "{games}");
    s.quit().await;
}

/// A game against a bot, offline: the bot's moves come from the engines in a Web Worker of
/// the page (the demonstration game, on the generic table, which the test tier registers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_a_bot_is_played_to_its_end_offline() {
    module_built();
    let mut w = world_on("offline-bots", "127.0.0.1:0").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.wait_for("html[data-offline-ready=true]", 60).await;
    s.set_offline(true).await;
    let _ = w.server.process.child.kill();
    let _ = w.server.process.child.wait();
    s.click("[data-testid=way-offline]").await;
    s.wait_for("[data-testid=offline-bots-tic-tac-toe]", 30)
        .await;
    s.click("[data-testid=offline-bots-tic-tac-toe]").await;
    s.wait_for("[data-testid=generic-table]", 30).await;
    let mut moves = 0;
    for _ in 0..200 {
        if exists(&s, "[data-testid=result]").await {
            break;
        }
        if exists(&s, "[data-testid=prompt].yours").await && exists(&s, "button.generic-cell").await
        {
            s.click("button.generic-cell").await;
            moves += 1;
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    s.wait_for("[data-testid=result]", 15).await;
    assert!(moves >= 2, "{moves} moves by clicking");
    // The game is over with both seats ranked (the shortest game is five moves: the bot,
    // in its worker, played at least two), kept to upload.
    assert_eq!(s.find_all("[data-testid=ranking] tbody tr").await.len(), 2);
    s.wait_for("[data-testid=offline-end][data-status=over]", 15)
        .await;
    shot(&s, "offline-bot-over-1280").await;
    // Every game with a table of its own deals against bots and reaches its player's turn,
    // drawn by its own table (the bots that move first answer from the worker).
    for (game, table) in [
        ("pyramids", "py-table"),
        ("pyramido", "pyo-table"),
        ("forgotten-treasures", "ft-table"),
    ] {
        s.js("location.hash = '#/offline';", json!([])).await;
        let start = format!("[data-testid=offline-bots-{game}]");
        s.wait_for(&start, 30).await;
        s.click(&start).await;
        s.wait_for(&format!("[data-testid={table}]"), 30).await;
        s.wait_for("[data-testid=prompt].yours", 60).await;
        assert!(!exists(&s, "[data-testid=render-error]").await, "{game}");
    }
    shot(&s, "offline-bots-ft-1280").await;
    s.quit().await;
}
