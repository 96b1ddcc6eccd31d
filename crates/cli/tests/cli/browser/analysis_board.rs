//! The analysis on the board: a flagged decision of a finished game, asked for by a signed-in
//! player, is shown from its seat with the best move and the move played drawn on the table
//! and said in words with their expected points, in English, French and Italian; the replay's
//! move list says every move in words, never in engine notation.
use crate::browser::support::{
    DESKTOP, PLAY_AGAINST_A_RANDOM_BOT, REGISTER, artifacts, catalog, open_lobby, world_with,
};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// A 2-seat game that plays quickly against a bot.
const DUEL: &str = "pyramids";

async fn set_language(s: &Session, lang: &str) {
    s.click(&format!("[data-testid=language] option[value={lang}]"))
        .await;
}

/// The replay's move list says no move in notation: no entry reads "name: <record text>".
async fn no_notation_in_the_list(s: &Session, notations: &[String]) {
    let entries = s
        .js(
            "return [...document.querySelectorAll('[data-testid=replay-moves] li > button:first-child')].map((b) => b.textContent);",
            json!([]),
        )
        .await;
    let entries = entries.as_array().unwrap();
    assert_eq!(entries.len(), notations.len());
    for (entry, text) in entries.iter().zip(notations) {
        let entry = entry.as_str().unwrap();
        assert!(
            !entry.ends_with(&format!(": {text}")),
            "engine notation in the replay list: {entry}"
        );
    }
}

