// The replay of a finished game: the game's own table drawn read-only at any ply, a move
// slider, buttons and the keyboard (Home, End, Left, Right), the move list, and whose view to
// show (every seat's, since nothing is hidden once the game is over).
import { chatReplay } from './chat.js';
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, showError } from './app.js';
import { loadTable } from './game.js';
import { seatLabel, exportLinks } from './history.js';
import { moveLog } from './move-log.js';

export async function renderReplay(root, id) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let replay;
  let render;
  try {
    replay = await api('GET', `/api/games/${id}/replay`);
    render = await loadTable(replay.table.game);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', { 'data-testid': 'replay-error' }, errorText(e.code)));
  }
  const { table, moves, plies } = replay;
  const mySeat = table.seats.findIndex((s) => s.type === 'human' && app.me && s.user === app.me.id);
  const page = { ply: plies, seat: mySeat >= 0 ? mySeat : 0, ui: {}, positions: new Map(), analysis: replay.analysis, polling: null };
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

  const board = h('div.replay-board', { 'data-testid': 'replay-board' });
  const draw = async () => {
    const wanted = `${page.ply}/${page.seat}`;
    let state;
    try {
      state = await position(page.ply, page.seat);
    } catch (e) {
      return showError(e);
    }
    if (wanted !== `${page.ply}/${page.seat}`) return;
    const ctx = { id, table, state, view: state.view, seat: page.seat, legal: [], myTurn: false, ui: page.ui, log: moves.slice(0, page.ply), seatName, play: () => {}, redraw: draw, pending: false, replay: true };
    // The tables draw the shell's move log through the context, as on a live table.
    ctx.moveLog = (describe) => moveLog(ctx, describe);
    let drawn;
    try {
      drawn = render(ctx);
    } catch (e) {
      console.error(e);
      drawn = h('p.hint', { 'data-testid': 'render-error' }, t('error.render'));
    }
    // The page is rebuilt: the control that had the focus keeps it (keyboard users).
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
    mount(root, h('div.replay', { 'data-testid': 'replay', 'data-ply': page.ply }, controls(), summary(), h('div.replay-main', {}, mount(board, drawn), moveList()), chatReplay(replay.chat || [], page.ply)));
    const again = focused && root.querySelector(`[data-testid="${focused}"]`);
    if (again && !again.disabled) again.focus();
  };

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
      }
    }, 3000);
  };
  const analyse = async () => {
    try {
      page.analysis = await api('POST', `/api/games/${id}/analysis`);
    } catch (e) {
      return showError(e);
    }
    if (page.analysis.status === 'queued') pollAnalysis();
    draw();
  };
  const analysisLine = () => {
    const status = page.analysis ? page.analysis.status : 'none';
    if (status === 'done') return h('p.hint', { 'data-testid': 'analysis-done' }, t('analysis.done'));
    if (status === 'queued') return h('p.hint', { 'data-testid': 'analysis-queued', role: 'status' }, t('analysis.queued'));
    if (mySeat < 0) return null;
    return h('p', {}, h('button', { 'data-testid': 'analyse', onclick: analyse }, t('analysis.analyse')), ' ', status === 'failed' ? t('analysis.failed') : t('analysis.hint'));
  };
  if (page.analysis && page.analysis.status === 'queued') pollAnalysis();

  // Each seat's points lost stage by stage (or round by round: the analysis names its parts
  // from the game's descriptor) and over the game, with its flags. A stage's heading goes to
  // the position before its first analysed decision.
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
              stages.map((n) =>
                h('th', { scope: 'col' }, first.has(n) ? h('button.link', { 'data-testid': `analysis-stage-${n}`, onclick: () => go(first.get(n)) }, stageName(n)) : stageName(n)),
              ),
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
                h('th', { scope: 'row' }, seatName(seat.seat)),
                seat.stages.map((s) => h('td', { title: t('analysis.decisions', { count: s.decisions }) }, points(s))),
                h('td', { 'data-testid': 'analysis-seat-lost' }, points(seat)),
                [seat.inaccuracies, seat.mistakes, seat.blunders].map((n) => h('td', {}, String(n))),
              ),
            ),
          ),
        ),
      ),
      h('p.hint', {}, t('analysis.summary_hint')),
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
      h(
        'label.replay-slider',
        {},
        t('replay.slider'),
        h('input', { type: 'range', min: 0, max: plies, value: page.ply, 'data-testid': 'replay-slider', oninput: (e) => go(Number(e.target.value)) }),
      ),
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
            h('button.link', { onclick: () => go(m.ply + 1), 'aria-current': m.ply + 1 === page.ply ? 'step' : null }, `${seatName(m.seat)}: ${m.text}`),
            decisions.has(m.ply) ? lostText(decisions.get(m.ply)) : null,
          ),
        ),
      ),
    );
  };

  // Points lost, in words and numbers (the flag's colour is never the only cue).
  const lostText = (d) =>
    h(
      `span.lost${d.flag ? `.${d.flag}` : ''}`,
      { 'data-testid': 'points-lost', title: t('analysis.best', { move: d.best }) },
      ' ',
      d.lost < 0.05 ? t('analysis.no_loss') : t('analysis.lost', { points: d.lost.toFixed(1) }),
      d.flag ? ` · ${t(`analysis.flag_${d.flag}`)}` : '',
    );

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
