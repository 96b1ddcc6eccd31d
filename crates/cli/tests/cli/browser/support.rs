//! What every browser test shares: its turn at the machine, a server and a chromedriver of its
//! own (its "world"), the scripts a page runs through the API, the message catalogs, the
//! tables' state waits, viewport sizing and screenshots.
use crate::browser::webdriver::{Driver, Session, Spawned};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Two tests at a time, each with its Chromium and server: a test mostly waits on its page, so
/// two overlap well on two cores, while more would make the pages' own waits time out.
static BROWSERS_AT_ONCE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Waits for this test's turn at the machine; held for the test's life.
pub(crate) async fn take_turn() -> tokio::sync::SemaphorePermit<'static> {
    BROWSERS_AT_ONCE
        .acquire()
        .await
        .expect("the semaphore is never closed")
}

pub(crate) const DESKTOP: (u32, u32) = (1280, 900);
pub(crate) const PHONE: (u32, u32) = (375, 812);

/// Registers an account from the page (its cookie becomes the page's); the status.
pub(crate) const REGISTER: &str =
    "return fetch('/api/register', { method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: arguments[0], password: 'correct horse' }) })
  .then((r) => r.status);";

/// A table of the page's player against a random bot in game `arguments[0]` (its body merged
/// with `arguments[1]`, e.g. `{rated: true, clock: 'day'}`), played to the end over a WebSocket
/// of its own with the first legal move each time (a random one when `arguments[2]` is
/// `'random'`, never an eliminating one where another is legal; the bot's level is
/// `arguments[3]` when given); returns `[game id, outcome]`. After the
/// first state each move comes as a patch, which the page's own module makes into the next
/// state (as the table does).
pub(crate) const PLAY_AGAINST_A_RANDOM_BOT: &str = "const [game, extra, pick, level] = arguments;
return (async () => {
  const r = await fetch('/api/tables', { method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game, options: { players: 2 }, ...(extra || {}),
      seats: [{ type: 'me' }, { type: 'bot', level: level || 'random' }] }) });
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
      // A random player heeds the table's warning, as a person would: it places a domino that
      // eliminates it (the engine's `eliminates`) only when every move does.
      const heeded = m.legal.filter((l) => !l.eliminates);
      const among = heeded.length ? heeded : m.legal;
      const move = pick === 'random' ? among[Math.floor(Math.random() * among.length)] : m.legal[0];
      if (m.legal.length) ws.send(JSON.stringify({ type: 'move', game: table.id,
        state_id: m.state_id, move: move.text }));
    };
  });
})();";

/// Where a feature's screenshots go to be looked at: `PYRAMIDION_SHOTS` when set, else the
/// browser artifacts.
pub(crate) fn shots() -> PathBuf {
    std::env::var_os("PYRAMIDION_SHOTS").map_or_else(artifacts, PathBuf::from)
}

pub(crate) fn artifacts() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("browser-artifacts")
}

pub(crate) struct Server {
    pub(crate) process: Spawned,
    pub(crate) base: String,
}

