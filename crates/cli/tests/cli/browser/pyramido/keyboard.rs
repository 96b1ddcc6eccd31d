//! Pyramido by keyboard only through stage 1, placing within 1280×800, the marker choice and
//! the scored stage's areas outlined from the scoring pad.
use crate::browser::support::{
    DESKTOP_800, artifacts, exists, key_activate, new_table_against_greedy, open_lobby,
    outside_viewport, pyo_state, pyo_wait_past, viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// The Pyramido ghost lying furthest up, then left, in the orientation shown: its key.
async fn pyo_best_ghost_here(s: &Session) -> Option<(f64, String)> {
    let v = s
        .js(
            "let best = null;
             for (const g of document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost]')) {
               const b = g.querySelector('.ghost-outline').getBBox(); const v = b.y * 1000 + b.x;
               if (best === null || v < best[0]) best = [v, g.dataset.key];
             }
             return best;",
            json!([]),
        )
        .await;
    Some((v[0].as_f64()?, v[1].as_str()?.to_string()))
}

async fn focused_ghost(s: &Session) -> bool {
    s.js(
        "const a = document.activeElement;
         return !!a && a.dataset.testid === 'ghost' && !!a.closest('[data-testid=my-pyramid]');",
        json!([]),
    )
    .await
        == json!(true)
}

/// Places the Pyramido domino by keyboard: R (the focus staying on the pyramid) through the
/// orientations that have a slot, back to the one with the slot furthest up-left, then Enter
/// on that ghost (its preview shows and keeps the focus) and Enter again.
async fn pyo_place_by_keyboard(s: &Session) {
    s.js(
        "document.querySelector('[data-testid=my-pyramid] [data-testid=ghost]').focus();",
        json!([]),
    )
    .await;
    let usable = s
        .js(
            "return Number(document.querySelector('[data-testid=my-pyramid]').dataset.orientations || 1);",
            json!([]),
        )
        .await
        .as_u64()
        .unwrap_or(1) as usize;
    let mut best: Option<(f64, usize, String)> = None;
    for turn in 0..usable {
        if let Some((value, key)) = pyo_best_ghost_here(s).await
            && best.as_ref().is_none_or(|(b, _, _)| value < *b)
        {
            best = Some((value, turn, key));
        }
        s.press("r").await;
        s.wait_until(
            "the focus on a ghost after R",
            "const a = document.activeElement; return !!a && a.dataset.testid === 'ghost';",
            json!([]),
            5,
        )
        .await;
    }
    // `usable` presses went round to the first orientation again.
    let (_, turn, key) = best.expect("a ghost in some orientation");
    for _ in 0..turn {
        s.press("r").await;
        s.wait_until(
            "R to keep the focus on the pyramid",
            "const a = document.activeElement; return !!a && a.dataset.testid === 'ghost';",
            json!([]),
            5,
        )
        .await;
    }
    assert!(focused_ghost(s).await, "R keeps the focus on the pyramid");
    s.js(
        "[...document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost]')].find((g) => g.dataset.key === arguments[0]).focus();",
        json!([key]),
    )
    .await;
    s.press("\u{E007}").await;
    s.wait_until(
        "the picked ghost selected, previewed and focused",
        "const g = document.querySelector('[data-testid=ghost].selected');
         return !!g && !!g.querySelector('.preview') && document.activeElement === g;",
        json!([]),
        5,
    )
    .await;
    s.press("\u{E007}").await;
}

/// Pyramido played by keyboard only (focus moved as Tab would, keys pressed) through stage 1:
/// quarry, R, ghosts, the marker choice (screenshot when two blocks are eligible), resurfacing
/// taken once and skipped after, refills, holes. Every placing step fits 1280×800; once the
/// stage is scored, its marked areas can be outlined on the pyramid from the scoring pad.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramido_stage_one_by_keyboard_only_fits_1280x800_and_scored_areas_are_outlined() {
    let w = world("polish-pyramido").await;
    let s = w.driver.session(DESKTOP_800.0, DESKTOP_800.1).await;
    open_lobby(&s, &w.server.base).await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    new_table_against_greedy(&s, "pyramido", "pyo-table").await;
    let dir = artifacts();
    let (mut placed, mut resurfaced, mut marker_shot) = (0, false, false);
    let mut steps = 0;
    loop {
        s.wait_until(
            "my turn, the end, or stage 1 scored",
            "const t = document.querySelector('[data-testid=pyo-table]');
             return t && !document.getElementById('app').classList.contains('pending')
               && (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=breakdown-1]')
                   || !!document.querySelector('[data-testid=prompt].yours'));",
            json!([]),
            60,
        )
        .await;
        if exists(&s, "[data-testid=breakdown-1]").await {
            break;
        }
        let (state, step) = pyo_state(&s).await;
        match step.as_str() {
            "over" => panic!("the game ended in stage 1"),
            "take" => key_activate(&s, "[data-testid=take]").await,
            "place" => {
                s.wait_for("[data-testid=my-pyramid] [data-testid=ghost]", 10)
                    .await;
                tokio::time::sleep(std::time::Duration::from_millis(150)).await;
                let (ghosts, out) = outside_viewport(&s).await;
                assert!(ghosts > 0);
                assert_eq!(out, json!([]), "Pyramido placing: outside the viewport");
                if placed == 3 {
                    s.screenshot(&dir, "pyramido-placing-1280x800").await;
                }
                pyo_place_by_keyboard(&s).await;
                placed += 1;
            }
            "mark" => {
                if !marker_shot && s.find_all("[data-testid=mark-target]").await.len() == 2 {
                    s.screenshot(&dir, "pyramido-marker-choice-1280").await;
                    marker_shot = true;
                }
                key_activate(&s, "[data-testid=mark]").await;
            }
            "resurface" if !resurfaced && exists(&s, "[data-testid=resurface-block]").await => {
                key_activate(&s, "[data-testid=resurface-block]").await;
                key_activate(&s, "[data-testid=resurface-colour]").await;
                key_activate(&s, "[data-testid=resurface]").await;
                resurfaced = true;
            }
            "resurface" => key_activate(&s, "[data-testid=pass]").await,
            "refill" => key_activate(&s, "[data-testid=refill]").await,
            "cover" => {
                key_activate(&s, "[data-testid=cover-colour]").await;
                key_activate(&s, "[data-testid=cover]").await;
            }
            other => panic!("unexpected step '{other}'"),
        }
        pyo_wait_past(&s, state).await;
        steps += 1;
        assert!(steps < 200, "stage 1 should end");
    }
    assert!(placed >= 5, "{placed} dominoes placed by keyboard");
    eprintln!(
        "pyramido by keyboard: {placed} placed, resurfaced {resurfaced}, marker choice met {marker_shot}"
    );
    // Stage 1's marked areas, outlined on the pyramid from the scoring pad.
    let seat = s
        .js(
            "return [...document.querySelectorAll('[data-testid^=outline-1-]')].map((b) => b.dataset.testid);",
            json!([]),
        )
        .await;
    let buttons: Vec<String> = seat
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    assert!(!buttons.is_empty(), "some player marked an area in stage 1");
    s.click(&format!("[data-testid={}]", buttons[0])).await;
    s.wait_for("[data-testid=scored-area]", 5).await;
    s.js(
        "document.querySelector('[data-testid=scored-area]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "pyramido-stage1-areas-outlined-1280")
        .await;
    s.quit().await;
}
