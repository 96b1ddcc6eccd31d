//! The shell around the tables: the language switch, a reload and a server restart mid-game,
//! the table builder and the lobby (both from the game descriptors), How to play, and a game the
//! server cannot open yet.
use crate::browser::forgotten_treasures::play_step;
use crate::browser::support::{
    DESKTOP, DESKTOP_800, PHONE, artifacts, catalog, exists, fill, open_lobby, open_solo,
    start_server, table_state, viewport, wait_past, world, world_on, world_with,
};
use crate::browser::webdriver::free_port;
use pyramidion_games::GameKind;
use serde_json::json;

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
        fill(&it["table.stage"], "stage", "1").replace("{stages}", "4")
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

/// A first-time visitor's lobby at 1280×800 and 375×812: "Play now" has one card per game of
/// the descriptors, each with its picture, one line saying what it is, a table against bots,
/// and a button per solo mode where the game has one; at 1280×800 the open tables are in view
/// without scrolling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_offers_each_game_with_a_picture_and_shows_open_tables_at_once() {
    let w = world("round3-lobby").await;
    let s = w.driver.session(DESKTOP_800.0, DESKTOP_800.1).await;
    open_lobby(&s, &w.server.base).await;
    viewport(&s, DESKTOP_800.0, DESKTOP_800.1).await;
    s.wait_for("[data-testid=open-tables]", 10).await;
    let v = s
        .js(
            "return fetch('/api/games').then((r) => r.json()).then(async ({ games }) => {
               const out = [];
               for (const g of games) {
                 const card = document.querySelector(`[data-testid=game-card-${g.key}]`);
                 if (!card) { out.push(['no card', g.key]); continue; }
                 const img = card.querySelector('img.game-picture');
                 if (img && !img.complete) await new Promise((ok) => img.addEventListener('load', ok, { once: true }));
                 if (!img || img.naturalWidth === 0) out.push(['no picture', g.key]);
                 if (!card.querySelector('[data-testid=game-line]')) out.push(['no line', g.key]);
                 const buttons = [...card.querySelectorAll('button')].map((b) => b.dataset.testid);
                 if (g.seats.max > 1 && !buttons.some((b) => b.startsWith('quick-bots'))) out.push(['no bots', g.key]);
                 const solo = g.seats.min === 1 ? g.options.flatMap((o) => o.values.map((v) => `quick-${v}`)) : [];
                 for (const b of solo) if (!buttons.includes(b)) out.push(['no solo', g.key, b]);
               }
               const open = document.querySelector('[data-testid=open-tables] h2').getBoundingClientRect();
               return [games.length, out, open.bottom, window.innerHeight];
             });",
            json!([]),
        )
        .await;
    assert!(v[0].as_u64().unwrap_or(0) >= 3, "{v}");
    assert_eq!(v[1], json!([]), "every game offered");
    assert!(
        v[2].as_f64().unwrap_or(f64::MAX) <= v[3].as_f64().unwrap_or(0.0),
        "the open tables in view at 1280×800: {v}"
    );
    let dir = artifacts();
    s.screenshot(&dir, "round3-lobby-first-visit-1280x800")
        .await;
    viewport(&s, PHONE.0, PHONE.1).await;
    s.screenshot(&dir, "round3-lobby-first-visit-375x812").await;
    // Issue 46: the ways to play come first, in view on a phone: a person now, bots, a
    // table, the daily, watching, offline (issue 50), tournaments (issue 49), the leaderboards;
    // the tutorials (issue 48; a first visit is offered them in a dialog under the ways).
    let ways = s
        .js(
            "const nav = document.querySelector('.lobby > :first-child');
             const r = nav.getBoundingClientRect();
             return [nav.dataset.testid, [...nav.children].map((c) => c.dataset.testid), r.bottom <= window.innerHeight];",
            json!([]),
        )
        .await;
    assert_eq!(
        ways,
        json!([
            "ways-to-play",
            [
                "play-now-link",
                "way-bots",
                "way-table",
                "way-daily",
                "watch-link",
                "way-offline",
                "tournaments-link",
                "way-leaderboards",
                "way-learn"
            ],
            true
        ])
    );
    s.click("[data-testid=way-daily]").await;
    s.wait_until(
        "the daily challenge brought into view",
        "const r = document.querySelector('[data-testid=daily]').getBoundingClientRect(); return r.top >= -1 && r.top < window.innerHeight / 2;",
        json!([]),
        10,
    )
    .await;
    // A game's "against bots" starts a table with bots at once.
    s.click("[data-game=pyramido][data-testid^=quick-bots]")
        .await;
    s.wait_for("[data-testid=pyo-table]", 20).await;
    s.quit().await;
}

