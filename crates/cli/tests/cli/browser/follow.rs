//! Following the game (issue #18): any opponent's pyramid (Forgotten Treasures, Pyramido) or
//! necropolis (Pyramids) opens enlarged in a dialog by mouse, keyboard and touch, at 1280×800
//! and 375×812: readable (its pieces at least twice the card's size), naming its player, still
//! open when a move arrives, and closed by Escape, its button or a tap with the focus back on
//! the card's button. And the daily challenge pages (#17): a fresh account starts one from the
//! lobby, moves, reads the leaderboard, and a second start is refused in words; a finished
//! attempt shows its result at once, with when the day's ranking opens, and the leaderboard
//! counts who finished (issue 46, item 3).
use crate::browser::forgotten_treasures::play_step;
use crate::browser::pyramids::py_step;
use crate::browser::support::{
    DESKTOP, DESKTOP_800, PHONE, REGISTER, artifacts, catalog, exists, fill,
    new_table_against_greedy, open_lobby, pyo_state, pyo_wait_past, table_state, viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// The name the page gives the greedy bot in seat 2, in English.
fn greedy_bot_name() -> String {
    let en = catalog("en");
    fill(
        &Value::String(fill(
            &en["seat.bot_named"],
            "level",
            en["bot.greedy"].as_str().unwrap(),
        )),
        "n",
        "2",
    )
}

/// Creates a 2-player table of `game` against a greedy bot from the lobby's builder.
async fn create_against_bot(s: &Session, base: &str, game: &str, table: &str) {
    open_lobby(s, base).await;
    new_table_against_greedy(s, game, table).await;
}

/// Waits until this page may move (or the game is over); true when it may move.
async fn wait_my_turn(s: &Session, table: &str) -> bool {
    let v = s
        .wait_until(
            "this page's turn or the end",
            "const t = document.querySelector(`[data-testid=${arguments[0]}]`);
             if (!t || document.getElementById('app').classList.contains('pending')) return false;
             if (t.dataset.phase === 'over') return 'over';
             return !!document.querySelector('[data-testid=prompt].yours') && 'mine';",
            json!([table]),
            90,
        )
        .await;
    v == json!("mine")
}

/// The size of the first element matching `css`: [width, height] in CSS pixels.
async fn size(s: &Session, css: &str) -> (f64, f64) {
    let v = s
        .js(
            "const e = document.querySelector(arguments[0]);
             if (!e) return null;
             const r = e.getBoundingClientRect();
             return [r.width, r.height];",
            json!([css]),
        )
        .await;
    assert!(!v.is_null(), "no '{css}' on the page");
    (v[0].as_f64().unwrap_or(0.0), v[1].as_f64().unwrap_or(0.0))
}

/// The opponent is seat 2 (index 1) in these 2-player tables: the person sits first.
const ENLARGE: &str = "[data-testid=enlarge][data-key='1']";
const OPEN_DIALOG: &str = "dialog[data-testid=enlarged][open]";
/// The opponent's drawing on its card (not in the dialog), and one piece of it (a block, a
/// card), whose size says how readable the drawing is.
const SMALL: &str = "section[data-seat='1'] :is(svg.pyramid, svg.py-pyramid)";
const SMALL_PIECE: &str =
    "section[data-seat='1'] :is(svg.pyramid g.block, svg.py-pyramid g[data-card])";
const BIG: &str = "dialog[data-testid=enlarged] [data-testid=enlarged-pyramid]";
const BIG_PIECE: &str =
    "dialog[data-testid=enlarged] [data-testid=enlarged-pyramid] :is(g.block, g[data-card])";

/// The toggle's pressed state, and whether it has the keyboard focus.
async fn toggle(s: &Session) -> (String, bool) {
    let v = s
        .js(
            "const b = document.querySelector(arguments[0]);
             return [b ? b.getAttribute('aria-pressed') : null, !!b && document.activeElement === b];",
            json!([ENLARGE]),
        )
        .await;
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_bool().unwrap_or(false),
    )
}

async fn wait_open(s: &Session) {
    s.wait_for(OPEN_DIALOG, 10).await;
    s.wait_until(
        "the enlarged drawing laid out",
        "const e = document.querySelector(arguments[0]);
         return !!e && e.getBoundingClientRect().width > 0;",
        json!([BIG]),
        5,
    )
    .await;
}

