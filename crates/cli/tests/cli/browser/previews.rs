//! The engines in the page at a table the server runs (issue 50, items 4 and 5): a Pyramido
//! placement's, a Pyramids card's and a Forgotten Treasures stage-end plan's previews show
//! before the move is sent (no message leaves the page for them) and agree with what the
//! server gives once it has the moves; a finished game is
//! analysed in the browser when the server's analysis queue is full, and says so, with its
//! budget, in English and in French.
use crate::browser::support::{
    DESKTOP, PHONE, PLAY_AGAINST_A_RANDOM_BOT, REGISTER, artifacts, catalog, exists, fill,
    new_table_against_greedy, open_lobby, open_solo, py_state, py_wait_past, pyo_state,
    pyo_wait_past, shots, table_state, viewport, wait_past, world, world_with,
};
use crate::browser::webdriver::Session;
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

/// Nothing left the page on its sockets since `SPY_ON_SENDS` (the `what` was computed in it).
async fn nothing_sent(s: &Session, what: &str) {
    let sent = s.js("return window.sentOnSocket;", json!([])).await;
    assert_eq!(sent, json!([]), "nothing went to the server for the {what}");
}

/// What the page sent on its sockets since `SPY_ON_SENDS` holds `text`.
async fn sent_with(s: &Session, text: &str, why: &str) {
    let sent = s.js("return window.sentOnSocket;", json!([])).await;
    assert!(sent.to_string().contains(text), "{why}: {sent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placement_preview_shows_before_the_move_is_sent_and_agrees_with_the_server() {
    module_built();
    let w = world("previews-pyramido").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    new_table_against_greedy(&s, "pyramido", "pyo-table").await;
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
                nothing_sent(&s, "preview").await;
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
                sent_with(&s, &move_text, "the previewed move was the one sent").await;
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

/// The text a catalog entry gives with its placeholders filled.
fn filled(template: &serde_json::Value, values: &[(&str, String)]) -> String {
    let mut text = template.as_str().expect("catalog string").to_string();
    for (key, value) in values {
        text = text.replace(&format!("{{{key}}}"), value);
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pyramid_card_preview_shows_before_the_move_is_sent_and_agrees_with_the_server() {
    module_built();
    let w = world("previews-pyramids").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    new_table_against_greedy(&s, "pyramids", "py-table").await;
    let dir = artifacts();
    let mut previews = 0;
    for step in 0..80 {
        s.wait_until(
            "my Pyramids turn",
            "const t = document.querySelector('[data-testid=py-table]');
             return !!t && !document.getElementById('app').classList.contains('pending')
               && !!document.querySelector('[data-testid=prompt].yours');",
            json!([]),
            60,
        )
        .await;
        let (state, phase) = py_state(&s).await;
        match phase.as_str() {
            "choose_god" => s.click_nth("[data-testid=god]", step).await,
            "choose_pair" => s.click_nth("[data-testid=pair]", step).await,
            "build_more" => s.click("[data-testid=done]").await,
            "discard" => s.click("[data-testid=discard]").await,
            "build_pyramid" => {
                s.js(SPY_ON_SENDS, json!([])).await;
                s.click_nth("[data-testid=my-pyramid] [data-testid=ghost]", previews * 5)
                    .await;
                s.wait_for("[data-testid=preview]", 20).await;
                nothing_sent(&s, "preview").await;
                let preview = s
                    .js(
                        "const p = document.querySelector('[data-testid=preview]');
                         return [p.dataset.move, p.dataset.seat, Number(p.dataset.total), p.textContent];",
                        json!([]),
                    )
                    .await;
                let move_text = preview[0].as_str().unwrap_or_default().to_string();
                let (seat, total) = (preview[1].clone(), preview[2].clone());
                match previews {
                    0 => {
                        s.screenshot(&dir, "preview-pyramids-1280").await;
                    }
                    2 => {
                        // In Italian, at a phone's width: the same figure in Italian words.
                        let it = catalog("it");
                        s.click("[data-testid=language] option[value=it]").await;
                        s.wait_until(
                            "the preview in Italian",
                            "const p = document.querySelector('[data-testid=preview]');
                             return !!p && p.textContent.startsWith(arguments[0]);",
                            json!([it["py.preview.placement"]
                                .as_str()
                                .unwrap()
                                .split(':')
                                .next()
                                .unwrap()]),
                            10,
                        )
                        .await;
                        viewport(&s, PHONE.0, PHONE.1).await;
                        let text = s.text("[data-testid=preview]").await;
                        let now = s
                            .js(
                                "return document.querySelector('[data-testid=my-necropolis] [data-testid=public-score]').dataset.total;",
                                json!([]),
                            )
                            .await;
                        let pyramid = text
                            .split("Piramide ")
                            .nth(1)
                            .and_then(|r| r.split(',').next())
                            .unwrap_or_default()
                            .to_string();
                        assert_eq!(
                            text,
                            filled(
                                &it["py.preview.placement"],
                                &[
                                    ("pyramid", pyramid),
                                    ("total", total.to_string()),
                                    ("now", now.as_str().unwrap_or_default().to_string()),
                                ]
                            ),
                            "the Italian preview"
                        );
                        s.js(
                            "document.querySelector('[data-testid=preview]').scrollIntoView({ block: 'center' });",
                            json!([]),
                        )
                        .await;
                        s.screenshot(&dir, "preview-pyramids-it-375").await;
                    }
                    _ => {}
                }
                s.click("[data-testid=confirm-pyramid]").await;
                py_wait_past(&s, state).await;
                sent_with(&s, &move_text, "the previewed move was the one sent").await;
                // The server's word on it: this seat's visible points once the card is placed.
                let after = s
                    .js(
                        "const e = document.querySelector('[data-testid=my-necropolis] [data-testid=public-score]');
                         return e && e.dataset.seat === String(arguments[0]) ? Number(e.dataset.total) : null;",
                        json!([seat]),
                    )
                    .await;
                assert_eq!(after, total, "the preview agrees with the server");
                previews += 1;
                if previews == 3 {
                    break;
                }
                continue;
            }
            other => panic!("unexpected phase '{other}'"),
        }
        py_wait_past(&s, state).await;
    }
    assert_eq!(previews, 3, "three Pyramid cards previewed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stage_end_plan_preview_shows_before_it_is_sent_and_agrees_with_the_server() {
    module_built();
    let w = world("previews-treasures").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_solo(&s, &w.server.base).await;
    let dir = artifacts();
    let mut previews = 0;
    for step in 0..400 {
        s.wait_until(
            "my Forgotten Treasures turn or the end",
            "const t = document.querySelector('[data-testid=ft-table]');
             return !!t && !document.getElementById('app').classList.contains('pending')
               && (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=prompt].yours'));",
            json!([]),
            60,
        )
        .await;
        let (state, phase) = table_state(&s).await;
        match phase.as_str() {
            "over" => break,
            "take" => s.click("[data-testid=take]").await,
            "flip" => s.click("[data-testid=flip]").await,
            "place" => crate::browser::forgotten_treasures::place(&s, step, None).await,
            "discard" => s.click("[data-testid=discard]").await,
            "activate" => {
                if !exists(&s, "[data-testid=best-allocation]:not([disabled])").await {
                    // Nothing to activate: finish as it is.
                    s.click("[data-testid=finish-scoring]").await;
                    wait_past(&s, state).await;
                    continue;
                }
                s.js(SPY_ON_SENDS, json!([])).await;
                s.click("[data-testid=best-allocation]").await;
                s.wait_for("[data-testid=preview]", 20).await;
                nothing_sent(&s, "preview").await;
                let preview = s
                    .js(
                        "const p = document.querySelector('[data-testid=preview]');
                         return [p.dataset.seat, Number(p.dataset.score)];",
                        json!([]),
                    )
                    .await;
                let score = preview[1].clone();
                if previews == 0 {
                    s.js(
                        "document.querySelector('[data-testid=preview]').scrollIntoView({ block: 'center' });",
                        json!([]),
                    )
                    .await;
                    s.screenshot(&dir, "preview-treasures-1280").await;
                } else {
                    viewport(&s, PHONE.0, PHONE.1).await;
                    s.js(
                        "document.querySelector('[data-testid=preview]').scrollIntoView({ block: 'center' });",
                        json!([]),
                    )
                    .await;
                    s.screenshot(&dir, "preview-treasures-375").await;
                }
                s.click("[data-testid=finish-scoring]").await;
                // The plan goes one move per state; the scoring is over once the page no
                // longer sends and the prompt has moved on.
                s.wait_until(
                    "the plan sent and the scoring finished",
                    "const t = document.querySelector('[data-testid=ft-table]');
                     return t && Number(t.dataset.stateId) > arguments[0]
                       && !document.getElementById('app').classList.contains('pending')
                       && !document.querySelector('[data-testid=scoring-panel][data-sending=true]')
                       && (t.dataset.phase !== 'activate' || !document.querySelector('[data-testid=prompt].yours'));",
                    json!([state]),
                    30,
                )
                .await;
                sent_with(&s, "done", "the plan was sent after the preview").await;
                // The server's word on it: this seat's score once the plan is played.
                let after = s
                    .js(
                        "return Number(document.querySelector('[data-testid=own-area] [data-testid=total]').dataset.score);",
                        json!([]),
                    )
                    .await;
                assert_eq!(after, score, "the preview agrees with the server");
                previews += 1;
                if previews == 2 {
                    break;
                }
                continue;
            }
            other => panic!("unexpected phase '{other}'"),
        }
        wait_past(&s, state).await;
    }
    assert_eq!(previews, 2, "two stage-end plans previewed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_games_decision_is_judged_in_the_browser_from_the_seats_view() {
    module_built();
    let w = world("previews-position").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    new_table_against_greedy(&s, "pyramids", "py-table").await;
    s.wait_until(
        "my Pyramids turn",
        "const t = document.querySelector('[data-testid=py-table]');
         return !!t && !document.getElementById('app').classList.contains('pending')
           && !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
        60,
    )
    .await;
    let (state, _) = py_state(&s).await;
    s.js(SPY_ON_SENDS, json!([])).await;
    s.click("[data-testid=judge-local]").await;
    s.wait_for("[data-testid=position-analysis][data-state=done]", 120)
        .await;
    nothing_sent(&s, "judgement").await;
    assert_eq!(py_state(&s).await.0, state, "no move was played");
    let found = s
        .js(
            "const a = document.querySelector('[data-testid=position-analysis]');
             return [a.dataset.best, a.dataset.budget, !!document.querySelector(`[data-testid=py-table] [data-move=\"${a.dataset.best}\"]`)];",
            json!([]),
        )
        .await;
    assert_eq!(
        found[2],
        json!(true),
        "the best move is one the seat may play: {found}"
    );
    let budget = found[1].as_str().unwrap_or_default().to_string();
    let en = catalog("en");
    // The best move reads as one to make ("take god 2"), not in the log's past ("took").
    assert!(
        s.text("[data-testid=position-analysis] strong")
            .await
            .starts_with(&advice_on_a_god(&en)),
        "the best move as advice"
    );
    let label = s.text("[data-testid=position-analysis-label]").await;
    let said = fill(&en["preview2.done.other"], "budget", &budget);
    let (before, _) = said.split_once("{count}").unwrap();
    assert!(
        label.starts_with(before),
        "labelled as computed in the browser, with its budget: {label}"
    );
    let dir = shots();
    s.js(
        "document.querySelector('[data-testid=position-analysis]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "position-analysis-1280").await;
    // In French, at a phone's width.
    s.click("[data-testid=language] option[value=fr]").await;
    let fr = catalog("fr");
    let said = fill(&fr["preview2.done.other"], "budget", &budget);
    let (before, _) = said.split_once("{count}").unwrap();
    s.wait_until(
        "the label in French",
        "const e = document.querySelector('[data-testid=position-analysis-label]'); return !!e && e.textContent.startsWith(arguments[0]);",
        json!([before]),
        10,
    )
    .await;
    assert!(
        s.text("[data-testid=position-analysis] strong")
            .await
            .starts_with(&advice_on_a_god(&fr)),
        "the best move as advice, in French"
    );
    viewport(&s, PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=position-analysis]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "position-analysis-fr-375").await;
}

/// How the judgement's line begins when its best move is a God tile (a round's first
/// decision): "Best move: take god ", up to the god's number.
fn advice_on_a_god(words: &serde_json::Value) -> String {
    let best = words["preview2.best"].as_str().unwrap();
    let god = words["py.advice.god"].as_str().unwrap();
    format!(
        "{}{}",
        best.split("{move}").next().unwrap(),
        god.split("{number}").next().unwrap()
    )
}
