//! Puzzles from real games (issue 48 item 2): from the lobby, a guest fails a puzzle (their
//! puzzle rating falls, the explanation is drawn on the board), asks a hint on the next one
//! and solves it (the rating rises), in English at 1280 px and in French at 375 px.
use crate::browser::support::{call, catalog, open_lobby, shots, viewport, world};
use crate::browser::webdriver::Session;
use pyramidion_server::puzzles::seed_data::shipped;
use pyramidion_server::puzzles::store::NewPuzzle;
use serde_json::{Value, json};

/// The shipped puzzle the page shows (its solutions: the test knows them, the page does not).
pub(crate) async fn shown(s: &Session) -> NewPuzzle {
    let id = s
        .wait_until(
            "a puzzle",
            "const p = document.querySelector('[data-testid=puzzles][data-puzzle]'); return p && p.getAttribute('data-puzzle');",
            json!([]),
            20,
        )
        .await;
    let id = id.as_str().unwrap().to_string();
    shipped()
        .into_iter()
        .find(|p| p.id() == id)
        .expect("a shipped puzzle")
}

/// Plays `text` from the list of all moves.
pub(crate) async fn play(s: &Session, text: &str) {
    s.click(".puzzle-chooser summary").await;
    s.js(
        "const sel = document.querySelector('[data-testid=puzzle-move]'); sel.value = arguments[0];
         return sel.value;",
        json!([text]),
    )
    .await;
    s.click("[data-testid=puzzle-play]").await;
}

pub(crate) async fn rating(s: &Session) -> f64 {
    s.wait_for("[data-testid=puzzle-rating]", 10).await;
    s.js(
        "return Number(document.querySelector('[data-testid=puzzle-rating]').getAttribute('data-rating'));",
        json!([]),
    )
    .await
    .as_f64()
    .unwrap()
}

/// A wrong move on the puzzle shown: failed, the rating below the start, every candidate
/// listed with its points; the rating after.
async fn fail(s: &Session, first: &NewPuzzle) -> f64 {
    let wrong = first
        .legal
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .find(|t| !first.solutions.contains(t))
        .unwrap();
    play(s, &wrong).await;
    s.wait_for("[data-testid=puzzle-result][data-solved=false]", 20)
        .await;
    let after_fail = rating(s).await;
    assert!(after_fail < 1500.0, "{after_fail}");
    let listed = s
        .js(
            "return [...document.querySelectorAll('[data-testid=puzzle-candidates] li')].map((li) => li.getAttribute('data-move'));",
            json!([]),
        )
        .await;
    let texts: Vec<&str> = first.candidates.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(listed, json!(texts));
    after_fail
}

/// "Next": another puzzle than `first`, fresh (no result shown).
async fn next(s: &Session, first: &NewPuzzle) -> NewPuzzle {
    s.click("[data-testid=puzzle-next]").await;
    s.wait_until(
        "another puzzle",
        "const p = document.querySelector('[data-testid=puzzles][data-puzzle]'); return p && p.getAttribute('data-puzzle') !== arguments[0] && !document.querySelector('[data-testid=puzzle-result]');",
        json!([first.id()]),
        20,
    )
    .await;
    shown(s).await
}

/// The puzzle solved, after its hint where it has themes; the rating after.
async fn solve_with_a_hint(s: &Session, puzzle: &NewPuzzle) -> f64 {
    if !puzzle.themes.is_empty() {
        s.click("[data-testid=puzzle-hint]").await;
        s.wait_for("[data-testid=puzzle-hint-text]", 10).await;
    }
    play(s, &puzzle.solutions[0]).await;
    s.wait_for("[data-testid=puzzle-result][data-solved=true]", 20)
        .await;
    rating(s).await
}

#[tokio::test]
async fn a_puzzle_failed_then_one_solved_move_the_rating() {
    let game = shipped().first().expect("puzzles are shipped").game.clone();
    let w = world("puzzles").await;
    let base = &w.server.base;
    let s = w.driver.session(1280, 800).await;
    open_lobby(&s, base).await;
    s.click(&format!("[data-testid=puzzles-{game}]")).await;
    let first = shown(&s).await;
    assert_eq!(rating(&s).await, 1500.0);
    // The table brings the player's own board into view, as on a live table; the shot shows
    // the page from its heading.
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-1280").await;

    // A wrong move: failed, the rating falls, the solution and every candidate's points shown.
    let after_fail = fail(&s, &first).await;
    s.js(
        "document.querySelector('[data-testid=puzzle-board]').scrollIntoView({ block: 'start' });",
        json!([]),
    )
    .await;
    s.screenshot(&shots(), "puzzles-failed-1280").await;

    // The next one, with a hint, solved: the rating rises; the history lists both.
    let second = next(&s, &first).await;
    let after_solve = solve_with_a_hint(&s, &second).await;
    assert!(after_solve > after_fail, "{after_fail} → {after_solve}");
    let history = s
        .js(
            "return [...document.querySelectorAll('[data-testid=puzzle-history] li')].map((li) => li.getAttribute('data-solved'));",
            json!([]),
        )
        .await;
    assert_eq!(history, json!(["true", "false"]));

    // In French, on a phone: the failed puzzle again, its explanation in French.
    s.js(
        "const l = document.getElementById('lang'); l.value = 'fr'; l.dispatchEvent(new Event('change'));",
        json!([]),
    )
    .await;
    viewport(&s, 375, 800).await;
    s.goto(&format!("{base}/#/puzzles/{game}/{}", first.id()))
        .await;
    let fr = catalog("fr");
    let title = fr["puzzle.title"]
        .as_str()
        .unwrap()
        .replace("{game}", fr[&format!("game.{game}")].as_str().unwrap());
    s.wait_until(
        "the page in French",
        "const h = document.querySelector('.puzzles h2'); return h && h.textContent === arguments[0];",
        json!([title]),
        20,
    )
    .await;
    s.wait_for("[data-testid=puzzle-tried]", 10).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), "puzzles-fr-375").await;
    // A retry of a tried puzzle is not rated.
    play(&s, &first.solutions[0]).await;
    s.wait_for("[data-testid=puzzle-result][data-solved=true]", 20)
        .await;
    assert_eq!(rating(&s).await, after_solve);
    s.screenshot(&shots(), "puzzles-fr-retry-375").await;
    // Keeping one's games out of the miner, from the page.
    assert_eq!(
        call(&s, "GET", "/api/puzzles/opt-out", Value::Null).await,
        json!({"opt_out": false})
    );
    s.click("[data-testid=puzzle-opt-out]").await;
    s.wait_until(
        "the opt-out stored",
        "return fetch('/api/puzzles/opt-out').then((r) => r.json()).then((o) => o.opt_out);",
        json!([]),
        10,
    )
    .await;
    s.quit().await;
}

