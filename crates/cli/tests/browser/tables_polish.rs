//! The tables' finish: the Forgotten Treasures placing step fits the screen (every ghost and
//! the buttons inside the viewport at 1280×800 and 375 px), Rotate and `R` only land on
//! orientations that have a slot and keep the focus, a focused ghost previews the domino, the
//! board stays put after a tap, the stage-end activations are a plan sent on Finish (with a
//! confirmation below the best allocation), plurals, the favicon and the How to play pages.
use super::{
    PHONE, artifacts, exists, open_lobby, open_solo, play_step, table_state, wait_past, world,
};
use crate::webdriver::Session;
use serde_json::{Value, json};

const DESKTOP_800: (u32, u32) = (1280, 800);

/// Sizes the window so that the page itself (the viewport) is `width` × `height`.
async fn viewport(s: &Session, width: u32, height: u32) {
    s.resize(width, height).await;
    let inner = s
        .js("return [window.innerWidth, window.innerHeight];", json!([]))
        .await;
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    s.resize(
        width + width.saturating_sub(iw),
        height + height.saturating_sub(ih),
    )
    .await;
    let inner = s
        .js("return [window.innerWidth, window.innerHeight];", json!([]))
        .await;
    assert_eq!(inner, json!([width, height]), "viewport size");
}

/// Every ghost of the own pyramid, Rotate and "Place here", as boxes outside the viewport
/// (empty when all are inside), with the number of ghosts.
async fn outside_viewport(s: &Session) -> (usize, Value) {
    let v = s
        .js(
            "const vw = window.innerWidth, vh = window.innerHeight;
             const ghosts = [...document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost] .ghost-outline')];
             const buttons = ['rotate', 'confirm-place'].map((id) => document.querySelector(`[data-testid=${id}]`));
             const out = [];
             for (const e of [...ghosts, ...buttons]) {
               if (!e) { out.push('missing'); continue; }
               const r = e.getBoundingClientRect();
               if (r.left < 0 || r.top < 0 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
                 out.push([e.getAttribute('class') || e.dataset.testid, r.left, r.top, r.right, r.bottom, vw, vh]);
             }
             return [ghosts.length, out];",
            json!([]),
        )
        .await;
    (v[0].as_u64().unwrap_or(0) as usize, v[1].clone())
}

/// The orientation shown (the hand's direction) and how many usable ones Rotate offers.
async fn orientation(s: &Session) -> (String, u64) {
    let v = s
        .js(
            "const b = document.querySelector('[data-testid=rotate]');
             return [document.querySelector('[data-testid=hand] .hand-box').dataset.dir, Number(b.dataset.orientations)];",
            json!([]),
        )
        .await;
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_u64().unwrap_or(0),
    )
}

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

/// How to play: the lobby links every game of the descriptors to its rules summary, which
/// follows the language; a table links to its own game's rules in a new tab.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn how_to_play_is_reachable_from_the_lobby_and_the_table_in_three_languages() {
    let w = world("polish-rules").await;
    let s = w.driver.session(super::DESKTOP.0, super::DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.wait_for("[data-testid=how-to-play]", 10).await;
    let keys = s
        .js(
            "return fetch('/api/games').then((r) => r.json()).then((c) => c.games.map((g) => g.key));",
            json!([]),
        )
        .await;
    let keys: Vec<String> = keys
        .as_array()
        .expect("game keys")
        .iter()
        .map(|k| k.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(keys.len() >= 3, "{keys:?}");
    let mut texts = Vec::new();
    for key in &keys {
        open_lobby(&s, &w.server.base).await;
        s.click(&format!(
            "[data-testid=how-to-play] [data-testid=rules-{key}]"
        ))
        .await;
        s.wait_for(&format!("[data-testid=rules-page][data-game={key}]"), 10)
            .await;
        let en = s.text("[data-testid=rules-text]").await;
        assert!(en.len() > 600, "{key}: a real summary: {en}");
        s.screenshot(&artifacts(), &format!("rules-{key}-en-1280"))
            .await;
        for lang in ["fr", "it"] {
            s.click(&format!("[data-testid=language] option[value={lang}]"))
                .await;
            let other = s
                .wait_until(
                    "the rules in another language",
                    "const e = document.querySelector('[data-testid=rules-text]');
                     return e && e.textContent !== arguments[0] && e.getAttribute('lang') === arguments[1] && e.textContent;",
                    json!([en, lang]),
                    10,
                )
                .await;
            assert!(other.as_str().unwrap_or("").len() > 600, "{key} {lang}");
        }
        s.click("[data-testid=language] option[value=en]").await;
        texts.push(en);
    }
    // Every game has its own summary; the solo game explains its two solo modes.
    let distinct: std::collections::BTreeSet<_> = texts.iter().collect();
    assert_eq!(distinct.len(), keys.len());
    let solo = texts
        .iter()
        .find(|t| t.contains("Become THE Legend") && t.contains("Become A Legend"));
    assert!(solo.is_some(), "the solo modes are explained");
    assert!(
        cat["quick.the-legend"]
            .as_str()
            .unwrap_or("")
            .contains("THE Legend")
    );
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&artifacts(), "rules-last-en-375").await;
    s.resize(super::DESKTOP.0, super::DESKTOP.1).await;
    // From a table: a link to its game's rules that keeps the game open.
    open_solo(&s, &w.server.base).await;
    let link = s
        .js(
            "const a = document.querySelector('.table-links a[data-testid^=rules-]');
             return a && [a.getAttribute('href'), a.target];",
            json!([]),
        )
        .await;
    let game = s
        .js(
            "return fetch('/api/tables/' + location.hash.split('/')[2]).then((r) => r.json()).then((t) => t.game);",
            json!([]),
        )
        .await;
    assert_eq!(
        link,
        json!([format!("#/rules/{}", game.as_str().unwrap_or("")), "_blank"])
    );
    s.quit().await;
}
