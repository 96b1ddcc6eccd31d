//! Whole Pyramido games by clicking: two players against a bot, and four players with three
//! bots in Italian and French.
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, catalog, exists, fill, new_table_against_greedy, open_lobby,
    pyo_state, pyo_wait_past, shot, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// The orientation (Rotate clicks from the current one) and index of the ghost placement
/// lying furthest up, then left, on the pyramid, as the page draws them.
async fn pyo_top_left_ghost(s: &Session) -> (usize, usize) {
    let script = "const g = [...document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost] .ghost-outline')];
        let best = null;
        g.forEach((e, i) => { const b = e.getBBox(); const v = b.y * 1000 + b.x;
          if (best === null || v < best[0]) best = [v, i]; });
        return best;";
    let rotations = s
        .js(
            "const b = document.querySelector('[data-testid=rotate]'); return b && !b.disabled;",
            json!([]),
        )
        .await
        .as_bool()
        .unwrap_or(false);
    let mut best: Option<(f64, usize, usize)> = None;
    let turns = if rotations { 4 } else { 1 };
    for turn in 0..turns {
        let v = s.js(script, json!([])).await;
        if let (Some(value), Some(index)) = (v[0].as_f64(), v[1].as_u64())
            && best.is_none_or(|(b, _, _)| value < b)
        {
            best = Some((value, turn, index as usize));
        }
        if rotations {
            s.click("[data-testid=rotate]").await;
        }
    }
    let (_, turn, index) = best.expect("a ghost placement in some orientation");
    // Four clicks went round the usable orientations (2, 3 or 4 of them) back to the start
    // only when their number divides 4; count how many there are to come back.
    let usable = s
        .js(
            "return Number(document.querySelector('[data-testid=my-pyramid]')?.dataset.orientations || 1);",
            json!([]),
        )
        .await
        .as_u64()
        .unwrap_or(1) as usize;
    let now = 4 % usable.max(1);
    ((turn + usable - now) % usable.max(1), index)
}

/// Plays the person's seat of a Pyramido table by clicking until the game is over; returns
/// (steps, resurfaced, marker choice met). With a prefix, screenshots of placing, resurfacing
/// and the first stage scoring are saved at 1280 and 375 px.
async fn pyo_play_to_end(s: &Session, prefix: Option<&str>) -> (usize, bool, bool) {
    let dir = artifacts();
    let (mut placed_shot, mut resurfaced, mut marked, mut stage_shot) =
        (false, false, false, false);
    let mut steps = 0usize;
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
        if !stage_shot && exists(s, "[data-testid=breakdown-1]").await {
            s.js(
                "document.querySelector('[data-testid=scoring-pad]').scrollIntoView();",
                json!([]),
            )
            .await;
            shot(s, &dir, prefix, "stage-scoring-1280").await;
            s.resize(PHONE.0, PHONE.1).await;
            s.js(
                "document.querySelector('[data-testid=scoring-pad]').scrollIntoView();",
                json!([]),
            )
            .await;
            shot(s, &dir, prefix, "stage-scoring-375").await;
            s.resize(DESKTOP.0, DESKTOP.1).await;
            s.js("window.scrollTo(0, 0);", json!([])).await;
            stage_shot = true;
        }
        let (state, step) = pyo_state(s).await;
        match step.as_str() {
            "over" => break,
            "take" => s.click_nth("[data-testid=take]", steps).await,
            "place" => {
                // The person fills the pyramid row by row from its top-left corner (few holes):
                // look at every orientation Rotate offers, come back to the best one, click.
                let (at, pick) = pyo_top_left_ghost(s).await;
                for _ in 0..at {
                    s.click("[data-testid=rotate]").await;
                }
                s.click_nth("[data-testid=ghost]", pick).await;
                s.wait_for("[data-testid=ghost].selected .preview", 5).await;
                if !placed_shot {
                    shot(s, &dir, prefix, "placing-1280").await;
                    s.resize(PHONE.0, PHONE.1).await;
                    shot(s, &dir, prefix, "placing-375").await;
                    s.resize(DESKTOP.0, DESKTOP.1).await;
                    placed_shot = true;
                }
                s.click("[data-testid=confirm-place]").await;
                // A slot the engine flags as eliminating asks first (the person accepts).
                if exists(s, "[data-testid=eliminate-anyway]").await {
                    s.click("[data-testid=eliminate-anyway]").await;
                }
            }
            "mark" => {
                assert_eq!(s.find_all("[data-testid=mark-target]").await.len(), 2);
                s.click_nth("[data-testid=mark]", steps).await;
                marked = true;
            }
            "resurface" => {
                if !resurfaced && exists(s, "[data-testid=resurface-block]").await {
                    s.click("[data-testid=resurface-block]").await;
                    s.click("[data-testid=resurface-colour]").await;
                    s.wait_for("[data-testid=resurface]", 5).await;
                    shot(s, &dir, prefix, "resurfacing-1280").await;
                    s.click_nth("[data-testid=resurface]", 1).await;
                    resurfaced = true;
                } else {
                    s.click("[data-testid=pass]").await;
                }
            }
            "refill" => s.click_nth("[data-testid=refill]", steps).await,
            "cover" => {
                s.click("[data-testid=cover-colour]").await;
                s.click("[data-testid=cover]").await;
            }
            other => panic!("unexpected step '{other}'"),
        }
        pyo_wait_past(s, state).await;
        steps += 1;
        assert!(steps < 600, "the game should end");
    }
    (steps, resurfaced, marked)
}