/// One game's puzzles from the lobby in `lang`: a wrong move fails the first (the rating
/// falls, the candidates and their points listed), the next one is solved (it rises); the
/// page is shot failed and solved at 1280 and 375 px.
async fn fail_then_solve(game: &str, lang: &str) {
    let w = world(&format!("puzzles-{game}-{lang}")).await;
    let base = &w.server.base;
    let s = w.driver.session(1280, 800).await;
    open_lobby(&s, base).await;
    let words = catalog(lang);
    let title = words["puzzle.title"]
        .as_str()
        .unwrap()
        .replace("{game}", words[&format!("game.{game}")].as_str().unwrap());
    if lang != "en" {
        s.js(
            "const l = document.getElementById('lang'); l.value = arguments[0];
             l.dispatchEvent(new Event('change'));",
            json!([lang]),
        )
        .await;
        // The lobby redrawn in the new language before going on.
        s.wait_until(
            "the lobby in the new language",
            "const a = document.querySelector(`[data-testid=puzzles-${arguments[0]}]`); return a && a.textContent === arguments[1];",
            json!([game, title]),
            20,
        )
        .await;
    }
    s.click(&format!("[data-testid=puzzles-{game}]")).await;
    s.wait_until(
        "the puzzle page in its language",
        "const h = document.querySelector('.puzzles h2'); return h && h.textContent === arguments[0];",
        json!([title]),
        20,
    )
    .await;
    let first = shown(&s).await;
    assert_eq!(first.game, game);
    assert_eq!(rating(&s).await, 1500.0);

    let after_fail = fail(&s, &first).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), &format!("puzzles-{game}-{lang}-failed-1280"))
        .await;
    viewport(&s, 375, 800).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), &format!("puzzles-{game}-{lang}-failed-375"))
        .await;

    let second = next(&s, &first).await;
    assert_eq!(second.game, game);
    let after_solve = solve_with_a_hint(&s, &second).await;
    assert!(after_solve > after_fail, "{after_fail} → {after_solve}");
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), &format!("puzzles-{game}-{lang}-solved-375"))
        .await;
    viewport(&s, 1280, 800).await;
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&shots(), &format!("puzzles-{game}-{lang}-solved-1280"))
        .await;
    s.quit().await;
}

#[tokio::test]
async fn pyramido_puzzles_in_italian_one_failed_one_solved_move_the_rating() {
    fail_then_solve("pyramido", "it").await;
}

#[tokio::test]
async fn pyramids_puzzles_one_failed_one_solved_move_the_rating() {
    fail_then_solve("pyramids", "en").await;
}

/// A stage end's puzzle asks for the best activation: until it is tried, the table offers no
/// best allocation (its plan, the checkbox that draws it, the warning that a plan scores less),
/// which would answer it; the areas and their payments are there to choose from.
#[tokio::test]
async fn a_stage_end_puzzle_offers_no_best_allocation_until_tried() {
    let puzzle = shipped()
        .into_iter()
        .find(|p| p.game == "forgotten-treasures" && p.themes.iter().any(|t| t == "activation"))
        .expect("an activation puzzle is shipped");
    let w = world("puzzles-no-helper").await;
    let base = &w.server.base;
    let s = w.driver.session(1280, 800).await;
    open_lobby(&s, base).await;
    s.goto(&format!(
        "{base}/#/puzzles/forgotten-treasures/{}",
        puzzle.id()
    ))
    .await;
    assert_eq!(shown(&s).await.id(), puzzle.id());
    s.wait_for("[data-testid=scoring-panel] .area-button", 10)
        .await;
    let helpers = s
        .js(
            "return ['best-allocation', 'confirm-finish'].filter((t) => document.querySelector(`[data-testid=${t}]`)).concat([...document.querySelectorAll('[data-testid=scoring-panel] label.check')].map(() => 'show-best'));",
            json!([]),
        )
        .await;
    assert_eq!(helpers, json!([]));
}
