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
    s.click("[data-testid=new-game] option[value=pyramido]")
        .await;
    s.click("[data-testid=new-players] option[value='2']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    let dir = artifacts();
    let (mut placed, mut resurfaced, mut marker_shot) = (0, false, false);
    let mut steps = 0;
    loop {
        s.wait_until(
            "my turn, the end, or stage 1 scored",
            "const t = document.querySelector('[data-testid=pyo-table]');
             return t && !document.getElementById('app').classList.contains('pending')
               && (t.dataset.step === 'over' || !!document.querySelector('[data-testid=breakdown-1]')
                   || !!document.querySelector('[data-testid=prompt].yours'));",
            json!([]),
            60,
        )
        .await;
        if exists(&s, "[data-testid=breakdown-1]").await {
            break;
        }
        let (state, step) = super::pyo_state(&s).await;
        match step.as_str() {
            "over" => panic!("the game ended in stage 1"),
            "take" => super::key_activate(&s, "[data-testid=take]").await,
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
                super::key_activate(&s, "[data-testid=mark]").await;
            }
            "resurface" if !resurfaced && exists(&s, "[data-testid=resurface-block]").await => {
                super::key_activate(&s, "[data-testid=resurface-block]").await;
                super::key_activate(&s, "[data-testid=resurface-colour]").await;
                super::key_activate(&s, "[data-testid=resurface]").await;
                resurfaced = true;
            }
            "resurface" => super::key_activate(&s, "[data-testid=pass]").await,
            "refill" => super::key_activate(&s, "[data-testid=refill]").await,
            "cover" => {
                super::key_activate(&s, "[data-testid=cover-colour]").await;
                super::key_activate(&s, "[data-testid=cover]").await;
            }
            other => panic!("unexpected step '{other}'"),
        }
        super::pyo_wait_past(&s, state).await;
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
    let (state, phase) = super::py_state(s).await;
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
            super::key_activate(s, css).await;
        }
        "discard" => {
            assert_eq!(focus_nth("[data-testid=discard]", step).await, json!(true));
            s.press("\u{E007}").await;
        }
        other => panic!("unexpected Pyramids phase '{other}'"),
    }
    super::py_wait_past(s, state).await;
    true
}

/// A 2-player Pyramids game against a bot, played with the keyboard only to the scoring
/// breakdown: each round one God tile is set aside, the next number each time (1 → 2 → 3 →
/// 4 → 1…); the pyramid and the scoring stay readable at 375 px.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramids_two_players_by_keyboard_only_to_the_scoring_with_the_god_set_aside_cycle() {
    let w = world("polish-pyramids").await;
    let s = w.driver.session(super::DESKTOP.0, super::DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.click("[data-testid=new-game] option[value=pyramids]")
        .await;
    s.click("[data-testid=new-players] option[value='2']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=py-table]", 20).await;
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
            s.resize(super::DESKTOP.0, super::DESKTOP.1).await;
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
