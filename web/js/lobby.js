// @ts-check
// The lobby: quick starts, a table builder (game, options, seats), open tables, my games.
// Everything it knows of the games comes from their descriptors (`GET /api/games`): seat
// ranges, options and their values, bot levels.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { has, t, language } from './i18n.js';
import { app, showError } from './shell.js';
import { rulesCard } from './rules.js';
import { dailySection } from './daily.js';
import { profileLabel } from './clocks.js';
import { learnButton, tutorialCard, tutorialOffer } from './tutorial.js';

const range = (min, max) => Array.from({ length: max - min + 1 }, (_, i) => min + i);
// Options that apply at a table of `players` (an option listing no player counts always does).
const optionsFor = (game, players) => game.options.filter((o) => !o.players.length || o.players.includes(players));
// The level the quick start seats: greedy when the game has it, else its weakest.
const quickLevel = (game) => (game.bot_levels.find((l) => l.name === 'greedy') || game.bot_levels[0]).name;

export async function createTable(spec) {
  const table = await api('POST', '/api/tables', spec);
  location.hash = table.status === 'live' ? `#/game/${table.id}` : `#/table/${table.id}`;
}

export function tableLine(table) {
  const seats = table.seats
    .map((s) => {
      if (s.type === 'human') return s.me ? t('seat.you') : s.name;
      if (s.type === 'bot') return t(`bot.${s.level}`);
      return t(`seat.${s.type}`, { name: s.name });
    })
    .join(', ');
  return `${t(`game.${table.game}`)} · ${seats}`;
}

// "Play now": one card per game, from the descriptors: a small picture of its table (the
// game folder's `picture.svg`, when it has one), one line saying what it is, a table against
// bots, and one button per solo mode where the game can be played alone.
function quickStarts(games) {
  const cards = games.map((game, i) => {
    const buttons = [];
    if (game.seats.max > 1 && game.bot_levels.length) {
      const players = Math.min(Math.max(2, Math.min(3, game.seats.max)), game.seats.max);
      const level = quickLevel(game);
      const bots = players - 1;
      buttons.push(
        h(
          'button.primary',
          {
            // The first game's keeps its historical id.
            'data-testid': i === 0 ? 'quick-bots' : `quick-bots-${game.key}`,
            'data-game': game.key,
            onclick: () =>
              createTable({
                game: game.key,
                options: { players },
                seats: [{ type: 'me' }, ...range(2, players).map(() => ({ type: 'bot', level }))],
              }).catch(showError),
          },
          t('quick.against_bots', { count: bots }),
        ),
      );
    }
    if (game.seats.min === 1) {
      for (const o of optionsFor(game, 1)) {
        for (const value of o.values) {
          buttons.push(
            h(
              'button.primary',
              {
                'data-testid': `quick-${value}`,
                'data-game': game.key,
                onclick: () => createTable({ game: game.key, options: { players: 1, [o.key]: value }, seats: [{ type: 'me' }] }).catch(showError),
              },
              t(`quick.${value}`),
            ),
          );
        }
      }
    }
    const picture = h('img.game-picture', { src: `/js/${encodeURIComponent(game.key)}/picture.svg`, alt: '', width: 120, height: 80, loading: 'lazy' });
    picture.addEventListener('error', () => picture.remove());
    return h(
      'article.game-card',
      { 'data-testid': `game-card-${game.key}` },
      picture,
      h(
        'div.game-card-text',
        {},
        h('h3', {}, t(`game.${game.key}`)),
        has(`game_line.${game.key}`) ? h('p.hint', { 'data-testid': 'game-line' }, t(`game_line.${game.key}`)) : null,
        h('div.row', {}, buttons),
      ),
    );
  });
  return h('section.card.quick', {}, h('h2', {}, t('lobby.play_now')), h('div.game-cards', {}, cards));
}

// A bot level with the think time its descriptor gives (the mean per move of `max` on one
// core, scaled for the levels below), so a player knows what waiting to expect.
function botText(game, name) {
  const level = game.bot_levels.find((l) => l.name === name);
  const ms = level ? level.think_ms : 0;
  const time = ms === 0 ? t('bot.instant') : ms < 100 ? t('bot.think_ms', { ms }) : t('bot.think_s', { seconds: (ms / 1000).toLocaleString(language(), { maximumFractionDigits: 1 }) });
  return `${t(`bot.${name}`)} (${time})`;
}

