//! Undo within a turn (issue 46): a player who takes the wrong domino from Pyramido's quarry
//! takes it back with the Undo button (or Ctrl+Z) and takes another; the button is there only
//! while the server says the step may be taken back. Played in French, shown at 1280 and 375
//! px.
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, catalog, fill, open_lobby, pyo_state, pyo_wait_past, two_seat_table,
    world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// Waits for this page's own turn at the take (the bot may have started).
async fn my_take(s: &Session) -> i64 {
    s.wait_until(
        "my turn to take a domino",
        "const t = document.querySelector('[data-testid=pyo-table]');
         return t && !document.getElementById('app').classList.contains('pending')
           && t.dataset.phase === 'take' && !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
        30,
    )
    .await;
    pyo_state(s).await.0
}

/// Waits for the table to show the take again after the step of state `taken` was taken
/// back; the state it shows is numbered anew, past `taken` (state numbers never repeat).
async fn back_from(s: &Session, taken: i64) -> i64 {
    s.wait_until(
        "the take again, after the step taken back",
        "const t = document.querySelector('[data-testid=pyo-table]');
         return t && Number(t.dataset.stateId) > arguments[0] && t.dataset.phase === 'take';",
        json!([taken]),
        20,
    )
    .await;
    pyo_state(s).await.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misclicked_take_is_taken_back_with_undo_and_ctrl_z() {
    let w = world("undo-misclick").await;
    let base = w.server.base.clone();
    let fr = catalog("fr");
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;
    s.click("[data-testid=language] option[value=fr]").await;
    let id = two_seat_table(
        &s,
        "pyramido",
        json!({"type": "bot", "level": "greedy"}),
        None,
    )
    .await;
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    let before = my_take(&s).await;
    // Nothing of mine to take back yet (the bot's move is not mine).
    assert!(s.find_all("[data-testid=undo]").await.is_empty());

    // The misclick: the first domino of the quarry. The turn goes on (the placing) and Undo
    // is offered, in French.
    s.click_nth("[data-testid=take]", 0).await;
    pyo_wait_past(&s, before).await;
    assert_eq!(pyo_state(&s).await.1, "place");
    s.wait_for("[data-testid=undo]", 10).await;
    assert_eq!(s.text("[data-testid=undo]").await, fr["undo.button"]);
    let dir = artifacts().join("undo");
    s.screenshot(&dir, "undo-offered-fr-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=undo]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "undo-offered-fr-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;

    // Taken back: the quarry as it was, a new state number, no Undo any more.
    let taken = pyo_state(&s).await.0;
    s.click("[data-testid=undo]").await;
    let now = back_from(&s, taken).await;
    assert!(s.find_all("[data-testid=undo]").await.is_empty());
    assert!(s.find_all("[data-testid=prompt].yours").await.len() == 1);
    // The player reads the number of the move to come, the same as before the misclick (the
    // state number, which grew by two, is the protocol's).
    assert_eq!(
        s.text("[data-testid=move-number]").await,
        fill(&fr["table.state"], "n", &(before + 1).to_string())
    );

    // The right domino now (the second), then Ctrl+Z takes that back too.
    s.click_nth("[data-testid=take]", 1).await;
    pyo_wait_past(&s, now).await;
    s.wait_for("[data-testid=undo]", 10).await;
    let taken = pyo_state(&s).await.0;
    s.js(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true }));",
        json!([]),
    )
    .await;
    let now = back_from(&s, taken).await;

    // The move list and the record hold no step taken back: one take, then the placing.
    s.click_nth("[data-testid=take]", 1).await;
    pyo_wait_past(&s, now).await;
    let record = s
        .js(
            "return fetch(`/api/games/${arguments[0]}/record`).then((r) => r.json());",
            json!([id]),
        )
        .await;
    let moves = record["moves"].as_array().expect("the record's moves");
    assert_eq!(moves.len() as i64, before + 1, "{record}");
    assert_eq!(moves.last().unwrap(), "take 2", "{record}");
    s.quit().await;
}
