//! THE Legend's turns in the solo log (issue 32, item 7): every one of them, with why he took
//! what he took (the engine's rule, in words), also after a reload.
use super::play_step;
use crate::browser::support::{
    DESKTOP_800, PHONE, artifacts, catalog, exists, fill, open_solo, table_state, viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// Whether `text` is `template` with its `{placeholders}` filled in: every fixed part appears,
/// in order.
fn matches(template: &Value, text: &str) -> bool {
    let template = template.as_str().expect("catalog string");
    let mut rest = text;
    for (i, part) in template.split('{').enumerate() {
        let fixed = if i == 0 {
            part
        } else {
            part.split_once('}').map_or(part, |(_, after)| after)
        };
        match rest.find(fixed) {
            Some(at) if i > 0 || at == 0 => rest = &rest[at + fixed.len()..],
            _ => return false,
        }
    }
    true
}

/// The log's turns as the page shows them: for each, whether it is an automa's turn, its
/// round, the ply it follows (an automa's) or its moves' plies, its title and its lines.
async fn log_turns(s: &Session) -> Vec<Value> {
    s.js(
        "return [...document.querySelectorAll('[data-testid=move-log-turns] > li.turn')].map((li) => [
           li.classList.contains('interlude'), Number(li.dataset.round),
           li.classList.contains('interlude') ? Number(li.dataset.afterPly)
             : [...li.querySelectorAll('li[data-ply]')].map((m) => Number(m.dataset.ply)),
           li.querySelector('.who').textContent,
           [...li.querySelectorAll('ul > li')].map((x) => x.textContent)]);",
        json!([]),
    )
    .await
    .as_array()
    .cloned()
    .unwrap_or_default()
}

/// The Legend's turns of the log, checked for their place and their words (`lang`), and the
/// page's whole width at this size.
fn check_legend_turns(turns: &[Value], lang: &str) -> Vec<Value> {
    let cat = catalog(lang);
    let name = cat["legend.name"].as_str().unwrap_or("?");
    let mut out = Vec::new();
    for (i, turn) in turns.iter().enumerate() {
        if turn[0] != json!(true) {
            continue;
        }
        // Right after the player's move his turn was played in, in that move's round.
        let before = &turns[i - 1];
        assert_eq!(before[0], json!(false), "{turn}");
        let plies = before[2].as_array().expect("the plies of a turn");
        assert_eq!(plies.last(), Some(&turn[2]), "after the move he played in");
        assert_eq!(before[1], turn[1], "the same round as the player's turn");
        assert!(
            turn[3].as_str().unwrap_or("").ends_with(name),
            "{}",
            turn[3]
        );
        let lines: Vec<&str> = turn[4]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| l.as_str().unwrap_or(""))
            .collect();
        assert!(
            matches(&cat["legend.why.wishes"], lines[0])
                || matches(&cat["legend.why.wishes_same"], lines[0]),
            "{lines:?}"
        );
        // Each further line is a rule of his turn, in words: a wish found, a Mythical for a
        // missed wish, nothing found, the domino taken and why, the blind draw.
        let rules = [
            "legend.why.wish.one",
            "legend.why.wish.other",
            "legend.why.mythical_for_missed_wish.one",
            "legend.why.mythical_for_missed_wish.other",
            "legend.why.no_gem",
            "legend.why.space_of_last_gem",
            "legend.why.leftmost_found_no_gem",
            "legend.why.drew",
        ];
        for line in &lines[1..] {
            assert!(
                rules.iter().any(|k| matches(&cat[*k], line)),
                "{lang}: '{line}' says no rule"
            );
        }
        let domino = lines
            .iter()
            .filter(|l| {
                matches(&cat["legend.why.space_of_last_gem"], l)
                    || matches(&cat["legend.why.leftmost_found_no_gem"], l)
            })
            .count();
        assert_eq!(domino, 1, "one domino and its reason: {lines:?}");
        out.push(turn.clone());
    }
    out
}