function builder(games, clocks, clubs) {
  const state = { game: games[0].key, players: 2, options: {}, seats: [], listed: true, clock: '', rated: false, audience: '' };
  const box = h('section.card.builder');
  const draw = () => {
    const game = games.find((g) => g.key === state.game) || games[0];
    const counts = range(game.seats.min, game.seats.max);
    if (!counts.includes(state.players)) state.players = counts.includes(2) ? 2 : counts[0];
    const seatOptions = ['open', 'invite', ...game.bot_levels.map((l) => `bot:${l.name}`)];
    state.seats = state.seats.map((v) => (seatOptions.includes(v) ? v : 'open'));
    const applicable = optionsFor(game, state.players);
    for (const o of applicable) if (!o.values.includes(state.options[o.key])) state.options[o.key] = o.default;
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
      select(
        'game',
        state.game,
        games.map((g) => [g.key, t(`game.${g.key}`)]),
        (v) => ((state.game = v), draw()),
        t('lobby.game'),
      ),
      select(
        'players',
        state.players,
        counts.map((n) => [n, String(n)]),
        (v) => ((state.players = Number(v)), draw()),
        t('lobby.players'),
      ),
      applicable.map((o) =>
        select(
          o.key,
          state.options[o.key],
          o.values.map((v) => [v, t(`${o.key}.${v}`)]),
          (v) => (state.options[o.key] = v),
          t(`option.${o.key}`),
        ),
      ),
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
                seatOptions.map((o) => [o, o.startsWith('bot:') ? botText(game, o.slice(4)) : t(`seat.${o}`)]),
                (value) => (state.seats[i] = value),
                `${i + 2}.`,
              ),
            ),
          )
        : null,
      state.players > 1
        ? h('label.check', {}, h('input', { type: 'checkbox', checked: state.listed, 'data-testid': 'new-listed', onchange: (e) => (state.listed = e.target.checked) }), t('lobby.listed'))
        : null,
      // Who may take the open seats: anyone, the players I follow, or one of my clubs.
      state.players > 1 && app.me && !app.me.guest
        ? select(
            'audience',
            state.audience,
            [['', t('social.audience_anyone')], ['friends', t('social.audience_friends')], ...clubs.map((c) => [`club:${c.id}`, t('social.audience_club', { club: c.name })])],
            (v) => (state.audience = v),
            t('social.audience'),
          )
        : null,
      // The server refuses a rated table without a clock (`rated_needs_clock`): the form says
      // so before, as the tournament form does.
      state.players > 1
        ? [
            h(
              'label.check',
              {},
              h('input', { type: 'checkbox', checked: state.rated, disabled: !state.clock, 'data-testid': 'new-rated', onchange: (e) => (state.rated = e.target.checked) }),
              t('lobby.rated'),
            ),
            state.clock ? null : h('p.hint', { 'data-testid': 'new-rated-needs-clock' }, t('lobby.rated_needs_clock')),
          ]
        : null,
      // A clock is per turn, a turn ends when another seat is to move: none alone.
      state.players > 1
        ? [
            select(
              'clock',
              state.clock,
              [['', t('lobby.no_clock')], ...clocks.clocks.map((p) => [p.key, profileLabel(p)])],
              (v) => ((state.clock = v), v || (state.rated = false), draw()),
              t('lobby.clock'),
            ),
            h('p.hint', {}, t('lobby.clock_hint', { max: clocks.bot_after })),
          ]
        : null,
      h(
        'button.primary',
        {
          'data-testid': 'create-table',
          onclick: () => {
            const options = { players: state.players };
            for (const o of optionsFor(game, state.players)) options[o.key] = state.options[o.key];
            const seats = [{ type: 'me' }, ...state.seats.map((v) => (v.startsWith('bot:') ? { type: 'bot', level: v.slice(4) } : { type: v }))];
            const spec = { game: state.game, options, seats, listed: state.listed, rated: state.players > 1 && state.rated };
            if (state.clock && state.players > 1) spec.clock = state.clock;
            if (state.players > 1 && state.audience === 'friends') spec.friends_only = true;
            if (state.players > 1 && state.audience.startsWith('club:')) spec.club = state.audience.slice(5);
            createTable(spec).catch(showError);
          },
        },
        t('lobby.create'),
      ),
    );
  };
  draw();
  return box;
}

function tableList(title, tables, testid, empty, more) {
  return h(
    'section.card',
    { 'data-testid': testid },
    h('h2', {}, title),
    tables.length
      ? h(
          'ul.tables',
          {},
          tables.map((table) => {
            const href = table.status === 'open' ? `#/table/${table.id}` : table.status === 'finished' ? `#/replay/${table.id}` : `#/game/${table.id}`;
            return h(
              'li',
              {},
              h('a', { href, 'data-testid': `table-${table.id}` }, tableLine(table)),
              ' ',
              h(`span.status.${table.status}`, {}, t(`status.${table.status}`)),
              table.clock ? h('span.status', {}, ` · ${profileLabel(table.clock)}`) : null,
            );
          }),
        )
      : h('p.hint', {}, empty),
    more ? h('button', { 'data-testid': `${testid}-more`, onclick: more }, t('lobby.more_tables')) : null,
  );
}

