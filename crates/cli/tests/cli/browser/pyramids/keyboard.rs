//! Pyramids: a 2-player game by keyboard only to the scoring, with the God set-aside cycle,
//! readable at 375 px.
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, exists, key_activate, new_table_against_greedy, open_lobby,
    py_state, py_wait_past, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// The set-aside God tile's number and the round, as the Pyramids page shows them.
async fn py_set_aside(s: &Session) -> (i64, Option<i64>) {
    let v = s
        .js(
            "const gods = [...document.querySelectorAll('.py-god')];
             const i = gods.findIndex((g) => g.classList.contains('set-aside'));
             const round = Number((document.querySelector('[data-testid=round]')?.textContent.match(/\\d+/) || [0])[0]);
             return [round, i < 0 ? null : i + 1];",
            json!([]),
        )
        .await;
    (v[0].as_i64().unwrap_or(0), v[1].as_i64())
}

/// Plays this page's Pyramids turn with the keyboard only (focus moved as Tab would, Enter
/// pressed): God, pair, a Pyramid ghost (Enter shows the preview, Enter again places), the
/// Obelisk or Tomb when offered, the end of the building, the discard. False once over.
async fn py_keyboard_step(s: &Session, step: usize) -> bool {
    s.wait_until(
        "my Pyramids turn or the end",
        "const t = document.querySelector('[data-testid=py-table]');
         return !!t && !document.getElementById('app').classList.contains('pending') &&
                (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=prompt].yours'));",
        json!([]),
        90,
    )
    .await;
    let (state, phase) = py_state(s).await;
    let focus_nth = |css: &'static str, n: usize| async move {
        s.wait_for(css, 15).await;
        s.js(
            "const all = document.querySelectorAll(arguments[0]); const e = all[arguments[1] % all.length];
             e.focus(); return document.activeElement === e;",
            json!([css, n]),
        )
        .await
    };
    match phase.as_str() {
        "over" => return false,
        "choose_god" => {
            assert_eq!(focus_nth("[data-testid=god]", step).await, json!(true));
            s.press("\u{E007}").await;
        }
        "choose_pair" => {
            assert_eq!(focus_nth("[data-testid=pair]", step).await, json!(true));
            s.press("\u{E007}").await;
        }
        "build_pyramid" => {
            assert_eq!(focus_nth("[data-testid=ghost]", step).await, json!(true));
            s.press("\u{E007}").await;
            s.wait_until(
                "the focused ghost to show its preview",
                "const g = document.querySelector('[data-testid=ghost].selected');
                 return !!g && !!g.querySelector('.preview') && document.activeElement === g;",
                json!([]),
                5,
            )
            .await;
            s.press("\u{E007}").await;
        }
        "build_more" => {
            let css = if step.is_multiple_of(2) && exists(s, "[data-testid=obelisk]").await {
                "[data-testid=obelisk]"
            } else if exists(s, "[data-testid=tomb]").await {
                "[data-testid=tomb]"
            } else {
                "[data-testid=done]"
            };
            key_activate(s, css).await;
        }
        "discard" => {
            assert_eq!(focus_nth("[data-testid=discard]", step).await, json!(true));
            s.press("\u{E007}").await;
        }
        other => panic!("unexpected Pyramids phase '{other}'"),
    }
    py_wait_past(s, state).await;
    true
}

/// A 2-player Pyramids game against a bot, played with the keyboard only to the scoring
/// breakdown: each round one God tile is set aside, the next number each time (1 → 2 → 3 →
/// 4 → 1…); the pyramid and the scoring stay readable at 375 px.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramids_two_players_by_keyboard_only_to_the_scoring_with_the_god_set_aside_cycle() {
    let w = world("polish-pyramids").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    new_table_against_greedy(&s, "pyramids", "py-table").await;
    let dir = artifacts();
    let mut set_aside: Vec<(i64, i64)> = Vec::new();
    let mut step = 0;
    let mut phone_shot = false;
    loop {
        let (round, aside) = py_set_aside(&s).await;
        if let Some(n) = aside
            && set_aside.last().is_none_or(|(r, _)| *r != round)
        {
            set_aside.push((round, n));
        }
        if !phone_shot && round >= 5 {
            s.resize(PHONE.0, PHONE.1).await;
            s.js(
                "document.querySelector('[data-testid=my-pyramid], .py-necropolis')?.scrollIntoView();",
                json!([]),
            )
            .await;
            s.screenshot(&dir, "pyramids-2p-pyramid-375").await;
            // Readable: every stone of the own Pyramid at least 11 px high, its shape at least
            // 7 px, and the whole Pyramid on screen.
            let sizes = s
                .js(
                    "const p = document.querySelector('[data-testid=my-pyramid]');
                     const box = p.getBoundingClientRect();
                     const stones = [...p.querySelectorAll('[data-card] rect[data-colour]')];
                     const small = stones.filter((r) => { const b = r.getBoundingClientRect();
                       const shape = r.nextElementSibling.getBoundingClientRect();
                       return b.height < 11 || shape.height < 7; }).length;
                     return [stones.length, small, box.left >= 0 && box.right <= window.innerWidth + 0.5];",
                    json!([]),
                )
                .await;
            assert!(sizes[0].as_u64().unwrap_or(0) >= 8, "{sizes}");
            assert_eq!(sizes[1], json!(0), "small stones at 375 px: {sizes}");
            assert_eq!(sizes[2], json!(true), "the Pyramid fits 375 px: {sizes}");
            s.resize(DESKTOP.0, DESKTOP.1).await;
            phone_shot = true;
        }
        if !py_keyboard_step(&s, step).await {
            break;
        }
        step += 1;
        assert!(step < 200, "the game should end");
    }
    // One tile set aside per round, the next number each time.
    eprintln!("pyramids 2p, set aside per round: {set_aside:?}");
    assert!(set_aside.len() >= 8, "{set_aside:?}");
    for pair in set_aside.windows(2) {
        let ((r0, a), (r1, b)) = (pair[0], pair[1]);
        if r1 == r0 + 1 {
            assert_eq!(
                b,
                a % 4 + 1,
                "set aside after {a} in round {r1}: {set_aside:?}"
            );
        }
    }
    s.wait_for("[data-testid=breakdown]", 15).await;
    assert_eq!(s.find_all("[data-testid=breakdown-row]").await.len(), 2);
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&dir, "pyramids-2p-scoring-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=breakdown]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "pyramids-2p-scoring-375").await;
    s.quit().await;
}
