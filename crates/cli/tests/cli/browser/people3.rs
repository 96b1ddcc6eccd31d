//! Issue 46's last leftovers in the browser: a card of the game page scrolled to the top of
//! the window stops under the sticky clock bar and status line (in French, at 1280 and 375
//! px, on a table the shell draws generically and on a Pyramido table); a stranger's walk in
//! Italian with two profiles (one at 1280 px, one at 375 px): the lobby, a table between them,
//! chat, a resignation's end, the tournament form with its days per round. Screenshots under
//! the artifacts' `people3` folder and, when it exists, `/work/shots/people3/`.
use crate::browser::support::{
    DESKTOP, PHONE, REGISTER, artifacts, call, catalog, open_lobby, world,
};
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

/// Switches the page to `lang` and waits for it.
async fn speak(s: &Session, lang: &str) {
    s.js(
        "const l = document.querySelector('[data-testid=language]'); l.value = arguments[0]; l.dispatchEvent(new Event('change'));",
        json!([lang]),
    )
    .await;
    s.wait_until(
        "the language",
        "return document.documentElement.lang === arguments[0];",
        json!([lang]),
        10,
    )
    .await;
}

/// No catalog key drawn raw on the page (a text that is a key of the catalog).
async fn no_raw_key(s: &Session, keys: &serde_json::Map<String, serde_json::Value>, what: &str) {
    let texts = s
        .js(
            "return [...document.querySelectorAll('body *')].filter((e) => !e.children.length).map((e) => e.textContent.trim());",
            json!([]),
        )
        .await;
    for text in texts.as_array().unwrap() {
        let text = text.as_str().unwrap_or_default();
        assert!(
            !keys.contains_key(text),
            "{what}: the raw key {text:?} is drawn"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strangers_walk_in_italian_with_two_profiles() {
    let w = world("people3-walk").await;
    let base = w.server.base.clone();
    let it = catalog("it");
    let keys = it.as_object().unwrap().clone();
    let a = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let b = w.driver.session(PHONE.0, PHONE.1).await;
    for (s, name) in [(&a, "aurora"), (&b, "bruno")] {
        open_lobby(s, &base).await;
        assert_eq!(s.js(REGISTER, json!([name])).await, 200);
        open_lobby(s, &base).await;
        speak(s, "it").await;
        s.wait_for("[data-testid=ways-to-play]", 15).await;
        no_raw_key(s, &keys, "the lobby").await;
    }
    shoot(&a, "walk-lobby-it-1280").await;
    shoot(&b, "walk-lobby-it-375").await;

    // A turn-based duel between the two: Aurora opens it, Bruno joins from its page.
    let table = call(
        &a,
        "POST",
        "/api/tables",
        json!({"game": "pyramido", "options": {"players": 2}, "clock": "day",
               "seats": [{"type": "me"}, {"type": "open"}]}),
    )
    .await;
    let id = table["id"].as_str().unwrap_or_else(|| panic!("{table}"));
    b.goto(&format!("{base}/#/table/{id}")).await;
    b.wait_for("[data-testid=join]", 15).await;
    b.click("[data-testid=join]").await;
    for s in [&a, &b] {
        s.goto(&format!("{base}/#/game/{id}")).await;
        s.wait_for("[data-testid=pyo-table]", 20).await;
        s.wait_for("[data-testid=chat]", 20).await;
    }
    // Both read the move to come (the first) and whether the table is rated.
    for s in [&a, &b] {
        assert_eq!(
            s.text("[data-testid=move-number]").await,
            it["table.state"].as_str().unwrap().replace("{n}", "1")
        );
        assert_eq!(
            s.text("[data-testid=table-kind]").await,
            it["table.kind_casual"].as_str().unwrap()
        );
        no_raw_key(s, &keys, "the table").await;
    }
    shoot(&a, "walk-table-it-1280").await;
    shoot(&b, "walk-table-it-375").await;
    a.js(
        "document.querySelector('[data-testid=chat-input]').value = 'Ciao Bruno!';",
        json!([]),
    )
    .await;
    a.click("[data-testid=chat-send]").await;
    b.wait_until(
        "the message",
        "return [...document.querySelectorAll('[data-testid=chat-text]')].some((t) => t.textContent === 'Ciao Bruno!');",
        json!([]),
        15,
    )
    .await;
    b.js(
        "document.querySelector('[data-testid=chat]').scrollIntoView({ block: 'start' });",
        json!([]),
    )
    .await;
    shoot(&b, "walk-chat-it-375").await;

    // Aurora resigns (asked twice); both read the end, Bruno the winner.
    a.click("[data-testid=resign]").await;
    a.click("[data-testid=confirm-resign]").await;
    for s in [&a, &b] {
        s.wait_for("[data-testid=end-bar] [data-testid=ending]", 15)
            .await;
        no_raw_key(s, &keys, "the end").await;
    }
    assert!(b.find_all("[data-testid=move-number]").await.is_empty());
    // Nobody is "to move" on a finished game's seat cards.
    for s in [&a, &b] {
        assert!(s.find_all("section.card .turn-mark").await.is_empty());
    }
    shoot(&a, "walk-end-it-1280").await;
    shoot(&b, "walk-end-it-375").await;
    // Bruno's games and Aurora's profile, on his phone.
    b.goto(&format!("{base}/#/history")).await;
    b.wait_for("[data-testid=history-result]", 15).await;
    no_raw_key(&b, &keys, "my games").await;
    shoot(&b, "walk-history-it-375").await;
    b.goto(&format!("{base}/#/player/aurora")).await;
    b.wait_for("[data-testid=profile-name]", 15).await;
    no_raw_key(&b, &keys, "a profile").await;
    // Figures, not words that agree with them ("su 1 partite", "1 abbandonate" before).
    let fair = it["people3.fair_play"]
        .as_str()
        .unwrap()
        .replace("{games}", "1")
        .replace("{resigned}", "1")
        .replace("{timed_out}", "0");
    assert_eq!(b.text("[data-testid=fair-play]").await, fair);
    shoot(&b, "walk-profile-it-375").await;

    // The tournament form: a Swiss without a clock asks for its days per round.
    a.goto(&format!("{base}/#/tournaments")).await;
    a.wait_for("[data-testid=tournament-create]", 15).await;
    a.wait_for("[data-testid=tournament-round-days]", 5).await;
    no_raw_key(&a, &keys, "the tournaments").await;
    a.js(
        "const f = document.querySelector('[data-testid=tournament-create]'); f.scrollIntoView({ block: 'start' });",
        json!([]),
    )
    .await;
    shoot(&a, "walk-tournament-form-it-1280").await;
    a.js(
        "const d = document.querySelector('[data-testid=tournament-round-days]'); d.value = '3'; d.dispatchEvent(new Event('change'));",
        json!([]),
    )
    .await;
    a.click("[data-testid=tournament-submit]").await;
    a.wait_for("[data-testid=tournament]", 15).await;
    let line = a.text("[data-testid=tournament]").await;
    let days = it["people3.round_days.other"]
        .as_str()
        .unwrap()
        .replace("{count}", "3");
    assert!(line.contains(&days), "{line}");
    // Its start written the Italian way, not the browser's (it was "11/29/2026, 7:20:44 AM").
    assert!(!line.contains(" AM") && !line.contains(" PM"), "{line}");
    shoot(&a, "walk-tournament-it-1280").await;
    a.quit().await;
    b.quit().await;
}
