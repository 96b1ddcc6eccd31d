//! A whole three-player Pyramids game against two bots, watched by a spectator who never
//! sees a hidden card.
use super::{BY_KEYBOARD, py_step};
use crate::browser::support::{DESKTOP, PHONE, artifacts, catalog, fill, open_lobby, world};
use serde_json::{Value, json};
use std::sync::atomic::Ordering::Relaxed;

/// Records, in the page, every message a second socket of the same browser receives for
/// `game` (a spectator's own subscription, from the first event).
const RECORD_SOCKET: &str = "const game = arguments[0];
    window.__pyMessages = [];
    return new Promise((resolve) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      ws.onmessage = (e) => window.__pyMessages.push(e.data);
      ws.onopen = () => { ws.send(JSON.stringify({ type: 'subscribe', game, last_event: 0 })); resolve(true); };
    });";

/// Every structured move form in `msg` (last move and missed moves).
fn move_forms(msg: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = msg["missed"].as_array().into_iter().flatten().collect();
    if !msg["last_move"].is_null() {
        out.push(&msg["last_move"]);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramids_a_person_plays_three_players_against_two_bots_and_a_spectator_sees_no_hidden_card()
 {
    let w = world("pyramids").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.click("[data-testid=new-game] option[value=pyramids]")
        .await;
    s.click("[data-testid=new-players] option[value='3']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid='new-seat-2'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=py-table]", 20).await;
    // What the player's page receives, to explain a stall if one happens.
    s.js(
        "return import('/js/shell.js').then((m) => { window.__pyReceived = [];
           m.app.socket.onMessage((msg) => window.__pyReceived.push(msg));
           const send = m.app.socket.send.bind(m.app.socket);
           m.app.socket.send = (msg) => { window.__pyReceived.push({ sent: msg }); return send(msg); };
           const sendMove = m.app.socket.sendMove.bind(m.app.socket);
           m.app.socket.sendMove = (msg) => { window.__pyReceived.push({ sent: msg }); return sendMove(msg); };
           return true; });",
        json!([]),
    )
    .await;
    let hash = s.js("return location.hash;", json!([])).await;
    let id = hash
        .as_str()
        .and_then(|h| h.strip_prefix("#/game/"))
        .expect("the game page")
        .to_string();

    // A spectator: another browser, a guest of its own, on the same game.
    let spectator = w.driver.session(PHONE.0, PHONE.1).await;
    open_lobby(&spectator, &w.server.base).await;
    spectator
        .goto(&format!("{}/#/game/{id}", w.server.base))
        .await;
    spectator.wait_for("[data-testid=py-table]", 20).await;
    assert_eq!(spectator.js(RECORD_SOCKET, json!([id])).await, json!(true));

    let mut shots = [false; 2];
    let mut step = 0;
    let mut spectator_checks = 0;
    while py_step(&s, step, &mut shots).await {
        step += 1;
        assert!(step < 200, "the game should end");
        // The spectator's page shows no hand and no Tomb card while the game goes on.
        if step.is_multiple_of(5) {
            let shown = spectator
                .js(
                    "const t = document.querySelector('[data-testid=py-table]');
                     if (!t || t.dataset.phase === 'over') return null;
                     return document.querySelectorAll('[data-testid=hand], [data-testid=my-tomb], [data-testid=tomb-cards], [data-testid=hand] [data-card]').length;",
                    json!([]),
                )
                .await;
            if let Some(n) = shown.as_u64() {
                assert_eq!(n, 0, "the spectator sees a hand or a Tomb");
                spectator_checks += 1;
            }
        }
    }
    assert!(
        shots[0] && shots[1],
        "screenshots of the God choice and building"
    );
    assert!(spectator_checks > 3);
    assert!(
        BY_KEYBOARD.load(Relaxed) >= 4,
        "some pairs and Pyramid cards were chosen with the keyboard"
    );

    // The scoring breakdown: one row per player, with every edifice.
    s.wait_for("[data-testid=breakdown]", 15).await;
    assert_eq!(s.find_all("[data-testid=breakdown-row]").await.len(), 3);
    let headline = s.text("[data-testid=result-headline]").await;
    assert!(
        !headline.is_empty() && !headline.contains("py."),
        "{headline}"
    );
    let table = s.text("[data-testid=py-table]").await;
    assert!(
        !table.contains("py.") && !table.contains("undefined"),
        "{table}"
    );
    let dir = artifacts();
    s.js(
        "document.querySelector('[data-testid=result]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "pyramids-scoring-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=result]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "pyramids-scoring-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;

    // The record the page links to.
    let record = s
        .js(
            "const a = document.querySelector('[data-testid=record-link]');
             return fetch(a.href).then(async (r) => [r.status, await r.text()]);",
            json!([]),
        )
        .await;
    assert_eq!(record[0], 200, "{record}");

    // Every message the spectator's socket received: before the end, no hand, no Tomb, no
    // legal move, and moves that hide a card arrive redacted.
    spectator
        .wait_until(
            "the spectator's socket to see the end",
            "return window.__pyMessages.some((m) => JSON.parse(m).finished);",
            json!([]),
            20,
        )
        .await;
    let messages = spectator.js("return window.__pyMessages;", json!([])).await;
    let messages = messages.as_array().expect("messages");
    let mut before_end = 0;
    let mut redacted = 0;
    // A patch is checked as the state it makes of the last one (what the page would hold).
    let mut held: Option<Value> = None;
    for raw in messages {
        let mut msg: Value = serde_json::from_str(raw.as_str().unwrap()).unwrap();
        if msg["type"] == "patch" {
            let base = held.as_ref().expect("a patch follows a state");
            msg = pyramidion_server::live::patch::rebuild(base, &msg).expect("the patch applies");
        }
        if msg["type"] != "state" {
            continue;
        }
        held = Some(msg.clone());
        if msg["finished"] == json!(true) {
            continue;
        }
        for form in move_forms(&msg) {
            if form["kind"] == "tomb" || form["kind"] == "discard" {
                assert!(form["card"].is_null() && form["hand"].is_null(), "{form}");
                assert!(form["text"].as_str().unwrap().ends_with('?'), "{form}");
                redacted += 1;
            }
        }
        before_end += 1;
        assert_eq!(msg["legal"], json!([]), "a spectator has no move");
        for table in msg["view"]["seats"].as_array().unwrap() {
            assert!(table["hand"].is_null(), "a hand reached the spectator");
            assert!(table["tomb"].is_null(), "a Tomb reached the spectator");
            assert!(table["detail"].is_null());
        }
    }
    assert!(before_end > 10, "{before_end} messages before the end");
    assert!(redacted > 0, "discards reach the spectator redacted");

    // French and Italian replace the visible texts of the table.
    for lang in ["fr", "it"] {
        let cat = catalog(lang);
        s.click(&format!("[data-testid=language] option[value={lang}]"))
            .await;
        let caption = cat["py.score.caption"].as_str().unwrap().to_string();
        s.wait_until(
            "the table in the new language",
            "return document.querySelector('[data-testid=breakdown] caption')?.textContent === arguments[0];",
            json!([caption]),
            10,
        )
        .await;
        let round = fill(&cat["py.round"], "round", "10").replace("{rounds}", "10");
        assert_eq!(s.text("[data-testid=round]").await, round);
        assert_ne!(cat["py.round"], catalog("en")["py.round"]);
        s.screenshot(&dir, &format!("pyramids-scoring-{lang}-1280"))
            .await;
    }
    s.quit().await;
    spectator.quit().await;
}