/// Asks for the analysis of game `id` from its replay page, waits for it, and returns it
/// (the API's answer) with its flagged decisions.
async fn analyse_on_the_replay_page(s: &Session, id: &str) -> (Value, Vec<Value>) {
    s.click("[data-testid=analyse]").await;
    s.wait_for("[data-testid=analysis-done]", 600).await;
    let analysis = s
        .js(
            &format!("return fetch('/api/games/{id}/analysis').then((r) => r.json());"),
            json!([]),
        )
        .await;
    let flagged = analysis["analysis"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["flag"].is_string())
        .cloned()
        .collect();
    (analysis, flagged)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flagged_decision_shows_both_moves_on_the_board_and_in_words() {
    // Enough playouts for the judge to be sure of some losses.
    let flags = ["--analysis-budget", "150000", "--bot-pace-ms", "0"];
    let w = world_with("analysis-board", "127.0.0.1:0", &flags).await;
    let base = &w.server.base;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, base).await;
    assert_eq!(s.js(REGISTER, json!(["player"])).await, 200);
    let played = s.js(PLAY_AGAINST_A_RANDOM_BOT, json!([DUEL])).await;
    let id = played[0].as_str().unwrap_or_default().to_string();
    assert_eq!(id.len(), 16, "the game was played to the end: {played}");
    // Another signed-in player, who did not play, asks for the analysis of this public game.
    s.js(
        "return fetch('/api/logout', { method: 'POST', credentials: 'same-origin' }).then((r) => r.status);",
        json!([]),
    )
    .await;
    open_lobby(&s, base).await;
    assert_eq!(s.js(REGISTER, json!(["analyst"])).await, 200);
    // Reloaded: the page knows its new identity.
    open_lobby(&s, base).await;
    assert_eq!(s.text("[data-testid=me]").await, "analyst");
    s.goto(&format!("{base}/#/replay/{id}")).await;
    s.wait_for("[data-testid=replay]", 15).await;
    // The replay opens at the start.
    assert_eq!(
        s.js(
            "return Number(document.querySelector('[data-testid=replay]').dataset.ply);",
            json!([])
        )
        .await,
        0
    );
    let replay = s
        .js(
            &format!("return fetch('/api/games/{id}/replay').then((r) => r.json());"),
            json!([]),
        )
        .await;
    let notations: Vec<String> = replay["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    no_notation_in_the_list(&s, &notations).await;
    let (analysis, flagged) = analyse_on_the_replay_page(&s, &id).await;
    assert!(
        !flagged.is_empty(),
        "random moves were found out: {analysis}"
    );
    // Each flagged decision in turn, from the move list: the table marks both moves where it
    // draws them; at least one decision draws both (others may draw a move the table shows
    // only after a choice, e.g. another card of the hand).
    let mut both_drawn = None;
    for (n, d) in flagged.iter().enumerate() {
        s.click_nth("[data-testid=show-decision]", n).await;
        let ply = d["ply"].as_i64().unwrap();
        s.wait_until(
            "the flagged decision on the board",
            "const r = document.querySelector('[data-testid=replay]'); return r && Number(r.dataset.ply) === arguments[0] && !!document.querySelector('[data-testid=analysis-decision]');",
            json!([ply]),
            15,
        )
        .await;
        let marks = s
            .js(
                "const b = document.querySelector('[data-testid=replay-board]'); return [b.querySelectorAll('.analysis-best').length, b.querySelectorAll('.analysis-played').length];",
                json!([]),
            )
            .await;
        assert!(
            marks[0].as_u64().unwrap() >= 1,
            "the best move is drawn: {d}"
        );
        if marks[1].as_u64().unwrap() >= 1 && both_drawn.is_none() {
            both_drawn = Some(n);
        }
    }
    let n = both_drawn.expect("a flagged decision draws both moves on the table");
    let d = &flagged[n];
    s.click_nth("[data-testid=show-decision]", n).await;
    s.wait_for("[data-testid=analysis-decision]", 15).await;
    s.screenshot(&artifacts(), "analysis-board-1280").await;
    for lang in ["en", "fr", "it"] {
        set_language(&s, lang).await;
        let cat = catalog(lang);
        let best_start = cat["analysis.best_move"]
            .as_str()
            .unwrap()
            .split("{move}")
            .next()
            .unwrap()
            .to_string();
        let said = s
            .wait_until(
                "the decision in the chosen language",
                "const b = document.querySelector('[data-testid=decision-best]'); return b && b.textContent.startsWith(arguments[0]) ? [document.querySelector('[data-testid=decision-played]').textContent, b.textContent] : null;",
                json!([best_start]),
                10,
            )
            .await;
        let (played, best) = (said[0].as_str().unwrap(), said[1].as_str().unwrap());
        // The move played reads as the move list says it.
        let listed = s
            .js(
                "return document.querySelectorAll('[data-testid=replay-moves] li > button:first-child')[arguments[0]].textContent;",
                json!([d["ply"]]),
            )
            .await;
        let listed = listed.as_str().unwrap();
        let listed_words = listed.split_once(": ").map_or(listed, |(_, w)| w);
        assert!(
            played.contains(listed_words),
            "{lang}: '{played}' says '{listed_words}'"
        );
        for (words, mv, points) in [
            (played, &d["played"], &d["played_points"]),
            (best, &d["best"], &d["best_points"]),
        ] {
            // Notation would read "… <record text>: 40.6".
            let mv = mv.as_str().unwrap();
            assert!(
                !words.contains(&format!(" {mv}:")) && !words.contains(&format!(" {mv} :")),
                "{lang}: notation '{mv}' in '{words}'"
            );
            let points = format!("{:.1}", points.as_f64().unwrap());
            assert!(
                words.ends_with(&points),
                "{lang}: '{words}' ends with {points}"
            );
        }
        no_notation_in_the_list(&s, &notations).await;
        s.screenshot(&artifacts(), &format!("analysis-board-{lang}-1280"))
            .await;
    }
}

/// The two tables drawn with the shared slot layer (Pyramido, Forgotten Treasures) mark the
/// analysis' best move of every flagged decision too, and a best placement is the selected
/// slot with its domino drawn (a ghost placement), not only a marker among the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_slot_layer_tables_draw_the_best_move_of_each_flagged_decision() {
    let flags = ["--analysis-budget", "30000", "--bot-pace-ms", "0"];
    let w = world_with("analysis-slots", "127.0.0.1:0", &flags).await;
    let base = &w.server.base;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, base).await;
    assert_eq!(s.js(REGISTER, json!(["player"])).await, 200);
    open_lobby(&s, base).await;
    for game in ["pyramido", "forgotten-treasures"] {
        // A game of random moves is not always found out: the judge flags a decision only
        // where its interval is clear of the threshold, and measures the lead over the other
        // seat. Random Pyramido moves that ignore the table's warning are soon eliminated,
        // ending the game at 0 to 0 with little to flag (five of ten games against `greedy`
        // had a flag); heeding it, as a person does, the game runs on: 11 of 11 first games
        // had 3 to 12 flags, 10 of them a flagged decision whose best move is a placement
        // (Forgotten Treasures: 15 of 18). The subject here is the drawing of flagged
        // decisions, a best placement among them, so the player plays games until one has
        // such a decision, up to ATTEMPTS.
        const ATTEMPTS: usize = 16;
        let mut attempt = 0;
        let (analysis, flagged) = loop {
            attempt += 1;
            let played = s
                .js(
                    PLAY_AGAINST_A_RANDOM_BOT,
                    json!([game, null, "random", "greedy"]),
                )
                .await;
            let id = played[0].as_str().unwrap_or_default().to_string();
            assert_eq!(id.len(), 16, "{game} was played to the end: {played}");
            s.goto(&format!("{base}/#/replay/{id}")).await;
            s.wait_for("[data-testid=replay]", 15).await;
            let (analysis, flagged) = analyse_on_the_replay_page(&s, &id).await;
            let a_placement = flagged.iter().any(|d| d["best_move"]["kind"] == "place");
            if a_placement || attempt == ATTEMPTS {
                break (analysis, flagged);
            }
        };
        assert!(
            flagged.iter().any(|d| d["best_move"]["kind"] == "place"),
            "{game}: no flagged decision with a best placement in {ATTEMPTS} games of random \
             moves against greedy"
        );
        assert_eq!(analysis["analysis"]["measure"], "margin");
        // How far from failing the run was (the game's seed is drawn by the server).
        eprintln!(
            "{game}: {} flagged decisions in game {attempt}, {} of them with a best placement",
            flagged.len(),
            flagged
                .iter()
                .filter(|d| d["best_move"]["kind"] == "place")
                .count()
        );
        let mut shot = false;
        for (n, d) in flagged.iter().enumerate() {
            s.click_nth("[data-testid=show-decision]", n).await;
            s.wait_until(
                "the flagged decision on the board",
                "const r = document.querySelector('[data-testid=replay]'); return r && Number(r.dataset.ply) === arguments[0] && !!document.querySelector('[data-testid=analysis-decision]');",
                json!([d["ply"]]),
                15,
            )
            .await;
            let drawn = s
                .js(
                    "const b = document.querySelector('[data-testid=replay-board]');
                     return [b.querySelectorAll('.analysis-best').length,
                       !!b.querySelector('[data-testid=ghost].analysis-best.selected .ghost-preview-blocks'),
                       [...b.querySelectorAll('svg .analysis-best, svg .analysis-played')].filter((e) => getComputedStyle(e).outlineStyle !== 'none').length];",
                    json!([]),
                )
                .await;
            assert!(
                drawn[0].as_u64().unwrap() >= 1,
                "{game}: the best move is drawn: {d}"
            );
            // An outline on a drawing is drawn in its units: a cell wide, it hid the pyramid.
            assert_eq!(drawn[2], 0, "{game}: marks on the drawing are strokes: {d}");
            if d["best_move"]["kind"] == "place" {
                assert_eq!(
                    drawn[1], true,
                    "{game}: the best slot is selected with its domino: {d}"
                );
                if !shot {
                    s.js(
                        "document.querySelector('[data-testid=replay-board] .analysis-best').scrollIntoView({ block: 'center' });",
                        json!([]),
                    )
                    .await;
                    s.screenshot(&artifacts(), &format!("analysis-board-{game}-1280"))
                        .await;
                    shot = true;
                }
            }
        }
        assert!(shot, "{game}: a best placement was drawn");
    }
}