/// How to play: the lobby links every game of the descriptors to its rules summary, which
/// follows the language; a table links to its own game's rules in a new tab.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn how_to_play_is_reachable_from_the_lobby_and_the_table_in_three_languages() {
    let w = world("polish-rules").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.wait_for("[data-testid=how-to-play]", 10).await;
    let keys = s
        .js(
            "return fetch('/api/games').then((r) => r.json()).then((c) => c.games.map((g) => g.key));",
            json!([]),
        )
        .await;
    let keys: Vec<String> = keys
        .as_array()
        .expect("game keys")
        .iter()
        .map(|k| k.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(keys.len() >= 3, "{keys:?}");
    let mut texts = Vec::new();
    for key in &keys {
        open_lobby(&s, &w.server.base).await;
        s.click(&format!(
            "[data-testid=how-to-play] [data-testid=rules-{key}]"
        ))
        .await;
        s.wait_for(&format!("[data-testid=rules-page][data-game={key}]"), 10)
            .await;
        let en = s.text("[data-testid=rules-text]").await;
        assert!(en.len() > 600, "{key}: a real summary: {en}");
        s.screenshot(&artifacts(), &format!("rules-{key}-en-1280"))
            .await;
        for lang in ["fr", "it"] {
            s.click(&format!("[data-testid=language] option[value={lang}]"))
                .await;
            let other = s
                .wait_until(
                    "the rules in another language",
                    "const e = document.querySelector('[data-testid=rules-text]');
                     return e && e.textContent !== arguments[0] && e.getAttribute('lang') === arguments[1] && e.textContent;",
                    json!([en, lang]),
                    10,
                )
                .await;
            assert!(other.as_str().unwrap_or("").len() > 600, "{key} {lang}");
        }
        s.click("[data-testid=language] option[value=en]").await;
        texts.push(en);
    }
    // Every game has its own summary; the solo game explains its two solo modes.
    let distinct: std::collections::BTreeSet<_> = texts.iter().collect();
    assert_eq!(distinct.len(), keys.len());
    let solo = texts
        .iter()
        .find(|t| t.contains("Become THE Legend") && t.contains("Become A Legend"));
    assert!(solo.is_some(), "the solo modes are explained");
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&artifacts(), "rules-last-en-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;
    // From a table: a link to its game's rules that keeps the game open.
    open_solo(&s, &w.server.base).await;
    let link = s
        .js(
            "const a = document.querySelector('.table-links a[data-testid^=rules-]');
             return a && [a.getAttribute('href'), a.target];",
            json!([]),
        )
        .await;
    let game = s
        .js(
            "return fetch('/api/tables/' + location.hash.split('/')[2]).then((r) => r.json()).then((t) => t.game);",
            json!([]),
        )
        .await;
    assert_eq!(
        link,
        json!([format!("#/rules/{}", game.as_str().unwrap_or("")), "_blank"])
    );
    s.quit().await;
}

/// A game the server will not open (here: at its live-games cap, another game live) is said in
/// words in place of the board, with a way to ask again, and the board comes when it can:
/// before, the refusal was a toast over a page that stayed at "Loading…".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_the_server_cannot_open_yet_says_why_and_opens_on_a_retry() {
    // One live game at most; a game nobody follows leaves memory after a second.
    let w = world_with(
        "unreachable",
        "127.0.0.1:0",
        &["--max-live-games", "1", "--room-idle", "1"],
    )
    .await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    // Creates a table against a bot; its id, or null while the server is at its cap.
    let create = "return fetch('/api/tables', { method: 'POST', credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game: 'forgotten-treasures', options: { players: 2 },
          seats: [{ type: 'me' }, { type: 'bot', level: 'random' }] }) })
      .then(async (r) => r.status === 201 ? (await r.json()).id : null);";
    let first = s.js(create, json!([])).await;
    let first = first
        .as_str()
        .expect("the first table is created")
        .to_string();
    // The second is created once the first, followed by nobody, has left memory…
    let second = s
        .wait_until("a second table under the cap", create, json!([]), 30)
        .await;
    // …and followed by a socket of its own, so that it stays live.
    s.js(
        "const [game] = arguments;
         window.keeper = new WebSocket(location.origin.replace('http', 'ws') + '/ws');
         window.keeper.onopen = () => window.keeper.send(JSON.stringify({ type: 'subscribe', game }));
         window.keeper.onmessage = (e) => { if (JSON.parse(e.data).type === 'state') window.kept = true; };",
        json!([second]),
    )
    .await;
    s.wait_until(
        "the second table followed",
        "return window.kept === true;",
        json!([]),
        15,
    )
    .await;
    // The first game cannot be opened now: the page says so, in words, with a retry.
    s.js("location.hash = '#/game/' + arguments[0];", json!([first]))
        .await;
    s.wait_for("[data-testid=table-unreachable][data-code=unavailable]", 15)
        .await;
    let en = catalog("en");
    let said = s.text("[data-testid=table-unreachable]").await;
    for key in ["table.unreachable", "error.unavailable"] {
        assert!(said.contains(en[key].as_str().unwrap()), "{key}: {said}");
    }
    assert!(!exists(&s, "p.loading").await, "no endless Loading…");
    s.screenshot(&artifacts(), "unreachable-1280").await;
    // Said again in the language chosen, as everything else is.
    for lang in ["fr", "it"] {
        let cat = catalog(lang);
        s.click(&format!("[data-testid=language] option[value={lang}]"))
            .await;
        s.wait_until(
            "the refusal in the new language",
            "const e = document.querySelector('[data-testid=table-unreachable]');
             return e && e.textContent.includes(arguments[0]) && e.textContent.includes(arguments[1]);",
            json!([cat["table.unreachable"], cat["table.retry"]]),
            10,
        )
        .await;
    }
    // Once the other game is left, a retry opens the board.
    s.js("window.keeper.close();", json!([])).await;
    s.wait_until(
        "the board after a retry",
        "if (document.querySelector('[data-testid=ft-table]')) return true;
         document.querySelector('[data-testid=table-retry]')?.click();
         return false;",
        json!([]),
        30,
    )
    .await;
    s.quit().await;
}