// The open tables, kept live: the server pushes every change of a listed table (`table`
// messages) while the lobby watches; further pages are read on demand.
function liveOpenTables(first) {
  const tables = new Map(first.tables.map((tb) => [tb.id, tb]));
  let next = first.next;
  let box = null;
  const waiting = () => [...tables.values()].filter((tb) => tb.status === 'open' && !tb.seats.some((s) => s.me || (app.me && s.user === app.me.id)));
  const draw = () => {
    const fresh = tableList(t('lobby.open_tables'), waiting(), 'open-tables', t('lobby.no_open_tables'), next ? more : null);
    if (box) box.replaceWith(fresh);
    box = fresh;
    return box;
  };
  const more = async () => {
    try {
      const page = await api('GET', `/api/tables?after=${encodeURIComponent(next)}`);
      page.tables.forEach((tb) => tables.set(tb.id, tb));
      next = page.next;
      draw();
    } catch (e) {
      showError(e);
    }
  };
  const onMessage = (msg) => {
    if (msg.type !== 'table') return;
    if (msg.table.status === 'open') tables.set(msg.table.id, msg.table);
    else tables.delete(msg.table.id);
    draw();
  };
  const off = app.socket.onMessage(onMessage);
  // Watching now if connected, and again after a reconnect (a new connection watches nothing).
  const offStatus = app.socket.onStatus((status) => {
    if (status === 'connected') app.socket.send({ type: 'watch_lobby' });
  });
  app.leave = () => {
    off();
    offStatus();
    app.socket.send({ type: 'unwatch_lobby' });
  };
  return draw();
}

// The ways to play, first on the page (issue 46: "Play a person now", "Watch" and the
// leaderboards were small links at the bottom): each opens its page or brings its section of
// the lobby into view.
function waysToPlay(games, learn = null) {
  const toSection = (css) => () => document.querySelector(css)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  return h(
    'nav.card.ways',
    { 'aria-label': t('lobby.ways'), 'data-testid': 'ways-to-play' },
    h('a.button.primary', { href: '#/play-now', 'data-testid': 'play-now-link' }, t('pairing.title')),
    h('button', { type: 'button', 'data-testid': 'way-bots', onclick: toSection('.lobby .quick') }, t('lobby.way_bots')),
    h('button', { type: 'button', 'data-testid': 'way-table', onclick: toSection('.lobby .builder') }, t('lobby.way_table')),
    h('button', { type: 'button', 'data-testid': 'way-daily', onclick: toSection('.lobby .daily') }, t('daily.title')),
    h('a.button', { href: '#/watch', 'data-testid': 'watch-link' }, t('watch.title')),
    // Against the bots in the page, with or without a connection (issue 50).
    h('a.button', { href: '#/offline', 'data-testid': 'way-offline' }, t('offline.way')),
    h('a.button', { href: '#/tournaments', 'data-testid': 'tournaments-link' }, t('tournament.title')),
    games.length ? h('a.button', { href: `#/leaderboard/${games[0].key}`, 'data-testid': 'way-leaderboards' }, t('lobby.way_leaderboards')) : null,
    learn,
  );
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderLobby(root) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    const [catalog, clocks, open, mine, daily, clubs] = await Promise.all([
      api('GET', '/api/games'),
      api('GET', '/api/clocks'),
      api('GET', '/api/tables'),
      app.me ? api('GET', '/api/me/games') : Promise.resolve({ games: [] }),
      api('GET', '/api/daily'),
      app.me && !app.me.guest ? api('GET', '/api/me/clubs') : Promise.resolve({ clubs: [] }),
    ]);
    const games = catalog.games;
    // Tutorials (issue 48): a card, and an offer on a first visit; the lobby works without.
    const { tutorials } = await api('GET', '/api/tutorials').catch(() => ({ tutorials: [] }));
    mount(
      root,
      h(
        'div.lobby',
        {},
        waysToPlay(games, learnButton(tutorials)),
        // A first visit's offer, right under the ways to play (which stay first).
        tutorialOffer(tutorials),
        quickStarts(games),
        // The open tables right under "Play now", in view at 1280×800 without scrolling.
        liveOpenTables(open),
        builder(games, clocks, clubs.clubs),
        dailySection(daily),
        tableList(t('lobby.my_games'), mine.games.slice(0, 30), 'my-games', t('lobby.no_games')),
        rulesCard(games),
        tutorialCard(tutorials),
        h(
          'nav.card.row',
          { 'aria-label': t('lobby.more') },
          h('a', { href: '#/history', 'data-testid': 'history-link' }, t('history.title')),
          h('a', { href: '#/friends', 'data-testid': 'friends-link' }, t('social.friends')),
          h('a', { href: '#/clubs', 'data-testid': 'clubs-link' }, t('club.title')),
          games.map((g) => h('a', { href: `#/leaderboard/${g.key}` }, t('leaderboard.title', { game: t(`game.${g.key}`) }))),
          games.map((g) => h('a', { href: `#/puzzles/${g.key}`, 'data-testid': `puzzles-${g.key}` }, t('puzzle.title', { game: t(`game.${g.key}`) }))),
        ),
      ),
    );
    document.title = `${t('lobby.title')} · Pyramidion`;
  } catch (e) {
    // No server (the connection is down): said by the offer below, with the games in the page
    // that are still there (issue 50), rather than by one more toast.
    if (e.code !== 'network') showError(e);
    mount(
      root,
      h('p.hint', {}, t('shell.failed')),
      h('p.card.offline-offer', { 'data-testid': 'offline-offer' }, t('offline.offer'), ' ', h('a.button.primary', { href: '#/offline' }, t('offline.way'))),
    );
  }
}
