// @ts-check
// Offline play (issue 50; docs/client.md "Offline play"): `#/offline` lists the games the
// engines in the page can deal — every game against bots, and each solo mode — and the games
// in progress; `#/offline/<id>` plays one. The game is the page's own: it deals it from a seed
// it draws, plays the rules and the bots with the engines' module (web/js/engine.js; the bots
// in a Web Worker, web/js/offline-bot.js), keeps (game, options, seed, moves) in IndexedDB
// after every move (web/js/offline-store.js), and uploads it once it is over and the server
// can be reached (web/js/offline-sync.js). It is drawn by the game's own table, as the game
// page draws a game the server runs: the table gets the same context, built here from the
// engines' view of this page's seat instead of the socket's state.
import { h, mount, remount, unlessPressed } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, toast } from './shell.js';
import { loadEngines } from './engine.js';
import { gameResult, loadResultDetails, loadTable } from './game.js';
import { moveLog } from './move-log.js';
import { rulesLink } from './rules.js';
import { botSeed, botToMove, newOfflineGame, offlineGames } from './offline-store.js';
import { uploadOfflineGames } from './offline-sync.js';
import { dateText } from './history.js';

const range = (min, max) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/**
 * @param {HTMLElement} root the page
 * @param {string} [id] an offline game's id: play it; none: the list
 */
export async function renderOffline(root, id) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    return id ? await playPage(root, id) : await listPage(root);
  } catch (e) {
    console.error(e);
    // The engines' module not kept yet (never loaded with a connection) is the usual cause.
    mount(root, h('section.card', { 'data-testid': 'offline-unavailable' }, h('p', {}, t('offline.unavailable')), h('p.hint', {}, errorText(e.code || 'network'))));
  }
}

/** A new game against bots, or a solo mode: kept, then played. */
async function start(game, options, seats) {
  const store = await offlineGames();
  const g = newOfflineGame({ game, options, seats, now: Date.now(), random: (b) => crypto.getRandomValues(b) });
  await store.put(g);
  location.hash = `#/offline/${g.id}`;
}

async function listPage(root) {
  const engines = await loadEngines();
  const games = engines.games();
  const store = await offlineGames();
  const kept = (await store.all()).sort((a, b) => b.updated_at - a.updated_at);
  const draw = () =>
    mount(
      root,
      h(
        'div.offline',
        { 'data-testid': 'offline' },
        h('section.card', {}, h('h2', {}, t('offline.title')), h('p.hint', {}, t('offline.intro'))),
        h('section.card.quick', {}, h('div.game-cards', {}, games.map(startCard).filter(Boolean))),
        kept.length ? h('section.card', {}, h('h2', {}, t('offline.kept')), h('ul.offline-games', { 'data-testid': 'offline-games' }, kept.map(keptLine))) : null,
      ),
    );
  document.title = `${t('offline.title')} · Pyramidion`;
  draw();
  app.rerender = draw;
}

// A game's ways to play offline: against bots (at a level the game lists) and its solo modes.
function startCard(game) {
  const buttons = [];
  if (game.seats.max > 1 && game.bot_levels.length) {
    const players = Math.min(Math.max(2, Math.min(3, game.seats.max)), game.seats.max);
    const levels = game.bot_levels.map((l) => l.name);
    const level = h(
      'select',
      { 'data-testid': `offline-level-${game.key}`, 'aria-label': t('offline.level') },
      levels.map((l) => h('option', { value: l, selected: l === (levels.includes('greedy') ? 'greedy' : levels[0]) }, t(`bot.${l}`))),
    );
    buttons.push(
      h(
        'button.primary',
        {
          'data-testid': `offline-bots-${game.key}`,
          onclick: () => start(game.key, { players }, [{ type: 'me' }, ...range(2, players).map(() => ({ type: 'bot', level: /** @type {HTMLSelectElement} */ (level).value }))]),
        },
        t('quick.against_bots', { count: players - 1 }),
      ),
      level,
    );
  }
  if (game.seats.min === 1) {
    for (const o of game.options.filter((o) => !o.players.length || o.players.includes(1))) {
      for (const value of o.values) {
        buttons.push(h('button.primary', { 'data-testid': `offline-${value}`, onclick: () => start(game.key, { players: 1, [o.key]: value }, [{ type: 'me' }]) }, t(`quick.${value}`)));
      }
    }
  }
  if (!buttons.length) return null;
  // As the lobby's "Play now" cards: the game folder's picture (kept by the service worker).
  const picture = h('img.game-picture', { src: `/js/${encodeURIComponent(game.key)}/picture.svg`, alt: '', width: 120, height: 80 });
  picture.addEventListener('error', () => picture.remove());
  return h('article.game-card', { 'data-testid': `offline-card-${game.key}` }, picture, h('div.game-card-text', {}, h('h3', {}, t(`game.${game.key}`)), h('div.row', {}, buttons)));
}

