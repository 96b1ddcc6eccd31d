// @ts-check
// Meeting people (issue 27): "Play a person now" (quick pairing: the server seats players who
// asked for the same game, player count and clock, and the same choice of rated or casual,
// within each other's rating range; a player who waits is told who waits apart and why, and
// may change their ask: the server never does) and the Watch page (live public games,
// newest or highest-rated first, each opening as a spectator). Every game, count and clock
// comes from the server's descriptors and clock list.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, showError } from './shell.js';
import { profileLabel } from './clocks.js';

const counts = (g) => Array.from({ length: g.seats.max - Math.max(2, g.seats.min) + 1 }, (_, i) => Math.max(2, g.seats.min) + i);

function select(testid, value, choices, onchange, label) {
  return h(
    'label',
    {},
    label,
    ' ',
    h(
      'select',
      { 'data-testid': testid, onchange: (e) => onchange(e.target.value) },
      choices.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text)),
    ),
  );
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderPlayNow(root) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let catalog;
  let clocks;
  try {
    [catalog, clocks] = await Promise.all([api('GET', '/api/games'), api('GET', '/api/clocks')]);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, errorText(e.code)));
  }
  const games = catalog.games.filter((g) => g.seats.max >= 2);
  // `asked` is what the waiting ask said (rated or casual, range), `apart` who waits for the
  // same setting but cannot sit with me: the server never changes an ask, the player does.
  const state = { game: games[0].key, players: 2, clock: '', rated: false, range: '', waiting: null, others: [], asked: null, apart: { other_kind: 0, out_of_range: 0 } };
  // Who waits for what right now, so a player can pick a setting others already wait for.
  const others = h('ul.pairing-others', { 'data-testid': 'pairing-others' });
  const status = h('p', { 'data-testid': 'pairing-status', role: 'status' });
  // Who waits apart, and why, each with what the player may change to meet them.
  const apart = h('div.pairing-apart', { 'data-testid': 'pairing-apart' });
  const drawApart = () => {
    const a = state.apart;
    const asked = state.asked;
    if (state.waiting === null || !asked) return mount(apart);
    mount(
      apart,
      a.other_kind > 0
        ? h(
            'p',
            { 'data-testid': 'pairing-other-kind' },
            t(asked.rated ? 'pairing.other_kind_casual' : 'pairing.other_kind_rated', { count: a.other_kind }),
            ' ',
            h('button', { 'data-testid': 'pairing-switch-kind', onclick: () => ((state.rated = !asked.rated), go()) }, t(asked.rated ? 'pairing.play_casual' : 'pairing.play_rated')),
          )
        : null,
      a.out_of_range > 0
        ? h(
            'p',
            { 'data-testid': 'pairing-out-of-range' },
            t('pairing.out_of_range', { count: a.out_of_range }),
            asked.range !== undefined ? [' ', h('button', { 'data-testid': 'pairing-any-range', onclick: () => ((state.range = ''), go()) }, t('pairing.any_range'))] : null,
          )
        : null,
    );
  };
  const box = h('section.card.play-now', { 'data-testid': 'play-now' });
  const draw = () => {
    const game = games.find((g) => g.key === state.game) || games[0];
    if (!counts(game).includes(Number(state.players))) state.players = counts(game)[0];
    mount(status, state.waiting === null ? '' : t('pairing.waiting', { count: state.waiting }));
    drawApart();
    mount(
      box,
      h('h2', {}, t('pairing.title')),
      h('p.hint', {}, t('pairing.hint')),
      h(
        'div.row',
        {},
        select(
          'pairing-game',
          state.game,
          games.map((g) => [g.key, t(`game.${g.key}`)]),
          (v) => ((state.game = v), draw()),
          t('lobby.game'),
        ),
        select(
          'pairing-players',
          state.players,
          counts(game).map((n) => [n, String(n)]),
          (v) => (state.players = Number(v)),
          t('pairing.players'),
        ),
        select('pairing-clock', state.clock, [['', t('lobby.no_clock')], ...clocks.clocks.map((p) => [p.key, profileLabel(p)])], (v) => (state.clock = v), t('lobby.clock')),
        h('label', {}, h('input', { type: 'checkbox', 'data-testid': 'pairing-rated', checked: state.rated, onchange: (e) => (state.rated = e.target.checked) }), ' ', t('pairing.rated')),
        h('label', {}, t('pairing.range'), ' ', h('input', { type: 'number', min: 0, step: 50, value: state.range, 'data-testid': 'pairing-range', oninput: (e) => (state.range = e.target.value) })),
      ),
      h(
        'div.row',
        {},
        h('button.primary', { 'data-testid': 'pairing-go', onclick: go }, t('pairing.go')),
        state.waiting !== null ? h('button', { 'data-testid': 'pairing-cancel', onclick: cancel }, t('pairing.cancel')) : null,
      ),
      status,
      apart,
      state.others.length ? [h('h3', {}, t('pairing.others')), others] : null,
    );
    const clockName = (key) => {
      const p = clocks.clocks.find((c) => c.key === key);
      return p ? profileLabel(p) : t('lobby.no_clock');
    };
    mount(
      others,
      state.others.map((o) =>
        h(
          'li',
          {},
          t('pairing.other_line', { game: t(`game.${o.game}`), players: o.players, clock: clockName(o.clock), kind: t(o.rated ? 'pairing.kind_rated' : 'pairing.kind_casual'), count: o.waiting }),
        ),
      ),
    );
  };
  async function readOthers() {
    try {
      state.others = (await api('GET', '/api/pairing')).waiting;
      draw();
    } catch {
      // The list is a hint: a failed read leaves the last one.
    }
  }
  async function go() {
    const body = { game: state.game, players: Number(state.players), rated: state.rated };
    if (state.clock) body.clock = state.clock;
    if (state.range !== '') body.range = Number(state.range);
    try {
      const r = await api('POST', '/api/pairing', body);
      if (r.status === 'seated') location.hash = `#/game/${r.table.id}`;
      else {
        state.asked = body;
        state.waiting = r.waiting;
        state.apart = { other_kind: r.other_kind, out_of_range: r.out_of_range };
        draw();
      }
    } catch (e) {
      showError(e);
    }
  }
  async function cancel() {
    try {
      await api('DELETE', '/api/pairing');
    } catch (e) {
      showError(e);
    }
    state.waiting = null;
    state.asked = null;
    draw();
  }
  // The server says how many wait, and where I was seated.
  const off = app.socket.onMessage((msg) => {
    if (msg.type !== 'pairing') return;
    if (msg.table) location.hash = `#/game/${msg.table}`;
    else if (state.waiting !== null) {
      state.waiting = msg.waiting;
      state.apart = { other_kind: msg.other_kind, out_of_range: msg.out_of_range };
      draw();
    }
  });
  const every = setInterval(readOthers, 5000);
  // Closing the tab stops the wait too: nobody is seated at a table they left.
  const closing = () => {
    if (state.waiting !== null) fetch('/api/pairing', { method: 'DELETE', keepalive: true, credentials: 'same-origin' });
  };
  window.addEventListener('pagehide', closing);
  app.leave = () => {
    clearInterval(every);
    window.removeEventListener('pagehide', closing);
    off();
    if (state.waiting !== null) api('DELETE', '/api/pairing').catch(() => {});
  };
  app.rerender = draw;
  draw();
  mount(root, box);
  readOthers();
  document.title = `${t('pairing.title')} · Pyramidion`;
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderWatch(root) {
  const page = { sort: 'newest', games: null };
  const box = h('section.card.watch', { 'data-testid': 'watch' });
  const draw = () => {
    const games = page.games;
    mount(
      box,
      h('h2', {}, t('watch.title')),
      h(
        'div.row',
        {},
        ['newest', 'rated'].map((s) =>
          h(
            `button${page.sort === s ? '.primary' : ''}`,
            {
              'data-testid': `watch-sort-${s}`,
              onclick: () => {
                page.sort = s;
                load();
              },
            },
            t(`watch.sort_${s}`),
          ),
        ),
      ),
      games === null
        ? h('p.loading', {}, t('shell.loading'))
        : games.length === 0
          ? h('p.hint', { 'data-testid': 'watch-empty' }, t('watch.none'))
          : h(
              'ul.watch-list',
              {},
              games.map((g) =>
                h(
                  'li',
                  { 'data-testid': 'watch-game', 'data-game': g.id },
                  h('a', { href: `#/game/${g.id}`, 'data-testid': 'watch-open' }, t(`game.${g.game}`)),
                  ' · ',
                  g.seats.map((s, i) => `${s.type === 'bot' ? t(`bot.${s.level}`) : s.name || t('seat.number', { n: i + 1 })} (${s.rating === undefined ? '–' : s.rating})`).join(', '),
                  ' · ',
                  g.stage !== null && g.stage_name ? [t(`stage.${g.stage_name}`, { n: g.stage }), ' · '] : null,
                  t('watch.moves', { count: g.plies }),
                ),
              ),
            ),
    );
  };
  async function load() {
    try {
      page.games = (await api('GET', `/api/watch?sort=${page.sort}`)).games;
    } catch (e) {
      showError(e);
      page.games = [];
    }
    draw();
  }
  // Live: read again every few seconds while the page is open.
  const every = setInterval(load, 5000);
  app.leave = () => clearInterval(every);
  app.rerender = draw;
  mount(root, box);
  draw();
  await load();
  document.title = `${t('watch.title')} · Pyramidion`;
}