/// Issue 46: the replay's board is a picture, not a table to play at. At a flagged Pyramido
/// placement seen from its seat, the table draws the placement's controls ("Rotate", "Place
/// here") and the analysis's moves as choices: every one is disabled, and only the view's
/// controls (enlarge) stay live; the summary says, in every language, why totals can exceed
/// the final margin. The analysis is the page's own reading of a stored one, put in by the
/// test (a flagged decision at the game's first placement: no judge needed to draw it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_board_has_no_live_move_control_and_the_totals_are_explained() {
    let w = world_with("replay-inert", "127.0.0.1:0", &["--bot-pace-ms", "0"]).await;
    let base = &w.server.base;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, base).await;
    assert_eq!(s.js(REGISTER, json!(["player"])).await, 200);
    open_lobby(&s, base).await;
    let played = s
        .js(
            PLAY_AGAINST_A_RANDOM_BOT,
            json!(["pyramido", null, "random", "greedy"]),
        )
        .await;
    let id = played[0].as_str().unwrap_or_default().to_string();
    assert_eq!(id.len(), 16, "the game was played to the end: {played}");
    // The replay as the server gives it, with a done analysis flagging the first placement.
    let ply = s
        .js(
            "const [id] = arguments;
             return (async () => {
               const replay = await (await fetch(`/api/games/${id}/replay`)).json();
               const m = replay.moves.find((m) => m.kind === 'place');
               const decision = { ply: m.ply, seat: m.seat, stage: 1, played: m.text, best: m.text,
                 played_move: m, best_move: m, played_points: 1, best_points: 6, lost: 5,
                 lost_low: 3, lost_high: 7, flag: 'mistake', candidates: 2, samples: 100 };
               const analysis = { status: 'done', analysis: { game: 'pyramido', measure: 'margin',
                 decisions: [decision], seats: [] } };
               const real = window.fetch;
               window.fetch = async (url, init) => {
                 const r = await real(url, init);
                 if (String(url) !== `/api/games/${id}/replay`) return r;
                 return new Response(JSON.stringify({ ...(await r.json()), analysis }),
                   { status: 200, headers: { 'content-type': 'application/json' } });
               };
               location.hash = `#/replay/${id}`;
               return m.ply;
             })();",
            json!([id]),
        )
        .await;
    s.wait_for("[data-testid=show-decision]", 15).await;
    s.click("[data-testid=show-decision]").await;
    s.wait_until(
        "the flagged placement on the board",
        "const r = document.querySelector('[data-testid=replay]'); return r && Number(r.dataset.ply) === arguments[0] && !!document.querySelector('[data-testid=replay-board] [data-testid=confirm-place]');",
        json!([ply]),
        15,
    )
    .await;
    let controls = s
        .js(
            "const b = document.querySelector('[data-testid=replay-board]');
             const all = [...b.querySelectorAll('button, input, select')];
             return {
               live: all.filter((c) => !c.disabled && !c.closest('[data-testid=enlarge], [data-testid=shrink]')).map((c) => c.dataset.testid || c.textContent),
               placing: [...b.querySelectorAll('[data-testid=rotate], [data-testid=confirm-place]')].map((c) => c.disabled),
               enlarge: [...b.querySelectorAll('[data-testid=enlarge]')].map((c) => c.disabled),
             };",
            json!([]),
        )
        .await;
    assert_eq!(controls["live"], json!([]), "{controls}");
    let placing = controls["placing"].as_array().unwrap();
    assert!(
        !placing.is_empty() && placing.iter().all(|d| d == true),
        "{controls}"
    );
    assert!(
        controls["enlarge"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d == false),
        "{controls}"
    );
    // A click on the best placement's ghost selects nothing: the board is unchanged.
    let before = s
        .js(
            "return document.querySelector('[data-testid=replay-board]').innerHTML;",
            json!([]),
        )
        .await;
    s.js(
        "const g = document.querySelector('[data-testid=replay-board] [data-testid=ghost]'); if (g) g.dispatchEvent(new MouseEvent('click', { bubbles: true }));",
        json!([]),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let after = s
        .js(
            "return document.querySelector('[data-testid=replay-board]').innerHTML;",
            json!([]),
        )
        .await;
    assert_eq!(before, after, "a click on the replayed table changed it");
    s.screenshot(&artifacts(), "replay-inert-1280").await;
    for lang in ["en", "fr", "it"] {
        set_language(&s, lang).await;
        let hint = catalog(lang)["analysis.totals_hint"]
            .as_str()
            .unwrap()
            .to_string();
        s.wait_until(
            "the totals explained in the chosen language",
            "const p = document.querySelector('[data-testid=analysis-totals-hint]'); return p && p.textContent === arguments[0];",
            json!([hint]),
            10,
        )
        .await;
    }
}
