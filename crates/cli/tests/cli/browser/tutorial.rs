//! Interactive tutorials (issue 48): a newcomer finds the tutorial from the lobby, completes
//! it by clicking on the game's own table — one wrong move on the way, answered in words with
//! the figures the engine computed — and is seated at a real table against an easy bot. The
//! steps and their answers are read from the game's data through the registry, as a learner
//! would find them on the board; the expected sentences are the catalog's, filled with the
//! engine's figures.
use crate::browser::support::{
    DESKTOP, PHONE, artifacts, catalog, exists, fill, open_lobby, world,
};
use crate::browser::webdriver::Session;
use pyramidion_core::tutorial::Verdict;
use pyramidion_games::GameKind;
use pyramidion_games::tutorial::{self, Tried};
use serde_json::{Value, json};

/// The words the page says for `tried` in `lang`'s catalog (the same rules as the page:
/// the game's error sentence inside the shell's, or the measure's sentence with its figures).
fn verdict_words(cat: &Value, game: &str, tried: &Tried) -> String {
    let text = |key: &str| cat[key].as_str().map(str::to_string);
    match &tried.verdict {
        Verdict::Illegal { code } => {
            let reason = text(&format!("reason.{code}"))
                .or_else(|| text(&format!("error.{code}")))
                .unwrap_or_else(|| code.to_string());
            fill(&cat["tutorial.illegal"], "reason", &reason)
        }
        Verdict::Worse {
            gain,
            best,
            got,
            missed,
        } => {
            let key = format!("tutorial.{game}.gain.{gain}");
            let form = if *missed == 1 { "one" } else { "other" };
            let template = cat
                .get(format!("{key}.{form}"))
                .or_else(|| cat.get(format!("{key}.other")))
                .or_else(|| cat.get(&key))
                .unwrap_or_else(|| panic!("no sentence for {key}"));
            let said = fill(template, "best", &best.to_string());
            let said = fill(&Value::String(said), "got", &got.to_string());
            fill(&Value::String(said), "missed", &missed.to_string())
        }
        Verdict::Solved { .. } => text("tutorial.solved").unwrap(),
        Verdict::Other => text("tutorial.other").unwrap(),
    }
}

/// Whether `text` can be clicked as it is on the tutorial's board now (an activation: once
/// its area is chosen).
async fn clickable(s: &Session, text: &str) -> bool {
    if let Some(area) = activated_area(text) {
        return exists(s, &format!("[data-testid=area-button-{area}]")).await;
    }
    exists(
        s,
        &format!("[data-testid=tutorial-board] [data-move=\"{text}\"]"),
    )
    .await
}

/// The area an activation's text names (`activate e5 1c4m`).
fn activated_area(text: &str) -> Option<&str> {
    text.strip_prefix("activate ")?.split(' ').next()
}

/// Plays `text` by clicking on the game's table: a button or cell that carries the move, a
/// placement (turned until its slot shows, then confirmed), a resurfacing (its block and
/// card side chosen first).
async fn click_move(s: &Session, text: &str) {
    let css = format!("[data-testid=tutorial-board] [data-move=\"{text}\"]");
    // An activation is planned on the stage-end panel (its area, its payment), then the plan
    // is finished: its first move is the one tried.
    if let Some(area) = activated_area(text) {
        s.click(&format!("[data-testid=area-button-{area}]")).await;
        s.wait_for(&css, 5).await;
        s.click(&css).await;
        s.click("[data-testid=finish-scoring]").await;
        if exists(s, "[data-testid=confirm-finish-yes]").await {
            s.click("[data-testid=confirm-finish-yes]").await;
        }
        return;
    }
    // A Pyramids card for the Pyramid: its card of the hand chosen, its place, confirmed.
    if let Some(rest) = text.strip_prefix("pyramid ") {
        let card: usize = rest.split(' ').next().unwrap().parse().unwrap();
        s.click_nth("[data-testid=choose-card]", card - 1).await;
        s.wait_for(&css, 5).await;
        s.click(&css).await;
        s.click("[data-testid=confirm-pyramid]").await;
        return;
    }
    if !exists(s, &css).await && text.starts_with("place") {
        for _ in 0..4 {
            if exists(s, &css).await {
                break;
            }
            s.click("[data-testid=rotate]").await;
        }
    }
    if !exists(s, &css).await && exists(s, "[data-testid=resurface-block]").await {
        let blocks = s.find_all("[data-testid=resurface-block]").await.len();
        'found: for b in 0..blocks {
            s.click_nth("[data-testid=resurface-block]", b).await;
            let colours = s.find_all("[data-testid=resurface-colour]").await.len();
            for c in 0..colours {
                s.click_nth("[data-testid=resurface-colour]", c).await;
                if exists(s, &css).await {
                    break 'found;
                }
            }
        }
    }
    assert!(exists(s, &css).await, "the move {text} is on the board");
    s.click(&css).await;
    // Finishing a stage end below the best allocation asks first.
    if exists(s, "[data-testid=confirm-finish-yes]").await {
        s.click("[data-testid=confirm-finish-yes]").await;
    }
    if text.starts_with("place") {
        s.wait_for("[data-testid=ghost].selected", 5).await;
        s.click("[data-testid=confirm-place]").await;
    }
}

