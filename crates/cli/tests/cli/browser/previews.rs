//! The engines in the page at a table the server runs (issue 50, items 4 and 5): a Pyramido
//! placement's preview shows before the move is sent (no message leaves the page for it) and
//! agrees with the stage value the server gives once it has the move; a finished game is
//! analysed in the browser when the server's analysis queue is full, and says so, with its
//! budget, in English and in French.
use crate::browser::support::{
    DESKTOP, PHONE, PLAY_AGAINST_A_RANDOM_BOT, REGISTER, artifacts, catalog, fill, open_lobby,
    pyo_state, pyo_wait_past, viewport, world, world_with,
};
use serde_json::json;
use std::path::Path;

/// Previews and local analyses compute with the engines' module (scripts/build-wasm).
fn module_built() {
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/wasm/pyramidion_wasm_bg.wasm");
    assert!(
        wasm.exists(),
        "{} is missing: run scripts/build-wasm --features tic-tac-toe first",
        wasm.display()
    );
}

/// Every message the page sends on its WebSockets from now on, kept in `window.sentOnSocket`.
const SPY_ON_SENDS: &str = "window.sentOnSocket = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { window.sentOnSocket.push(String(data)); return send.call(this, data); };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placement_preview_shows_before_the_move_is_sent_and_agrees_with_the_server() {
    module_built();
    let w = world("previews-pyramido").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.click("[data-testid=new-game] option[value=pyramido]")
        .await;
    s.click("[data-testid=new-players] option[value='2']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    let dir = artifacts();
    let mut previews = 0;
    for _ in 0..60 {
        s.wait_until(
            "my turn",
            "const t = document.querySelector('[data-testid=pyo-table]');
             return t && !document.getElementById('app').classList.contains('pending')
               && !!document.querySelector('[data-testid=prompt].yours');",
            json!([]),
            60,
        )
        .await;
        let (state, step) = pyo_state(&s).await;
        match step.as_str() {
            "take" => s.click("[data-testid=take]").await,
            "place" => {
                s.wait_for("[data-testid=my-pyramid] [data-testid=ghost]", 10)
                    .await;
                s.js(SPY_ON_SENDS, json!([])).await;
                // A slot picked: its preview comes from the page alone.
                let n = s
                    .find_all("[data-testid=my-pyramid] [data-testid=ghost]")
                    .await
                    .len();
                s.js(
                    "document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost]')[arguments[0]].dispatchEvent(new MouseEvent('click', { bubbles: true }));",
                    json!([previews * 7 % n]),
                )
                .await;
                s.wait_for("[data-testid=preview]", 20).await;
                let sent = s.js("return window.sentOnSocket;", json!([])).await;
                assert_eq!(
                    sent,
                    json!([]),
                    "nothing went to the server for the preview"
                );
                let preview = s
                    .js(
                        "const p = document.querySelector('[data-testid=preview]');
                         return [p.dataset.move, p.dataset.seat, Number(p.dataset.stageValue)];",
                        json!([]),
                    )
                    .await;
                let move_text = preview[0].as_str().unwrap_or_default().to_string();
                let (seat, value) = (preview[1].clone(), preview[2].clone());
                if previews == 2 {
                    s.screenshot(&dir, "preview-pyramido-1280").await;
                }
                if previews == 3 {
                    s.js(
                        "document.querySelector('[data-testid=preview]').scrollIntoView({ block: 'center' });",
                        json!([]),
                    )
                    .await;
                    s.screenshot(&dir, "preview-pyramido-375").await;
                }
                s.click("[data-testid=confirm-place]").await;
                pyo_wait_past(&s, state).await;
                let sent = s.js("return window.sentOnSocket;", json!([])).await;
                assert!(
                    sent.to_string().contains(&move_text),
                    "the previewed move was the one sent: {sent}"
                );
                // The server's word on it: this seat's stage value once the move is played.
                let after = s
                    .js(
                        "const mine = [...document.querySelectorAll('[data-testid=stage-value]')].find((e) => e.dataset.seat === arguments[0]);
                         return mine ? Number(mine.dataset.points) : null;",
                        json!([seat]),
                    )
                    .await;
                assert_eq!(after, value, "the preview agrees with the server");
                previews += 1;
                // The last one at a phone's width.
                if previews == 3 {
                    viewport(&s, PHONE.0, PHONE.1).await;
                }
                if previews == 4 {
                    break;
                }
                continue;
            }
            "mark" => s.click("[data-testid=mark]").await,
            "resurface" => s.click("[data-testid=pass]").await,
            "refill" => s.click("[data-testid=refill]").await,
            "cover" => {
                s.click("[data-testid=cover-colour]").await;
                s.click("[data-testid=cover]").await;
            }
            other => panic!("unexpected step '{other}'"),
        }
        pyo_wait_past(&s, state).await;
    }
    assert_eq!(previews, 4, "four placements previewed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_in_the_browser_when_the_queue_is_full() {
    module_built();
    // No analysis is accepted by the server: its queue is always full.
    let flags = ["--max-analyses", "0", "--bot-pace-ms", "0"];
    let w = world_with("previews-local-analysis", "127.0.0.1:0", &flags).await;
    let base = &w.server.base;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, base).await;
    assert_eq!(s.js(REGISTER, json!(["analyst"])).await, 200);
    let played = s.js(PLAY_AGAINST_A_RANDOM_BOT, json!(["pyramido"])).await;
    let id = played[0].as_str().unwrap_or_default().to_string();
    assert_eq!(id.len(), 16, "the game was played to the end: {played}");
    open_lobby(&s, base).await;
    s.goto(&format!("{base}/#/replay/{id}")).await;
    s.wait_for("[data-testid=replay]", 15).await;
    s.click("[data-testid=analyse]").await;
    s.wait_for("[data-testid=analysis-local]", 300).await;
    let budget = s
        .js(
            "return document.querySelector('[data-testid=analysis-local]').dataset.budget;",
            json!([]),
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_string();
    let en = catalog("en");
    let text = s.text("[data-testid=analysis-local]").await;
    assert!(
        text.contains(en["localan.queue_full"].as_str().unwrap()),
        "says why: {text}"
    );
    assert!(
        text.contains(&fill(&en["localan.done"], "budget", &budget)),
        "says where and with what budget: {text}"
    );
    // The report is drawn as the server's would be: the summary and its decisions.
    s.wait_for("[data-testid=analysis-summary]", 10).await;
    let dir = artifacts();
    s.screenshot(&dir, "local-analysis-1280").await;
    // In French, at a phone's width, the label says the same in French.
    s.click("[data-testid=language] option[value=fr]").await;
    let fr = catalog("fr");
    let done = fill(&fr["localan.done"], "budget", &budget);
    s.wait_until(
        "the label in French",
        "const e = document.querySelector('[data-testid=analysis-local]'); return !!e && e.textContent.includes(arguments[0]);",
        json!([done]),
        10,
    )
    .await;
    viewport(&s, PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=analysis-local]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "local-analysis-fr-375").await;
}
