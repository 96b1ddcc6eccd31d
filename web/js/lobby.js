// The lobby: quick starts, a table builder (game, options, seats), open tables, my games.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, showError } from './app.js';

// Player counts each game accepts (the server checks again; this only shapes the form).
const PLAYERS = { 'forgotten-treasures': [1, 2, 3, 4], pyramido: [2, 3, 4], pyramids: [2, 3, 4, 5] };
const CLOCKS = [0, 30, 60, 120, 300];

export async function createTable(spec) {
  const table = await api('POST', '/api/tables', spec);
  location.hash = table.status === 'live' ? `#/game/${table.id}` : `#/table/${table.id}`;
}

export function tableLine(table) {
  const seats = table.seats
    .map((s) => {
      if (s.type === 'human') return s.me ? t('seat.you') : s.name;
      if (s.type === 'bot') return t(`bot.${s.level}`);
      return t(`seat.${s.type}`);
    })
    .join(', ');
  return `${t(`game.${table.game}`)} · ${seats}`;
}

function quickStarts() {
  const solo = (mode) =>
    h(
      'button.primary.big',
      {
        'data-testid': `quick-${mode}`,
        onclick: () =>
          createTable({
            game: 'forgotten-treasures',
            options: { players: 1, solo: mode },
            seats: [{ type: 'me' }],
          }).catch(showError),
      },
      t(`quick.${mode}`),
    );
  const bots = h(
    'button.big',
    {
      'data-testid': 'quick-bots',
      onclick: () =>
        createTable({
          game: 'forgotten-treasures',
          options: { players: 3 },
          seats: [{ type: 'me' }, { type: 'bot', level: 'greedy' }, { type: 'bot', level: 'greedy' }],
        }).catch(showError),
    },
    t('quick.bots'),
  );
  return h('section.card.quick', {}, h('h2', {}, t('lobby.play_now')), h('div.row', {}, solo('the-legend'), solo('a-legend'), bots));
}

function builder(games, bots) {
  const state = { game: games[0], players: 2, solo: 'the-legend', seats: [], listed: true, clock: 0 };
  const box = h('section.card.builder');
  const seatOptions = ['open', 'invite', ...bots.map((b) => `bot:${b}`)];
  const draw = () => {
    const counts = PLAYERS[state.game] || [2, 3, 4];
    if (!counts.includes(state.players)) state.players = counts.includes(2) ? 2 : counts[0];
    while (state.seats.length < state.players - 1) state.seats.push('open');
    state.seats.length = state.players - 1;
    const select = (name, value, options, onchange, label) =>
      h(
        'label',
        {},
        label,
        h(
          'select',
          { name, 'data-testid': `new-${name}`, onchange: (e) => onchange(e.target.value) },
          options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text)),
        ),
      );
    mount(
      box,
      h('h2', {}, t('lobby.new_table')),
      select('game', state.game, games.map((g) => [g, t(`game.${g}`)]), (v) => ((state.game = v), draw()), t('lobby.game')),
      select('players', state.players, counts.map((n) => [n, String(n)]), (v) => ((state.players = Number(v)), draw()), t('lobby.players')),
      state.game === 'forgotten-treasures' && state.players === 1
        ? select('solo', state.solo, ['the-legend', 'a-legend'].map((m) => [m, t(`solo.${m}`)]), (v) => (state.solo = v), t('lobby.solo_mode'))
        : null,
      state.players > 1
        ? h(
            'fieldset.seats',
            {},
            h('legend', {}, t('lobby.seats')),
            h('div.seat', {}, `1. ${t('seat.you')}`),
            state.seats.map((v, i) =>
              select(
                `seat-${i + 1}`,
                v,
                seatOptions.map((o) => [o, o.startsWith('bot:') ? t(`bot.${o.slice(4)}`) : t(`seat.${o}`)]),
                (value) => (state.seats[i] = value),
                `${i + 2}.`,
              ),
            ),
          )
        : null,
      state.players > 1
        ? h(
            'label.check',
            {},
            h('input', { type: 'checkbox', checked: state.listed, 'data-testid': 'new-listed', onchange: (e) => (state.listed = e.target.checked) }),
            t('lobby.listed'),
          )
        : null,
      select('clock', state.clock, CLOCKS.map((c) => [c, c ? t('lobby.clock_seconds', { count: c }) : t('lobby.no_clock')]), (v) => (state.clock = Number(v)), t('lobby.clock')),
      h('p.hint', {}, t('lobby.clock_hint')),
      h(
        'button.primary',
        {
          'data-testid': 'create-table',
          onclick: () => {
            const options = { players: state.players };
            if (state.game === 'forgotten-treasures' && state.players === 1) options.solo = state.solo;
            const seats = [{ type: 'me' }, ...state.seats.map((v) => (v.startsWith('bot:') ? { type: 'bot', level: v.slice(4) } : { type: v }))];
            createTable({ game: state.game, options, seats, listed: state.listed, move_seconds: state.clock }).catch(showError);
          },
        },
        t('lobby.create'),
      ),
    );
  };
  draw();
  return box;
}

function tableList(title, tables, testid, empty) {
  return h(
    'section.card',
    { 'data-testid': testid },
    h('h2', {}, title),
    tables.length
      ? h(
          'ul.tables',
          {},
          tables.map((table) => {
            const href = table.status === 'open' ? `#/table/${table.id}` : `#/game/${table.id}`;
            return h(
              'li',
              {},
              h('a', { href, 'data-testid': `table-${table.id}` }, tableLine(table)),
              ' ',
              h(`span.status.${table.status}`, {}, t(`status.${table.status}`)),
            );
          }),
        )
      : h('p.hint', {}, empty),
  );
}

export async function renderLobby(root) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    const [catalog, open, mine] = await Promise.all([
      api('GET', '/api/games'),
      api('GET', '/api/tables'),
      app.me ? api('GET', '/api/me/games') : Promise.resolve({ games: [] }),
    ]);
    const games = catalog.games.map((g) => g.key);
    const waiting = open.tables.filter((tb) => !tb.seats.some((s) => s.me));
    mount(
      root,
      h(
        'div.lobby',
        {},
        quickStarts(),
        builder(games, catalog.bots),
        tableList(t('lobby.open_tables'), waiting, 'open-tables', t('lobby.no_open_tables')),
        tableList(t('lobby.my_games'), mine.games.slice(0, 30), 'my-games', t('lobby.no_games')),
      ),
    );
    document.title = `${t('lobby.title')} · Pyramidion`;
  } catch (e) {
    showError(e);
    mount(root, h('p.hint', {}, t('shell.failed')));
  }
}
