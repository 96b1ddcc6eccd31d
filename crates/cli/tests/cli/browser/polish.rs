//! What the last walks noticed (issues 46, 49, 50), in Italian: on a phone the status line
//! shows the move number and no blank band under the prompt; against a bot no quick phrase is
//! offered (nobody else reads them); the history keeps "· finita per abbandono" with the
//! result; a tournament cannot be ticked Rated without a clock, and the form says why.
//! Screenshots at 375 and 1280 px (`PYRAMIDION_SHOTS`, else the browser artifacts).
use crate::browser::support::{
    DESKTOP, PHONE, REGISTER, catalog, open_lobby, shots, two_seat_table, viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// Registers an account from the lobby and switches the page to Italian.
async fn italian_account(s: &Session, base: &str, name: &str) {
    open_lobby(s, base).await;
    assert_eq!(s.js(REGISTER, json!([name])).await, 200);
    s.refresh().await;
    s.wait_for("[data-testid=connection][data-status=connected]", 15)
        .await;
    s.click("[data-testid=language] option[value=it]").await;
    s.wait_until(
        "the page in Italian",
        "return document.documentElement.lang === 'it';",
        json!([]),
        10,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_reads_the_move_number_without_a_blank_band_and_the_history_keeps_the_ending_together()
 {
    let w = world("polish-phone").await;
    let base = w.server.base.clone();
    let it = catalog("it");
    let s = w.driver.session(PHONE.0, PHONE.1).await;
    viewport(&s, PHONE.0, PHONE.1).await;
    italian_account(&s, &base, "lucia").await;
    let id = two_seat_table(
        &s,
        "pyramido",
        json!({"type": "bot", "level": "greedy"}),
        None,
    )
    .await;
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    s.wait_for("[data-testid=chat]", 20).await;

    // The move number is shown on a phone (it was hidden with the other facts).
    s.wait_until(
        "the move number, shown",
        "const e = document.querySelector('#app > .table-status [data-testid=move-number]');
         return !!e && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().height > 0;",
        json!([]),
        10,
    )
    .await;
    // The status line ends where what it says ends: no band reserved for a second line.
    let band = s
        .js(
            "const st = document.querySelector('#app > .table-status');
             const cs = getComputedStyle(st);
             const inner = st.getBoundingClientRect().bottom - parseFloat(cs.paddingBottom) - parseFloat(cs.borderBottomWidth);
             const shown = [...st.children].filter((c) => getComputedStyle(c).display !== 'none');
             return inner - Math.max(...shown.map((c) => c.getBoundingClientRect().bottom));",
            json!([]),
        )
        .await;
    assert!(
        band.as_f64().expect("a number") < 4.0,
        "{band} px blank under the status line's last line"
    );
    // A table against a bot: nobody else reads the chat, so no quick phrase is offered.
    assert_eq!(
        s.js(
            "const p = document.querySelector('[data-testid=chat] .chat-phrases'); return p && getComputedStyle(p).display;",
            json!([]),
        )
        .await,
        "none"
    );
    s.screenshot(&shots(), "polish-status-it-375").await;
    viewport(&s, DESKTOP.0, DESKTOP.1).await;
    s.screenshot(&shots(), "polish-status-it-1280").await;

    // A game against a person, resigned: in the history with how it ended, on the result's
    // line. (Against a bot the player abandons; a resignation needs a person.)
    let id = two_seat_table(&s, "pyramido", json!({"type": "open"}), None).await;
    let friend = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&friend, &base).await;
    friend.goto(&format!("{base}/#/table/{id}")).await;
    friend.wait_for("[data-testid=join]", 15).await;
    friend.click("[data-testid=join]").await;
    friend.wait_for("[data-testid=pyo-table]", 20).await;
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    s.click("[data-testid=resign]").await;
    s.click("[data-testid=confirm-resign]").await;
    s.wait_for("[data-testid=end-bar] [data-testid=ending]", 15)
        .await;
    viewport(&s, PHONE.0, PHONE.1).await;
    s.goto(&format!("{base}/#/history")).await;
    s.wait_for("[data-testid=history-ending]", 15).await;
    let ending = s.text("[data-testid=history-ending]").await;
    assert!(
        ending.ends_with(it["history.ending.resigned"].as_str().unwrap()),
        "{ending}"
    );
    // The separator's line is the result's (a line never opens with "·").
    let lines = s
        .js(
            "const end = document.querySelector('[data-testid=history-ending]').firstChild;
             const result = document.querySelector('[data-testid=history-result]').getClientRects();
             const dot = document.createRange();
             const at = end.textContent.indexOf('·');
             dot.setStart(end, at); dot.setEnd(end, at + 1);
             return [result[result.length - 1].top, dot.getClientRects()[0].top];",
            json!([]),
        )
        .await;
    let (result, dot) = (lines[0].as_f64().unwrap(), lines[1].as_f64().unwrap());
    assert!(
        (result - dot).abs() < 2.0,
        "result at {result}, '·' at {dot}"
    );
    s.screenshot(&shots(), "polish-history-it-375").await;
    viewport(&s, DESKTOP.0, DESKTOP.1).await;
    s.screenshot(&shots(), "polish-history-it-1280").await;
    friend.quit().await;
    s.quit().await;
}

/// Whether the Rated box of a form (`tournament`, or the lobby's `new` table) is enabled,
/// ticked, and the reason shown beside it.
async fn rated_in(s: &Session, form: &str) -> serde_json::Value {
    s.js(
        "const r = document.querySelector(`[data-testid=${arguments[0]}-rated]`);
         const why = document.querySelector(`[data-testid=${arguments[0]}-rated-needs-clock]`);
         return [!r.disabled, r.checked, why ? why.textContent : null];",
        json!([form]),
    )
    .await
}

async fn rated(s: &Session) -> serde_json::Value {
    rated_in(s, "tournament").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tournament_form_says_that_rated_needs_a_clock_before_the_server_refuses() {
    let w = world("polish-rated").await;
    let base = w.server.base.clone();
    let it = catalog("it");
    let why = it["polish.rated_needs_clock"].clone();
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    italian_account(&s, &base, "marco").await;
    s.click("[data-testid=tournaments-link]").await;
    s.wait_for("[data-testid=tournament-create]", 15).await;
    let set_clock = "const e = document.querySelector('[data-testid=tournament-clock]');
         e.value = arguments[0] === null ? e.options[1].value : arguments[0];
         e.dispatchEvent(new Event('change'));";
    // No clock (the default): Rated cannot be ticked, and the form says why.
    assert_eq!(rated(&s).await, json!([false, false, why]));
    s.screenshot(&shots(), "polish-rated-it-1280").await;
    viewport(&s, PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=tournament-rated]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&shots(), "polish-rated-it-375").await;
    // A clock chosen: Rated may be ticked.
    s.js(set_clock, json!([null])).await;
    assert_eq!(rated(&s).await, json!([true, false, null]));
    s.click("[data-testid=tournament-rated]").await;
    assert_eq!(rated(&s).await, json!([true, true, null]));
    // The clock taken away again: Rated is unticked, not sent to be refused.
    s.js(set_clock, json!([""])).await;
    assert_eq!(rated(&s).await, json!([false, false, why]));
    s.quit().await;
}

/// The lobby's new table says it too: a rated table needs a clock (the server refuses one
/// without, `rated_needs_clock`), so Rated waits for a clock, and goes with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_new_table_form_says_that_rated_needs_a_clock_before_the_server_refuses() {
    let w = world("polish-rated-table").await;
    let base = w.server.base.clone();
    let it = catalog("it");
    let why = it["lobby.rated_needs_clock"].clone();
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    italian_account(&s, &base, "lucia").await;
    s.wait_for("[data-testid=new-rated]", 15).await;
    let set_clock = "const e = document.querySelector('[data-testid=new-clock]');
         e.value = arguments[0] === null ? e.options[1].value : arguments[0];
         e.dispatchEvent(new Event('change'));";
    assert_eq!(rated_in(&s, "new").await, json!([false, false, why]));
    s.js(set_clock, json!([null])).await;
    assert_eq!(rated_in(&s, "new").await, json!([true, false, null]));
    s.click("[data-testid=new-rated]").await;
    assert_eq!(rated_in(&s, "new").await, json!([true, true, null]));
    s.js(set_clock, json!([""])).await;
    assert_eq!(rated_in(&s, "new").await, json!([false, false, why]));
    s.quit().await;
}
