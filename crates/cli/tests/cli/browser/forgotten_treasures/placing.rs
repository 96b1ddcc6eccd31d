//! Forgotten Treasures: the placing step fits 1280×800 and a 375 px phone in every orientation
//! Rotate offers, `R` and Rotate keep the focus, a focused ghost previews the domino, a tap
//! keeps the board still, the stage end is a plan (reset, confirmation below the best
//! allocation), plurals in three languages and the favicon.
use super::play_step;
use crate::browser::support::{
    DESKTOP_800, PHONE, artifacts, exists, open_lobby, open_solo, orientation, outside_viewport,
    slot_hit_problems, table_state, viewport, wait_past, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// Checks the placing step as it opens: every ghost and both buttons on screen without
/// scrolling, in every orientation Rotate offers (each has a slot); `R` on a focused ghost
/// turns the domino and leaves the focus on a ghost; a focused ghost shows its preview.
async fn check_placing(s: &Session, name: &str) {
    s.wait_for("[data-testid=my-pyramid] [data-testid=ghost]", 10)
        .await;
    // The step brought itself into view: wait for that frame.
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    let (ghosts, out) = outside_viewport(s).await;
    assert!(ghosts > 0);
    assert_eq!(out, json!([]), "{name}: outside the viewport");
    s.screenshot(&artifacts(), name).await;
    let (first, usable) = orientation(s).await;
    let mut seen = vec![first.clone()];
    for _ in 1..usable {
        s.click("[data-testid=rotate]").await;
        let (dir, _) = orientation(s).await;
        let (ghosts, out) = outside_viewport(s).await;
        assert!(
            ghosts > 0,
            "{name}: Rotate landed on {dir}, an orientation without a slot"
        );
        assert_eq!(out, json!([]), "{name} ({dir}): outside the viewport");
        seen.push(dir);
    }
    seen.dedup();
    assert_eq!(seen.len() as u64, usable, "{name}: {seen:?}");
    // Keyboard: focus a ghost, its preview shows; R turns and the focus stays on a ghost.
    s.js(
        "document.querySelector('[data-testid=my-pyramid] [data-testid=ghost]').focus();",
        json!([]),
    )
    .await;
    let preview = s
        .js(
            "const g = document.activeElement;
             const p = [...document.querySelectorAll('[data-testid=my-pyramid] .ghost-preview')].find((e) => e.dataset.for === g.dataset.move);
             return !!p && getComputedStyle(p).display !== 'none' && p.querySelectorAll('.block').length === 2;",
            json!([]),
        )
        .await;
    assert_eq!(
        preview,
        json!(true),
        "{name}: a focused ghost previews the domino"
    );
    s.screenshot(&artifacts(), &format!("{name}-focused-preview"))
        .await;
    let before = orientation(s).await.0;
    s.press("r").await;
    s.wait_until(
        "the focus back on a ghost after R",
        "const a = document.activeElement;
         return !!a && a.dataset.testid === 'ghost' && !!a.closest('[data-testid=my-pyramid]');",
        json!([]),
        5,
    )
    .await;
    if usable > 1 {
        assert_ne!(
            orientation(s).await.0,
            before,
            "{name}: R turned the domino"
        );
        // Enter on the Rotate button turns the domino and leaves the focus on the button.
        let before = orientation(s).await.0;
        s.js(
            "document.querySelector('[data-testid=rotate]').focus();",
            json!([]),
        )
        .await;
        s.press("\u{E007}").await;
        s.wait_until(
            "the focus back on Rotate",
            "return document.activeElement?.dataset.testid === 'rotate';",
            json!([]),
            5,
        )
        .await;
        assert_ne!(
            orientation(s).await.0,
            before,
            "{name}: Rotate turned the domino"
        );
    }
}

/// At 375 px the board does not move when a ghost is tapped (the first tap selects it).
async fn tap_keeps_the_board(s: &Session) {
    let where_ =
        "const p = document.querySelector('[data-testid=my-pyramid]').getBoundingClientRect();
                  return [Math.round(p.top), Math.round(p.height), Math.round(window.scrollY)];";
    let before = s.js(where_, json!([])).await;
    s.click("[data-testid=my-pyramid] [data-testid=ghost]")
        .await;
    s.wait_for("[data-testid=ghost].selected .preview", 5).await;
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    let after = s.js(where_, json!([])).await;
    assert_eq!(before, after, "the board stays put after the first tap");
    let (_, out) = outside_viewport(s).await;
    assert_eq!(out, json!([]), "still all on screen after the tap");
}

/// The stage total the plan reaches, as the panel shows it.
async fn total(s: &Session) -> i64 {
    s.js(
        "return Number(document.querySelector('[data-testid=stage-points]').dataset.total);",
        json!([]),
    )
    .await
    .as_i64()
    .unwrap_or(-1)
}

/// The stage end of the person: a planned activation changes the planned points and sends
/// nothing; Reset brings the plan back; finishing below the best allocation asks first.
async fn check_plan(s: &Session) {
    s.wait_for("[data-testid=scoring-panel]", 5).await;
    // The pyramid and the area buttons in view together (issue 32).
    s.wait_until(
        "the pyramid and the first area button in the viewport at a stage end",
        "const vh = window.innerHeight;
         const inside = (e) => { if (!e) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= vh + 0.5 && r.height > 0; };
         return inside(document.querySelector('[data-testid=my-pyramid]'))
           && inside(document.querySelector('[data-testid^=area-button-]'));",
        json!([]),
        5,
    )
    .await;
    s.screenshot(&artifacts(), "round3-ft-stage-end-1280x800")
        .await;
    let (state, _) = table_state(s).await;
    let start = total(s).await;
    let areas = s
        .find_all("[data-testid^=area-button-]:not([disabled])")
        .await;
    let mut planned = false;
    for i in 0..areas.len() {
        s.click_nth("[data-testid^=area-button-]:not([disabled])", i)
            .await;
        if exists(s, "[data-testid=pay]").await {
            s.click("[data-testid=pay]").await;
            planned = true;
            break;
        }
    }
    if planned {
        assert_eq!(
            table_state(s).await.0,
            state,
            "a planned activation sends nothing"
        );
        assert!(exists(s, "ul.areas li.planned").await);
        assert!(exists(s, "[data-testid=my-pyramid] .area.planned").await);
        s.screenshot(&artifacts(), "ft-plan-1280").await;
        s.click("[data-testid=reset-plan]").await;
        assert_eq!(
            total(s).await,
            start,
            "Reset brings the plan back to nothing"
        );
        assert!(!exists(s, "ul.areas li.planned").await);
    }
    let best = exists(s, "[data-testid=best-allocation]:not([disabled])").await;
    if best {
        // An empty plan is below the best: Finish asks, and Back keeps the stage open.
        s.click("[data-testid=finish-scoring]").await;
        s.wait_for("[data-testid=confirm-finish]", 5).await;
        s.js(
            "document.querySelector('[data-testid=scoring-panel]').scrollIntoView();",
            json!([]),
        )
        .await;
        s.screenshot(&artifacts(), "ft-finish-below-best-1280")
            .await;
        s.click("[data-testid=confirm-finish-no]").await;
        assert!(!exists(s, "[data-testid=confirm-finish]").await);
        assert_eq!(table_state(s).await.0, state);
        s.click("[data-testid=best-allocation]").await;
        assert!(total(s).await > start, "the best allocation scores more");
    }
}

/// A solo game at `size`, played by clicking until the placing step of stage 2 has been
/// checked; the first stage end is checked as a plan when `plan` is set.
async fn play_to_stage_two(s: &Session, prefix: &str, plan: bool) {
    let mut by_hand = false;
    let mut steps = 0;
    let mut placings = 0;
    loop {
        let (state, phase) = table_state(s).await;
        let stage = s.text("[data-testid=stage]").await;
        if phase == "place" {
            placings += 1;
            let stage_two = !stage.contains('1');
            if placings == 1 || stage_two {
                let name = format!(
                    "ft-placing-{prefix}-{}",
                    if stage_two { "stage2" } else { "stage1" }
                );
                check_placing(s, &name).await;
            }
            if stage_two {
                // Stage 2's slots overlap as dominoes; their hit areas (block A's cell) do not.
                let (slots, problems) = slot_hit_problems(s).await;
                assert!(slots > 0);
                assert_eq!(problems, json!([]), "{prefix}: stage 2 slot hit areas");
                return;
            }
            if prefix == "375" && placings == 1 {
                tap_keeps_the_board(s).await;
                s.click("[data-testid=confirm-place]").await;
            } else {
                place_or_explain(s, steps).await;
            }
            wait_past(s, state).await;
        } else {
            if phase == "activate" && plan {
                check_plan(s).await;
            }
            assert!(play_step(s, steps, &mut by_hand).await, "the game went on");
        }
        steps += 1;
        assert!(steps < 200, "stage 2 should come");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgotten_treasures_placing_fits_1280x800_and_stage_end_activations_are_a_plan() {
    let w = world("polish-ft-desktop").await;
    let s = w.driver.session(DESKTOP_800.0, DESKTOP_800.1).await;
    open_solo(&s, &w.server.base).await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    // A favicon, and plurals chosen by the number.
    let icon = s
        .js(
            "const l = document.querySelector('link[rel=icon]');
             return fetch(l.href).then((r) => [r.status, r.headers.get('content-type')]);",
            json!([]),
        )
        .await;
    assert_eq!(icon[0], 200, "{icon}");
    assert!(icon[1].as_str().unwrap_or("").contains("svg"), "{icon}");
    let plurals = s
        .js(
            "return import('/js/i18n.js').then((m) => [m.t('gem_count.red', { count: 1 }), m.t('gem_count.red', { count: 2 }),
               m.t('scoring.done', { total: 1, count: 1 })]);",
            json!([]),
        )
        .await;
    assert_eq!(
        plurals,
        json!(["1 red gem", "2 red gems", "Finish scoring (1 point)"])
    );
    // French counts 0 and 1 as singular, Italian only 1.
    let other = s
        .js(
            "return import('/js/i18n.js').then(async (m) => {
               await m.setLanguage('fr');
               const fr = [m.t('gem_count.red', { count: 0 }), m.t('gem_count.red', { count: 2 })];
               await m.setLanguage('it');
               const it = [m.t('gem_count.red', { count: 0 }), m.t('gem_count.red', { count: 1 })];
               await m.setLanguage('en');
               return [...fr, ...it];
             });",
            json!([]),
        )
        .await;
    assert_eq!(
        other,
        json!([
            "0 gemme rouge",
            "2 gemmes rouges",
            "0 gemme rosse",
            "1 gemma rossa"
        ])
    );
    s.wait_for("[data-testid=ft-table]", 10).await;
    play_to_stage_two(&s, "1280", true).await;
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgotten_treasures_placing_fits_a_375px_phone_and_a_tap_keeps_the_board() {
    let w = world("polish-ft-phone").await;
    let s = w.driver.session(PHONE.0, PHONE.1).await;
    open_lobby(&s, &w.server.base).await;
    viewport(&s, PHONE.0, PHONE.1).await;
    s.click("[data-testid=quick-the-legend]").await;
    s.wait_for("[data-testid=ft-table]", 15).await;
    play_to_stage_two(&s, "375", false).await;
    s.quit().await;
}

/// Picks the `pick`-th ghost (wrapping) and confirms; when the pick does not show as
/// selected, saves a screenshot and says what the page had.
async fn place_or_explain(s: &Session, pick: usize) {
    let n = s.find_all("[data-testid=ghost]").await.len();
    s.click_nth("[data-testid=ghost]", pick).await;
    for _ in 0..50 {
        if exists(s, "[data-testid=ghost].selected .preview").await {
            s.click("[data-testid=confirm-place]").await;
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    s.screenshot(&artifacts(), "ft-place-failed").await;
    let v = s.js("return [document.querySelectorAll('[data-testid=ghost]').length, document.querySelectorAll('.ghost.selected').length, document.activeElement && document.activeElement.outerHTML.slice(0, 300)];", json!([])).await;
    panic!("pick {pick} of {n}: {v}");
}