/// Waits for the dialog to be gone and the focus back on the card's button, not pressed.
async fn wait_closed(s: &Session, how: &str) {
    s.wait_until(
        &format!("the dialog closed by {how} and the focus back on Enlarge"),
        "const b = document.querySelector(arguments[0]);
         return !document.querySelector('dialog[data-testid=enlarged]') && !!b
           && document.activeElement === b && b.getAttribute('aria-pressed') === 'false';",
        json!([ENLARGE]),
        10,
    )
    .await;
}

/// Plays the page's first offered move over its own socket (the dialog keeps the table
/// behind it inert, as a person reading it would leave it) and returns the state it was
/// played in.
async fn move_behind_the_dialog(s: &Session, table: &str) -> i64 {
    let v = s
        .js(
            "const t = document.querySelector(`[data-testid=${arguments[0]}]`);
             const el = [...t.querySelectorAll('[data-move]')].find((e) => !e.closest('dialog'));
             if (!el) return null;
             const state = Number(t.dataset.stateId);
             const game = location.hash.split('/')[2];
             return import('/js/shell.js').then((m) => {
               m.app.socket.send({ type: 'move', game, state_id: state, move: el.dataset.move });
               return state;
             });",
            json!([table]),
        )
        .await;
    v.as_i64().expect("a move offered on this page's turn")
}

/// Scrolls the open dialog down and pans its wide parts sideways as far as they go, redraws
/// the page (as a move or a change of language does) and checks the dialog is open again
/// at the same place.
async fn keeps_the_place_on_redraw(s: &Session, prefix: &str) {
    let place = "const d = document.querySelector('dialog[data-testid=enlarged]');
        if (!d || !d.open) return null;
        return [d, ...d.querySelectorAll('[data-scroll-key]')].map((e) => [Math.round(e.scrollLeft), Math.round(e.scrollTop)]);";
    let moved = s
        .js(
            "const d = document.querySelector('dialog[data-testid=enlarged]');
             d.scrollTop = d.scrollHeight;
             for (const e of d.querySelectorAll('[data-scroll-key]')) e.scrollLeft = e.scrollWidth;
             return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));",
            json!([]),
        )
        .await;
    assert_eq!(moved, json!(true));
    let before = s.js(place, json!([])).await;
    s.js(
        "return import('/js/shell.js').then((m) => { m.app.rerender(); return true; });",
        json!([]),
    )
    .await;
    let after = s
        .wait_until(
            "the dialog open again after the redraw",
            place,
            json!([]),
            5,
        )
        .await;
    assert_eq!(before, after, "{prefix}: the reader's place in the dialog");
    eprintln!("{prefix}: the dialog kept its place {after} across a redraw");
}