/// A guest plays "Become THE Legend" by clicking for a few turns: after each placement the log
/// shows THE Legend's turn, numbered in the player's round, right after the move he played in,
/// with his wishes and the rule behind each gem and the domino; the panel's "last turn" says
/// the same as the log's last one, and the space marked on the exploration area is the one
/// the log names. After a reload every one of his turns is still there, word for word; in
/// French they read in French.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_solo_log_shows_every_legend_turn_and_why_also_after_a_reload() {
    let w = world("round3-legend").await;
    let s = w.driver.session(DESKTOP_800.0, DESKTOP_800.1).await;
    open_solo(&s, &w.server.base).await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    let en = catalog("en");
    let mut placements = 0;
    let mut steps = 0;
    let mut by_hand = false;
    while placements < 4 {
        let (_, phase) = table_state(&s).await;
        placements += usize::from(phase == "place");
        assert!(play_step(&s, steps, &mut by_hand).await);
        steps += 1;
        assert!(steps < 40);
        // Each placement of stage 1 but its last brings one turn of his.
        let turns = log_turns(&s).await;
        let legend = check_legend_turns(&turns, "en");
        assert_eq!(legend.len(), placements, "{turns:#?}");
    }
    let turns = log_turns(&s).await;
    let legend = check_legend_turns(&turns, "en");
    // The panel's last turn is the log's last one; the marked space is the one it names.
    let panel = s
        .js(
            "return [...document.querySelectorAll('[data-testid=legend-last] li')].map((x) => x.textContent);",
            json!([]),
        )
        .await;
    let last = legend.last().expect("a turn of his");
    assert_eq!(panel, last[4]);
    let marked = s
        .js(
            "const e = document.querySelector('.space.legend-took'); return e ? Number(e.dataset.space) : null;",
            json!([]),
        )
        .await;
    let space = marked.as_u64().expect("a space marked where he took");
    let said = last[4]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .any(|l| {
            l == fill(
                &en["legend.why.space_of_last_gem"],
                "space",
                &space.to_string(),
            ) || l
                == fill(
                    &en["legend.why.leftmost_found_no_gem"],
                    "space",
                    &space.to_string(),
                )
        });
    assert!(said, "the log names space {space}: {last}");

    let dir = artifacts();
    let show_log = "const l = document.querySelector('[data-testid=move-log]');
         l.scrollIntoView({ block: 'start' });
         const list = l.querySelector('[data-testid=move-log-turns]');
         list.scrollTop = list.scrollHeight;
         return document.documentElement.scrollWidth <= window.innerWidth + 1;";
    assert_eq!(s.js(show_log, json!([])).await, json!(true));
    s.screenshot(&dir, "round3-legend-log-1280x800").await;
    viewport(&s, PHONE.0, PHONE.1).await;
    assert_eq!(
        s.js(show_log, json!([])).await,
        json!(true),
        "no sideways scrolling at 375 px"
    );
    let overflow = s
        .js(
            "const box = document.querySelector('[data-testid=move-log]').getBoundingClientRect();
             return [...document.querySelectorAll('[data-testid=log-legend-turn] li')]
               .map((e) => e.getBoundingClientRect())
               .filter((r) => r.right > box.right + 0.5 || r.left < box.left - 0.5).length;",
            json!([]),
        )
        .await;
    assert_eq!(
        overflow,
        json!(0),
        "his lines stay inside the log at 375 px"
    );
    s.screenshot(&dir, "round3-legend-log-375x812").await;
    // His panel, with the same last turn.
    let show_panel =
        "document.querySelector('[data-testid=legend]').scrollIntoView({ block: 'center' });
         return document.documentElement.scrollWidth <= window.innerWidth + 1;";
    assert_eq!(s.js(show_panel, json!([])).await, json!(true));
    s.screenshot(&dir, "round3-legend-panel-375x812").await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    assert_eq!(s.js(show_panel, json!([])).await, json!(true));
    s.screenshot(&dir, "round3-legend-panel-1280x800").await;

    // A reload subscribes again: every turn of his is still in the log, word for word.
    s.refresh().await;
    s.wait_for("[data-testid=ft-table]", 20).await;
    s.wait_until(
        "the log read again",
        "return document.querySelectorAll('[data-testid=log-legend-turn]').length >= arguments[0];",
        json!([legend.len()]),
        20,
    )
    .await;
    assert_eq!(log_turns(&s).await, turns, "the same log after a reload");

    // In French, his turns read in French (the rulebook's terms).
    s.click("[data-testid=language] option[value=fr]").await;
    s.wait_until(
        "the table in French",
        "return document.documentElement.lang === 'fr' && !!document.querySelector('[data-testid=log-legend-turn]');",
        json!([]),
        5,
    )
    .await;
    let french = check_legend_turns(&log_turns(&s).await, "fr");
    assert_eq!(french.len(), legend.len());
    s.click("[data-testid=language] option[value=en]").await;
    assert!(exists(&s, "[data-testid=ft-table]").await);
    s.quit().await;
}