function keptLine(g) {
  const status = h('span.badge', { 'data-status': g.status }, t(`offline.status_${g.status}`));
  const open =
    g.status === 'uploaded' ? h('a', { href: `#/replay/${g.server_id}` }, t('history.replay')) : h('a', { href: `#/offline/${g.id}` }, t(g.status === 'playing' ? 'offline.resume' : 'offline.open'));
  return h('li.row', { 'data-testid': `offline-game-${g.id}` }, h('strong', {}, t(`game.${g.game}`)), ' ', h('span.hint', {}, dateText(g.updated_at)), status, open);
}

/** Asks the bot worker for a move; one worker per page, answers matched by number. */
function botPlayer() {
  const worker = new Worker(new URL('./offline-bot.js', import.meta.url), { type: 'module' });
  let asked = 0;
  const waiting = new Map();
  worker.onmessage = (e) => {
    const done = waiting.get(e.data.ask);
    waiting.delete(e.data.ask);
    if (done) done(e.data);
  };
  return {
    /** @returns {Promise<{move?: string, code?: string}>} */
    move: (record, level, seed) =>
      new Promise((resolve) => {
        asked += 1;
        waiting.set(asked, resolve);
        worker.postMessage({ ask: asked, record, level, seed: String(seed) });
      }),
    stop: () => worker.terminate(),
  };
}