/// A person plays a whole 2-player Pyramido game against the greedy bot by clicking only:
/// quarry, ghost placements (rotating when an orientation has no slot), the marker choice
/// when offered, one resurfacing (block, card side, jewel quadrant), passes, refills, holes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_two_player_pyramido_game_against_a_bot_by_clicking() {
    let w = world("pyramido").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    new_table_against_greedy(&s, "pyramido", "pyo-table").await;
    let (steps, resurfaced, marked) = pyo_play_to_end(&s, Some("pyramido")).await;
    let dir = artifacts();
    assert!(resurfaced, "a block was resurfaced by clicking");
    eprintln!("pyramido: {steps} clicks-steps, marker choice offered: {marked}");
    s.wait_for("[data-testid=result]", 10).await;
    assert_eq!(s.find_all("[data-testid=ranking] tbody tr").await.len(), 2);
    let page = s.text("[data-testid=pyo-table]").await;
    // Four stages scored, unless somebody was eliminated (which ends a 2-player game).
    if !page.contains("eliminated") {
        s.wait_for("[data-testid=breakdown-4]", 5).await;
    }
    s.wait_for("[data-testid=breakdown-1]", 5).await;
    assert!(!page.contains("pyo."), "a message key shows: {page}");
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&dir, "pyramido-result-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&dir, "pyramido-result-375").await;
    let record = s
        .js(
            "const a = document.querySelector('[data-testid=record-link]');
             return fetch(a.href).then(async (r) => [r.status, await r.text()]);",
            json!([]),
        )
        .await;
    assert_eq!(record[0], 200, "{record}");
    s.quit().await;
}

/// A 4-player Pyramido table with three bots runs to the end screen, played in Italian and
/// then French: the table's texts follow the language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_player_pyramido_table_with_three_bots_runs_to_the_end_in_italian_and_french() {
    let w = world("pyramido4").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.click("[data-testid=language] option[value=it]").await;
    // The lobby is drawn again in the new language: a person chooses in that one, not in the
    // page it replaces (a choice made there would be lost with it).
    let it = catalog("it");
    s.wait_until(
        "the lobby in Italian",
        "return document.documentElement.lang === 'it' &&
                document.querySelector('[data-testid=create-table]')?.textContent === arguments[0];",
        json!([it["lobby.create"]]),
        10,
    )
    .await;
    s.click("[data-testid=new-game] option[value=pyramido]")
        .await;
    s.click("[data-testid=new-players] option[value='4']").await;
    for (seat, bot) in [(1, "greedy"), (2, "random"), (3, "greedy")] {
        s.click(&format!(
            "[data-testid='new-seat-{seat}'] option[value='bot:{bot}']"
        ))
        .await;
    }
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    s.wait_until(
        "my turn, in Italian",
        "return document.querySelector('[data-testid=prompt].yours')?.textContent === arguments[0];",
        json!([it["pyo.prompt.take"]]),
        60,
    )
    .await;
    assert_eq!(
        s.text("[data-testid=stage]").await,
        fill(&it["table.stage"], "stage", "1").replace("{stages}", "4")
    );
    assert!(s.text(".pyo-quarry h3").await == it["pyo.quarry"]);
    s.screenshot(&artifacts(), "pyramido-italian-1280").await;
    s.click("[data-testid=language] option[value=fr]").await;
    let fr = catalog("fr");
    s.wait_until(
        "the table in French",
        "return document.querySelector('[data-testid=prompt]')?.textContent === arguments[0];",
        json!([fr["pyo.prompt.take"]]),
        10,
    )
    .await;
    pyo_play_to_end(&s, None).await;
    s.wait_for("[data-testid=result]", 10).await;
    assert_eq!(s.find_all("[data-testid=ranking] tbody tr").await.len(), 4);
    assert_eq!(s.text("[data-testid=result] h2").await, fr["result.title"]);
    let page = s.text("[data-testid=pyo-table]").await;
    assert!(!page.contains("pyo."), "a message key shows: {page}");
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&artifacts(), "pyramido-4p-french-result-1280")
        .await;
    s.quit().await;
}
