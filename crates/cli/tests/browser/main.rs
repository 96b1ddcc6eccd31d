//! End-to-end tests of the browser client in real headless Chromium, against the real
//! `pyramidion serve` binary: everything is done by clicking in the page, as a player would.
//! Screenshots (1280 px and 375 px wide) are saved in `target/browser-artifacts/`.
mod after_game;
mod analysis_board;
mod follow;
mod live_play;
mod people;
mod reach;
mod tables_polish;
mod tables_round3;
mod tables_round3_follow;
mod webdriver;

use pyramidion_games::GameKind;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;
use webdriver::{Driver, Session, Spawned, free_port};

/// Two tests at a time, each with its Chromium and server: a test mostly waits on its page, so
/// two overlap well on two cores, while more would make the pages' own waits time out.
static BROWSERS_AT_ONCE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Waits for this test's turn at the machine; held for the test's life.
async fn take_turn() -> tokio::sync::SemaphorePermit<'static> {
    BROWSERS_AT_ONCE
        .acquire()
        .await
        .expect("the semaphore is never closed")
}

const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (375, 812);

/// Registers an account from the page (its cookie becomes the page's); the status.
const REGISTER: &str = "return fetch('/api/register', { method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: arguments[0], password: 'correct horse' }) })
  .then((r) => r.status);";

/// A table of the page's player against a random bot in game `arguments[0]` (its body merged
/// with `arguments[1]`, e.g. `{rated: true, clock: 'day'}`), played to the end over a WebSocket
/// of its own with the first legal move each time; returns `[game id, outcome]`. After the
/// first state each move comes as a patch, which the page's own module makes into the next
/// state (as the table does).
const PLAY_AGAINST_A_RANDOM_BOT: &str = "const [game, extra] = arguments;
return (async () => {
  const r = await fetch('/api/tables', { method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game, options: { players: 2 }, ...(extra || {}),
      seats: [{ type: 'me' }, { type: 'bot', level: 'random' }] }) });
  const table = await r.json();
  if (r.status !== 201) return ['create failed', table];
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
        // A gap: subscribe again from the last state held, as the table does.
        if (!next) { ws.send(JSON.stringify({ type: 'subscribe', game: table.id, last_event: held && held.state_id })); return; }
        m = next;
      }
      if (m.type !== 'state') return;
      held = m;
      if (m.finished) { ws.close(); done([table.id, m.outcome]); return; }
      if (m.legal.length) ws.send(JSON.stringify({ type: 'move', game: table.id,
        state_id: m.state_id, move: m.legal[0].text }));
    };
  });
})();";

fn artifacts() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("browser-artifacts")
}

struct Server {
    process: Spawned,
    base: String,
}