/// The whole follow check on a table where it is this page's turn and the opponent (seat 2,
/// the greedy bot) has something built.
async fn check_follow(s: &Session, table: &str, prefix: &str) {
    let name = greedy_bot_name();
    let dir = artifacts();
    viewport(s, DESKTOP_800.0, DESKTOP_800.1).await;
    s.js(
        "document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });",
        json!([ENLARGE]),
    )
    .await;
    s.screenshot(&dir, &format!("{prefix}-small-1280")).await;
    let (small_w, _) = size(s, SMALL).await;
    let (small_piece, _) = size(s, SMALL_PIECE).await;
    assert_eq!(toggle(s).await.0, "false");

    // Mouse: the dialog opens, names the player, and the drawing and its pieces are at least
    // twice as wide as on the card.
    s.click(ENLARGE).await;
    wait_open(s).await;
    assert_eq!(toggle(s).await.0, "true", "Enlarge is pressed while open");
    let (big_w, big_h) = size(s, BIG).await;
    let (big_piece, _) = size(s, BIG_PIECE).await;
    assert!(
        big_w >= 2.0 * small_w && big_piece >= 2.0 * small_piece,
        "{prefix}: enlarged {big_w} px wide (a piece {big_piece} px), the card's {small_w} px \
         (a piece {small_piece} px)"
    );
    assert!(big_h > 0.0);
    let title = s.text("[data-testid=enlarged-title]").await;
    assert!(title.contains(&name), "{prefix}: '{title}' names '{name}'");
    s.screenshot(&dir, &format!("{prefix}-enlarged-1280")).await;

    // A move arrives: the dialog is drawn again, still open on the same player, the focus in it.
    let state = move_behind_the_dialog(s, table).await;
    s.wait_until(
        "the next state drawn behind the open dialog",
        "const t = document.querySelector(`[data-testid=${arguments[0]}]`);
         return !!t && Number(t.dataset.stateId) > arguments[1];",
        json!([table, state]),
        20,
    )
    .await;
    s.wait_until(
        "the dialog still open, on the same player, with the focus inside",
        "const d = document.querySelector(arguments[0]);
         return !!d && d.dataset.seat === '1' && d.contains(document.activeElement);",
        json!([OPEN_DIALOG]),
        5,
    )
    .await;
    assert!(s.text("[data-testid=enlarged-title]").await.contains(&name));

    // Escape closes it; the focus is back on the card's button.
    s.press("\u{E00C}").await;
    wait_closed(s, "Escape").await;

    // Keyboard only: Enter on Enlarge opens it with the focus on its button; Enter closes it.
    s.js(
        "document.querySelector(arguments[0]).focus();",
        json!([ENLARGE]),
    )
    .await;
    s.press("\u{E007}").await;
    wait_open(s).await;
    s.wait_until(
        "the focus on the dialog's button",
        "return document.activeElement?.dataset.testid === 'shrink';",
        json!([]),
        5,
    )
    .await;
    s.press("\u{E007}").await;
    wait_closed(s, "Enter on its button").await;

    // A phone, by touch: the dialog takes nearly the whole screen; a tap on its button closes it.
    viewport(s, PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });",
        json!([ENLARGE]),
    )
    .await;
    s.screenshot(&dir, &format!("{prefix}-small-375")).await;
    let (small_piece, _) = size(s, SMALL_PIECE).await;
    s.tap(ENLARGE).await;
    wait_open(s).await;
    let (dialog_w, dialog_h) = size(s, OPEN_DIALOG).await;
    let (big_w, _) = size(s, BIG).await;
    let (big_piece, _) = size(s, BIG_PIECE).await;
    eprintln!("{prefix} at 375 px: a piece {small_piece} px on the card, {big_piece} px enlarged");
    assert!(
        big_piece >= 1.8 * small_piece,
        "{prefix}: a piece {big_piece} px enlarged, {small_piece} px on the card (375 px)"
    );
    let phone_w = f64::from(PHONE.0);
    assert!(
        dialog_w >= 0.95 * phone_w && dialog_h >= 0.9 * f64::from(PHONE.1),
        "{prefix}: the dialog is {dialog_w}×{dialog_h} on a 375×812 phone"
    );
    assert!(
        big_w >= 0.85 * phone_w,
        "{prefix}: the enlarged drawing is {big_w} px wide on a 375 px phone"
    );
    assert!(s.text("[data-testid=enlarged-title]").await.contains(&name));
    s.screenshot(&dir, &format!("{prefix}-enlarged-375")).await;
    keeps_the_place_on_redraw(s, prefix).await;
    s.tap("[data-testid=shrink]").await;
    wait_closed(s, "a tap on its button").await;
    viewport(s, DESKTOP_800.0, DESKTOP_800.1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgotten_treasures_an_opponents_pyramid_opens_enlarged_and_closes_back_to_its_button() {
    let w = world("follow-ft").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    create_against_bot(&s, &w.server.base, "forgotten-treasures", "ft-table").await;
    // Play until the bot has a pyramid to look at and this page is to take a domino.
    let mut by_hand = false;
    for step in 0.. {
        assert!(step < 20, "the bot should have placed a domino by now");
        assert!(wait_my_turn(&s, "ft-table").await, "the game ended early");
        let built = !s.find_all(SMALL).await.is_empty();
        if built && table_state(&s).await.1 == "take" {
            break;
        }
        play_step(&s, step, &mut by_hand).await;
    }
    check_follow(&s, "ft-table", "follow-ft").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramids_an_opponents_necropolis_opens_enlarged_and_closes_back_to_its_button() {
    let w = world("follow-py").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    create_against_bot(&s, &w.server.base, "pyramids", "py-table").await;
    // Play until the bot has a card in its Pyramid and this page is to move.
    let mut no_shots = [true, true];
    for step in 0.. {
        assert!(step < 40, "the bot should have built by now");
        assert!(wait_my_turn(&s, "py-table").await, "the game ended early");
        if !s
            .find_all("section[data-seat='1'] [data-card]")
            .await
            .is_empty()
        {
            break;
        }
        py_step(&s, step, &mut no_shots).await;
    }
    check_follow(&s, "py-table", "follow-pyramids").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramido_an_opponents_pyramid_opens_enlarged_and_closes_back_to_its_button() {
    let w = world("follow-pyo").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    create_against_bot(&s, &w.server.base, "pyramido", "pyo-table").await;
    // Play until the bot has a pyramid to look at and this page is to take a domino.
    for step in 0.. {
        assert!(step < 20, "the bot should have placed a domino by now");
        assert!(wait_my_turn(&s, "pyo-table").await, "the game ended early");
        let (state, phase) = pyo_state(&s).await;
        let built = !s.find_all(SMALL).await.is_empty();
        match phase.as_str() {
            "take" if built => break,
            "take" => s.click("[data-testid=take]").await,
            "place" => {
                s.click("[data-testid=ghost]").await;
                s.click("[data-testid=confirm-place]").await;
                if exists(&s, "[data-testid=eliminate-anyway]").await {
                    s.click("[data-testid=eliminate-anyway]").await;
                }
            }
            "refill" => s.click("[data-testid=refill]").await,
            "resurface" => s.click("[data-testid=pass]").await,
            "mark" => s.click("[data-testid=mark]").await,
            other => panic!("unexpected step '{other}' at the start"),
        }
        pyo_wait_past(&s, state).await;
    }
    check_follow(&s, "pyo-table", "follow-pyramido").await;
}

/// Today's challenges as the page's account sees them: [{id, game, played}].
async fn today(s: &Session) -> Vec<Value> {
    let v = s
        .js(
            "return fetch('/api/daily', { credentials: 'same-origin' }).then((r) => r.json());",
            json!([]),
        )
        .await;
    v["challenges"].as_array().cloned().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_account_takes_a_daily_challenge_moves_reads_its_leaderboard_and_cannot_start_twice()
{
    let w = world("daily").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let base = &w.server.base;
    let en = catalog("en");
    open_lobby(&s, base).await;
    // A guest is told to sign in: the Start buttons are there but disabled.
    s.wait_for("[data-testid=daily]", 15).await;
    assert!(
        !s.find_all("[data-testid^=daily-start-]:disabled")
            .await
            .is_empty()
    );

    // Sign up from the top bar's "Sign in".
    s.click("[data-testid=sign-in]").await;
    s.wait_for("[data-testid=register-name]", 10).await;
    s.js(
        "document.querySelector('[data-testid=register-name]').value = arguments[0];
         document.querySelector('[data-testid=register-password]').value = 'correct horse battery';",
        json!(["daily_fan"]),
    )
    .await;
    s.click("[data-testid=register-submit]").await;
    s.wait_until(
        "the lobby, signed in",
        "return document.querySelector('[data-testid=me]')?.textContent === 'daily_fan'
           && !!document.querySelector('[data-testid=daily] [data-testid^=daily-start-]:not(:disabled)');",
        json!([]),
        15,
    )
    .await;
    s.screenshot(&artifacts(), "daily-lobby-1280").await;

    // Start the Pyramids challenge (2 seats, against a bot) from the lobby and make a move.
    let challenges = today(&s).await;
    let pick = |game: &str| {
        challenges
            .iter()
            .find(|c| c["game"] == game)
            .and_then(|c| c["id"].as_str())
            .unwrap_or_else(|| panic!("a {game} challenge today: {challenges:?}"))
            .to_string()
    };
    let id = pick("pyramids");
    // Start says it is the day's only attempt first; "not now" leaves it untouched.
    s.click(&format!("[data-testid=daily-start-{id}]")).await;
    let said = s.text(&format!("[data-testid=daily-confirm-{id}] p")).await;
    assert_eq!(said, en["daily.one_attempt"].as_str().unwrap());
    s.screenshot(&artifacts(), "daily-one-attempt-1280").await;
    s.click(&format!("[data-testid=daily-not-now-{id}]")).await;
    assert!(
        s.find_all(&format!("[data-testid=daily-confirm-{id}]"))
            .await
            .is_empty()
    );
    assert_eq!(s.js("return location.hash;", json!([])).await, json!("#/"));
    s.click(&format!("[data-testid=daily-start-{id}]")).await;
    s.click(&format!("[data-testid=daily-go-{id}]")).await;
    s.wait_for("[data-testid=py-table]", 20).await;
    assert!(wait_my_turn(&s, "py-table").await);
    assert!(py_step(&s, 0, &mut [true, true]).await, "a move played");

    // Back in the lobby, the challenge links to the attempt instead of offering Start.
    s.goto(&format!("{base}/#/")).await;
    s.wait_for(&format!("[data-testid=daily-played-{id}]"), 15)
        .await;
    assert!(
        s.find_all(&format!("[data-testid=daily-start-{id}]"))
            .await
            .is_empty()
    );

    // Its leaderboard page: titled with the day and the game; nobody has finished yet.
    s.click(&format!("[data-testid=daily-board-{id}]")).await;
    s.wait_for("[data-testid=daily-board]", 15).await;
    let day = s
        .js(
            "return fetch('/api/daily').then((r) => r.json()).then((d) => d.day);",
            json!([]),
        )
        .await;
    let title = fill(
        &Value::String(fill(
            &en["daily.board_title"],
            "game",
            en["game.pyramids"].as_str().unwrap(),
        )),
        "day",
        day.as_str().unwrap(),
    );
    assert_eq!(s.text("[data-testid=daily-board] h2").await, title);
    // The day is not over for everyone: the board lists nobody and says when it will.
    let hidden = s
        .text("[data-testid=daily-board] [data-testid=daily-hidden]")
        .await;
    let before_time = en["daily.hidden_until"]
        .as_str()
        .unwrap()
        .split("{time}")
        .next()
        .unwrap()
        .to_string();
    assert!(hidden.starts_with(&before_time), "{hidden}");
    s.screenshot(&artifacts(), "daily-board-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&artifacts(), "daily-board-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;

    // In French: another challenge's Start, still shown in the lobby while the attempt is
    // taken elsewhere (another tab), is refused in words, and the list then links to it.
    let fr = catalog("fr");
    s.goto(&format!("{base}/#/")).await;
    s.click("[data-testid=language] option[value=fr]").await;
    let other = challenges
        .iter()
        .filter_map(|c| c["id"].as_str())
        .find(|c| *c != id)
        .expect("another challenge today")
        .to_string();
    let start = format!("[data-testid=daily-start-{other}]");
    s.wait_until(
        "the lobby in French with the other challenge's Start",
        "return document.documentElement.lang === 'fr' && !!document.querySelector(arguments[0]);",
        json!([start]),
        15,
    )
    .await;
    let status = s
        .js(
            "return fetch(`/api/daily/${arguments[0]}`, { method: 'POST', credentials: 'same-origin' })
               .then((r) => r.status);",
            json!([other]),
        )
        .await;
    assert_eq!(status, json!(201), "the attempt taken in another tab");
    s.click(&start).await;
    s.click(&format!("[data-testid=daily-go-{other}]")).await;
    s.wait_until(
        "the refusal, in French",
        "return document.getElementById('app').dataset.lastToast === arguments[0];",
        json!([fr["error.daily_already_played"]]),
        10,
    )
    .await;
    s.wait_for(&format!("[data-testid=daily-played-{other}]"), 10)
        .await;
    assert!(
        s.js("return location.hash;", json!([])).await == json!("#/"),
        "the page stays on the lobby"
    );
    s.screenshot(&artifacts(), "daily-refused-fr-1280").await;

    // A visitor who opens the attempt by its address before the day is over is told it is not
    // there (the server does not say that it exists), and sees no board of it.
    let visitor = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    visitor.goto(&format!("{base}/#/game/{id}")).await;
    visitor
        .wait_until(
            "the attempt refused to a visitor",
            "return document.getElementById('app').dataset.lastToast === arguments[0];",
            json!([en["error.not_found"]]),
            15,
        )
        .await;
    assert!(!exists(&visitor, "[data-testid=py-table]").await);
    assert!(!exists(&visitor, "p.loading").await, "no endless Loading…");
    visitor.quit().await;
}

/// Starts the page account's attempt at daily challenge `arguments[0]` and plays it out over a
/// WebSocket of its own with the first legal move that does not eliminate it (as
/// `PLAY_AGAINST_A_RANDOM_BOT` does); returns `[game id, finished]`.
const PLAY_A_DAILY: &str = "const [challenge] = arguments;
return (async () => {
  const r = await fetch(`/api/daily/${challenge}`, { method: 'POST', credentials: 'same-origin' });
  const table = await r.json();
  if (r.status !== 201) return ['start failed', table];
  const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws');
  const { applyPatch } = await import('/js/patch.js');
  let held = null;
  return await new Promise((done) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', game: table.id }));
    ws.onmessage = (e) => {
      let m = JSON.parse(e.data);
      if (m.type === 'error') { ws.close(); done(['error', m]); }
      if (m.type === 'patch') {
        const next = applyPatch(held, m);
        if (!next) { ws.send(JSON.stringify({ type: 'subscribe', game: table.id, last_event: held && held.state_id })); return; }
        m = next;
      }
      if (m.type !== 'state') return;
      held = m;
      if (m.finished) { ws.close(); done([table.id, true]); return; }
      const heeded = m.legal.filter((l) => !l.eliminates);
      const move = (heeded.length ? heeded : m.legal)[0];
      if (move) ws.send(JSON.stringify({ type: 'move', game: table.id, state_id: m.state_id, move: move.text }));
    };
  });
})();";

/// Issue 46, item 3: the end of a daily attempt, in Italian at 1280 and 375 px. Its player
/// sees the result at once (not only "The game is over."), is told when the end position and
/// the day's ranking open, and the leaderboard says how many have finished rather than
/// "Nobody has finished this challenge yet".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_daily_attempt_shows_its_result_and_the_board_counts_who_finished() {
    let w = world("daily-end").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let base = &w.server.base;
    let it = catalog("it");
    open_lobby(&s, base).await;
    let status = s.js(REGISTER, json!(["daily_ender"])).await;
    assert_eq!(status, json!(200));
    open_lobby(&s, base).await;
    s.click("[data-testid=language] option[value=it]").await;
    s.wait_until(
        "the lobby in Italian",
        "return document.documentElement.lang === 'it';",
        json!([]),
        15,
    )
    .await;
    let challenges = today(&s).await;
    let solo = challenges
        .iter()
        .find(|c| c["bots"].as_array().is_some_and(|b| b.is_empty()))
        .and_then(|c| c["id"].as_str())
        .expect("a solo challenge today")
        .to_string();
    let played = s.js(PLAY_A_DAILY, json!([solo])).await;
    assert_eq!(played[1], json!(true), "{played}");
    let game = played[0].as_str().unwrap().to_string();

    s.goto(&format!("{base}/#/game/{game}")).await;
    s.wait_for("[data-testid=result]", 20).await;
    let sealed = s.text("[data-testid=daily-sealed]").await;
    let before_time = it["daily.sealed"]
        .as_str()
        .unwrap()
        .split("{time}")
        .next()
        .unwrap()
        .to_string();
    assert!(sealed.starts_with(&before_time), "{sealed}");
    assert!(
        !s.text("[data-testid=result-headline]").await.is_empty(),
        "the result says who won"
    );
    s.js(
        "document.querySelector('[data-testid=result]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&artifacts(), "daily-end-it-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=result]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&artifacts(), "daily-end-it-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;

    // Its leaderboard: one attempt finished, its score hidden until the day is over.
    s.click("[data-testid=daily-sealed-board]").await;
    s.wait_for("[data-testid=daily-board]", 15).await;
    assert_eq!(
        s.text("[data-testid=daily-finished]").await,
        fill(&it["daily.finished.one"], "count", "1")
    );
    assert!(s.find_all("[data-testid=daily-empty]").await.is_empty());
    s.screenshot(&artifacts(), "daily-board-finished-it-1280")
        .await;
    s.quit().await;
}
