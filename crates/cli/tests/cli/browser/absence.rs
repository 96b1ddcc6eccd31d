//! Absences at the table (issue 46): a player who walks away from a real-time game can be
//! claimed against at once, from the top of the table (in view on a phone, above the board),
//! after a question; the game then ends with the absent player ranked last, on both pages.
use crate::browser::pyramids::py_step;
use crate::browser::support::{DESKTOP, PHONE, artifacts, call, catalog, open_lobby, world_with};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// A real-time profile long enough for a player to click a turn through, short enough for
/// the test: the one who walks away runs out after 25 s. Bots unpaced.
const FLAGS: [&str; 4] = ["--clocks", "quick=25+0", "--bot-pace-ms", "0"];

/// Whose turn the page says it is: `yes`, `no`, or null while it has no prompt.
async fn my_turn(s: &Session) -> Value {
    s.wait_until(
        "someone's turn",
        "const p = document.querySelector('[data-testid=prompt]');
         if (!p || document.getElementById('app').classList.contains('pending')) return null;
         return p.classList.contains('yours') ? 'yes' : 'no';",
        json!([]),
        20,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_walks_away_is_claimed_against_from_the_top_of_the_table_and_ranks_last() {
    let w = world_with("absence-claim", "127.0.0.1:0", &FLAGS).await;
    let base = w.server.base.clone();
    let fr = catalog("fr");
    // The one who stays plays on a phone, in French; the one who walks away on a desktop.
    let stay = w.driver.session_with_notifications(PHONE.0, PHONE.1).await;
    let away = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&stay, &base).await;
    open_lobby(&away, &base).await;
    stay.click("[data-testid=language] option[value=fr]").await;
    assert_eq!(
        stay.js("return window.innerWidth;", json!([])).await,
        json!(PHONE.0),
        "a phone's width"
    );
    let table = call(
        &stay,
        "POST",
        "/api/tables",
        json!({"game": "pyramids", "options": {"players": 2}, "clock": "quick",
               "seats": [{"type": "me"}, {"type": "open"}]}),
    )
    .await;
    let id = table["id"].as_str().expect("a table").to_string();
    let joined = call(&away, "POST", &format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined["status"], "live", "{joined}");
    for s in [&stay, &away] {
        s.goto(&format!("{base}/#/game/{id}")).await;
        s.wait_for("[data-testid=py-table]", 20).await;
    }
    assert!(
        stay.find_all("[data-testid=absence-alert]")
            .await
            .is_empty(),
        "nobody is away yet"
    );

    // The one who stays plays a turn when it is theirs; the other never moves again.
    let mut shots = [false, false];
    if my_turn(&stay).await == json!("yes") {
        let mut step = 0;
        assert!(py_step(&stay, step, &mut shots).await, "the game goes on");
        while my_turn(&stay).await == json!("yes") {
            step += 1;
            assert!(py_step(&stay, step, &mut shots).await, "the game goes on");
        }
    }

    // Once the other's time has run out, the claim is offered at the top of the table.
    stay.wait_for("[data-testid=absence-alert] [data-testid=claim]", 60)
        .await;
    let place = stay
        .js(
            "const a = document.querySelector('[data-testid=absence-alert]').getBoundingClientRect();
             const b = document.querySelector('[data-testid=py-table]').getBoundingClientRect();
             return [a.top + window.scrollY, b.top + window.scrollY, a.bottom <= window.innerHeight];",
            json!([]),
        )
        .await;
    assert!(
        place[0].as_f64() < place[1].as_f64() && place[2] == json!(true),
        "the claim is above the board and in view: {place}"
    );
    let alert = stay.text("[data-testid=absence-alert]").await;
    assert!(
        alert.contains(fr["play.claim"].as_str().unwrap()),
        "{alert}"
    );
    stay.screenshot(&artifacts(), "absence-claim-375-fr").await;

    // A claim ends the game: it asks first.
    stay.click("[data-testid=claim]").await;
    stay.wait_for("[data-testid=confirm-claim]", 5).await;
    let asked = stay.text("[data-testid=absence-alert]").await;
    assert!(
        asked.contains(fr["play.claim_confirm"].as_str().unwrap()),
        "{asked}"
    );
    stay.screenshot(&artifacts(), "absence-claim-confirm-375-fr")
        .await;
    stay.click("[data-testid=confirm-claim]").await;

    // Both pages end with the one who stayed first and the absent one last.
    stay.wait_for("[data-testid=end-bar] [data-testid=ending]", 20)
        .await;
    away.wait_for("[data-testid=end-bar] [data-testid=ending]", 20)
        .await;
    let ranking = stay
        .js(
            "return [...document.querySelectorAll('[data-testid=ending] li')].map((l) => l.textContent);",
            json!([]),
        )
        .await;
    let you = fr["seat.you"].as_str().unwrap();
    assert_eq!(ranking.as_array().map(Vec::len), Some(2), "{ranking}");
    assert!(
        ranking[0].as_str().unwrap().starts_with("1.")
            && ranking[0].as_str().unwrap().contains(you),
        "the one who stayed is first: {ranking}"
    );
    assert!(
        stay.find_all("[data-testid=absence-alert]")
            .await
            .is_empty(),
        "nothing to claim once it is over"
    );
    stay.screenshot(&artifacts(), "absence-claimed-375-fr")
        .await;
    away.screenshot(&artifacts(), "absence-claimed-1280").await;
    // The one claimed against reads it in the second person ("you were away").
    let en = catalog("en");
    let told = away.text("[data-testid=ending] p").await;
    assert_eq!(told, en["ending.claimed_you"].as_str().unwrap());
    let game = call(&away, "GET", &format!("/api/tables/{id}"), Value::Null).await;
    assert_eq!(game["status"], "finished", "{game}");
}
