//! Playing with people in the browser (issue 27), two real Chromium profiles: the chat shows a
//! player's markup as plain text and a muted player's messages go away; a player who resigns a
//! three-player game sees a bot take the seat while the others play on; quick pairing seats two
//! strangers at a rated table, where a resignation moves both ratings; the Watch page opens a live game as a spectator; a rematch offer reaches the
//! other player's end screen; quick pairing never seats a rated ask at a casual table, and
//! asks the casual player before they play rated.
use crate::browser::support::{DESKTOP, PHONE, artifacts, call, catalog, fill, open_lobby, world};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// Waits until the page shows a game; its hash.
async fn at_game(s: &Session) -> Value {
    s.wait_until(
        "a game page",
        "return location.hash.startsWith('#/game/') && location.hash;",
        json!([]),
        20,
    )
    .await
}

async fn goto_game(s: &Session, base: &str, id: &str) {
    s.goto(&format!("{base}/#/game/{id}")).await;
    s.wait_for("[data-testid=chat]", 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_plain_text_and_mutable_and_a_resigned_seat_is_played_on_by_a_bot() {
    let w = world("people-chat").await;
    let base = w.server.base.clone();
    let en = catalog("en");
    let a = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let b = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&a, &base).await;
    open_lobby(&b, &base).await;
    let table = call(
        &a,
        "POST",
        "/api/tables",
        json!({"game": "pyramids", "options": {"players": 3},
               "seats": [{"type": "me"}, {"type": "open"}, {"type": "bot", "level": "greedy"}]}),
    )
    .await;
    let id = table["id"].as_str().expect("a table").to_string();
    let joined = call(&b, "POST", &format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined["status"], "live", "{joined}");
    goto_game(&a, &base, &id).await;
    goto_game(&b, &base, &id).await;

    // Markup typed in the chat is shown as the text it is, never as elements.
    let typed = "<img src=x onerror=\"document.body.dataset.pwned=1\"><b>bold</b>";
    a.js(
        "document.querySelector('[data-testid=chat-input]').value = arguments[0];",
        json!([typed]),
    )
    .await;
    a.click("[data-testid=chat-send]").await;
    b.wait_until(
        "the message as text",
        "const t = document.querySelector('[data-testid=chat-text]'); return t && t.textContent === arguments[0];",
        json!([typed]),
        15,
    )
    .await;
    let markup = b
        .js(
            "return [document.querySelectorAll('.chat-log img, .chat-log b').length, document.body.dataset.pwned || null];",
            json!([]),
        )
        .await;
    assert_eq!(markup, json!([0, null]));
    // A quick phrase is said in the reader's language.
    b.click("[data-testid=chat-phrase][data-phrase=good_game]")
        .await;
    a.wait_until(
        "the phrase",
        "return [...document.querySelectorAll('[data-testid=chat-text]')].some((t) => t.textContent === arguments[0]);",
        json!([en["chat.phrase.good_game"]]),
        15,
    )
    .await;
    // b mutes a: a's message is hidden on b's page only.
    b.click("[data-testid=chat-mute]").await;
    b.wait_for("[data-testid=chat-muted]", 5).await;
    let left = b
        .js(
            "return [...document.querySelectorAll('[data-testid=chat-text]')].map((t) => t.textContent);",
            json!([]),
        )
        .await;
    assert_eq!(left, json!([en["chat.phrase.good_game"]]));
    b.screenshot(&artifacts(), "people-chat-muted-1280").await;
    // Players are not told the spectators' note; another person sits here: phrases offered.
    let seen = a
        .js(
            "return [document.querySelector('[data-testid=chat-spectator-note]').hidden, document.querySelector('.chat-phrases').hidden];",
            json!([]),
        )
        .await;
    assert_eq!(seen, json!([true, false]));

    // Issue 46: a long text is not cut without a word: the count shows, the message is
    // refused whole and stays in the input to be shortened.
    let long = "x".repeat(320);
    a.js(
        "const i = document.querySelector('[data-testid=chat-input]'); i.value = arguments[0]; i.dispatchEvent(new Event('input'));",
        json!([long]),
    )
    .await;
    assert_eq!(a.text("[data-testid=chat-count]").await, "320 / 300");
    a.click("[data-testid=chat-send]").await;
    let kept = a
        .js(
            "return document.querySelector('[data-testid=chat-input]').value.length;",
            json!([]),
        )
        .await;
    assert_eq!(kept, json!(320));
    // Refused for going too fast (5 at once per player and game): the text comes back into
    // the input instead of vanishing.
    for i in 0..6 {
        a.js(
            "document.querySelector('[data-testid=chat-input]').value = arguments[0]; document.querySelector('[data-testid=chat-send]').click();",
            json!([format!("quick {i}")]),
        )
        .await;
    }
    a.wait_until(
        "the refused message back in the input",
        "return document.querySelector('[data-testid=chat-input]').value.startsWith('quick ');",
        json!([]),
        15,
    )
    .await;
    a.screenshot(&artifacts(), "people-chat-refused-1280").await;

    // Private notes (issue 46 item 10): a's note is saved as typed, is there again after a
    // reload, and b's box stays empty.
    a.click("[data-testid=notes] summary").await;
    a.click("[data-testid=notes-text]").await;
    for key in "watch b's tomb".chars() {
        a.press(&key.to_string()).await;
    }
    a.wait_until(
        "the note saved",
        "return document.querySelector('[data-testid=notes-status]').textContent === arguments[0];",
        json!([en["notes.saved"]]),
        10,
    )
    .await;
    a.refresh().await;
    a.wait_for("[data-testid=chat]", 20).await;
    a.wait_until(
        "the note read back",
        "const t = document.querySelector('[data-testid=notes-text]'); return t && t.value === arguments[0];",
        json!(["watch b's tomb"]),
        10,
    )
    .await;
    a.js(
        "document.querySelector('[data-testid=notes]').scrollIntoView({ block: 'center' });",
        json!([]),
    )
    .await;
    a.screenshot(&artifacts(), "people-notes-1280").await;
    let theirs = b
        .js(
            "return document.querySelector('[data-testid=notes-text]').value;",
            json!([]),
        )
        .await;
    assert_eq!(theirs, json!(""));

    // a resigns: a bot takes the seat, the game goes on for b.
    a.click("[data-testid=resign]").await;
    a.click("[data-testid=confirm-resign]").await;
    a.wait_for("[data-testid=you-resigned]", 15).await;
    a.screenshot(&artifacts(), "people-resigned-1280").await;
    let game = call(&b, "GET", &format!("/api/tables/{id}"), Value::Null).await;
    assert_eq!(game["status"], "live", "the others play on: {game}");
    assert!(b.find_all("[data-testid=end-bar]").await.is_empty());
    assert!(!b.find_all("[data-testid=resign]").await.is_empty());
    // b resigns too: only the bot is left, the game ends, ranked by the server.
    b.click("[data-testid=resign]").await;
    b.click("[data-testid=confirm-resign]").await;
    b.wait_for("[data-testid=end-bar] [data-testid=ending]", 15)
        .await;
    let ending = b.text("[data-testid=ending]").await;
    let you = en["seat.you"].as_str().unwrap();
    assert!(ending.contains(you), "{ending}");
    b.screenshot(&artifacts(), "people-ending-1280").await;
    a.quit().await;
    b.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_seats_two_strangers_and_the_watch_page_opens_a_spectator_and_a_rematch_offer_arrives()
 {
    let w = world("people-meet").await;
    let base = w.server.base.clone();
    let en = catalog("en");
    let a = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let b = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let c = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    for s in [&a, &b, &c] {
        open_lobby(s, &base).await;
    }
    // a waits for a person, and is told how many wait.
    a.click("[data-testid=play-now-link]").await;
    a.wait_for("[data-testid=pairing-go]", 15).await;
    a.click("[data-testid=pairing-game] option[value=pyramids]")
        .await;
    // A rated pairing needs a clock, as a rated table does.
    a.click("[data-testid=pairing-clock] option[value=slow]")
        .await;
    a.click("[data-testid=pairing-rated]").await;
    a.click("[data-testid=pairing-go]").await;
    let waiting = fill(&en["pairing.waiting"], "count", "1");
    a.wait_until(
        "the wait",
        "return document.querySelector('[data-testid=pairing-status]').textContent === arguments[0];",
        json!([waiting]),
        15,
    )
    .await;
    a.screenshot(&artifacts(), "people-pairing-wait-1280").await;
    // b asks for the same: both land on the same new game.
    b.click("[data-testid=play-now-link]").await;
    b.wait_for("[data-testid=pairing-go]", 15).await;
    b.click("[data-testid=pairing-game] option[value=pyramids]")
        .await;
    b.click("[data-testid=pairing-clock] option[value=slow]")
        .await;
    b.click("[data-testid=pairing-rated]").await;
    b.click("[data-testid=pairing-go]").await;
    let (ha, hb) = (at_game(&a).await, at_game(&b).await);
    assert_eq!(ha, hb);
    let id = ha
        .as_str()
        .unwrap()
        .trim_start_matches("#/game/")
        .to_string();

    // c finds it on the Watch page and follows it as a spectator.
    c.click("[data-testid=watch-link]").await;
    c.wait_for(&format!("[data-testid=watch-game][data-game='{id}']"), 20)
        .await;
    c.screenshot(&artifacts(), "people-watch-1280").await;
    c.click(&format!(
        "[data-testid=watch-game][data-game='{id}'] [data-testid=watch-open]"
    ))
    .await;
    c.wait_for("[data-testid=py-table]", 20).await;
    assert!(
        c.find_all("[data-testid=play-actions]").await.is_empty(),
        "a spectator has no seat"
    );

    // a resigns; b's end screen shows a's rematch offer as soon as a asks.
    a.wait_for("[data-testid=resign]", 15).await;
    a.click("[data-testid=resign]").await;
    a.click("[data-testid=confirm-resign]").await;
    b.wait_for("[data-testid=end-bar]", 20).await;
    // Both asked for rated: the resignation moved the ratings, as a loss and a win.
    let script =
        "return fetch('/api/me/games').then((r) => r.json()).then((h) => h.games[0].mine.rating);";
    let (ra, rb) = (a.js(script, json!([])).await, b.js(script, json!([])).await);
    assert!(ra["after"].as_f64().unwrap() < 1500.0, "{ra}");
    assert!(rb["after"].as_f64().unwrap() > 1500.0, "{rb}");
    a.wait_for("[data-testid=rematch]", 20).await;
    a.click("[data-testid=rematch]").await;
    b.wait_for("[data-testid=rematch-offer]", 20).await;
    b.screenshot(&artifacts(), "people-rematch-offer-1280")
        .await;
    b.click("[data-testid=accept-rematch]").await;
    b.wait_until(
        "the rematch",
        "return location.hash.startsWith('#/game/') && !location.hash.endsWith(arguments[0]);",
        json!([id]),
        20,
    )
    .await;
    for s in [a, b, c] {
        s.quit().await;
    }
}

/// Issue 46, item 5: quick pairing keeps "Rated". A rated ask (English, 1280 px) and a casual
/// one for the same setting (French, 375 px) are not seated together: each is told, in their
/// language, that one player waits for the other kind of game, and the casual player is
/// offered to play rated instead. Only when they accept are both seated, at a table whose
/// page says it is rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_keeps_rated_and_asks_before_any_change() {
    let w = world("people-pairing-rated").await;
    let base = w.server.base.clone();
    let (en, fr) = (catalog("en"), catalog("fr"));
    let a = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let b = w.driver.session(PHONE.0, PHONE.1).await;
    open_lobby(&a, &base).await;
    open_lobby(&b, &base).await;
    b.click("[data-testid=language] option[value=fr]").await;
    b.wait_until(
        "the lobby in French",
        "return document.documentElement.lang === 'fr';",
        json!([]),
        15,
    )
    .await;
    let text_is = "const e = document.querySelector(arguments[0]);
        return !!e && e.textContent.includes(arguments[1]);";
    for s in [&a, &b] {
        s.click("[data-testid=play-now-link]").await;
        s.wait_for("[data-testid=pairing-go]", 15).await;
        s.click("[data-testid=pairing-game] option[value=pyramids]")
            .await;
        // The same setting for both; a rated game needs a clock.
        s.click("[data-testid=pairing-clock] option[value=slow]")
            .await;
    }
    // a asks for a rated game and waits alone.
    a.click("[data-testid=pairing-rated]").await;
    a.click("[data-testid=pairing-go]").await;
    a.wait_until(
        "a's wait",
        text_is,
        json!([
            "[data-testid=pairing-status]",
            fill(&en["pairing.waiting"], "count", "1")
        ]),
        15,
    )
    .await;
    // b asks for a casual one: b is not seated at a casual table with a; b is told that one
    // player waits for a rated game, and a that one waits for a casual game (a's stays rated).
    b.click("[data-testid=pairing-go]").await;
    b.wait_until(
        "b told of the rated player",
        text_is,
        json!([
            "[data-testid=pairing-other-kind]",
            fill(&fr["pairing.other_kind_rated.one"], "count", "1")
        ]),
        15,
    )
    .await;
    a.wait_until(
        "a told of the casual player",
        text_is,
        json!([
            "[data-testid=pairing-other-kind]",
            fill(&en["pairing.other_kind_casual.one"], "count", "1")
        ]),
        15,
    )
    .await;
    for s in [&a, &b] {
        let hash = s.js("return location.hash;", json!([])).await;
        assert_eq!(hash, "#/play-now", "nobody is seated without asking");
    }
    a.screenshot(&artifacts(), "pairing-other-kind-en-1280")
        .await;
    b.screenshot(&artifacts(), "pairing-other-kind-fr-375")
        .await;
    assert_eq!(
        b.text("[data-testid=pairing-switch-kind]").await,
        fr["pairing.play_rated"].as_str().unwrap()
    );

    // b accepts to play rated: both are seated at one table, which says it is rated.
    b.click("[data-testid=pairing-switch-kind]").await;
    let (ha, hb) = (at_game(&a).await, at_game(&b).await);
    assert_eq!(ha, hb);
    for (s, cat) in [(&a, &en), (&b, &fr)] {
        s.wait_until(
            "the table says rated",
            "const e = document.querySelector('[data-testid=table-kind]');
             return !!e && e.dataset.rated === 'true' && e.textContent === arguments[0];",
            json!([cat["table.kind_rated"]]),
            20,
        )
        .await;
    }
    b.screenshot(&artifacts(), "pairing-rated-table-fr-375")
        .await;
    a.screenshot(&artifacts(), "pairing-rated-table-en-1280")
        .await;
    a.quit().await;
    b.quit().await;
}
