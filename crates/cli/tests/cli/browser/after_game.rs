//! After the game, in the browser: a rated game (driven through the API from the page) shows
//! in "My games", its replay steps to the first move and back to the end with the keyboard,
//! and the profile shows the new rating (the leaderboard keeps it off while provisional).
use crate::browser::support::{
    DESKTOP, PHONE, PLAY_AGAINST_A_RANDOM_BOT, REGISTER, artifacts, catalog, exists, open_lobby,
    world,
};
use serde_json::{Value, json};

/// A 2-seat game that plays quickly against a bot.
const DUEL: &str = "pyramids";

async fn ply(s: &crate::browser::webdriver::Session) -> i64 {
    s.js(
        "const r = document.querySelector('[data-testid=replay]');
         return r ? Number(r.dataset.ply) : -1;",
        json!([]),
    )
    .await
    .as_i64()
    .unwrap_or(-1)
}

async fn wait_ply(s: &crate::browser::webdriver::Session, want: i64) {
    s.wait_until(
        &format!("the replay at move {want}"),
        "const r = document.querySelector('[data-testid=replay]');
         return r && Number(r.dataset.ply) === arguments[0]
           && !!document.querySelector('[data-testid=replay-board] > *');",
        json!([want]),
        15,
    )
    .await;
    // The game's own table drew the position (a drawing error shows a message instead).
    assert!(
        !exists(s, "[data-testid=render-error]").await,
        "the replay could not draw move {want}"
    );
}