async function playPage(root, id) {
  const store = await offlineGames();
  const kept = await store.get(id);
  if (!kept) {
    mount(root, h('section.card', { 'data-testid': 'offline-missing' }, h('p', {}, t('offline.missing')), h('a.button', { href: '#/offline' }, t('offline.title'))));
    return;
  }
  const engines = await loadEngines();
  const [render, resultDetails] = await Promise.all([loadTable(kept.game), loadResultDetails(kept.game)]);
  const seat = kept.seat;
  // The game dealt again from its seed and its moves replayed: the log as this seat sees it
  // (a bot's hidden choices redacted as the server would).
  const engine = engines.newGame(kept.game, kept.options, BigInt(kept.seed));
  const log = [];
  for (const m of kept.moves) log.push({ ply: log.length, ...engine.playSeenBy(m, seat) });
  const page = { game: kept, ui: {}, pending: false, left: false };
  const table = {
    id: `offline-${id}`,
    game: kept.game,
    status: 'live',
    rated: false,
    seats: kept.seats.map((s) => (s.type === 'me' ? { type: 'human', me: true, name: app.me ? app.me.name : t('seat.you') } : { type: 'bot', level: s.level })),
  };
  const seatName = (i) => {
    const s = kept.seats[i];
    if (!s) return t('seat.number', { n: i + 1 });
    return s.type === 'me' ? t('seat.you') : t('seat.bot_named', { n: i + 1, level: t(`bot.${s.level}`) });
  };
  const bots = botPlayer();

  // Uploads the finished games (this one among them) and shows what became of this one.
  const upload = async () => {
    await uploadOfflineGames();
    const g = await store.get(id);
    if (g && !page.left) {
      page.game = g;
      draw();
    }
  };

  const save = async () => {
    const over = engine.toMove === undefined;
    page.game = { ...page.game, moves: engine.record().moves, status: over ? 'over' : 'playing', updated_at: Date.now() };
    await store.put(page.game);
    if (over) upload();
  };

  const played = (text) => {
    log.push({ ply: log.length, ...engine.playSeenBy(text, seat) });
    page.ui.selected = null;
  };

  // This page's move: checked by the rules in the page, kept, then the bots answer.
  const play = async (text) => {
    if (page.pending || engine.toMove !== seat) return;
    try {
      played(text);
    } catch (e) {
      toast(errorText(e.code, e.message));
      return draw();
    }
    page.pending = true;
    await save();
    page.pending = false;
    draw();
    runBots();
  };

  // The bots play their turns one move at a time, each kept before the next is asked.
  const runBots = async () => {
    let level;
    while (!page.left && (level = botToMove(page.game, engine.toMove))) {
      page.pending = true;
      draw();
      const answer = await bots.move(engine.record(), level, botSeed(page.game.seed, engine.ply));
      if (page.left) return;
      if (!answer.move) {
        page.pending = false;
        toast(errorText(answer.code || 'engine_error'));
        return draw();
      }
      played(answer.move);
      await save();
    }
    page.pending = false;
    draw();
  };

  const draw = unlessPressed(() => {
    const over = engine.toMove === undefined;
    const myTurn = !over && engine.toMove === seat;
    const legal = myTurn && !page.pending ? engine.legalMoves() : [];
    const view = engine.view(seat);
    const state = {
      game: table.id,
      state_id: engine.ply,
      event: engine.ply,
      seat,
      to_move: over ? null : engine.toMove,
      last_move: log.length ? log[log.length - 1] : null,
      missed: [],
      view,
      legal,
      finished: over,
      outcome: engine.outcome(),
      clock: null,
      bots: kept.seats.map((s) => s.type === 'bot'),
      resigned: [],
      ending: null,
      away: [],
    };
    const ctx = {
      id: table.id,
      table,
      state,
      view,
      seat,
      legal,
      myTurn,
      ui: page.ui,
      log,
      seatName,
      play,
      redraw: draw,
      pending: page.pending,
      receivedAt: performance.now(),
      notice: null,
      moveLog: (describe, interludes) => moveLog(ctx, describe, interludes),
      freshMove: state.last_move && state.last_move.seat !== seat ? state.last_move : null,
    };
    let board;
    let result = null;
    try {
      result = gameResult(ctx, resultDetails);
      board = render(ctx);
    } catch (e) {
      console.error(e);
      board = h('p.hint', { 'data-testid': 'render-error', 'data-code': 'render_failed' }, t('error.render'));
    }
    remount(
      root,
      h('p.table-links', {}, h('span.table-kind', { 'data-testid': 'offline-kind' }, t('offline.kind')), ' · ', rulesLink(kept.game, true)),
      over ? endBar(page.game) : null,
      fixRecordLink(result, page.game),
      board,
    );
    root.classList.toggle('pending', page.pending);
    document.title = `${t(`game.${kept.game}`)} · ${t('offline.kind')} · Pyramidion`;
  });

  // The connection back: a finished game goes to the history, and its end bar says so.
  const offStatus = app.socket
    ? app.socket.onStatus((status) => {
        if (status === 'connected' && page.game.status === 'over') upload();
      })
    : () => {};
  app.leave = () => {
    page.left = true;
    bots.stop();
    offStatus();
    root.classList.remove('pending');
  };
  app.rerender = draw;
  draw();
  // A reload while a bot was to move: it plays on (the same move, from the same seed).
  runBots();
}

// Under a finished offline game: where it is (uploaded: its replay on the server; not yet:
// it will be, once the connection is back) and a new one.
function endBar(g) {
  const where =
    g.status === 'uploaded'
      ? h('a.button', { href: `#/replay/${g.server_id}`, 'data-testid': 'offline-replay' }, t('offline.in_history'))
      : g.status === 'refused'
        ? h('span.hint', { 'data-testid': 'offline-refused' }, t('offline.refused'), ' ', errorText(g.code))
        : h('span.hint', { 'data-testid': 'offline-waiting' }, t('offline.will_upload'));
  return h('nav.card.end-bar.row', { 'data-testid': 'offline-end', 'data-status': g.status }, where, h('a.button', { href: '#/offline' }, t('offline.another')));
}

// The result panel's record link points at the server's record of a game it runs; an
// offline game's record is the page's own until it is uploaded (then the server's).
function fixRecordLink(result, g) {
  const link = result && result.querySelector('[data-testid=record-link]');
  if (link) {
    const record = { game: g.game, options: g.options, seed: g.seed, moves: g.moves };
    if (g.status === 'uploaded') link.setAttribute('href', `/api/games/${g.server_id}/record?format=text`);
    else {
      // A download: browsers do not open a `data:` address as a page.
      link.setAttribute('href', `data:application/json,${encodeURIComponent(JSON.stringify(record))}`);
      link.setAttribute('download', `${g.game}-${g.id}.json`);
      link.removeAttribute('target');
    }
  }
  return result;
}