/// A server with a fresh database, listening on `bind`.
fn serve(name: &str, bind: &str) -> Server {
    let dir =
        std::env::temp_dir().join(format!("pyramidion-browser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    start_server(dir, bind)
}

/// Starts `pyramidion serve` on `bind` with its database in `dir`.
fn start_server(dir: PathBuf, bind: &str) -> Server {
    start_server_with(dir, bind, &[])
}

/// [`start_server`] with more `pyramidion serve` flags.
fn start_server_with(dir: PathBuf, bind: &str, flags: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        // Analyses on a tiny budget unless the test asks for more: the pages are tested, not
        // the depth.
        .args(["serve", "--bind", bind, "--http-rate", "1000"])
        .args(if flags.contains(&"--analysis-budget") {
            &[][..]
        } else {
            &["--analysis-budget", "2000"][..]
        })
        // Bots unpaced unless the test asks: the 700 ms a person needs to see each bot move
        // was most of the suite's time, and the tables wait for states, not for time.
        .args(if flags.contains(&"--bot-pace-ms") {
            &[][..]
        } else {
            &["--bot-pace-ms", "0"][..]
        })
        .arg("--data-dir")
        .arg(&dir)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("server prints its address");
    let base = line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(base.starts_with("http://127.0.0.1:"), "{line}");
    Server {
        process: Spawned { child, dir },
        base,
    }
}

/// One test's world: its turn at the machine, a server of its own and a chromedriver.
struct World {
    server: Server,
    driver: Driver,
    _turn: tokio::sync::SemaphorePermit<'static>,
}

async fn world(name: &str) -> World {
    world_on(name, "127.0.0.1:0").await
}

async fn world_on(name: &str, bind: &str) -> World {
    let turn = take_turn().await;
    World {
        server: serve(name, bind),
        driver: Driver::start().await,
        _turn: turn,
    }
}

/// Opens the lobby and waits for the socket to be up.
async fn open_lobby(s: &Session, base: &str) {
    s.goto(&format!("{base}/")).await;
    s.wait_for("[data-testid=connection][data-status=connected]", 15)
        .await;
}

fn catalog(lang: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../web/i18n/{lang}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("catalog")).expect("catalog JSON")
}

fn fill(template: &Value, key: &str, value: &str) -> String {
    template
        .as_str()
        .expect("catalog string")
        .replace(&format!("{{{key}}}"), value)
}

/// A table's numbered state and its `data-<part>` (its phase), as the page shows them;
/// (-1, "") before the table `data-testid=<table>` is drawn.
async fn state_of(s: &Session, table: &str, part: &str) -> (i64, String) {
    let v = s
        .js(
            "const t = document.querySelector(`[data-testid=${arguments[0]}]`);
             return t ? [Number(t.dataset.stateId), t.dataset[arguments[1]]] : [-1, ''];",
            json!([table, part]),
        )
        .await;
    (
        v[0].as_i64().unwrap_or(-1),
        v[1].as_str().unwrap_or("").to_string(),
    )
}

/// Waits up to `secs` for the table `data-testid=<table>` to show a state after `state`,
/// with no move of this page's pending.
async fn wait_state_past(s: &Session, table: &str, state: i64, secs: u64) {
    s.wait_until(
        &format!("the next state of {table}"),
        "const t = document.querySelector(`[data-testid=${arguments[0]}]`);
         return t && Number(t.dataset.stateId) > arguments[1] && !document.getElementById('app').classList.contains('pending');",
        json!([table, state]),
        secs,
    )
    .await;
}

/// The Forgotten Treasures table's numbered state and phase.
async fn table_state(s: &Session) -> (i64, String) {
    state_of(s, "ft-table", "phase").await
}

async fn wait_past(s: &Session, state: i64) {
    wait_state_past(s, "ft-table", state, 20).await;
}

async fn is_my_turn(s: &Session) -> bool {
    s.js(
        "return !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
    )
    .await
    .as_bool()
    .unwrap_or(false)
}

async fn exists(s: &Session, css: &str) -> bool {
    !s.find_all(css).await.is_empty()
}

/// Places the domino in hand by clicking: rotate until some slot shows, pick a ghost (the
/// `pick`-th, wrapping), check the preview (and take a screenshot of it when asked), confirm.
async fn place(s: &Session, pick: usize, screenshot: Option<&str>) {
    for _ in 0..4 {
        if exists(s, "[data-testid=ghost]").await {
            break;
        }
        s.click("[data-testid=rotate]").await;
    }
    assert!(
        exists(s, "[data-testid=ghost]").await,
        "no ghost placement in any orientation"
    );
    s.click_nth("[data-testid=ghost]", pick).await;
    s.wait_for("[data-testid=ghost].selected .preview", 5).await;
    if let Some(name) = screenshot {
        s.screenshot(&artifacts(), name).await;
    }
    s.click("[data-testid=confirm-place]").await;
}

/// Plays the step the page asks for, by clicking; returns false once the game is over.
/// At the first stage end, one area is activated by hand before the best allocation.
async fn play_step(s: &Session, step: usize, by_hand: &mut bool) -> bool {
    let (state, phase) = table_state(s).await;
    match phase.as_str() {
        "over" => return false,
        "take" => s.click("[data-testid=take]").await,
        "flip" => s.click("[data-testid=flip]").await,
        "place" => place(s, step, None).await,
        "discard" => s.click("[data-testid=discard]").await,
        "activate" => {
            // Activations are a plan: picking a payment sends nothing, Finish sends the plan.
            let before = s.text("[data-testid=stage-points]").await;
            if *by_hand {
                let areas = s
                    .find_all("[data-testid^=area-button-]:not([disabled])")
                    .await;
                for i in 0..areas.len() {
                    s.click_nth("[data-testid^=area-button-]:not([disabled])", i)
                        .await;
                    if exists(s, "[data-testid=pay]").await {
                        s.click("[data-testid=pay]").await;
                        let after = s.text("[data-testid=stage-points]").await;
                        assert_ne!(before, after, "the planned stage points follow the plan");
                        assert_eq!(table_state(s).await.0, state, "nothing sent before Finish");
                        *by_hand = false;
                        return true;
                    }
                }
            }
            if exists(s, "[data-testid=best-allocation]:not([disabled])").await {
                s.click("[data-testid=best-allocation]").await;
            }
            s.click("[data-testid=finish-scoring]").await;
            // The plan is the best allocation here: no confirmation is asked.
            assert!(!exists(s, "[data-testid=confirm-finish]").await);
            s.wait_until(
                "the plan to be sent and the scoring finished",
                "const t = document.querySelector('[data-testid=ft-table]');
                 return t && Number(t.dataset.stateId) > arguments[0]
                   && !document.getElementById('app').classList.contains('pending')
                   && !document.querySelector('[data-testid=scoring-panel][data-sending=true]')
                   && (t.dataset.phase !== 'activate' || !document.querySelector('[data-testid=prompt].yours'));",
                json!([state]),
                30,
            )
            .await;
            return true;
        }
        other => panic!("unexpected phase '{other}'"),
    }
    wait_past(s, state).await;
    true
}

async fn open_solo(s: &Session, base: &str) {
    open_lobby(s, base).await;
    s.click("[data-testid=quick-the-legend]").await;
    s.wait_for("[data-testid=ft-table]", 15).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_a_whole_solo_game_against_the_legend_by_clicking() {
    let w = world("solo").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_solo(&s, &w.server.base).await;
    assert!(s.text("[data-testid=me]").await.contains("guest-"));
    let dir = artifacts();
    let mut by_hand = true;
    let mut shots = [false; 3];
    let mut steps = 0;
    loop {
        let (_, phase) = table_state(&s).await;
        if phase == "place" && !shots[0] {
            let (state, _) = table_state(&s).await;
            place(&s, 0, Some("solo-placing-1280")).await;
            wait_past(&s, state).await;
            shots[0] = true;
            continue;
        }
        if phase == "activate" && !shots[1] {
            s.wait_for("[data-testid=scoring-panel]", 5).await;
            s.js(
                "document.querySelector('[data-testid=scoring-panel]').scrollIntoView();",
                json!([]),
            )
            .await;
            s.screenshot(&dir, "solo-stage-end-1280").await;
            shots[1] = true;
        }
        if !play_step(&s, steps, &mut by_hand).await {
            break;
        }
        steps += 1;
        assert!(steps < 400, "the game should end");
    }
    assert!(!by_hand, "an area was activated by hand at a stage end");
    // The final ranking: the player and THE Legend, with scores and the record link.
    s.wait_for("[data-testid=result]", 10).await;
    let rows = s.find_all("[data-testid=ranking] tbody tr").await;
    assert_eq!(rows.len(), 2);
    let headline = s.text("[data-testid=result-headline]").await;
    assert!(headline.contains("Legend"), "{headline}");
    s.wait_for("[data-testid=breakdown-4]", 5).await;
    // Every stage's breakdown speaks words, not message keys or engine names.
    let pad = s.text("[data-testid=scoring-pad]").await;
    assert!(!pad.contains("pay.") && !pad.contains("scoring."), "{pad}");
    let top = "window.scrollTo(0, 0);";
    s.js(top, json!([])).await;
    s.screenshot(&dir, "solo-result-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(top, json!([])).await;
    s.screenshot(&dir, "solo-result-375").await;
    // The record the page links to is the finished game's, and says who won.
    let record = s
        .js(
            "const a = document.querySelector('[data-testid=record-link]');
             return fetch(a.href).then(async (r) => [r.status, await r.text()]);",
            json!([]),
        )
        .await;
    assert_eq!(record[0], 200, "{record}");
    assert!(
        record[1].as_str().unwrap_or("").contains("seed"),
        "{record}"
    );
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_join_one_table_by_invite_link_with_two_bots_and_each_plays_a_turn() {
    let w = world("invite").await;
    let host = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&host, &w.server.base).await;
    host.click("[data-testid=new-game] option[value=forgotten-treasures]")
        .await;
    host.click("[data-testid=new-players] option[value='4']")
        .await;
    host.click("[data-testid=new-seat-1] option[value=invite]")
        .await;
    host.click("[data-testid='new-seat-2'] option[value='bot:greedy']")
        .await;
    host.click("[data-testid='new-seat-3'] option[value='bot:random']")
        .await;
    host.click("[data-testid=new-listed]").await; // unlisted: only the link lets people in
    host.click("[data-testid=create-table]").await;
    host.wait_for("[data-testid=invite-link]", 15).await;
    let link = host
        .js(
            "return document.querySelector('[data-testid=invite-link]').value;",
            json!([]),
        )
        .await;
    let link = link.as_str().expect("an invite link").to_string();
    assert!(link.contains("/#/join/"), "{link}");

    let guest = w.driver.session(PHONE.0, PHONE.1).await;
    guest.goto(&link).await;
    guest.wait_for("[data-testid=ft-table]", 20).await;
    host.wait_for("[data-testid=ft-table]", 20).await;

    // Seat 1 (the host) plays a whole turn, then seat 2 (the invited player).
    for (s, name) in [(&host, "host"), (&guest, "guest")] {
        s.wait_until(
            "my turn",
            "return !!document.querySelector('[data-testid=prompt].yours');",
            json!([]),
            30,
        )
        .await;
        for step in 0..3 {
            assert!(is_my_turn(s).await, "{name}: still my turn at step {step}");
            assert!(play_step(s, step, &mut false).await);
        }
    }
    // Each sees the other's last domino highlighted on the other's pyramid.
    host.wait_for("[data-seat='1'] [data-testid=last-placed]", 20)
        .await;
    guest
        .wait_for("[data-seat='0'] [data-testid=last-placed]", 20)
        .await;
    // The bots play seats 3 and 4, and it comes back to the host.
    host.wait_until(
        "the host's second turn",
        "return !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
        60,
    )
    .await;
    let dir = artifacts();
    host.screenshot(&dir, "invite-host-1280").await;
    guest.screenshot(&dir, "invite-guest-375").await;
    host.quit().await;
    guest.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switching_to_french_and_italian_changes_the_visible_texts() {
    let w = world("i18n").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    let en = catalog("en");
    assert_eq!(
        s.text("[data-testid=quick-the-legend]").await,
        en["quick.the-legend"]
    );
    for lang in ["fr", "it"] {
        let cat = catalog(lang);
        s.click(&format!("[data-testid=language] option[value={lang}]"))
            .await;
        s.wait_until(
            "the lobby in the new language",
            "return document.documentElement.lang === arguments[0] &&
                    document.querySelector('[data-testid=quick-the-legend]')?.textContent === arguments[1];",
            json!([lang, cat["quick.the-legend"]]),
            10,
        )
        .await;
        assert_ne!(cat["quick.the-legend"], en["quick.the-legend"]);
        assert_eq!(
            s.text("[data-testid=connection]").await,
            cat["connection.connected"]
        );
    }
    // In a game too: the table's texts follow the language, and the choice survives a reload.
    s.click("[data-testid=quick-the-legend]").await;
    s.wait_for("[data-testid=ft-table]", 15).await;
    let it = catalog("it");
    assert_eq!(
        s.text("[data-testid=stage]").await,
        fill(&it["table.stage"], "stage", "1")
    );
    assert_eq!(s.text("[data-testid=prompt]").await, it["prompt.take"]);
    s.screenshot(&artifacts(), "italian-table-1280").await;
    s.click("[data-testid=language] option[value=fr]").await;
    let fr = catalog("fr");
    s.wait_until(
        "the table in French",
        "return document.querySelector('[data-testid=prompt]')?.textContent === arguments[0];",
        json!([fr["prompt.take"]]),
        10,
    )
    .await;
    s.refresh().await;
    s.wait_for("[data-testid=ft-table]", 15).await;
    assert_eq!(s.text("[data-testid=prompt]").await, fr["prompt.take"]);
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_mid_game_resumes_the_same_state() {
    let w = world("reload").await;
    let s = w.driver.session(PHONE.0, PHONE.1).await;
    open_solo(&s, &w.server.base).await;
    // A turn and a half: take, flip, place, take (the domino is in hand now).
    for step in 0..4 {
        assert!(play_step(&s, step, &mut false).await);
    }
    let snapshot = "const q = (c) => document.querySelector(c);
        return { state: q('[data-testid=ft-table]').dataset.stateId, phase: q('[data-testid=ft-table]').dataset.phase,
                 blocks: document.querySelectorAll('[data-testid=my-pyramid] .block').length,
                 hand: q('[data-testid=hand]')?.getAttribute('aria-label') ?? q('[data-testid=hand] svg')?.getAttribute('aria-label'),
                 url: location.hash, total: q('[data-testid=total]').textContent };";
    let before = s.js(snapshot, json!([])).await;
    assert_eq!(before["phase"], "flip", "{before}");
    assert_eq!(before["blocks"], 2, "{before}");
    s.screenshot(&artifacts(), "reload-before-375").await;
    s.refresh().await;
    s.wait_for("[data-testid=ft-table]", 15).await;
    let after = s.js(snapshot, json!([])).await;
    assert_eq!(before, after);
    s.screenshot(&artifacts(), "reload-after-375").await;
    // And play goes on from there, this time with the keyboard only: Enter on a focused
    // choice plays it; on a ghost placement, Enter picks it and Enter again confirms.
    let enter = "\u{E007}";
    let (state, _) = table_state(&s).await;
    s.js(
        "document.querySelector('[data-testid=flip]').focus();",
        json!([]),
    )
    .await;
    s.press(enter).await;
    wait_past(&s, state).await;
    assert_eq!(table_state(&s).await.1, "place");
    let (state, _) = table_state(&s).await;
    s.js(
        "document.querySelector('[data-testid=ghost]').focus();",
        json!([]),
    )
    .await;
    s.press(enter).await;
    s.wait_for("[data-testid=ghost].selected .preview", 5).await;
    s.wait_until(
        "the ghost to keep the focus",
        "return document.activeElement?.dataset.testid === 'ghost';",
        json!([]),
        5,
    )
    .await;
    s.press(enter).await;
    wait_past(&s, state).await;
    assert_eq!(table_state(&s).await.1, "take");
    s.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_reconnects_by_itself_after_a_server_restart_and_resumes_the_game() {
    let port = free_port();
    let mut w = world_on("restart", &format!("127.0.0.1:{port}")).await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_solo(&s, &w.server.base).await;
    for step in 0..2 {
        assert!(play_step(&s, step, &mut false).await);
    }
    let snapshot = "const t = document.querySelector('[data-testid=ft-table]');
        return [t.dataset.stateId, t.dataset.phase, document.querySelector('[data-testid=hand] svg').getAttribute('aria-label')];";
    let before = s.js(snapshot, json!([])).await;
    // The server dies (as with kill -9); the page says so and keeps trying.
    let _ = w.server.process.child.kill();
    let _ = w.server.process.child.wait();
    s.wait_for("[data-testid=connection][data-status=reconnecting]", 15)
        .await;
    // A new server on the same port and database (dropped first, before `w` cleans up).
    let _restarted = start_server(w.server.process.dir.clone(), &format!("127.0.0.1:{port}"));
    s.wait_for("[data-testid=connection][data-status=connected]", 30)
        .await;
    s.wait_until(
        "the same state after the reconnection",
        "const t = document.querySelector('[data-testid=ft-table]');
         return t && t.dataset.stateId === arguments[0] && !document.getElementById('app').classList.contains('pending');",
        json!([before[0]]),
        15,
    )
    .await;
    assert_eq!(s.js(snapshot, json!([])).await, before);
    assert!(play_step(&s, 0, &mut false).await, "play goes on");
    s.quit().await;
}

/// The lobby's table builder offers what the games' descriptors say, and nothing else: every
/// game, each game's seat range, its options for the chosen player count, its bot levels.
#[tokio::test]
async fn the_table_builder_is_built_from_the_game_descriptors() {
    let w = world("builder").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.wait_for("[data-testid=new-game]", 15).await;
    let values = |css: &str| {
        let script = format!(
            "return [...document.querySelectorAll('[data-testid={css}] option')].map(o => o.value);"
        );
        let s = &s;
        async move { s.js(&script, json!([])).await }
    };
    let keys: Vec<&str> = GameKind::ALL.iter().map(|k| k.key()).collect();
    assert_eq!(values("new-game").await, json!(keys));
    for kind in GameKind::ALL {
        let d = kind.descriptor();
        s.click(&format!("[data-testid=new-game] option[value={}]", d.key))
            .await;
        let counts: Vec<String> = (d.seats.min..=d.seats.max).map(|n| n.to_string()).collect();
        assert_eq!(values("new-players").await, json!(counts), "{}", d.key);
        for players in d.seats.min..=d.seats.max {
            s.click(&format!(
                "[data-testid=new-players] option[value='{players}']"
            ))
            .await;
            for o in d.options {
                let shown = values(&format!("new-{}", o.key)).await;
                if o.applies_to(players) {
                    assert_eq!(shown, json!(o.values), "{} option {}", d.key, o.key);
                } else {
                    assert_eq!(shown, json!([]), "{} option {} at {players}", d.key, o.key);
                }
            }
            if players > 1 {
                let mut seats = vec!["open".to_string(), "invite".to_string()];
                seats.extend(d.bot_levels.iter().map(|l| format!("bot:{}", l.name)));
                assert_eq!(values("new-seat-1").await, json!(seats), "{}", d.key);
                // Each bot level says what waiting to expect, from its descriptor's think time.
                let texts = s
                    .js(
                        "return [...document.querySelectorAll('[data-testid=new-seat-1] option')].map(o => o.textContent);",
                        json!([]),
                    )
                    .await;
                for (level, text) in d
                    .bot_levels
                    .iter()
                    .zip(texts.as_array().unwrap()[2..].iter())
                {
                    let text = text.as_str().unwrap();
                    let want = match level.think_ms {
                        0 => "(instant)".to_string(),
                        ms if ms < 100 => format!("(about {ms} ms a move)"),
                        ms => {
                            let seconds = format!("{:.1}", f64::from(ms) / 1000.0);
                            format!("(about {} s a move)", seconds.trim_end_matches(".0"))
                        }
                    };
                    assert!(text.ends_with(&want), "{}: {text} ({want})", d.key);
                }
            }
        }
    }
    s.quit().await;
}

/// The Pyramids table's numbered state and phase.
async fn py_state(s: &Session) -> (i64, String) {
    state_of(s, "py-table", "phase").await
}

async fn py_wait_past(s: &Session, state: i64) {
    for _ in 0..300 {
        let v = s
            .js(
                "const t = document.querySelector('[data-testid=py-table]');
                 const app = document.getElementById('app');
                 return [!!t && Number(t.dataset.stateId) > arguments[0] && !app.classList.contains('pending'),
                         app.dataset.lastToast || '', t ? t.dataset.phase : ''];",
                json!([state]),
            )
            .await;
        if v[0] == json!(true) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let v = s
        .js(
            "return [document.getElementById('app').dataset.lastToast || '',
                     (window.__pyReceived || []).slice(-4).map((m) => JSON.stringify(m).slice(0, 400))];",
            json!([]),
        )
        .await;
    panic!("no Pyramids state after {state}: last toast and messages {v:#}");
}

/// Waits for this page's turn (or the end), then plays it by clicking; false once over.
/// `shot` names a screenshot to take (1280 and 375 px) at the first God choice and building.
async fn py_step(s: &Session, step: usize, shots: &mut [bool; 2]) -> bool {
    s.wait_until(
        "my Pyramids turn or the end",
        "const t = document.querySelector('[data-testid=py-table]');
         return !!t && !document.getElementById('app').classList.contains('pending') &&
                (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=prompt].yours'));",
        json!([]),
        90,
    )
    .await;
    let (state, phase) = py_state(s).await;
    let dir = artifacts();
    match phase.as_str() {
        "over" => return false,
        "choose_god" => {
            if !shots[0] {
                s.screenshot(&dir, "pyramids-god-choice-1280").await;
                s.resize(PHONE.0, PHONE.1).await;
                s.screenshot(&dir, "pyramids-god-choice-375").await;
                s.resize(DESKTOP.0, DESKTOP.1).await;
                shots[0] = true;
            }
            s.click_nth("[data-testid=god]", step).await;
        }
        "choose_pair" if PAIRS.fetch_add(1, Relaxed) % 2 == 1 => {
            key_activate(s, "[data-testid=pair]").await;
            BY_KEYBOARD.fetch_add(1, Relaxed);
        }
        "choose_pair" => {
            s.click_nth("[data-testid=pair]", step).await;
        }
        "build_pyramid" if PYRAMIDS.fetch_add(1, Relaxed) % 2 == 1 => {
            // Keyboard only: Enter on a ghost shows the preview and keeps the focus there;
            // Enter again places the card.
            key_activate(s, "[data-testid=ghost]").await;
            s.wait_until(
                "the focused ghost to show its preview",
                "const g = document.querySelector('[data-testid=ghost].selected');
                 return !!g && !!g.querySelector('.preview') && document.activeElement === g;",
                json!([]),
                5,
            )
            .await;
            s.press("\u{E007}").await;
            BY_KEYBOARD.fetch_add(1, Relaxed);
        }
        "build_pyramid" => {
            s.click_nth("[data-testid=ghost]", step).await;
            s.wait_for("[data-testid=ghost].selected .preview", 5).await;
            if !shots[1]
                && s.find_all("[data-testid=my-pyramid] [data-card]")
                    .await
                    .len()
                    >= 2
            {
                s.js(
                    "document.querySelector('[data-testid=hand]').scrollIntoView();",
                    json!([]),
                )
                .await;
                s.screenshot(&dir, "pyramids-building-1280").await;
                s.resize(PHONE.0, PHONE.1).await;
                s.js(
                    "document.querySelector('[data-testid=hand]').scrollIntoView();",
                    json!([]),
                )
                .await;
                s.screenshot(&dir, "pyramids-building-375").await;
                s.resize(DESKTOP.0, DESKTOP.1).await;
                shots[1] = true;
            }
            s.click("[data-testid=confirm-pyramid]").await;
        }
        "build_more" => {
            if step.is_multiple_of(3) && exists(s, "[data-testid=obelisk]").await {
                s.click("[data-testid=obelisk]").await;
            } else if step % 3 == 1 && exists(s, "[data-testid=tomb]").await {
                s.click("[data-testid=tomb]").await;
            } else {
                s.click("[data-testid=done]").await;
            }
        }
        "discard" => {
            s.click_nth("[data-testid=discard]", step).await;
        }
        other => panic!("unexpected Pyramids phase '{other}'"),
    }
    py_wait_past(s, state).await;
    true
}

/// Pyramids turns played with the keyboard only (every other pair and Pyramid card).
static BY_KEYBOARD: AtomicUsize = AtomicUsize::new(0);
static PAIRS: AtomicUsize = AtomicUsize::new(0);
static PYRAMIDS: AtomicUsize = AtomicUsize::new(0);

/// Focuses the first element matching `css` and presses Enter on it.
async fn key_activate(s: &Session, css: &str) {
    s.wait_for(css, 15).await;
    s.js(
        "document.querySelector(arguments[0]).focus(); return document.activeElement === document.querySelector(arguments[0]);",
        json!([css]),
    )
    .await;
    s.press("\u{E007}").await;
}

/// Records, in the page, every message a second socket of the same browser receives for
/// `game` (a spectator's own subscription, from the first event).
const RECORD_SOCKET: &str = "const game = arguments[0];
    window.__pyMessages = [];
    return new Promise((resolve) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      ws.onmessage = (e) => window.__pyMessages.push(e.data);
      ws.onopen = () => { ws.send(JSON.stringify({ type: 'subscribe', game, last_event: 0 })); resolve(true); };
    });";

/// Every structured move form in `msg` (last move and missed moves).
fn move_forms(msg: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = msg["missed"].as_array().into_iter().flatten().collect();
    if !msg["last_move"].is_null() {
        out.push(&msg["last_move"]);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramids_a_person_plays_three_players_against_two_bots_and_a_spectator_sees_no_hidden_card()
 {
    let w = world("pyramids").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.click("[data-testid=new-game] option[value=pyramids]")
        .await;
    s.click("[data-testid=new-players] option[value='3']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid='new-seat-2'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=py-table]", 20).await;
    // What the player's page receives, to explain a stall if one happens.
    s.js(
        "return import('/js/app.js').then((m) => { window.__pyReceived = [];
           m.app.socket.onMessage((msg) => window.__pyReceived.push(msg));
           const send = m.app.socket.send.bind(m.app.socket);
           m.app.socket.send = (msg) => { window.__pyReceived.push({ sent: msg }); send(msg); };
           return true; });",
        json!([]),
    )
    .await;
    let hash = s.js("return location.hash;", json!([])).await;
    let id = hash
        .as_str()
        .and_then(|h| h.strip_prefix("#/game/"))
        .expect("the game page")
        .to_string();

    // A spectator: another browser, a guest of its own, on the same game.
    let spectator = w.driver.session(PHONE.0, PHONE.1).await;
    open_lobby(&spectator, &w.server.base).await;
    spectator
        .goto(&format!("{}/#/game/{id}", w.server.base))
        .await;
    spectator.wait_for("[data-testid=py-table]", 20).await;
    assert_eq!(spectator.js(RECORD_SOCKET, json!([id])).await, json!(true));

    let mut shots = [false; 2];
    let mut step = 0;
    let mut spectator_checks = 0;
    while py_step(&s, step, &mut shots).await {
        step += 1;
        assert!(step < 200, "the game should end");
        // The spectator's page shows no hand and no Tomb card while the game goes on.
        if step.is_multiple_of(5) {
            let shown = spectator
                .js(
                    "const t = document.querySelector('[data-testid=py-table]');
                     if (!t || t.dataset.phase === 'over') return null;
                     return document.querySelectorAll('[data-testid=hand], [data-testid=my-tomb], [data-testid=tomb-cards], [data-testid=hand] [data-card]').length;",
                    json!([]),
                )
                .await;
            if let Some(n) = shown.as_u64() {
                assert_eq!(n, 0, "the spectator sees a hand or a Tomb");
                spectator_checks += 1;
            }
        }
    }
    assert!(
        shots[0] && shots[1],
        "screenshots of the God choice and building"
    );
    assert!(spectator_checks > 3);
    assert!(
        BY_KEYBOARD.load(Relaxed) >= 4,
        "some pairs and Pyramid cards were chosen with the keyboard"
    );

    // The scoring breakdown: one row per player, with every edifice.
    s.wait_for("[data-testid=breakdown]", 15).await;
    assert_eq!(s.find_all("[data-testid=breakdown-row]").await.len(), 3);
    let headline = s.text("[data-testid=result-headline]").await;
    assert!(
        !headline.is_empty() && !headline.contains("py."),
        "{headline}"
    );
    let table = s.text("[data-testid=py-table]").await;
    assert!(
        !table.contains("py.") && !table.contains("undefined"),
        "{table}"
    );
    let dir = artifacts();
    s.js(
        "document.querySelector('[data-testid=result]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "pyramids-scoring-1280").await;
    s.resize(PHONE.0, PHONE.1).await;
    s.js(
        "document.querySelector('[data-testid=result]').scrollIntoView();",
        json!([]),
    )
    .await;
    s.screenshot(&dir, "pyramids-scoring-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;

    // The record the page links to.
    let record = s
        .js(
            "const a = document.querySelector('[data-testid=record-link]');
             return fetch(a.href).then(async (r) => [r.status, await r.text()]);",
            json!([]),
        )
        .await;
    assert_eq!(record[0], 200, "{record}");

    // Every message the spectator's socket received: before the end, no hand, no Tomb, no
    // legal move, and moves that hide a card arrive redacted.
    spectator
        .wait_until(
            "the spectator's socket to see the end",
            "return window.__pyMessages.some((m) => JSON.parse(m).finished);",
            json!([]),
            20,
        )
        .await;
    let messages = spectator.js("return window.__pyMessages;", json!([])).await;
    let messages = messages.as_array().expect("messages");
    let mut before_end = 0;
    let mut redacted = 0;
    // A patch is checked as the state it makes of the last one (what the page would hold).
    let mut held: Option<Value> = None;
    for raw in messages {
        let mut msg: Value = serde_json::from_str(raw.as_str().unwrap()).unwrap();
        if msg["type"] == "patch" {
            let base = held.as_ref().expect("a patch follows a state");
            msg = pyramidion_server::live::patch::rebuild(base, &msg).expect("the patch applies");
        }
        if msg["type"] != "state" {
            continue;
        }
        held = Some(msg.clone());
        if msg["finished"] == json!(true) {
            continue;
        }
        for form in move_forms(&msg) {
            if form["kind"] == "tomb" || form["kind"] == "discard" {
                assert!(form["card"].is_null() && form["hand"].is_null(), "{form}");
                assert!(form["text"].as_str().unwrap().ends_with('?'), "{form}");
                redacted += 1;
            }
        }
        before_end += 1;
        assert_eq!(msg["legal"], json!([]), "a spectator has no move");
        for table in msg["view"]["tables"].as_array().unwrap() {
            assert!(table["hand"].is_null(), "a hand reached the spectator");
            assert!(table["tomb"].is_null(), "a Tomb reached the spectator");
            assert!(table["detail"].is_null());
        }
    }
    assert!(before_end > 10, "{before_end} messages before the end");
    assert!(redacted > 0, "discards reach the spectator redacted");

    // French and Italian replace the visible texts of the table.
    for lang in ["fr", "it"] {
        let cat = catalog(lang);
        s.click(&format!("[data-testid=language] option[value={lang}]"))
            .await;
        let caption = cat["py.score.caption"].as_str().unwrap().to_string();
        s.wait_until(
            "the table in the new language",
            "return document.querySelector('[data-testid=breakdown] caption')?.textContent === arguments[0];",
            json!([caption]),
            10,
        )
        .await;
        let round = fill(&cat["py.round"], "round", "10").replace("{rounds}", "10");
        assert_eq!(s.text("[data-testid=round]").await, round);
        assert_ne!(cat["py.round"], catalog("en")["py.round"]);
        s.screenshot(&dir, &format!("pyramids-scoring-{lang}-1280"))
            .await;
    }
    s.quit().await;
    spectator.quit().await;
}

/// The Pyramido table's numbered state and step.
async fn pyo_state(s: &Session) -> (i64, String) {
    state_of(s, "pyo-table", "phase").await
}

async fn pyo_wait_past(s: &Session, state: i64) {
    wait_state_past(s, "pyo-table", state, 30).await;
}

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

/// Saves `prefix-name` when a prefix is given.
async fn shot(s: &Session, dir: &Path, prefix: Option<&str>, name: &str) {
    if let Some(p) = prefix {
        s.screenshot(dir, &format!("{p}-{name}")).await;
    }
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
    s.click("[data-testid=new-game] option[value=pyramido]")
        .await;
    s.click("[data-testid=new-players] option[value='2']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
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
    let it = catalog("it");
    s.wait_until(
        "my turn, in Italian",
        "return document.querySelector('[data-testid=prompt].yours')?.textContent === arguments[0];",
        json!([it["pyo.prompt.take"]]),
        60,
    )
    .await;
    assert_eq!(
        s.text("[data-testid=stage]").await,
        fill(&it["table.stage"], "stage", "1")
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
