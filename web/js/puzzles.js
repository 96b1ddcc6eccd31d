// @ts-check
// A game's puzzles (`#/puzzles/<game>`, `#/puzzles/<game>/<id>`): a position from a real game
// as its deciding seat saw it, drawn by the game's own table; the player finds the move the
// judge proved best. The server says whether it was (the browser never judges a move), moves
// both ratings on a first try and sends the explanation: every candidate's expected points,
// drawn on the board. Retry, hint (the rules' themes), next, the day's puzzle, the player's
// rating and history. The shell names no game: the key comes from the route.
import { api } from './api.js';
import { h, mount, unlessPressed } from './dom.js';
import { has, t } from './i18n.js';
import { showError } from './shell.js';
import { loadMoveText, loadTable } from './game.js';
import { moveLog } from './move-log.js';
import { makeInert } from './inert.js';
import { keepPuzzle, offlinePuzzle, onAttemptsSent, puzzleStore, queueAttempt, sendPuzzleAttempts } from './puzzle-offline.js';

/** @param {number} v expected points (final lead), signed */
const signed = (v) => (v > 0 ? '+' : '') + v.toFixed(1);

/**
 * @param {HTMLElement} root the page
 * @param {string} key the game
 * @param {string} [id] one puzzle (else the next one for the player)
 */
