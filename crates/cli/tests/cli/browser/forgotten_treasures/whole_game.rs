//! Whole Forgotten Treasures games by clicking: a guest's solo game against THE Legend, and a
//! table joined by invite link from a second browser.
use super::{place, play_step};
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, is_my_turn, open_lobby, open_solo, table_state, wait_past, world,
};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_a_whole_solo_game_against_the_legend_by_clicking() {
    let w = world("solo").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_solo(&s, &w.server.base).await;
    assert!(s.text("[data-testid=me]").await.contains("guest-"));
    // Alone against the automa: no quick phrases to say to nobody (issue 46).
    s.wait_until(
        "the chat drawn for a solo game",
        "const p = document.querySelector('.chat-phrases'); return p && p.hidden;",
        json!([]),
        15,
    )
    .await;
    let dir = artifacts();
    let mut by_hand = true;
    let mut shots = [false; 3];
    let mut steps = 0;
    loop {
        let (_, phase) = table_state(&s).await;
        if phase == "place" && !shots[0] {
            let (state, _) = table_state(&s).await;
            place(&s, 0, Some("solo-placing-1280")).await;
            wait_past(&s, state).await;
            shots[0] = true;
            continue;
        }
        if phase == "activate" && !shots[1] {
            s.wait_for("[data-testid=scoring-panel]", 5).await;
            s.js(
                "document.querySelector('[data-testid=scoring-panel]').scrollIntoView();",
                json!([]),
            )
            .await;
            s.screenshot(&dir, "solo-stage-end-1280").await;
            shots[1] = true;
        }
        if !play_step(&s, steps, &mut by_hand).await {
            break;
        }
        steps += 1;
        assert!(steps < 400, "the game should end");
    }
    assert!(!by_hand, "an area was activated by hand at a stage end");
    // The final ranking: the player and THE Legend, with scores and the record link.
    s.wait_for("[data-testid=result]", 10).await;
    let rows = s.find_all("[data-testid=ranking] tbody tr").await;
    assert_eq!(rows.len(), 2);
    let headline = s.text("[data-testid=result-headline]").await;
    assert!(headline.contains("Legend"), "{headline}");
    s.wait_for("[data-testid=breakdown-4]", 5).await;
    // Every stage's breakdown speaks words, not message keys or engine names.
    let pad = s.text("[data-testid=scoring-pad]").await;
    assert!(!pad.contains("pay.") && !pad.contains("scoring."), "{pad}");
    let top = "window.scrollTo(0, 0);";
    s.js(top, json!([])).await;
    s.screenshot(&dir, "solo-result-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(top, json!([])).await;
    s.screenshot(&dir, "solo-result-375").await;
    // The record the page links to is the finished game's, and says who won.
    let record = s
        .js(
            "const a = document.querySelector('[data-testid=record-link]');
             return fetch(a.href).then(async (r) => [r.status, await r.text()]);",
            json!([]),
        )
        .await;
    assert_eq!(record[0], 200, "{record}");
    assert!(
        record[1].as_str().unwrap_or("").contains("seed"),
        "{record}"
    );
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_join_one_table_by_invite_link_with_two_bots_and_each_plays_a_turn() {
    let w = world("invite").await;
    let host = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&host, &w.server.base).await;
    host.click("[data-testid=new-game] option[value=forgotten-treasures]")
        .await;
    host.click("[data-testid=new-players] option[value='4']")
        .await;
    host.click("[data-testid=new-seat-1] option[value=invite]")
        .await;
    host.click("[data-testid='new-seat-2'] option[value='bot:greedy']")
        .await;
    host.click("[data-testid='new-seat-3'] option[value='bot:random']")
        .await;
    host.click("[data-testid=new-listed]").await; // unlisted: only the link lets people in
    host.click("[data-testid=create-table]").await;
    host.wait_for("[data-testid=invite-link]", 15).await;
    let link = host
        .js(
            "return document.querySelector('[data-testid=invite-link]').value;",
            json!([]),
        )
        .await;
    let link = link.as_str().expect("an invite link").to_string();
    assert!(link.contains("/#/join/"), "{link}");

    let guest = w.driver.session(PHONE.0, PHONE.1).await;
    guest.goto(&link).await;
    guest.wait_for("[data-testid=ft-table]", 20).await;
    host.wait_for("[data-testid=ft-table]", 20).await;

    // Seat 1 (the host) plays a whole turn, then seat 2 (the invited player).
    for (s, name) in [(&host, "host"), (&guest, "guest")] {
        s.wait_until(
            "my turn",
            "return !!document.querySelector('[data-testid=prompt].yours');",
            json!([]),
            30,
        )
        .await;
        for step in 0..3 {
            assert!(is_my_turn(s).await, "{name}: still my turn at step {step}");
            assert!(play_step(s, step, &mut false).await);
        }
    }
    // Each sees the other's last domino highlighted on the other's pyramid.
    host.wait_for("[data-seat='1'] [data-testid=last-placed]", 20)
        .await;
    guest
        .wait_for("[data-seat='0'] [data-testid=last-placed]", 20)
        .await;
    // The bots play seats 3 and 4, and it comes back to the host.
    host.wait_until(
        "the host's second turn",
        "return !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
        60,
    )
    .await;
    let dir = artifacts();
    host.screenshot(&dir, "invite-host-1280").await;
    guest.screenshot(&dir, "invite-guest-375").await;
    host.quit().await;
    guest.quit().await;
}
