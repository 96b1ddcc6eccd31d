//! Vacation mode (issue 46) in the browser, in Italian: the settings page says the allowance,
//! starts a vacation, and the player's turn-based table then shows it on the clock.
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, catalog, fill, open_lobby, two_seat_table, world,
};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_started_from_the_settings_and_shown_on_the_clock() {
    let w = world("vacation").await;
    let base = w.server.base.clone();
    let it = catalog("it");
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;
    s.click("[data-testid=language] option[value=it]").await;
    let id = two_seat_table(
        &s,
        "pyramids",
        json!({"type": "bot", "level": "greedy"}),
        Some("day"),
    )
    .await;

    s.goto(&format!("{base}/#/settings")).await;
    s.wait_for("[data-testid=vacation-start]", 15).await;
    assert_eq!(
        s.text("[data-testid=vacation-left]").await,
        fill(&it["vacation.left.other"], "count", "21")
    );
    s.js(
        "const d = document.querySelector('[data-testid=vacation-days]'); d.value = '3';",
        json!([]),
    )
    .await;
    s.click("[data-testid=vacation-start]").await;
    s.wait_for("[data-testid=vacation-active]", 15).await;
    assert_eq!(
        s.text("[data-testid=vacation-left]").await,
        fill(&it["vacation.left.other"], "count", "18")
    );
    let dir = artifacts().join("undo");
    s.js(
        "document.querySelector('[data-testid=vacation]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "vacation-settings-it-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=vacation]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "vacation-settings-it-375").await;

    // The table: seat 0's clock says until when its player is away.
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_for("[data-testid=vacation-0]", 20).await;
    s.screenshot(&dir, "vacation-clock-it-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;
    s.screenshot(&dir, "vacation-clock-it-1280").await;
    s.quit().await;
}