export async function renderPuzzles(root, key, id) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  const page = {
    /** @type {any} */ puzzle: null,
    /** @type {any} */ rating: null,
    /** @type {any} */ daily: null,
    /** @type {any[]} */ history: [],
    optOut: false,
    /** @type {any} */ result: null,
    hint: false,
    pending: false,
    // No connection: the puzzle is one kept on this device (web/js/puzzle-offline.js), and a
    // move tried waits in `queued` until the server can judge it.
    offline: false,
    /** @type {string | null} */ queued: null,
    /** @type {string | null} */ refused: null,
    ui: {},
  };
  let render;
  let moveText;
  try {
    render = await loadTable(key);
    moveText = await loadMoveText(key);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, t('shell.failed')));
  }
  const say = (text) => {
    const form = page.puzzle && page.puzzle.legal.find((m) => m.text === text);
    return form ? moveText(form) : text;
  };

  const load = async () => {
    try {
      const [found, daily, history, optOut] = await Promise.all([
        id ? api('GET', `/api/puzzles/${encodeURIComponent(id)}`) : api('GET', `/api/puzzles/${encodeURIComponent(key)}/next`),
        api('GET', `/api/puzzles/${encodeURIComponent(key)}/daily`),
        api('GET', `/api/puzzles/${encodeURIComponent(key)}/history`),
        api('GET', '/api/puzzles/opt-out'),
      ]);
      page.optOut = optOut.opt_out;
      page.puzzle = id ? found : found.puzzle;
      page.daily = daily;
      page.history = history.attempts;
      page.rating = history.rating;
      page.result = null;
      page.hint = false;
      page.ui = {};
      page.offline = false;
      page.queued = null;
      page.refused = null;
      if (page.puzzle) keepPuzzle(await puzzleStore(), page.puzzle, Date.now()).catch((e) => console.warn('puzzle not kept offline:', e));
    } catch (e) {
      if (e && e.code === 'network') return loadOffline(id ? { id } : {});
      showError(e);
      return mount(root, h('p.hint', { 'data-testid': 'puzzle-error' }, t('shell.failed')));
    }
    draw();
  };

  // With no connection: a puzzle kept on this device (the one asked, else one not tried yet).
  const loadOffline = async (/** @type {{ id?: string, after?: string }} */ which) => {
    const store = await puzzleStore();
    page.offline = true;
    page.puzzle = await offlinePuzzle(store, key, which);
    page.daily = null;
    page.history = [];
    page.rating = null;
    page.result = null;
    page.hint = false;
    page.ui = {};
    page.refused = null;
    const waiting = page.puzzle && (await store.attempts.get(page.puzzle.id));
    page.queued = waiting ? waiting.move : null;
    draw();
  };

  // The moves tried offline, judged once the connection is back: this puzzle's answer shows.
  const stop = onAttemptsSent((done) => {
    if (!root.isConnected) return stop();
    const mine = page.puzzle && done.find((d) => d.attempt.id === page.puzzle.id);
    if (!mine) return;
    page.offline = false;
    page.queued = null;
    if (mine.result) {
      page.result = mine.result;
      if (page.result.rated) page.rating = page.result.rating_after;
      api('GET', `/api/puzzles/${encodeURIComponent(key)}/history`)
        .then((history) => {
          page.history = history.attempts;
          page.rating = history.rating;
          draw();
        })
        .catch(() => {});
    } else page.refused = mine.code || 'internal';
    draw();
  });

  const attempt = async (text) => {
    if (page.pending || page.result || page.queued) return;
    page.pending = true;
    try {
      if (page.offline) await wait(text);
      else {
        page.result = await api('POST', `/api/puzzles/${encodeURIComponent(page.puzzle.id)}/attempt`, { move: text });
        if (page.result.rated) page.rating = page.result.rating_after;
        const history = await api('GET', `/api/puzzles/${encodeURIComponent(key)}/history`);
        page.history = history.attempts;
      }
    } catch (e) {
      if (e && e.code === 'network' && !page.result) await wait(text);
      else showError(e);
    }
    page.pending = false;
    draw();
  };

  // A move tried with no connection: kept, and sent when the server can be reached.
  const wait = async (/** @type {string} */ text) => {
    const kept = await queueAttempt(await puzzleStore(), { id: page.puzzle.id, game: key, move: text }, Date.now());
    page.offline = true;
    page.queued = kept.move;
    sendPuzzleAttempts();
  };

  const retry = () => {
    page.result = null;
    page.ui = {};
    draw();
  };
  const next = () => {
    if (page.offline) loadOffline({ after: page.puzzle && page.puzzle.id });
    else if (id) location.hash = `#/puzzles/${key}`;
    else load();
  };

  const seatName = (seat) => (seat === page.puzzle.seat ? t('puzzle.you') : t('puzzle.seat', { n: seat + 1 }));

  const board = () => {
    const p = page.puzzle;
    const r = page.result;
    const candidates = r ? r.explanation.candidates : [];
    // After a try the board shows the candidates as the table draws choices (the best one
    // selected), each marked with its expected points; before, the position's legal moves.
    const legal = r ? candidates.map((c) => p.legal.find((m) => m.text === c.text)).filter(Boolean) : p.legal;
    if (r && candidates.length && !candidates.some((c) => c.text === page.ui.selected)) page.ui.selected = candidates[0].text;
    // A position outside a live game has no state number to show (`unnumbered`: the status
    // line's "move 0" said nothing to a player; the prompt card says where it stands).
    const state = { seat: p.seat, to_move: p.seat, state_id: 0, unnumbered: true, event: 0, view: p.view, legal, finished: false, missed: [], last_move: null };
    /** @type {any} */
    const ctx = {
      id: p.id,
      table: { game: key, seats: Array.from({ length: p.seats }, (_, i) => ({ type: 'human', name: seatName(i), me: i === p.seat })), rated: false },
      state,
      view: p.view,
      seat: p.seat,
      legal,
      myTurn: !page.pending,
      ui: page.ui,
      log: [],
      seatName,
      // A table plays a move by its text, as on a live table.
      play: (/** @type {string} */ text) => attempt(text),
      redraw: draw,
      pending: page.pending,
      replay: Boolean(r),
      // Until tried, no helper of the table shows the best move (the stage end's best
      // allocation would answer an activation puzzle).
      puzzle: !r,
      // The puzzle's seat is the reader's, also while its explanation is drawn as a replay.
      readerSeat: p.seat,
      moveLog: null,
    };
    ctx.moveLog = (describe, interludes) => moveLog(ctx, describe, interludes);
    let drawn;
    try {
      drawn = render(ctx);
    } catch (e) {
      console.error(e);
      return h('p.hint', { 'data-testid': 'render-error' }, t('error.render'));
    }
    if (r) {
      markCandidates(drawn, candidates, r.explanation.solutions);
      makeInert(drawn);
    } else if (page.queued) makeInert(drawn);
    return drawn;
  };

  // Each candidate's expected points on the table's drawing of it (a ghost, a slot, a card).
  const markCandidates = (drawn, candidates, solutions) => {
    const points = new Map(candidates.map((c) => [c.text, c.points]));
    const roots = (Array.isArray(drawn) ? drawn.flat(Infinity) : [drawn]).filter((n) => n && n.querySelectorAll);
    const sel = '[data-move], [data-key]';
    for (const el of roots.flatMap((r) => [...(r.matches(sel) ? [r] : []), ...r.querySelectorAll(sel)])) {
      const text = el.getAttribute('data-move') || el.getAttribute('data-key');
      if (!points.has(text)) continue;
      el.setAttribute('data-points', signed(points.get(text)));
      el.classList.add(solutions.includes(text) ? 'puzzle-solution' : 'puzzle-candidate');
    }
  };

  const chooser = () => {
    const p = page.puzzle;
    const select = /** @type {HTMLSelectElement} */ (
      h(
        'select',
        { 'data-testid': 'puzzle-move', 'aria-label': t('puzzle.choose') },
        p.legal.map((m) => h('option', { value: m.text }, say(m.text))),
      )
    );
    return h(
      'details.puzzle-chooser',
      {},
      h('summary', {}, t('puzzle.all_moves', { count: p.legal.length })),
      h('p.row', {}, select, ' ', h('button', { 'data-testid': 'puzzle-play', disabled: page.pending, onclick: () => attempt(select.value) }, t('puzzle.play'))),
    );
  };

  const themes = (p) => p.themes.map((x) => (has(`puzzle.theme.${x}`) ? t(`puzzle.theme.${x}`) : x)).join(', ');

  const resultPanel = () => {
    const r = page.result;
    const change = r.rating_after.rating - r.rating_before.rating;
    return h(
      `section.card.puzzle-result.${r.solved ? 'solved' : 'failed'}`,
      { 'data-testid': 'puzzle-result', 'data-solved': String(r.solved), role: 'status' },
      h('h3', {}, r.solved ? t('puzzle.solved') : t('puzzle.failed', { move: say(r.move) })),
      r.rated
        ? h('p', { 'data-testid': 'puzzle-rating-change' }, t('puzzle.rating_change', { before: r.rating_before.rating, after: r.rating_after.rating, change: (change > 0 ? '+' : '') + change }))
        : h('p.hint', {}, t('puzzle.unrated_retry')),
      h('p', {}, t(r.explanation.solutions.length > 1 ? 'puzzle.solutions' : 'puzzle.solution', { moves: r.explanation.solutions.map(say).join(' · ') })),
      h('p.hint', {}, t('puzzle.explain')),
      h(
        'ol.puzzle-candidates',
        { 'data-testid': 'puzzle-candidates' },
        r.explanation.candidates.map((c) =>
          h(
            `li${r.explanation.solutions.includes(c.text) ? '.solution' : ''}`,
            {
              'data-move': c.text,
              tabindex: '0',
              // The board draws the candidate picked here as its chosen move.
              onclick: () => {
                page.ui.selected = c.text;
                draw();
              },
            },
            h('span.points', {}, signed(c.points)),
            ' ',
            say(c.text),
            c.text === r.move ? h('span.badge', {}, ` ${t('puzzle.yours')}`) : null,
          ),
        ),
      ),
      h('p.row', {}, h('button', { 'data-testid': 'puzzle-retry', onclick: retry }, t('puzzle.retry')), ' ', h('button', { 'data-testid': 'puzzle-next', onclick: next }, t('puzzle.next'))),
    );
  };

  // A move tried offline, waiting for the connection (or refused when it came).
  const queuedPanel = () =>
    h(
      'section.card.puzzle-queued',
      { 'data-testid': 'puzzle-queued', role: 'status' },
      page.refused ? h('p', { 'data-testid': 'puzzle-refused' }, t('puzzle3.refused', { code: page.refused })) : h('p', {}, t('puzzle3.queued', { move: say(/** @type {string} */ (page.queued)) })),
      h('p.row', {}, h('button', { 'data-testid': 'puzzle-next', onclick: next }, t('puzzle.next'))),
    );

  // Where the puzzle stands in its game, in the words of the game's own stages and turns.
  const position = (p) => {
    const v = p.view || {};
    const seat = p.seat + 1;
    const turn = p.turn || 1;
    if (typeof v.stage === 'number' && typeof v.stages === 'number' && v.stages > 1) {
      return t('puzzle3.position', { stage: t(`stage.${p.stage_name || 'stage'}`, { n: v.stage }), stages: v.stages, turn, seat });
    }
    return t('puzzle3.position_turn', { turn, seat });
  };

  const historyPanel = () =>
    h(
      'section.card.puzzle-history',
      { 'data-testid': 'puzzle-history' },
      h('h3', {}, t('puzzle.history')),
      page.history.length
        ? h(
            'ol',
            {},
            page.history.map((a) =>
              h(
                'li',
                { 'data-solved': String(a.solved) },
                h('a', { href: `#/puzzles/${key}/${a.puzzle}` }, a.solved ? t('puzzle.history_solved') : t('puzzle.history_failed')),
                ` · ${Math.round(a.rating_before)} → ${Math.round(a.rating_after)}`,
              ),
            ),
          )
        : h('p.hint', {}, t('puzzle.history_none')),
    );

  // Whether the server may make puzzles of the player's finished public games.
  const optOutCard = () =>
    h(
      'section.card.puzzle-opt-out',
      {},
      h(
        'label',
        {},
        h('input', {
          type: 'checkbox',
          'data-testid': 'puzzle-opt-out',
          checked: page.optOut,
          onchange: async (/** @type {Event} */ e) => {
            const wanted = /** @type {HTMLInputElement} */ (e.target).checked;
            try {
              page.optOut = (await api('PUT', '/api/puzzles/opt-out', { opt_out: wanted })).opt_out;
            } catch (err) {
              showError(err);
            }
            draw();
          },
        }),
        ' ',
        t('puzzle.opt_out'),
      ),
      h('p.hint', {}, t('puzzle.opt_out_hint')),
    );

  const draw = unlessPressed(() => {
    const p = page.puzzle;
    const game = t(`game.${key}`);
    document.title = `${t('puzzle.title', { game })} · Pyramidion`;
    const head = h(
      'header.puzzle-head',
      {},
      h('p', {}, h('a', { href: '#/' }, `← ${t('rules.back')}`)),
      h('h2', {}, t('puzzle.title', { game })),
      page.rating
        ? h('p', { 'data-testid': 'puzzle-rating', 'data-rating': String(page.rating.rating) }, t('puzzle.your_rating', { rating: page.rating.rating, deviation: page.rating.deviation }))
        : null,
      page.daily && (!p || page.daily.id !== p.id)
        ? h('p', {}, h('a.button.small', { href: `#/puzzles/${key}/${page.daily.id}`, 'data-testid': 'puzzle-daily' }, t('puzzle.daily')))
        : page.daily
          ? h('p.hint', { 'data-testid': 'puzzle-is-daily' }, t('puzzle.is_daily'))
          : null,
    );
    const offline = page.offline ? h('p.card.puzzle-offline', { 'data-testid': 'puzzle-offline' }, t(p ? 'puzzle3.offline' : 'puzzle3.offline_none')) : null;
    if (!p) {
      return mount(
        root,
        h(
          'div.puzzles',
          { 'data-testid': 'puzzles', 'data-game': key },
          head,
          offline || h('p.card', { 'data-testid': 'puzzle-none' }, t('puzzle.none')),
          page.offline ? null : historyPanel(),
          page.offline ? null : optOutCard(),
        ),
      );
    }
    const prompt = h(
      'section.card.puzzle-prompt',
      {},
      h('p.puzzle-position', { 'data-testid': 'puzzle-position' }, position(p)),
      h('p', { 'data-testid': 'puzzle-prompt' }, t('puzzle.find')),
      h('p.hint', {}, t('puzzle.about', { rating: p.rating.rating, attempts: p.attempts })),
      p.tried && !page.result ? h('p.hint', { 'data-testid': 'puzzle-tried' }, t(p.tried.solved ? 'puzzle.tried_solved' : 'puzzle.tried_failed')) : null,
      page.result || page.queued
        ? null
        : h(
            'p.row',
            {},
            h('button', { 'data-testid': 'puzzle-hint', onclick: () => ((page.hint = true), draw()), disabled: page.hint || !p.themes.length }, t('puzzle.hint')),
            page.hint ? h('span.hint', { 'data-testid': 'puzzle-hint-text' }, ' ', t('puzzle.hint_text', { themes: themes(p) })) : null,
          ),
    );
    mount(
      root,
      h(
        'div.puzzles',
        { 'data-testid': 'puzzles', 'data-game': key, 'data-puzzle': p.id },
        head,
        offline,
        prompt,
        page.result ? resultPanel() : page.queued ? queuedPanel() : chooser(),
        h('div.puzzle-board', { 'data-testid': 'puzzle-board' }, board()),
        page.offline ? null : historyPanel(),
        page.offline ? null : optOutCard(),
      ),
    );
    labelDrawings();
  });

  // A candidate drawn in SVG (a ghost placement, a slot) gets its points written on it, in
  // the middle of its box (known only once it is on the page).
  const labelDrawings = () => {
    for (const el of /** @type {NodeListOf<SVGGraphicsElement>} */ (root.querySelectorAll('svg [data-points]'))) {
      const box = el.getBBox();
      const label = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      label.setAttribute('x', String(box.x + box.width / 2));
      label.setAttribute('y', String(box.y + box.height / 2));
      label.setAttribute('class', 'puzzle-points');
      label.setAttribute('text-anchor', 'middle');
      label.setAttribute('dominant-baseline', 'central');
      label.setAttribute('font-size', String(Math.max(8, Math.min(box.width, box.height) / 3)));
      label.textContent = el.getAttribute('data-points');
      el.after(label);
    }
  };

  await load();
}
