//! Issue 46's last leftovers in the browser, in French: a card of the game page scrolled to
//! the top of the window stops under the sticky clock bar and status line (at 1280 and 375 px,
//! on a table the shell draws generically and on a Pyramido table). Screenshots under the
//! artifacts' `people3` folder and, when it exists, `/work/shots/people3/`.
use crate::browser::support::{DESKTOP, PHONE, artifacts, call, open_lobby, world};
use crate::browser::webdriver::Session;
use serde_json::json;
use std::path::PathBuf;

/// Saves a screenshot in the artifacts and, when it exists, the shared review folder.
async fn shoot(s: &Session, name: &str) {
    s.screenshot(&artifacts().join("people3"), name).await;
    let shared = PathBuf::from("/work/shots/people3");
    if shared.is_dir() {
        s.screenshot(&shared, name).await;
    }
}

/// Scrolls every card of the game page to the top of the window in turn (as a browser does
/// for focus, "find" or a link to it) and answers where its top lands and where the sticky
/// head ends. Room is made under the page first, so that even its last card can reach the top
/// (a short page, such as a tic-tac-toe table's, would not scroll at all).
const CARDS_UNDER_HEAD: &str = "
  document.body.style.paddingBottom = '3000px';
  const head = () => Math.max(0, ...[...document.querySelectorAll('#app > .clockbar, #app > .table-status')]
    .map((e) => e.getBoundingClientRect().bottom));
  const out = [];
  for (const card of document.querySelectorAll('#app .card')) {
    if (!card.getBoundingClientRect().height) continue;
    card.scrollIntoView({ block: 'start' });
    out.push({ card: card.dataset.testid || card.className, top: card.getBoundingClientRect().top, head: head() });
  }
  document.body.style.paddingBottom = '';
  window.scrollTo(0, 0);
  return out;";

/// Every card checked by [`CARDS_UNDER_HEAD`] stops below the head, at both widths; the
/// last one checked is left in view for the screenshot.
async fn cards_below_head(s: &Session, what: &str) {
    for (w, h, width) in [(DESKTOP.0, DESKTOP.1, "1280"), (PHONE.0, PHONE.1, "375")] {
        s.resize(w, h).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let cards = s.js(CARDS_UNDER_HEAD, json!([])).await;
        let cards = cards.as_array().expect("the cards measured");
        assert!(!cards.is_empty(), "{what} at {width}: no card to scroll");
        for c in cards {
            let (top, head) = (c["top"].as_f64().unwrap(), c["head"].as_f64().unwrap());
            assert!(
                top >= head - 1.0,
                "{what} at {width} px: the card {} scrolled to the top sits under the sticky head ({top} < {head})",
                c["card"]
            );
        }
        s.js(
            "const cards = [...document.querySelectorAll('#app .card')]; cards[cards.length - 2]?.scrollIntoView({ block: 'start' });",
            json!([]),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        shoot(s, &format!("{what}-card-under-head-fr-{width}")).await;
    }
    s.resize(DESKTOP.0, DESKTOP.1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_scrolled_to_the_top_stops_under_the_sticky_head() {
    let w = world("people3-head").await;
    let base = w.server.base.clone();
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;
    s.click("[data-testid=language] option[value=fr]").await;
    s.wait_until(
        "the lobby in French",
        "return document.documentElement.lang === 'fr';",
        json!([]),
        15,
    )
    .await;
    for (game, testid) in [("pyramido", "pyo-table"), ("tic-tac-toe", "generic-table")] {
        let table = call(
            &s,
            "POST",
            "/api/tables",
            json!({"game": game, "options": {"players": 2}, "clock": "day",
                   "seats": [{"type": "me"}, {"type": "bot", "level": "random"}]}),
        )
        .await;
        let id = table["id"].as_str().unwrap_or_else(|| panic!("{table}"));
        s.goto(&format!("{base}/#/game/{id}")).await;
        s.wait_for(&format!("[data-testid={testid}]"), 20).await;
        s.wait_for("#app > .clockbar", 10).await;
        cards_below_head(&s, game).await;
    }
    s.quit().await;
}
