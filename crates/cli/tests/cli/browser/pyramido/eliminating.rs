//! No silent self-elimination in Pyramido (issue 32) (the slot the engine
//! flags is marked and asks first; afterwards the pyramid, the log and the end screen say
//! why), the clock and the prompt in view while placing at 1280×800 and 375×812, one marker
//! and one non-overlapping hit area per slot, and the focus on the next decision after a move.
use crate::browser::support::{
    DESKTOP_800, PHONE, artifacts, catalog, exists, fill, open_lobby, pyo_state, pyo_wait_past,
    slot_hit_problems, viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// Boxes (in CSS px) of what must stay on screen, scrolled to the very bottom of the page:
/// the clock of `seat`, the seat to move's mark and the prompt. Empty when all are inside.
async fn head_outside_viewport_when_scrolled(s: &Session, seat: u64) -> Value {
    s.js(
        "window.scrollTo(0, document.documentElement.scrollHeight);
         const out = [];
         const vw = window.innerWidth, vh = window.innerHeight;
         for (const css of [`[data-testid=clock-${arguments[0]}]`, '.clock.running', '[data-testid=prompt]']) {
           const e = document.querySelector(css);
           if (!e) { out.push(['missing', css]); continue; }
           const r = e.getBoundingClientRect();
           if (r.top < 0 || r.left < 0 || r.bottom > vh + 0.5 || r.right > vw + 0.5 || r.height === 0)
             out.push([css, r.left, r.top, r.right, r.bottom, vw, vh]);
         }
         return [window.scrollY, out];",
        json!([seat]),
    )
    .await
}

/// How many of this step's placements the engine flags as eliminating (all orientations).
async fn eliminating_count(s: &Session) -> u64 {
    s.js(
        "const p = document.querySelector('[data-testid=my-pyramid]');
         return Number((p && p.dataset.eliminating) || 0);",
        json!([]),
    )
    .await
    .as_u64()
    .unwrap_or(0)
}

/// Rotates until a slot flagged as eliminating shows (it exists in some orientation).
async fn show_an_eliminating_slot(s: &Session) {
    for _ in 0..4 {
        if exists(
            s,
            "[data-testid=my-pyramid] [data-testid=ghost][data-eliminates]",
        )
        .await
        {
            return;
        }
        s.click("[data-testid=rotate]").await;
    }
    panic!("no eliminating slot in any orientation");
}

/// Is the focus on a control of the decision the page shows now?
async fn focus_on(s: &Session, css: &str) -> bool {
    s.js(
        "const a = document.activeElement; return !!a && a.matches(arguments[0]);",
        json!([css]),
    )
    .await
        == json!(true)
}

/// A person plays Pyramido against the greedy bot by clicking, spending every resurfacing
/// card early, until the engine flags a placement as eliminating. On the way: every placing
/// step has one non-overlapping hit area per slot (checked on every stage reached), the clock
/// and prompt stay in view scrolled to the bottom at 1280×800 and 375×812, and after a take
/// the focus is on a slot. The flagged slot is marked, "Place here" asks with the engine's
/// reason instead of playing, "Choose another slot" backs out, "Place it anyway" plays it.
/// Played on to the end: the pyramid, the log and the end screen say why the player was
/// eliminated, and unplaced jewel markers are shown beside the pyramids.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramido_asks_before_an_eliminating_placement_and_keeps_the_clock_in_view() {
    let w = world("round3-pyramido").await;
    let s = w.driver.session(DESKTOP_800.0, DESKTOP_800.1).await;
    open_lobby(&s, &w.server.base).await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    s.click("[data-testid=new-game] option[value=pyramido]")
        .await;
    s.click("[data-testid=new-players] option[value='2']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    // A clock (a day per turn: the test never runs out of time) to keep in view.
    s.click("[data-testid=new-clock] option[value=day]").await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    let dir = artifacts();
    let en = catalog("en");
    let (mut head_checked, mut focus_checked, mut asked) = (false, false, false);
    let (mut italian_shot, mut quarry_checked) = (false, false);
    let mut stages_checked = std::collections::BTreeSet::new();
    let mut steps = 0;
    let mut after_take = false;
    loop {
        s.wait_until(
            "my turn or the end",
            "const t = document.querySelector('[data-testid=pyo-table]');
             return t && !document.getElementById('app').classList.contains('pending')
               && (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=prompt].yours'));",
            json!([]),
            60,
        )
        .await;
        let (state, step) = pyo_state(&s).await;
        if step == "over" {
            break;
        }
        if step == "place" {
            s.wait_for("[data-testid=my-pyramid] [data-testid=ghost]", 10)
                .await;
            if after_take && !focus_checked {
                s.wait_until(
                    "the focus on a slot after taking a domino",
                    "const a = document.activeElement;
                     return !!a && a.dataset.testid === 'ghost' && !!a.closest('[data-testid=my-pyramid]');",
                    json!([]),
                    5,
                )
                .await;
                focus_checked = true;
            }
            let stage = s.text("[data-testid=stage]").await;
            if !stages_checked.contains(&stage) {
                let (slots, problems) = slot_hit_problems(&s).await;
                assert!(slots > 0);
                assert_eq!(problems, json!([]), "{stage}: slot hit areas");
                if !stages_checked.is_empty() {
                    s.js(
                        "document.querySelector('[data-testid=my-pyramid]').scrollIntoView({ block: 'center' });",
                        json!([]),
                    )
                    .await;
                    s.screenshot(&dir, "round3-pyramido-upper-stage-slots-1280x800")
                        .await;
                }
                stages_checked.insert(stage);
            }
            if !head_checked {
                for (width, height, name) in [
                    (DESKTOP_800.0, DESKTOP_800.1, "1280x800"),
                    (PHONE.0, PHONE.1, "375x812"),
                ] {
                    viewport(&s, width, height).await;
                    let v = head_outside_viewport_when_scrolled(&s, 0).await;
                    if width < 600 {
                        assert!(
                            v[0].as_f64().unwrap_or(0.0) > 0.0,
                            "{name}: the page scrolls"
                        );
                    }
                    assert_eq!(v[1], json!([]), "{name}: the clock and prompt in view");
                    s.screenshot(&dir, &format!("round3-placing-scrolled-{name}"))
                        .await;
                }
                viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
                s.js("window.scrollTo(0, 0);", json!([])).await;
                head_checked = true;
            }
            if !asked && eliminating_count(&s).await > 0 {
                show_an_eliminating_slot(&s).await;
                let key = s
                    .js(
                        "return document.querySelector('[data-testid=my-pyramid] [data-testid=ghost][data-eliminates]').dataset.key;",
                        json!([]),
                    )
                    .await;
                let key = key.as_str().expect("a slot key").to_string();
                let css = format!("[data-testid=my-pyramid] [data-testid=ghost][data-key='{key}']");
                assert!(exists(&s, &format!("{css}.dooms .ghost-warning")).await);
                s.click(&css).await;
                s.wait_for("[data-testid=eliminates-note]", 5).await;
                s.click("[data-testid=confirm-place]").await;
                s.wait_for("[data-testid=eliminate-confirm]", 5).await;
                let question = s.text("[data-testid=eliminate-confirm] p").await;
                let stage = s.text("[data-testid=stage]").await;
                assert!(
                    question.contains("This placement eliminates you: stage"),
                    "{question}"
                );
                assert!(
                    stage.contains(
                        question
                            .split("stage ")
                            .nth(1)
                            .unwrap_or("?")
                            .get(..1)
                            .unwrap_or("?")
                    ),
                    "{stage} / {question}"
                );
                assert!(
                    focus_on(&s, "[data-testid=eliminate-cancel]").await,
                    "the question takes the focus, on its safe answer"
                );
                s.js(
                    "document.querySelector('[data-testid=eliminate-confirm]').scrollIntoView({ block: 'center' });",
                    json!([]),
                )
                .await;
                s.screenshot(&dir, "round3-pyramido-eliminating-question-1280x800")
                    .await;
                // Nothing was sent: the same state, still placing.
                assert_eq!(pyo_state(&s).await, (state, "place".to_string()));
                s.click("[data-testid=eliminate-cancel]").await;
                assert!(!exists(&s, "[data-testid=eliminate-confirm]").await);
                assert!(!exists(&s, "[data-testid=ghost].selected").await);
                assert_eq!(pyo_state(&s).await, (state, "place".to_string()));
                // Asked again, then placed anyway.
                s.click(&css).await;
                s.click("[data-testid=confirm-place]").await;
                s.wait_for("[data-testid=eliminate-confirm]", 5).await;
                assert_eq!(pyo_state(&s).await, (state, "place".to_string()));
                s.click("[data-testid=eliminate-anyway]").await;
                asked = true;
            } else {
                // Any slot that does not eliminate (the first).
                for _ in 0..4 {
                    if exists(
                        &s,
                        "[data-testid=my-pyramid] [data-testid=ghost]:not([data-eliminates])",
                    )
                    .await
                    {
                        break;
                    }
                    s.click("[data-testid=rotate]").await;
                }
                let css = if exists(
                    &s,
                    "[data-testid=my-pyramid] [data-testid=ghost]:not([data-eliminates])",
                )
                .await
                {
                    "[data-testid=my-pyramid] [data-testid=ghost]:not([data-eliminates])"
                } else {
                    "[data-testid=my-pyramid] [data-testid=ghost]"
                };
                s.click(css).await;
                s.click("[data-testid=confirm-place]").await;
                if exists(&s, "[data-testid=eliminate-anyway]").await {
                    s.click("[data-testid=eliminate-anyway]").await;
                }
            }
            after_take = false;
        } else {
            after_take = step == "take";
            if step == "take" && !quarry_checked {
                // At 375 px each quarry slot lies between its two piles, and every control of
                // the quarry is at least 44×44 CSS px.
                viewport(&s, PHONE.0, PHONE.1).await;
                let v = s
                    .js(
                        "const box = (e) => e.getBoundingClientRect();
                         const mid = (e) => { const r = box(e); return (r.left + r.right) / 2; };
                         const out = [];
                         for (const slot of [1, 2, 3]) {
                           const el = document.querySelector(`.pyo-row > [data-slot='${slot}']`);
                           const a = document.querySelector(`.pyo-row > [data-pile='${slot}']`);
                           const b = document.querySelector(`.pyo-row > [data-pile='${slot + 1}']`);
                           if (!el || !a || !b) { out.push(['missing', slot]); continue; }
                           if (!(mid(a) < mid(el) && mid(el) < mid(b))) out.push(['not between', slot, mid(a), mid(el), mid(b)]);
                         }
                         for (const e of document.querySelectorAll('.pyo-quarry button')) {
                           const r = box(e);
                           if (r.width < 44 || r.height < 44) out.push(['small', e.dataset.testid, r.width, r.height]);
                         }
                         if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push(['scrolls sideways', document.documentElement.scrollWidth]);
                         return out;",
                        json!([]),
                    )
                    .await;
                assert_eq!(v, json!([]), "the quarry at 375 px");
                s.js(
                    "document.querySelector('.pyo-quarry').scrollIntoView({ block: 'center' });",
                    json!([]),
                )
                .await;
                s.screenshot(&dir, "round3-pyramido-quarry-375x812").await;
                viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
                quarry_checked = true;
            }
            match step.as_str() {
                "take" => s.click("[data-testid=take]").await,
                "mark" => s.click("[data-testid=mark]").await,
                // Spend the cards early: with none left, a stray hole is fatal.
                "resurface" if exists(&s, "[data-testid=resurface-block]").await => {
                    if !italian_shot {
                        // The Italian card names sit above their buttons (they overlapped).
                        s.click("[data-testid=language] option[value=it]").await;
                        s.wait_until(
                            "the table in Italian",
                            "return document.documentElement.lang === 'it' && !!document.querySelector('[data-testid=resurface-block]');",
                            json!([]),
                            5,
                        )
                        .await;
                    }
                    s.click("[data-testid=resurface-block]").await;
                    s.click("[data-testid=resurface-colour]").await;
                    s.wait_for("[data-testid=resurface]", 5).await;
                    if !italian_shot {
                        let card = catalog("it")["pyo.card"]
                            .as_str()
                            .unwrap_or("?")
                            .to_string();
                        assert_eq!(card, "carta Rivestimento");
                        let overlaps = s
                            .js(
                                "const out = [];
                                 for (const g of document.querySelectorAll('.card-group')) {
                                   const l = g.querySelector('.label').getBoundingClientRect();
                                   for (const b of g.querySelectorAll('button')) {
                                     const r = b.getBoundingClientRect();
                                     if (Math.min(l.right, r.right) - Math.max(l.left, r.left) > 0 && Math.min(l.bottom, r.bottom) - Math.max(l.top, r.top) > 0) out.push(g.querySelector('.label').textContent);
                                   }
                                 }
                                 return out;",
                                json!([]),
                            )
                            .await;
                        assert_eq!(overlaps, json!([]), "card names overlap their buttons");
                        s.js(
                            "document.querySelector('[data-testid=resurface-panel]').scrollIntoView({ block: 'center' });",
                            json!([]),
                        )
                        .await;
                        s.screenshot(&dir, "round3-it-pyramido-resurface-1280x800")
                            .await;
                        s.click("[data-testid=language] option[value=en]").await;
                        s.wait_until(
                            "the table in English again",
                            "return document.documentElement.lang === 'en';",
                            json!([]),
                            5,
                        )
                        .await;
                        italian_shot = true;
                    }
                    s.click("[data-testid=resurface]").await;
                }
                "resurface" => s.click("[data-testid=pass]").await,
                "refill" => s.click("[data-testid=refill]").await,
                "cover" => {
                    s.click("[data-testid=cover-colour]").await;
                    s.click("[data-testid=cover]").await;
                }
                other => panic!("unexpected step '{other}'"),
            }
        }
        pyo_wait_past(&s, state).await;
        steps += 1;
        assert!(steps < 600, "the game should end");
    }
    assert!(asked, "some placement was flagged as eliminating");
    assert!(head_checked && focus_checked && quarry_checked);
    // Jewel markers not placed yet, beside each pyramid.
    assert!(s.find_all("[data-testid=markers-in-hand]").await.len() >= 2);
    // Eliminated: the pyramid, the log and the end screen say why.
    if exists(&s, "[data-testid=elimination-reason]").await {
        let why = s.text("[data-testid=elimination-reason]").await;
        let start = fill(&en["pyo.elimination_none"], "stage", "");
        assert!(
            why.starts_with(start.split(':').next().unwrap_or("?")),
            "{why}"
        );
        assert!(exists(&s, "[data-testid=log-elimination]").await);
        assert!(exists(&s, "[data-testid=result-elimination]").await);
        s.js(
            "document.querySelector('[data-testid=result]').scrollIntoView();",
            json!([]),
        )
        .await;
        s.screenshot(&dir, "round3-pyramido-eliminated-result-1280x800")
            .await;
    } else {
        panic!("the flagged placement did not eliminate the player");
    }
    s.quit().await;
}
