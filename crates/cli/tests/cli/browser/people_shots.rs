//! Issue 46's and 49's leftovers in the browser, in French, looked at 1280 and 375 px
//! wide (PNGs under the artifacts' `people` folder): a vacation cut short with "Je suis de
//! retour" (the days not used come back), the header's count leaving a game paused by the
//! vacation out and saying it apart; the owner's corner of a club page; and the screens of
//! sessions 26–27 (the lobby's top row, the daily's one-attempt question, a table with its
//! clocks, Undo and notes).
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, call, catalog, fill, open_lobby, pyo_state, pyo_wait_past, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// Saves `name` at 1280 then 375 px wide, `css` scrolled into view each time; back at 1280.
async fn both(s: &Session, css: &str, name: &str) {
    let dir = artifacts().join("people");
    for (w, h, width) in [(DESKTOP.0, DESKTOP.1, "1280"), (PHONE.0, PHONE.1, "375")] {
        s.resize(w, h).await;
        s.js(
            "document.querySelector(arguments[0])?.scrollIntoView({ block: 'start' });",
            json!([css]),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        s.screenshot(&dir, &format!("{name}-fr-{width}")).await;
    }
    s.resize(DESKTOP.0, DESKTOP.1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_cut_short_a_paused_count_and_a_club_owner_in_french() {
    let w = world("people-shots").await;
    let base = w.server.base.clone();
    let fr = catalog("fr");
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;
    let r = call(
        &s,
        "POST",
        "/api/register",
        json!({"name": "lea_fr", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r["name"], "lea_fr", "{r}");
    open_lobby(&s, &base).await;
    s.click("[data-testid=language] option[value=fr]").await;
    s.wait_until(
        "the lobby in French, signed in",
        "return document.documentElement.lang === 'fr'
           && document.querySelector('[data-testid=me]')?.textContent === 'lea_fr'
           && !!document.querySelector('[data-testid=ways-to-play]');",
        json!([]),
        15,
    )
    .await;
    both(&s, "[data-testid=ways-to-play]", "lobby-top").await;
    // The daily's one-attempt question (left unanswered).
    if let Some(start) = s.find_all("[data-testid^=daily-start-]").await.first() {
        assert!(s.try_click(start).await);
        s.wait_for("[role=alertdialog]", 10).await;
        both(&s, "[role=alertdialog]", "daily-one-attempt").await;
        s.click("[data-testid^=daily-not-now-]").await;
    }

    // A turn-based Pyramido table against a bot: a take, Undo offered, the clocks and notes.
    let table = call(
        &s,
        "POST",
        "/api/tables",
        json!({"game": "pyramido", "options": {"players": 2}, "clock": "day",
               "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}]}),
    )
    .await;
    let id = table["id"].as_str().expect("a table").to_string();
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_until(
        "my turn to take",
        "const t = document.querySelector('[data-testid=pyo-table]');
         return t && t.dataset.phase === 'take' && !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
        30,
    )
    .await;
    let before = pyo_state(&s).await.0;
    s.click_nth("[data-testid=take]", 0).await;
    pyo_wait_past(&s, before).await;
    s.wait_for("[data-testid=undo]", 10).await;
    both(&s, "[data-testid=clocks]", "table-clocks-undo").await;
    both(&s, "[data-testid=notes]", "table-notes").await;

    // A vacation: the game waits for me, but the header counts it apart, as paused.
    s.goto(&format!("{base}/#/settings")).await;
    s.wait_for("[data-testid=vacation-start]", 15).await;
    s.js(
        "document.querySelector('[data-testid=vacation-days]').value = '3';",
        json!([]),
    )
    .await;
    s.click("[data-testid=vacation-start]").await;
    s.wait_for("[data-testid=vacation-back]", 15).await;
    s.wait_until(
        "the header's count without the paused game",
        "const el = document.getElementById('turns');
         return el && el.dataset.count === '0' && el.dataset.paused === '1';",
        json!([]),
        15,
    )
    .await;
    let paused = fill(&fr["people2.turns_paused.one"], "count", "1");
    assert!(
        s.text("#turns").await.contains(&paused),
        "{}",
        s.text("#turns").await
    );
    both(&s, "[data-testid=vacation]", "vacation-back").await;

    // "Je suis de retour": the vacation ends, 20 days left (the day begun counts), the game
    // counts in the header again.
    assert_eq!(
        s.text("[data-testid=vacation-back]").await,
        fr["people2.vacation_back"]
    );
    s.click("[data-testid=vacation-back]").await;
    s.wait_for("[data-testid=vacation-start]", 15).await;
    assert_eq!(
        s.text("[data-testid=vacation-left]").await,
        fill(&fr["vacation.left.other"], "count", "20")
    );
    s.goto(&format!("{base}/#/turns")).await;
    s.wait_until(
        "the header's count with the game again",
        "const el = document.getElementById('turns');
         return el && el.dataset.count === '1' && el.dataset.paused === '0';",
        json!([]),
        15,
    )
    .await;

    // A club of mine: the owner's corner (rename, hand over, delete).
    let club = call(
        &s,
        "POST",
        "/api/clubs",
        json!({"name": "Les_Batisseurs", "description": "Le jeudi soir", "admission": "open"}),
    )
    .await;
    let club = club["id"].as_str().expect("a club").to_string();
    s.goto(&format!("{base}/#/club/{club}")).await;
    s.wait_for("[data-testid=club-owner]", 15).await;
    s.js(
        "document.querySelectorAll('[data-testid=club-owner] details').forEach((d) => (d.open = true));",
        json!([]),
    )
    .await;
    both(&s, "[data-testid=club-owner]", "club-owner").await;
    let field = "[data-testid=club-rename-name]";
    s.js(
        "const i = document.querySelector(arguments[0]); i.value = 'Les_Architectes';",
        json!([field]),
    )
    .await;
    s.click("[data-testid=club-rename]").await;
    s.wait_until(
        "the page under the new name",
        "return document.querySelector('[data-testid=club-title]')?.textContent === 'Les_Architectes';",
        json!([]),
        15,
    )
    .await;
    s.quit().await;
}

/// The chat of a turn-based duel between two people, in French, at both widths: a message
/// typed by one reaches the other, who reads it in the chat box.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_between_two_players_in_french() {
    let w = world("people-shots-chat").await;
    let base = w.server.base.clone();
    let a = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let b = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&a, &base).await;
    open_lobby(&b, &base).await;
    b.click("[data-testid=language] option[value=fr]").await;
    let table = call(
        &a,
        "POST",
        "/api/tables",
        json!({"game": "pyramids", "options": {"players": 2}, "clock": "day",
               "seats": [{"type": "me"}, {"type": "open"}]}),
    )
    .await;
    let id = table["id"].as_str().expect("a table").to_string();
    let joined = call(&b, "POST", &format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined["status"], "live", "{joined}");
    for s in [&a, &b] {
        s.goto(&format!("{base}/#/game/{id}")).await;
        s.wait_for("[data-testid=chat]", 20).await;
    }
    let said = "Bonne partie ! On se revoit jeudi au club ?";
    a.js(
        "document.querySelector('[data-testid=chat-input]').value = arguments[0];",
        json!([said]),
    )
    .await;
    a.click("[data-testid=chat-send]").await;
    b.wait_until(
        "the message in the other player's chat",
        "const t = document.querySelector('[data-testid=chat-text]'); return t && t.textContent === arguments[0];",
        json!([said]),
        15,
    )
    .await;
    both(&b, "[data-testid=chat]", "chat").await;
    a.quit().await;
    b.quit().await;
}
