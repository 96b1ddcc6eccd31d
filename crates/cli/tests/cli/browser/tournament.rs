//! Tournaments in the browser (issue 49): three profiles (two accounts and a guest) enter a
//! Swiss of three rounds at tables of two with a bot filling, each plays the game of each
//! round from its page, the standings move on the page as results come in (socket, no
//! reload), and the podium shows; screenshots at 1280 and 375 px, one in French.
use crate::browser::support::{
    DESKTOP, PHONE, REGISTER, catalog, open_lobby, shots, viewport, world,
};
use crate::browser::webdriver::Session;
use serde_json::{Value, json};

/// Plays game `arguments[0]` from the page over a WebSocket of its own, a random legal move
/// each time, until it is over.
const PLAY_GAME: &str = "const [game] = arguments;
return (async () => {
  const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws');
  const { applyPatch } = await import('/js/patch.js');
  let held = null;
  return await new Promise((done) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', game }));
    ws.onmessage = (e) => {
      let m = JSON.parse(e.data);
      if (m.type === 'error' && m.code !== 'stale_state' && m.code !== 'not_your_turn') { ws.close(); done(['error', m]); }
      if (m.type === 'patch') {
        const next = applyPatch(held, m);
        if (!next) { ws.send(JSON.stringify({ type: 'subscribe', game, last_event: held && held.state_id })); return; }
        m = next;
      }
      if (m.type !== 'state' || m.game !== game) return;
      held = m;
      if (m.finished) { ws.close(); done([game, 'finished']); return; }
      const move = m.legal[Math.floor(Math.random() * m.legal.length)];
      if (move) ws.send(JSON.stringify({ type: 'move', game, state_id: m.state_id, move: move.text }));
    };
  });
})();";

/// Plays this profile's table of rounds 1 to 3 as the page links them ("your table").
async fn play_rounds(s: &Session) -> Vec<Value> {
    let mut played = Vec::new();
    for round in 1..=3 {
        let game = s
            .wait_until(
                "this round's table",
                "const rounds = document.querySelectorAll('[data-testid=tournament-round]').length;
                 const a = document.querySelector('[data-testid=tournament-my-table]');
                 return rounds === arguments[0] && a && a.getAttribute('href').slice('#/game/'.length);",
                json!([round]),
                60,
            )
            .await;
        let done = s.js(PLAY_GAME, json!([game])).await;
        assert_eq!(done[1], "finished", "{done}");
        played.push(game);
    }
    played
}

/// The points column of the standings, as the page shows it.
async fn points(s: &Session) -> Value {
    s.js(
        "return [...document.querySelectorAll('[data-testid=standing-points]')].map((e) => Number(e.textContent));",
        json!([]),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_profiles_play_a_swiss_with_a_bot_filling_and_see_the_podium() {
    let w = world("tournament").await;
    let base = w.server.base.clone();
    let en = catalog("en");
    let a = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let b = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    let c = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    for s in [&a, &b, &c] {
        open_lobby(s, &base).await;
    }
    assert_eq!(a.js(REGISTER, json!(["ada"])).await, 200);
    assert_eq!(b.js(REGISTER, json!(["bea"])).await, 200);
    // The lobby links the tournaments; an account creates one from the form.
    for s in [&a, &b] {
        s.refresh().await;
        s.wait_for("[data-testid=connection][data-status=connected]", 15)
            .await;
    }
    a.click("[data-testid=tournaments-link]").await;
    a.wait_for("[data-testid=tournament-create]", 15).await;
    a.js(
        "const set = (id, v) => { const e = document.querySelector(`[data-testid=${id}]`); e.value = v; e.dispatchEvent(new Event(e.tagName === 'INPUT' ? 'input' : 'change')); };
         set('tournament-name', 'Winter Swiss'); set('tournament-game', 'pyramids');
         set('tournament-seats', '2'); set('tournament-rounds', '3');",
        json!([]),
    )
    .await;
    a.click("[data-testid=tournament-submit]").await;
    a.wait_for("[data-testid=tournament][data-status=open]", 15)
        .await;
    let id = a
        .js(
            "return location.hash.slice('#/tournament/'.length);",
            json!([]),
        )
        .await
        .as_str()
        .unwrap()
        .to_string();
    // The others enter from its page (the guest too).
    for s in [&b, &c] {
        s.goto(&format!("{base}/#/tournament/{id}")).await;
        s.wait_for("[data-testid=tournament-join]", 15).await;
        s.click("[data-testid=tournament-join]").await;
        s.wait_for("[data-testid=tournament-leave]", 15).await;
    }
    a.refresh().await;
    a.wait_for("[data-testid=tournament-start]", 15).await;
    a.screenshot(&shots(), "tournament-open-1280").await;
    a.click("[data-testid=tournament-start]").await;

    // Round 1 shows on every page without a reload; the standings move as games end.
    let before = {
        a.wait_for("[data-testid=tournament-my-table]", 20).await;
        points(&a).await
    };
    let (pa, pb, pc) = tokio::join!(play_rounds(&a), play_rounds(&b), play_rounds(&c));
    for played in [&pa, &pb, &pc] {
        assert_eq!(played.len(), 3);
    }
    for s in [&a, &b, &c] {
        s.wait_for("[data-testid=tournament-podium]", 30).await;
    }
    let after = points(&a).await;
    assert_ne!(before, after, "the standings moved");
    let total: i64 = after
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .sum();
    assert_eq!(
        total,
        3 * 2 * 24,
        "three rounds of two tables, 24 points each"
    );
    assert_eq!(
        a.find_all("[data-testid=standing-row]").await.len(),
        4,
        "three people and the bot"
    );
    let podium = a
        .js(
            "return [...document.querySelectorAll('[data-testid=podium-place]')].map((l) => l.textContent);",
            json!([]),
        )
        .await;
    assert_eq!(podium.as_array().unwrap().len(), 3, "{podium}");
    assert!(
        !podium.to_string().contains(
            en["tournament.bot"]
                .as_str()
                .unwrap()
                .replace("{name}", "")
                .trim()
        ),
        "no bot on the podium: {podium}"
    );
    let dir = shots();
    a.screenshot(&dir, "tournament-podium-1280").await;
    viewport(&b, PHONE.0, PHONE.1).await;
    b.screenshot(&dir, "tournament-podium-375").await;
    c.click("[data-testid=language] option[value=fr]").await;
    let fr = catalog("fr");
    c.wait_until(
        "the page in French",
        "return document.querySelector('.podium h2')?.textContent === arguments[0];",
        json!([fr["tournament.podium"]]),
        10,
    )
    .await;
    c.screenshot(&dir, "tournament-podium-fr-1280").await;
    viewport(&c, PHONE.0, PHONE.1).await;
    c.screenshot(&dir, "tournament-podium-fr-375").await;
    c.goto(&format!("{base}/#/tournaments")).await;
    c.wait_for("[data-testid=tournament-item]", 15).await;
    c.screenshot(&dir, "tournament-list-fr-375").await;
}