async fn feedback(s: &Session, verdict: &str) -> String {
    s.wait_for(
        &format!("[data-testid=tutorial-feedback][data-verdict={verdict}]"),
        10,
    )
    .await;
    s.text("[data-testid=tutorial-feedback]").await
}

/// Completes `game`'s tutorial in `lang` from its first step, by clicks: one wrong move on
/// the way is answered in words. Screenshots of the first step (and the answer) at 1280 and
/// 375 px are saved as `tutorial-<game>-<lang>-…`.
async fn complete_tutorial(s: &Session, game: &str, lang: &str) {
    let kind: GameKind = game.parse().unwrap();
    let outline = tutorial::outline_of(kind).expect("a tutorial");
    let cat = catalog(lang);
    let dir = artifacts();
    let mut wrong_answered = false;
    let mut first = true;
    for lesson in &outline.lessons {
        for step in &lesson.steps {
            let here = format!("{}/{}", lesson.key, step.key);
            s.wait_for(&format!("[data-testid=tutorial][data-step=\"{here}\"]"), 15)
                .await;
            assert_eq!(
                s.text("[data-testid=tutorial-text]").await,
                cat[&step.text].as_str().unwrap(),
                "{game} {here}: the step says what to do"
            );
            let answers = tutorial::answers(kind, lesson.key, step.key).unwrap();
            if !wrong_answered {
                for wrong in &answers.wrong {
                    if !clickable(s, wrong).await {
                        continue;
                    }
                    click_move(s, wrong).await;
                    let tried = tutorial::try_move(kind, lesson.key, step.key, wrong).unwrap();
                    let verdict = match tried.verdict {
                        Verdict::Illegal { .. } => "illegal",
                        Verdict::Worse { .. } => "worse",
                        _ => panic!("{wrong} is a wrong move"),
                    };
                    assert_eq!(
                        feedback(s, verdict).await,
                        verdict_words(&cat, game, &tried),
                        "{game} {here}: the wrong move {wrong} is answered in words"
                    );
                    s.screenshot(&dir, &format!("tutorial-{game}-{lang}-wrong-1280"))
                        .await;
                    s.resize(PHONE.0, PHONE.1).await;
                    s.screenshot(&dir, &format!("tutorial-{game}-{lang}-wrong-375"))
                        .await;
                    s.resize(DESKTOP.0, DESKTOP.1).await;
                    wrong_answered = true;
                    break;
                }
            }
            if first {
                s.click("[data-testid=tutorial-hint-button]").await;
                assert_eq!(
                    s.text("[data-testid=tutorial-hint]").await,
                    cat[&step.hint].as_str().unwrap()
                );
                s.screenshot(&dir, &format!("tutorial-{game}-{lang}-1280"))
                    .await;
                s.resize(PHONE.0, PHONE.1).await;
                s.screenshot(&dir, &format!("tutorial-{game}-{lang}-375"))
                    .await;
                s.resize(DESKTOP.0, DESKTOP.1).await;
                first = false;
            }
            click_move(s, &answers.accepted[0]).await;
            assert_eq!(
                feedback(s, "solved").await,
                cat["tutorial.solved"].as_str().unwrap()
            );
            s.click("[data-testid=tutorial-next]").await;
        }
    }
    assert!(
        wrong_answered,
        "{game}: a wrong move was answered on the way"
    );
    s.wait_for("[data-testid=tutorial-done]", 10).await;
    s.screenshot(&dir, &format!("tutorial-{game}-{lang}-done-1280"))
        .await;
    // Resumable: the progress is the server's; reloading shows the end, not the start.
    s.js("location.reload();", json!([])).await;
    s.wait_for("[data-testid=tutorial-done]", 15).await;
    // The last lesson: a real game against an easy bot.
    s.click("[data-testid=tutorial-play]").await;
    s.wait_until(
        "a real table",
        "return location.hash.startsWith('#/game/') || location.hash.startsWith('#/table/');",
        json!([]),
        20,
    )
    .await;
}