/// A server with a fresh database, listening on `bind`, with `flags` added to `pyramidion serve`'s.
fn serve(name: &str, bind: &str, flags: &[&str]) -> Server {
    let dir =
        std::env::temp_dir().join(format!("pyramidion-browser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    start_server_with(dir, bind, flags)
}

/// Starts `pyramidion serve` on `bind` with its database in `dir`.
pub(crate) fn start_server(dir: PathBuf, bind: &str) -> Server {
    start_server_with(dir, bind, &[])
}

/// [`start_server`] with more `pyramidion serve` flags.
pub(crate) fn start_server_with(dir: PathBuf, bind: &str, flags: &[&str]) -> Server {
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
pub(crate) struct World {
    pub(crate) server: Server,
    pub(crate) driver: Driver,
    pub(crate) _turn: tokio::sync::SemaphorePermit<'static>,
}

pub(crate) async fn world(name: &str) -> World {
    world_on(name, "127.0.0.1:0").await
}

pub(crate) async fn world_on(name: &str, bind: &str) -> World {
    world_with(name, bind, &[]).await
}

/// [`world_on`] with more `pyramidion serve` flags.
pub(crate) async fn world_with(name: &str, bind: &str, flags: &[&str]) -> World {
    let turn = take_turn().await;
    World {
        server: serve(name, bind, flags),
        driver: Driver::start().await,
        _turn: turn,
    }
}

/// Opens the lobby and waits for the socket to be up.
pub(crate) async fn open_lobby(s: &Session, base: &str) {
    s.goto(&format!("{base}/")).await;
    s.wait_for("[data-testid=connection][data-status=connected]", 15)
        .await;
}

/// From the open lobby, the new-table form: a 2-player table of `game` against the greedy bot,
/// created by clicking, and its table (test id `table`) drawn.
pub(crate) async fn new_table_against_greedy(s: &Session, game: &str, table: &str) {
    s.click(&format!("[data-testid=new-game] option[value={game}]"))
        .await;
    s.click("[data-testid=new-players] option[value='2']").await;
    s.click("[data-testid='new-seat-1'] option[value='bot:greedy']")
        .await;
    s.click("[data-testid=create-table]").await;
    s.wait_for(&format!("[data-testid={table}]"), 20).await;
}

/// A 2-player table of `game` made through the API by the page's player, its other seat
/// `second` (e.g. `{"type": "bot", "level": "greedy"}` or `{"type": "open"}`), with `clock`
/// when given; its id.
pub(crate) async fn two_seat_table(
    s: &Session,
    game: &str,
    second: Value,
    clock: Option<&str>,
) -> String {
    let mut body = json!({"game": game, "options": {"players": 2},
                          "seats": [{"type": "me"}, second]});
    if let Some(clock) = clock {
        body["clock"] = json!(clock);
    }
    let table = call(s, "POST", "/api/tables", body).await;
    table["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a table: {table}"))
        .to_string()
}

/// `fetch` from the page (its session cookie), answering the JSON body.
pub(crate) async fn call(s: &Session, method: &str, path: &str, body: Value) -> Value {
    s.js(
        "return fetch(arguments[1], { method: arguments[0], headers: { 'content-type': 'application/json' },
            body: arguments[2] === null ? undefined : JSON.stringify(arguments[2]) }).then((r) => r.json());",
        json!([method, path, body]),
    )
    .await
}

/// A language's catalog as the site serves it (the games' own merged in).
pub(crate) fn catalog(lang: &str) -> Value {
    Value::Object(
        pyramidion_server::assets::catalog(lang)
            .expect("catalog")
            .expect("catalog JSON"),
    )
}

pub(crate) fn fill(template: &Value, key: &str, value: &str) -> String {
    template
        .as_str()
        .expect("catalog string")
        .replace(&format!("{{{key}}}"), value)
}