/// Keys as WebDriver names them.
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_in_the_history_replays_by_keyboard_and_rates_the_profile() {
    let w = world("after-game").await;
    let base = &w.server.base;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let dir = artifacts();
    open_lobby(&s, base).await;
    assert_eq!(s.js(REGISTER, json!(["replayer"])).await, 200);
    open_lobby(&s, base).await;
    assert_eq!(s.text("[data-testid=me]").await, "replayer");
    let played = s
        .js(
            PLAY_AGAINST_A_RANDOM_BOT,
            json!([DUEL, {"rated": true, "clock": "day"}]),
        )
        .await;
    let id = played[0].as_str().unwrap_or_default().to_string();
    assert_eq!(id.len(), 16, "the game was played to the end: {played}");
    let outcome: Value = played[1].clone();

    // "My games" lists it, finished, rated, with my result; it links to the replay.
    s.goto(&format!("{base}/#/history")).await;
    let item = format!("[data-testid=history-{id}]");
    s.wait_for(&item, 15).await;
    let text = s.text(&item).await;
    let score = outcome["scores"][0].to_string();
    assert!(text.contains(&score), "my score {score} in: {text}");
    assert!(text.contains("Rated"), "{text}");
    s.wait_for("[data-testid=history-rating]", 5).await;
    s.screenshot(&dir, "after-game-history-1280").await;
    s.click(&format!("{item} a.history-game")).await;

    // The replay opens at the start; End goes to the end, Home to the first position, Right
    // one move on, Left back, End to the end again: all from the keyboard.
    s.wait_for("[data-testid=replay]", 15).await;
    wait_ply(&s, 0).await;
    let plies = s
        .js(
            "return Number(document.querySelector('[data-testid=replay-slider]').max);",
            json!([]),
        )
        .await
        .as_i64()
        .unwrap();
    assert!(plies > 10, "a whole game: {plies} moves");
    s.js(
        "document.activeElement && document.activeElement.blur();",
        json!([]),
    )
    .await;
    s.press(END).await;
    wait_ply(&s, plies).await;
    s.screenshot(&dir, "after-game-replay-end-1280").await;
    s.js(
        "document.activeElement && document.activeElement.blur();",
        json!([]),
    )
    .await;
    s.press(HOME).await;
    wait_ply(&s, 0).await;
    assert!(
        s.text("[data-testid=replay-ply]")
            .await
            .contains(&format!("0 of {plies}")),
        "{}",
        s.text("[data-testid=replay-ply]").await
    );
    s.screenshot(&dir, "after-game-replay-start-1280").await;
    s.press(RIGHT).await;
    wait_ply(&s, 1).await;
    s.press(RIGHT).await;
    wait_ply(&s, 2).await;
    s.press(LEFT).await;
    wait_ply(&s, 1).await;
    s.press(END).await;
    wait_ply(&s, plies).await;
    assert_eq!(ply(&s).await, plies);
    // The same with the buttons, and on a phone.
    s.click("[data-testid=replay-first]").await;
    wait_ply(&s, 0).await;
    s.click("[data-testid=replay-next]").await;
    wait_ply(&s, 1).await;
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&dir, "after-game-replay-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;
    // "Analyse" queues the analysis; the page updates by itself with each move's points lost.
    s.click("[data-testid=analyse]").await;
    s.wait_for("[data-testid=analysis-done]", 120).await;
    let lost = s.find_all("[data-testid=points-lost]").await;
    assert!(!lost.is_empty(), "points lost beside the moves");
    let all = s.text("[data-testid=replay-moves]").await;
    assert!(all.contains("pts") || all.contains("best move"), "{all}");
    s.screenshot(&dir, "after-game-replay-analysed-1280").await;
    // Above the board, each seat's points lost round by round (Pyramids' parts) and over the
    // game: the server's analysis, drawn as it is.
    s.wait_for("[data-testid=analysis-summary]", 5).await;
    let analysis = s
        .js(
            &format!("return fetch('/api/games/{id}/analysis').then((r) => r.json());"),
            json!([]),
        )
        .await;
    let seats = analysis["analysis"]["seats"].as_array().unwrap();
    assert_eq!(
        s.find_all("[data-testid=analysis-seat]").await.len(),
        seats.len()
    );
    let shown = s
        .js(
            "return [...document.querySelectorAll('[data-testid=analysis-seat-lost]')].map((e) => e.textContent);",
            json!([]),
        )
        .await;
    for (seat, shown) in seats.iter().zip(shown.as_array().unwrap()) {
        let want = match seat["decisions"].as_u64().unwrap() {
            0 => "–".to_string(),
            // JavaScript's toFixed rounds a tie (41.25: points are means over sampled
            // futures, so ties happen) up, where Rust's formatting rounds it to even.
            _ => format!(
                "{:.1}",
                (seat["lost"].as_f64().unwrap() * 10.0).round() / 10.0
            ),
        };
        assert_eq!(shown, &json!(want), "{seat}");
    }
    let summary = s.text("[data-testid=analysis-summary]").await;
    assert!(
        summary.contains("Round 1") && summary.contains("Round 10"),
        "{summary}"
    );
    // A round's heading goes to the position before its first analysed decision.
    let first_of_round_2 = analysis["analysis"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["stage"] == 2)
        .map(|d| d["ply"].as_i64().unwrap())
        .expect("a decision in round 2");
    s.click("[data-testid=analysis-stage-2]").await;
    wait_ply(&s, first_of_round_2).await;
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&dir, "after-game-replay-analysed-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;

    // The profile shows the rating the game gave, as the API does.
    let me = s
        .js(
            "return fetch('/api/users/replayer').then((r) => r.json());",
            json!([]),
        )
        .await;
    let rating = me["ratings"][0]["rating"].as_f64().unwrap();
    assert_eq!(me["ratings"][0]["game"], DUEL);
    // A tie (both ranked first) is a draw: the rating may stay where it was.
    let won = outcome["ranks"][0] == 0 && outcome["ranks"][1] != 0;
    let lost = outcome["ranks"][0] == 1;
    assert!(
        (won && rating > 1500.0) || (lost && rating < 1500.0) || (!won && !lost),
        "{outcome} gave {rating}"
    );
    s.goto(&format!("{base}/#/player/replayer")).await;
    let row = format!("[data-testid=rating-{DUEL}]");
    s.wait_for(&row, 15).await;
    let shown = s.text(&row).await;
    assert!(shown.contains(&format!("{rating}")), "{rating} in {shown}");
    s.screenshot(&dir, "after-game-profile-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&dir, "after-game-profile-375").await;

    // After one rated game both ratings (the player's and the bot level's) are provisional:
    // the game's leaderboard lists neither, and says why.
    s.resize(DESKTOP.0, DESKTOP.1).await;
    s.goto(&format!("{base}/#/leaderboard/{DUEL}")).await;
    s.wait_for("[data-testid=leaderboard]", 15).await;
    assert_eq!(s.find_all("[data-testid=leaderboard-row]").await.len(), 0);
    let board = s.text("[data-testid=leaderboard]").await;
    let provisional = catalog("en")["leaderboard.provisional"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(board.contains(&provisional), "{board}");
    s.screenshot(&dir, "after-game-leaderboard-1280").await;

    // The finished game's page offers a rematch: same seats (the bot kept), a new game.
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_for("[data-testid=end-bar]", 15).await;
    s.screenshot(&dir, "after-game-end-bar-1280").await;
    s.click("[data-testid=rematch]").await;
    let rematch = s
        .wait_until(
            "the rematch's game page",
            "const m = location.hash.match(/^#\\/game\\/(\\w+)$/);
             return m && m[1] !== arguments[0] ? m[1] : null;",
            json!([id]),
            15,
        )
        .await;
    let table = s
        .js(
            "return fetch('/api/tables/' + arguments[0]).then((r) => r.json());",
            json!([rematch]),
        )
        .await;
    assert_eq!(table["status"], "live", "{table}");
    assert_eq!(table["rated"], true, "{table}");
    assert_eq!(table["seats"][1]["level"], "random", "{table}");

    // The lobby offers today's daily challenges to the account.
    open_lobby(&s, base).await;
    s.wait_for("[data-testid=daily] button", 15).await;
    s.screenshot(&dir, "after-game-lobby-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=daily]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "after-game-lobby-375").await;

    // In French, the replay speaks French (phone layout).
    s.js(
        "const l = document.getElementById('lang'); l.value = 'fr';
         l.dispatchEvent(new Event('change'));",
        json!([]),
    )
    .await;
    s.goto(&format!("{base}/#/replay/{id}")).await;
    let fr = catalog("fr");
    let template = fr["replay.position"].as_str().unwrap();
    // It opens at the start.
    let want = template
        .replace("{ply}", "0")
        .replace("{plies}", &plies.to_string());
    s.wait_until(
        "the French replay",
        "const e = document.querySelector('[data-testid=replay-ply]');
         return e && e.textContent === arguments[0];",
        json!([want]),
        15,
    )
    .await;
    s.screenshot(&dir, "after-game-replay-fr-375").await;
    s.quit().await;
}