async fn open_tutorial(s: &Session, base: &str, game: &str, lang: &str) {
    open_lobby(s, base).await;
    if lang != "en" {
        s.js(
            "const l = document.getElementById('lang'); l.value = arguments[0];
             l.dispatchEvent(new Event('change'));",
            json!([lang]),
        )
        .await;
    }
    // A first visit is offered the tutorials among the ways to play; the offer leads to
    // their card, and the card to the game's tutorial.
    s.wait_for("[data-testid=tutorial-offer]", 15).await;
    s.click("[data-testid=tutorial-offer]").await;
    s.wait_for(&format!("[data-testid=learn-{game}]"), 5).await;
    s.click(&format!("[data-testid=learn-{game}]")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_completes_the_tic_tac_toe_tutorial_by_clicks() {
    let w = world("tutorial-ttt").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_tutorial(&s, &w.server.base, "tic-tac-toe", "en").await;
    complete_tutorial(&s, "tic-tac-toe", "en").await;
    // "How to play" leads to the tutorial too, which resumes where it was left: done.
    s.goto(&format!("{}/#/rules/tic-tac-toe", w.server.base))
        .await;
    s.wait_for("[data-testid=rules-learn]", 15).await;
    s.click("[data-testid=rules-learn]").await;
    s.wait_for("[data-testid=tutorial-done]", 15).await;
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_completes_the_forgotten_treasures_tutorial_by_clicks_in_italian() {
    let w = world("tutorial-treasures").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_tutorial(&s, &w.server.base, "forgotten-treasures", "it").await;
    complete_tutorial(&s, "forgotten-treasures", "it").await;
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_completes_the_pyramids_tutorial_by_clicks() {
    let w = world("tutorial-pyramids").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_tutorial(&s, &w.server.base, "pyramids", "en").await;
    complete_tutorial(&s, "pyramids", "en").await;
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_completes_the_pyramido_tutorial_by_clicks_in_french() {
    let w = world("tutorial-pyramido").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_tutorial(&s, &w.server.base, "pyramido", "fr").await;
    complete_tutorial(&s, "pyramido", "fr").await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    s.quit().await;
}

/// The first visit's offer is a dialog answered once: "Later" puts it away, and a reload
/// (this browser remembers the answer) does not ask again; the tutorials stay one button away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_visits_offer_is_a_dialog_whose_later_is_remembered() {
    let w = world("tutorial-offer").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.wait_for("dialog[open][data-testid=tutorial-offer-dialog]", 15)
        .await;
    let labelled = s
        .js(
            "const d = document.querySelector('[data-testid=tutorial-offer-dialog]');
             return document.getElementById(d.getAttribute('aria-labelledby')).textContent;",
            json!([]),
        )
        .await;
    assert_eq!(labelled, catalog("en")["tutorial.offer"]);
    s.click("[data-testid=tutorial-offer-later]").await;
    s.wait_until(
        "the offer put away",
        "return !document.querySelector('[data-testid=tutorial-offer-dialog]');",
        json!([]),
        5,
    )
    .await;
    open_lobby(&s, &w.server.base).await;
    s.js("location.reload();", json!([])).await;
    s.wait_for("[data-testid=connection][data-status=connected]", 15)
        .await;
    s.wait_for("[data-testid=way-learn]", 15).await;
    let asked = s
        .js(
            "return !!document.querySelector('[data-testid=tutorial-offer-dialog]');",
            json!([]),
        )
        .await;
    assert_eq!(asked, json!(false), "the answer is remembered");
    s.quit().await;
}

/// Offline (issue 48 item 3): a lesson already visited opens again with the connection cut
/// and the server stopped — the page from the service worker's copy, the lessons from the
/// answers it kept — at the same step, on the game's own board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_already_visited_opens_offline() {
    let bind = format!("127.0.0.1:{}", crate::browser::webdriver::free_port());
    let mut w = crate::browser::support::world_on("tutorial-offline", &bind).await;
    let base = w.server.base.clone();
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;
    s.wait_for("html[data-offline-ready=true]", 60).await;
    s.goto(&format!("{base}/#/learn/tic-tac-toe")).await;
    s.wait_for("[data-testid=tutorial-step]", 20).await;
    let read = "const t = document.querySelector('[data-testid=tutorial]');
        return [t.dataset.step, document.querySelector('[data-testid=tutorial-text]').textContent,
                !!document.querySelector('[data-testid=tutorial-board] *')];";
    let online = s.js(read, json!([])).await;
    assert_eq!(online[2], json!(true), "the board drawn: {online}");

    s.set_offline(true).await;
    let _ = w.server.process.child.kill();
    let _ = w.server.process.child.wait();
    s.refresh().await;
    s.wait_for("[data-testid=tutorial-step]", 30).await;
    assert_eq!(
        s.js(read, json!([])).await,
        online,
        "the same lesson, offline"
    );
    s.js("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot(&artifacts(), "tutorial-offline-1280").await;
    s.quit().await;
}
