//! Following a Pyramids game (issue 32, item 7): the table shows what each opponent took from
//! the quarry this round.
use super::py_step;
use crate::browser::support::{
    DESKTOP_800, PHONE, artifacts, catalog, exists, new_table_against_greedy, open_lobby, py_state,
    viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::json;

/// The quarry's pairs as the page shows them (card ids; empty for a pair already taken).
async fn quarry_pairs(s: &Session) -> Vec<Vec<u64>> {
    let v = s
        .js(
            "return [...document.querySelectorAll('.py-pair[data-pair]')].map((p) =>
               [...p.querySelectorAll('[data-card]')].map((c) => Number(c.dataset.card)));",
            json!([]),
        )
        .await;
    serde_json::from_value(v).unwrap_or_default()
}

/// A person plays Pyramids against a bot by clicking. At each God choice the page's quarry is
/// noted; whenever the bot has taken a pair this round, its necropolis shows "Took this
/// round" with exactly one of the noted pairs, one no longer in the quarry, and never the
/// bot's hand or Tomb. Screenshots at 1280×800 and 375×812, where it fits the card. Glyphs
/// carry a tooltip with their name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramids_shows_each_opponents_takes_this_round() {
    let w = world("round3-takes").await;
    let s = w.driver.session(DESKTOP_800.0, DESKTOP_800.1).await;
    open_lobby(&s, &w.server.base).await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    new_table_against_greedy(&s, "pyramids", "py-table").await;
    let dir = artifacts();
    let mut noted: Option<(String, Vec<Vec<u64>>)> = None;
    let (mut checked, mut shot) = (0, false);
    let mut shots = [true; 2];
    let mut step = 0;
    while checked < 3 {
        s.wait_until(
            "my Pyramids turn or the end",
            "const t = document.querySelector('[data-testid=py-table]');
             return !!t && !document.getElementById('app').classList.contains('pending') &&
                    (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=prompt].yours'));",
            json!([]),
            90,
        )
        .await;
        let (_, phase) = py_state(&s).await;
        assert_ne!(phase, "over", "the game ended before the checks");
        let round = s.text("[data-testid=round]").await;
        if phase == "choose_god" {
            noted = Some((round.clone(), quarry_pairs(&s).await));
        }
        let took = s
            .js(
                "return [...document.querySelectorAll('[data-testid=necropolis] [data-testid=took] [data-card]')].map((c) => Number(c.dataset.card));",
                json!([]),
            )
            .await;
        let took: Vec<u64> = serde_json::from_value(took).unwrap_or_default();
        if let Some((noted_round, pairs)) = noted.as_ref().filter(|(r, _)| *r == round)
            && !took.is_empty()
        {
            let mut took = took.clone();
            took.sort_unstable();
            let mut sorted: Vec<Vec<u64>> = pairs.clone();
            sorted.iter_mut().for_each(|p| p.sort_unstable());
            assert!(
                sorted.contains(&took),
                "{noted_round}: {took:?} among {pairs:?}"
            );
            let now: Vec<u64> = quarry_pairs(&s).await.into_iter().flatten().collect();
            assert!(
                took.iter().all(|c| !now.contains(c)),
                "taken, not in the quarry"
            );
            let label = s
                .text("[data-testid=necropolis] [data-testid=took] .label")
                .await;
            assert_eq!(label, catalog("en")["py.took_this_round"].as_str().unwrap());
            // Nothing hidden beside it: no hand and no Tomb card of the bot.
            assert!(!exists(&s, "[data-testid=necropolis] [data-testid=tomb-cards]").await);
            assert!(!exists(&s, "[data-testid=necropolis] [data-testid=hand]").await);
            // Every glyph on the page says its name on hover.
            let untitled = s
                .js(
                    "return [...document.querySelectorAll('[data-glyph]')]
                       .filter((g) => !(g.querySelector('title') && g.querySelector('title').textContent)).length;",
                    json!([]),
                )
                .await;
            assert_eq!(untitled, json!(0), "glyphs without a tooltip");
            checked += 1;
            if !shot {
                let show = "const n = document.querySelector('[data-testid=necropolis]');
                     n.scrollIntoView({ block: 'center' });
                     const box = n.getBoundingClientRect();
                     const out = [...n.querySelectorAll('[data-testid=takes] svg')]
                       .map((e) => e.getBoundingClientRect())
                       .filter((r) => r.right > box.right + 0.5 || r.left < box.left - 0.5).length;
                     return [out, document.documentElement.scrollWidth <= window.innerWidth + 1];";
                assert_eq!(s.js(show, json!([])).await, json!([0, true]));
                s.screenshot(&dir, "round3-takes-1280x800").await;
                viewport(&s, PHONE.0, PHONE.1).await;
                assert_eq!(s.js(show, json!([])).await, json!([0, true]), "at 375 px");
                s.screenshot(&dir, "round3-takes-375x812").await;
                viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
                shot = true;
            }
        }
        assert!(py_step(&s, step, &mut shots).await);
        step += 1;
        assert!(step < 120, "three checks within the game");
    }
    s.quit().await;
}
