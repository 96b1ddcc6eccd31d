// @ts-check
// The replay of a finished game: the game's own table drawn read-only at any ply, a move
// slider, buttons and the keyboard (Home, End, Left, Right), the move list, and whose view to
// show (every seat's, since nothing is hidden once the game is over).
import { chatReplay } from './chat.js';
import { api } from './api.js';
import { h, mount, unlessPressed } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, showError } from './shell.js';
import { gameResult, loadMoveText, loadResultDetails, loadTable } from './game.js';
import { seatLabel, exportLinks } from './history.js';
import { moveLog } from './move-log.js';
import { makeInert } from './inert.js';
import { analyseInBrowser, LOCAL_BUDGET, recordText } from './local-analysis.js';

/**
 * @param {HTMLElement} root the page
 * @param {string} [id]
 */
export async function renderReplay(root, id) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let replay;
  let render;
  let moveText;
  let resultDetails;
  try {
    replay = await api('GET', `/api/games/${id}/replay`);
    render = await loadTable(replay.table.game);
    // Moves are said in words by the game's own renderer (the live log's), never notation.
    moveText = await loadMoveText(replay.table.game);
    resultDetails = await loadResultDetails(replay.table.game);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', { 'data-testid': 'replay-error' }, errorText(e.code)));
  }
  const { table, moves, plies } = replay;
  const mySeat = table.seats.findIndex((s) => s.type === 'human' && app.me && s.user === app.me.id);
  // The replay opens at the start (the analysis's links go to its flagged decisions).
  const page = { ply: 0, seat: mySeat >= 0 ? mySeat : 0, ui: {}, positions: new Map(), analysis: replay.analysis, polling: null };
  const seatName = (seat) => seatLabel(table.seats[seat], seat);

  // Each position is asked once; quick key presses only draw the last one asked.
  const position = (ply, seat) => {
    const key = `${ply}/${seat}`;
    if (!page.positions.has(key)) {
      page.positions.set(key, api('GET', `/api/games/${id}/replay/${ply}?seat=${seat}`));
    }
    return page.positions.get(key);
  };

  const go = (ply) => {
    page.ply = Math.max(0, Math.min(plies, ply));
    draw();
  };
  // A decision of the analysis, shown from its seat before the move: both moves on the board.
  const goDecision = (d) => {
    page.seat = d.seat;
    go(d.ply);
  };
  const decisionAt = (ply) => {
    const d = lost().get(ply);
    return d && d.flag && d.best_move && d.played_move ? d : null;
  };

  const board = h('div.replay-board', { 'data-testid': 'replay-board' });
  const draw = unlessPressed(async () => {
    const wanted = `${page.ply}/${page.seat}`;
    let state;
    try {
      state = await position(page.ply, page.seat);
    } catch (e) {
      return showError(e);
    }
    if (wanted !== `${page.ply}/${page.seat}`) return;
    const ctx = {
      id,
      table,
      state,
      view: state.view,
      seat: page.seat,
      legal: [],
      myTurn: false,
      ui: page.ui,
      log: moves.slice(0, page.ply),
      seatName,
      play: () => {},
      redraw: draw,
      pending: false,
      replay: true,
    };
    // At a flagged decision seen from its seat, the table draws the move played and the best
    // one as it draws choices (ghost placements, highlighted slots and cards), best first.
    const decision = decisionAt(page.ply);
    const shown = decision && decision.seat === page.seat ? decision : null;
    if (shown) {
      ctx.legal = [shown.best_move, shown.played_move];
      ctx.myTurn = true;
      if (shown.best_move.dir) page.ui.dir = shown.best_move.dir;
      // The best move is selected: its ghost shows the piece in place.
      page.ui.selected = shown.best_move.text;
    }
    // The tables draw the shell's move log through the context, as on a live table.
    ctx.moveLog = (describe, interludes) => moveLog(ctx, describe, interludes);
    let drawn;
    let result = null;
    try {
      result = gameResult(ctx, resultDetails);
      drawn = render(ctx);
    } catch (e) {
      console.error(e);
      drawn = h('p.hint', { 'data-testid': 'render-error' }, t('error.render'));
    }
    if (shown) markDecision(drawn, shown);
    // A picture of the game: no move control of the table is live.
    makeInert(drawn);
    // The page is rebuilt: the control that had the focus keeps it (keyboard users).
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = active && active.dataset ? active.dataset.testid : null;
    mount(
      root,
      h(
        'div.replay',
        { 'data-testid': 'replay', 'data-ply': page.ply },
        controls(),
        summary(),
        h('div.replay-main', {}, mount(board, shown ? [decisionPanel(shown), result, drawn] : [result, drawn]), moveList()),
        chatReplay(replay.chat || [], page.ply),
      ),
    );
    // A control: a button, an input (`disabled`), a link (no `disabled`: undefined).
    const again = focused && /** @type {HTMLElement & { disabled?: boolean } | null} */ (root.querySelector(`[data-testid="${focused}"]`));
    if (again && !again.disabled) again.focus();
  });

  // Each decision's points lost, by ply, once the game is analysed.
  const lost = () => new Map(((page.analysis && page.analysis.analysis && page.analysis.analysis.decisions) || []).map((d) => [d.ply, d]));
  const pollAnalysis = () => {
    if (page.polling) return;
    page.polling = setInterval(async () => {
      try {
        page.analysis = await api('GET', `/api/games/${id}/analysis`);
      } catch (e) {
        return showError(e);
      }
      if (page.analysis.status !== 'queued') {
        clearInterval(page.polling);
        page.polling = null;
        draw();
        return;
      }
      // Still queued: only the line that says where it is changes.
      const line = root.querySelector('[data-testid=analysis-queued]');
      if (line) {
        line.textContent = queuedText(page.analysis.progress);
        line.setAttribute('data-state', page.analysis.progress ? page.analysis.progress.state : '');
      }
    }, 3000);
  };
  // The record, asked for once, when an analysis in the page first needs it.
  let record = null;
  // The judge in this page (web/js/local-analysis.js): `why` says what the line tells first
  // (`queue_full`, `offline`, or null when the player asked).
  const analyseLocally = async (why) => {
    page.analysis = { status: 'local_running', why };
    draw();
    try {
      if (!record) record = recordText(id);
      const report = await analyseInBrowser(await record);
      page.analysis = { status: 'done', analysis: report, local: { budget: LOCAL_BUDGET, why } };
    } catch (e) {
      record = null;
      console.warn('local analysis:', e && e.code, e && e.message);
      page.analysis = { status: 'local_failed' };
    }
    draw();
  };
  const analyse = async () => {
    try {
      page.analysis = await api('POST', `/api/games/${id}/analysis`);
    } catch (e) {
      // The server's queue full (or this player's share of it), or no server: the page runs
      // the judge itself.
      if (e.status === 429 || e.status === 503) return analyseLocally('queue_full');
      if (e.status === 0) return analyseLocally('offline');
      return showError(e);
    }
    if (page.analysis.status === 'queued') pollAnalysis();
    draw();
  };
  const localLine = () => {
    const local = page.analysis.local;
    return h('p.hint', { 'data-testid': 'analysis-local', 'data-budget': local.budget }, local.why ? `${t(`localan.${local.why}`)} ` : null, t('localan.done', { budget: local.budget }));
  };
  const analysisLine = () => {
    const status = page.analysis ? page.analysis.status : 'none';
    if (status === 'done' && page.analysis.local) return localLine();
    if (status === 'done') return h('p.hint', { 'data-testid': 'analysis-done' }, t('analysis.done'));
    if (status === 'local_running') {
      const why = page.analysis.why;
      return h('p.hint', { 'data-testid': 'analysis-local-running', role: 'status' }, why ? `${t(`localan.${why}`)} ` : null, t('localan.running'));
    }
    // Anybody may run the judge in their own browser: it costs the server nothing.
    const inBrowser = h('button', { 'data-testid': 'analyse-local', onclick: () => analyseLocally(null), title: t('localan.hint') }, t('localan.analyse'));
    const failed = status === 'local_failed' ? h('span', { 'data-testid': 'analysis-local-failed' }, ' ', t('localan.failed')) : null;
    if (status === 'queued')
      return h('p.hint', { 'data-testid': 'analysis-queued', role: 'status', 'data-state': page.analysis.progress ? page.analysis.progress.state : null }, queuedText(page.analysis.progress));
    // A game's players, and any signed-in player for a public game (a daily quota).
    if (mySeat < 0 && !(table.listed && app.me && !app.me.guest)) return h('p', {}, inBrowser, failed);
    return h('p', {}, h('button', { 'data-testid': 'analyse', onclick: analyse }, t('analysis.analyse')), ' ', inBrowser, ' ', status === 'failed' ? t('analysis.failed') : t('analysis.hint'), failed);
  };
  if (page.analysis && page.analysis.status === 'queued') pollAnalysis();

  // Where a queued analysis is: waiting with so many ahead, or running with its moves done,
  // and the server's estimate (said as one); without `progress` (another server runs it),
  // only that it waits.
  const queuedText = (progress) => {
    if (!progress) return t('analysis.queued');
    const where =
      progress.state === 'running'
        ? t('analysis.running', { done: progress.done_plies, plies: progress.plies })
        : progress.ahead > 0
          ? t('analysis.waiting', { count: progress.ahead })
          : t('analysis.waiting_next');
    const s = progress.estimate_s;
    if (typeof s !== 'number') return where;
    const time = s < 60 ? `${Math.max(1, s)} s` : `${Math.ceil(s / 60)} min`;
    return `${where} · ${t('analysis.estimate', { time })}`;
  };

  // Each seat's points lost stage by stage (or round by round: the analysis names its parts
  // from the game's descriptor) and over the game, with its flags. A stage's heading goes to
  // the position before its first analysed decision.
  const firstFlag = (analysis, seat) => analysis.decisions.find((d) => d.seat === seat && d.flag && d.best_move);
  const summary = () => {
    const analysis = page.analysis && page.analysis.status === 'done' ? page.analysis.analysis : null;
    if (!analysis || !analysis.seats || !analysis.seats.every((s) => Array.isArray(s.stages))) return null;
    const stages = analysis.seats.length ? analysis.seats[0].stages.map((s) => s.stage) : [];
    const first = new Map();
    for (const d of analysis.decisions) if (!first.has(d.stage)) first.set(d.stage, d.ply);
    const stageName = (n) => t(`stage.${analysis.stage_name}`, { n });
    const points = (totals) => (totals.decisions === 0 ? '–' : totals.lost.toFixed(1));
    return h(
      'section.card.analysis-summary',
      { 'data-testid': 'analysis-summary' },
      h('h3', {}, t('analysis.summary')),
      h(
        'div.scroll-x',
        {},
        h(
          'table.ranking',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, t('analysis.player')),
              stages.map((n) => h('th', { scope: 'col' }, first.has(n) ? h('button.link', { 'data-testid': `analysis-stage-${n}`, onclick: () => go(first.get(n)) }, stageName(n)) : stageName(n))),
              h('th', { scope: 'col' }, t('analysis.game_total')),
              [t('analysis.flags_inaccuracy'), t('analysis.flags_mistake'), t('analysis.flags_blunder')].map((label) => h('th', { scope: 'col' }, label)),
            ),
          ),
          h(
            'tbody',
            {},
            analysis.seats.map((seat) =>
              h(
                'tr',
                { 'data-testid': 'analysis-seat' },
                h(
                  'th',
                  { scope: 'row' },
                  seatName(seat.seat),
                  firstFlag(analysis, seat.seat)
                    ? [' ', h('button.link', { 'data-testid': 'analysis-first-flag', onclick: () => goDecision(firstFlag(analysis, seat.seat)) }, t('analysis.first_flag'))]
                    : null,
                ),
                seat.stages.map((s) => h('td', { title: t('analysis.decisions', { count: s.decisions }) }, points(s))),
                h('td', { 'data-testid': 'analysis-seat-lost' }, points(seat)),
                [seat.inaccuracies, seat.mistakes, seat.blunders].map((n) => h('td', {}, String(n))),
              ),
            ),
          ),
        ),
      ),
      h('p.hint', {}, t(analysis.measure === 'margin' ? 'analysis.summary_hint_margin' : 'analysis.summary_hint')),
      // Totals far above the final margin are no error: each decision counts against its best.
      h('p.hint', { 'data-testid': 'analysis-totals-hint' }, t('analysis.totals_hint')),
    );
  };

  const controls = () =>
    h(
      'section.card.replay-controls',
      {},
      h('h2', {}, t('replay.title', { game: t(`game.${table.game}`) })),
      h(
        'div.row',
        {},
        h('button', { 'data-testid': 'replay-first', onclick: () => go(0), disabled: page.ply === 0, 'aria-label': t('replay.first') }, '« ', h('span.sr', {}, t('replay.first'))),
        h('button', { 'data-testid': 'replay-prev', onclick: () => go(page.ply - 1), disabled: page.ply === 0, 'aria-label': t('replay.previous') }, '◀ ', h('span.sr', {}, t('replay.previous'))),
        h('span.replay-ply', { 'data-testid': 'replay-ply', role: 'status' }, t('replay.position', { ply: page.ply, plies })),
        h('button', { 'data-testid': 'replay-next', onclick: () => go(page.ply + 1), disabled: page.ply === plies, 'aria-label': t('replay.next') }, '▶ ', h('span.sr', {}, t('replay.next'))),
        h('button', { 'data-testid': 'replay-last', onclick: () => go(plies), disabled: page.ply === plies, 'aria-label': t('replay.last') }, '» ', h('span.sr', {}, t('replay.last'))),
      ),
      h('label.replay-slider', {}, t('replay.slider'), h('input', { type: 'range', min: 0, max: plies, value: page.ply, 'data-testid': 'replay-slider', oninput: (e) => go(Number(e.target.value)) })),
      table.seats.length > 1
        ? h(
            'label',
            {},
            t('replay.view_as'),
            h(
              'select',
              { 'data-testid': 'replay-seat', onchange: (e) => ((page.seat = Number(e.target.value)), draw()) },
              table.seats.map((s, i) => h('option', { value: i, selected: i === page.seat }, seatName(i))),
            ),
          )
        : null,
      h('p.hint', {}, t('replay.keys')),
      analysisLine(),
      h('div.row', {}, exportLinks(table), h('a', { href: '#/history' }, t('history.title'))),
    );

  const moveList = () => {
    const decisions = lost();
    return h(
      'section.card.replay-moves',
      {},
      h('h3', {}, t('replay.moves')),
      h(
        'ol.moves-list',
        { 'data-testid': 'replay-moves' },
        moves.map((m) =>
          h(
            'li',
            { class: m.ply + 1 === page.ply ? 'current' : null },
            h('button.link', { onclick: () => go(m.ply + 1), 'aria-current': m.ply + 1 === page.ply ? 'step' : null }, `${seatName(m.seat)}: ${moveText(m)}`),
            decisions.has(m.ply) ? lostText(decisions.get(m.ply)) : null,
            decisionAt(m.ply) ? [' ', h('button.link', { 'data-testid': 'show-decision', onclick: () => goDecision(decisions.get(m.ply)) }, t('analysis.show_on_board'))] : null,
          ),
        ),
      ),
    );
  };

  // Points lost, in words and numbers (the flag's colour is never the only cue).
  const lostText = (d) =>
    h(
      `span.lost${d.flag ? `.${d.flag}` : ''}`,
      {
        'data-testid': 'points-lost',
        title: d.best_move ? t('analysis.best', { move: moveText(d.best_move) }) + ' · ' + t('analysis.interval', { low: Math.max(0, d.lost_low).toFixed(1), high: d.lost_high.toFixed(1) }) : null,
      },
      ' ',
      d.lost < 0.05 ? t('analysis.no_loss') : t('analysis.lost', { points: d.lost.toFixed(1) }),
      d.flag ? ` · ${t(`analysis.flag_${d.flag}`)}` : '',
    );

  // The two moves of a flagged decision in words, with their expected points: "Anna placed
  // …: 41.2; best: …: 47.0", or their expected lead over the best opponent ("+3.5"; an analysis
  // made before the judge measured the margin has own points). Colours match the marks drawn
  // on the table, and words say it too.
  const decisionPanel = (d) => {
    const margin = page.analysis.analysis.measure === 'margin';
    const value = (v) => (margin && v > 0 ? '+' : '') + v.toFixed(1);
    return h(
      `section.card.analysis-decision.${d.flag}`,
      { 'data-testid': 'analysis-decision', role: 'note' },
      h('h3', {}, t('analysis.decision_of', { name: seatName(d.seat) }), ' · ', t(`analysis.flag_${d.flag}`)),
      h(
        'p',
        {},
        h('span.analysis-played-word', { 'data-testid': 'decision-played' }, t('analysis.played_move', { name: seatName(d.seat), move: moveText(d.played_move), points: value(d.played_points) })),
        '; ',
        h('span.analysis-best-word', { 'data-testid': 'decision-best' }, t('analysis.best_move', { move: moveText(d.best_move), points: value(d.best_points) })),
      ),
      h('p.hint', {}, t(margin ? 'analysis.decision_hint_margin' : 'analysis.decision_hint', { low: Math.max(0, d.lost_low).toFixed(1), high: d.lost_high.toFixed(1) })),
    );
  };
  // Marks the table's drawing of both moves (a ghost, a slot, a card, a button). A table may
  // draw one element or several (the status line that sticks under the clocks is a sibling of
  // the table's grid), so every element drawn is searched, itself included.
  const markDecision = (drawn, d) => {
    const roots = (Array.isArray(drawn) ? drawn.flat(Infinity) : [drawn]).filter((n) => n && n.querySelectorAll);
    const sel = '[data-move], [data-key]';
    for (const el of roots.flatMap((r) => [...(r.matches(sel) ? [r] : []), ...r.querySelectorAll(sel)])) {
      const text = el.getAttribute('data-move') || el.getAttribute('data-key');
      if (text === d.best_move.text) el.classList.add('analysis-best');
      if (text === d.played_move.text) el.classList.add('analysis-played');
    }
  };

  const onKey = (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { Home: () => go(0), End: () => go(plies), ArrowLeft: () => go(page.ply - 1), ArrowRight: () => go(page.ply + 1) }[e.key];
    if (step) {
      e.preventDefault();
      step();
    }
  };
  document.addEventListener('keydown', onKey);
  app.leave = () => {
    document.removeEventListener('keydown', onKey);
    if (page.polling) clearInterval(page.polling);
  };
  app.rerender = draw;
  document.title = `${t('replay.title', { game: t(`game.${table.game}`) })} · Pyramidion`;
  draw();
}