/// A table's numbered state and its `data-<part>` (its phase), as the page shows them;
/// (-1, "") before the table `data-testid=<table>` is drawn.
pub(crate) async fn state_of(s: &Session, table: &str, part: &str) -> (i64, String) {
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
pub(crate) async fn wait_state_past(s: &Session, table: &str, state: i64, secs: u64) {
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
pub(crate) async fn table_state(s: &Session) -> (i64, String) {
    state_of(s, "ft-table", "phase").await
}

pub(crate) async fn wait_past(s: &Session, state: i64) {
    wait_state_past(s, "ft-table", state, 20).await;
}

pub(crate) async fn is_my_turn(s: &Session) -> bool {
    s.js(
        "return !!document.querySelector('[data-testid=prompt].yours');",
        json!([]),
    )
    .await
    .as_bool()
    .unwrap_or(false)
}

pub(crate) async fn exists(s: &Session, css: &str) -> bool {
    !s.find_all(css).await.is_empty()
}

pub(crate) async fn open_solo(s: &Session, base: &str) {
    open_lobby(s, base).await;
    s.click("[data-testid=quick-the-legend]").await;
    s.wait_for("[data-testid=ft-table]", 15).await;
}

/// The Pyramids table's numbered state and phase.
pub(crate) async fn py_state(s: &Session) -> (i64, String) {
    state_of(s, "py-table", "phase").await
}

pub(crate) async fn py_wait_past(s: &Session, state: i64) {
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

/// The Pyramido table's numbered state and step.
pub(crate) async fn pyo_state(s: &Session) -> (i64, String) {
    state_of(s, "pyo-table", "phase").await
}

pub(crate) async fn pyo_wait_past(s: &Session, state: i64) {
    wait_state_past(s, "pyo-table", state, 30).await;
}

/// Focuses the first element matching `css` and presses Enter on it.
pub(crate) async fn key_activate(s: &Session, css: &str) {
    s.wait_for(css, 15).await;
    s.js(
        "document.querySelector(arguments[0]).focus(); return document.activeElement === document.querySelector(arguments[0]);",
        json!([css]),
    )
    .await;
    s.press("\u{E007}").await;
}

/// Saves `prefix-name` when a prefix is given.
pub(crate) async fn shot(s: &Session, dir: &Path, prefix: Option<&str>, name: &str) {
    if let Some(p) = prefix {
        s.screenshot(dir, &format!("{p}-{name}")).await;
    }
}

pub(crate) const DESKTOP_800: (u32, u32) = (1280, 800);

/// Sizes the window so that the page itself (the viewport) is `width` × `height`: the window
/// is its viewport plus Chromium's frame, which is measured, not assumed. A loaded machine
/// may report the viewport of the previous size for a moment after a resize, so the window is
/// corrected until the page says the size asked for.
pub(crate) async fn viewport(s: &Session, width: u32, height: u32) {
    let (mut outer_w, mut outer_h) = (width, height);
    let mut inner = json!([]);
    for _ in 0..20 {
        s.resize(outer_w, outer_h).await;
        inner = s
            .js("return [window.innerWidth, window.innerHeight];", json!([]))
            .await;
        if inner == json!([width, height]) {
            return;
        }
        let (iw, ih) = (
            inner[0].as_i64().unwrap_or(0),
            inner[1].as_i64().unwrap_or(0),
        );
        outer_w = (i64::from(outer_w) + i64::from(width) - iw).max(i64::from(width)) as u32;
        outer_h = (i64::from(outer_h) + i64::from(height) - ih).max(i64::from(height)) as u32;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(inner, json!([width, height]), "viewport size");
}

/// Every ghost of the own pyramid, Rotate and "Place here", as boxes outside the viewport
/// (empty when all are inside), with the number of ghosts.
pub(crate) async fn outside_viewport(s: &Session) -> (usize, Value) {
    let v = s
        .js(
            "const vw = window.innerWidth, vh = window.innerHeight;
             const ghosts = [...document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost] .ghost-outline')];
             const buttons = ['rotate', 'confirm-place'].map((id) => document.querySelector(`[data-testid=${id}]`));
             const out = [];
             for (const e of [...ghosts, ...buttons]) {
               if (!e) { out.push('missing'); continue; }
               const r = e.getBoundingClientRect();
               if (r.left < 0 || r.top < 0 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
                 out.push([e.getAttribute('class') || e.dataset.testid, r.left, r.top, r.right, r.bottom, vw, vh]);
             }
             return [ghosts.length, out];",
            json!([]),
        )
        .await;
    (v[0].as_u64().unwrap_or(0) as usize, v[1].clone())
}

/// The orientation shown (the hand's direction) and how many usable ones Rotate offers.
pub(crate) async fn orientation(s: &Session) -> (String, u64) {
    let v = s
        .js(
            "const b = document.querySelector('[data-testid=rotate]');
             return [document.querySelector('[data-testid=hand] .hand-box').dataset.dir, Number(b.dataset.orientations)];",
            json!([]),
        )
        .await;
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_u64().unwrap_or(0),
    )
}

/// Every pair of slot hit areas (block A's cell) that overlap by more than half a pixel, and
/// every slot whose hit area's centre is taken by something else (nothing may cover it).
pub(crate) async fn slot_hit_problems(s: &Session) -> (usize, Value) {
    let v = s
        .js(
            "const hits = [...document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost] .ghost-hit')];
             const boxes = hits.map((e) => e.getBoundingClientRect());
             const out = [];
             for (let i = 0; i < boxes.length; i++) {
               const a = boxes[i];
               if (a.width < 8 || a.height < 8) out.push(['tiny', i, a.width, a.height]);
               for (let j = i + 1; j < boxes.length; j++) {
                 const b = boxes[j];
                 const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                 const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                 if (w > 0.5 && h > 0.5) out.push(['overlap', i, j, w, h]);
               }
               const x = (a.left + a.right) / 2, y = (a.top + a.bottom) / 2;
               if (y >= 0 && y < window.innerHeight) {
                 const at = document.elementFromPoint(x, y);
                 if (!at || at.closest('[data-testid=ghost]') !== hits[i].closest('[data-testid=ghost]')) out.push(['covered', i, at ? at.getAttribute('class') : null]);
               }
             }
             return [hits.length, out];",
            json!([]),
        )
        .await;
    (v[0].as_u64().unwrap_or(0) as usize, v[1].clone())
}
