// @ts-check
// Tournaments (issue 49): the list with a create form, and one tournament's page: its
// standings (live: `tournament` messages on the socket), rounds and tables, your table and the
// podium. The server pairs, scores and ranks; this page draws what it is sent.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, showError } from './shell.js';
import { profileLabel } from './clocks.js';
import { dateText } from './history.js';

// In the page's language (the browser's own locale wrote an Italian page's dates the US way).
const when = (ms) => dateText(ms);
const playerName = (p) => (p.bot ? t('tournament.bot', { name: p.name }) : p.name);

function summaryLine(tn) {
  const format = tn.format === 'arena' ? t('tournament.arena_minutes', { minutes: Math.round(tn.duration_ms / 60000) }) : t('tournament.swiss_rounds', { rounds: tn.rounds });
  // A tournament cancelled because its club was deleted says so (not "too few players").
  const status = tn.status === 'cancelled' && tn.cancelled_because === 'club_deleted' ? t('people3.cancelled_club_deleted') : t(`tournament.status_${tn.status}`);
  const parts = [t(`game.${tn.game}`), format, t('tournament.seats', { seats: tn.seats }), status, t('tournament.entrants', { count: tn.entrants })];
  // A clockless Swiss: how long a round may last (the server adjudicates after).
  if (tn.round_days) parts.push(t('people3.round_days', { count: tn.round_days }));
  if (tn.status === 'open') parts.push(t('tournament.starts', { when: when(tn.starts_at) }));
  if (tn.rated) parts.push(t('tournament.rated'));
  if (tn.bots) parts.push(t('tournament.bots_fill'));
  return parts.join(' · ');
}

function createForm(games, clocks) {
  const state = { name: '', game: games[0].key, format: 'swiss', seats: 2, rounds: 3, minutes: 30, bots: true, clock: '', rated: false, startsIn: 10, entry: 'open', roundDays: 7 };
  const box = h('section.card.builder', { 'data-testid': 'tournament-create' });
  const field = (label, input) => h('label', {}, label, input);
  const draw = () => {
    const game = games.find((g) => g.key === state.game) || games[0];
    const sizes = [];
    for (let n = Math.max(2, game.seats.min); n <= Math.min(5, game.seats.max); n++) sizes.push(n);
    if (!sizes.includes(state.seats)) state.seats = sizes[0];
    const select = (name, value, options, onchange, label) =>
      field(
        label,
        h(
          'select',
          { name, 'data-testid': `tournament-${name}`, onchange: (e) => onchange(e.target.value) },
          options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text)),
        ),
      );
    mount(
      box,
      h('h2', {}, t('tournament.create')),
      field(t('tournament.name'), h('input', { type: 'text', maxlength: 60, value: state.name, 'data-testid': 'tournament-name', oninput: (e) => (state.name = e.target.value) })),
      select(
        'game',
        state.game,
        games.filter((g) => g.seats.max > 1).map((g) => [g.key, t(`game.${g.key}`)]),
        (v) => ((state.game = v), draw()),
        t('lobby.game'),
      ),
      select(
        'seats',
        state.seats,
        sizes.map((n) => [n, String(n)]),
        (v) => (state.seats = Number(v)),
        t('tournament.table_size'),
      ),
      select(
        'format',
        state.format,
        ['swiss', 'arena'].map((f) => [f, t(`tournament.format_${f}`)]),
        (v) => ((state.format = v), draw()),
        t('tournament.format'),
      ),
      state.format === 'swiss'
        ? select(
            'rounds',
            state.rounds,
            [1, 2, 3, 4, 5, 6, 7].map((n) => [n, String(n)]),
            (v) => (state.rounds = Number(v)),
            t('tournament.rounds'),
          )
        : select(
            'duration',
            state.minutes,
            [15, 30, 60, 90, 120].map((n) => [n, t('tournament.minutes', { minutes: n })]),
            (v) => (state.minutes = Number(v)),
            t('tournament.duration'),
          ),
      select(
        'clock',
        state.clock,
        [['', t('lobby.no_clock')], ...clocks.clocks.map((p) => [p.key, profileLabel(p)])],
        (v) => ((state.clock = v), v || (state.rated = false), draw()),
        t('lobby.clock'),
      ),
      // Rounds without a clock end at a deadline the creator chooses (the server's bounds).
      state.format === 'swiss' && !state.clock
        ? select(
            'round-days',
            state.roundDays,
            [1, 2, 3, 5, 7, 10, 14, 21, 30].map((n) => [n, t('people3.round_days_option', { count: n })]),
            (v) => (state.roundDays = Number(v)),
            t('people3.round_days_label'),
          )
        : null,
      select(
        'starts',
        state.startsIn,
        [1, 5, 10, 30, 60].map((m) => [m, t('tournament.in_minutes', { minutes: m })]),
        (v) => (state.startsIn = Number(v)),
        t('tournament.start'),
      ),
      select(
        'entry',
        state.entry,
        ['open', 'invite'].map((e) => [e, t(`tournament.entry_${e}`)]),
        (v) => (state.entry = v),
        t('tournament.entry'),
      ),
      state.format === 'swiss'
        ? h('label.check', {}, h('input', { type: 'checkbox', checked: state.bots, 'data-testid': 'tournament-bots', onchange: (e) => (state.bots = e.target.checked) }), t('tournament.bots_allowed'))
        : null,
      // The server refuses a rated tournament without a clock (`rated_needs_clock`): the form
      // says so before, and a clock taken away unticks Rated.
      h(
        'label.check',
        {},
        h('input', { type: 'checkbox', checked: state.rated, disabled: !state.clock, 'data-testid': 'tournament-rated', onchange: (e) => (state.rated = e.target.checked) }),
        t('lobby.rated'),
      ),
      state.clock ? null : h('p.hint', { 'data-testid': 'tournament-rated-needs-clock' }, t('polish.rated_needs_clock')),
      h(
        'button.primary',
        {
          'data-testid': 'tournament-submit',
          onclick: async () => {
            const level = game.bot_levels.find((l) => l.name === 'greedy') || game.bot_levels[0];
            const spec = {
              name: state.name || t('tournament.default_name'),
              game: game.key,
              format: state.format,
              seats: state.seats,
              rated: state.rated,
              entry: state.entry,
              starts_in_s: state.startsIn * 60,
            };
            if (state.format === 'swiss') spec.rounds = state.rounds;
            else spec.duration_min = state.minutes;
            if (state.clock) spec.clock = state.clock;
            else if (state.format === 'swiss') spec.round_days = state.roundDays;
            if (state.format === 'swiss' && state.bots && level) spec.bots = level.name;
            try {
              const tn = await api('POST', '/api/tournaments', spec);
              location.hash = `#/tournament/${tn.id}`;
            } catch (e) {
              showError(e);
            }
          },
        },
        t('tournament.create_button'),
      ),
    );
  };
  draw();
  return box;
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderTournaments(root) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    const [list, catalog, clocks] = await Promise.all([api('GET', '/api/tournaments'), api('GET', '/api/games'), api('GET', '/api/clocks')]);
    mount(
      root,
      h(
        'div.tournaments',
        {},
        h(
          'section.card',
          { 'data-testid': 'tournament-list' },
          h('h2', {}, t('tournament.title')),
          list.tournaments.length
            ? h(
                'ul.tables',
                {},
                list.tournaments.map((tn) => h('li', { 'data-testid': 'tournament-item' }, h('a', { href: `#/tournament/${tn.id}` }, tn.name), ' ', h('span.hint', {}, summaryLine(tn)))),
              )
            : h('p.hint', {}, t('tournament.none')),
        ),
        app.me && !app.me.guest ? createForm(catalog.games, clocks) : h('p.hint.card', {}, t('tournament.sign_in_to_create')),
      ),
    );
    document.title = `${t('tournament.title')} · Pyramidion`;
  } catch (e) {
    showError(e);
    mount(root, h('p.hint', {}, t('shell.failed')));
  }
}

function standingsTable(standings) {
  return h(
    'table.data',
    { 'data-testid': 'tournament-standings' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['#', t('result.player'), t('tournament.points'), t('tournament.opponents'), t('tournament.score'), t('tournament.wins'), t('tournament.games')].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      standings.map((s) =>
        h(
          'tr',
          { 'data-testid': 'standing-row', 'data-id': s.id },
          h('td', {}, String(s.rank)),
          h('td', {}, playerName(s), s.withdrawn ? h('span.hint', {}, ` (${t('tournament.withdrawn')})`) : null, s.on_fire ? h('span.hint', { title: t('tournament.on_fire') }, ' 🔥') : null),
          h('td', { 'data-testid': 'standing-points' }, String(s.points)),
          h('td', {}, s.opponents.toLocaleString(undefined, { maximumFractionDigits: 1 })),
          h('td', {}, String(s.score)),
          h('td', {}, String(s.wins)),
          h('td', {}, String(s.games)),
        ),
      ),
    ),
  );
}

function roundsList(rounds, arena) {
  return rounds
    .slice()
    .reverse()
    .map((r) =>
      h(
        'section.card',
        { 'data-testid': 'tournament-round' },
        h('h3', {}, arena ? t('tournament.tables') : t('tournament.round', { round: r.round + 1 })),
        r.deadline_at ? h('p.hint', { 'data-testid': 'round-deadline' }, t('people2.round_deadline', { date: dateText(r.deadline_at) })) : null,
        h(
          'ol.tables',
          {},
          r.tables.map((tb) =>
            h(
              'li',
              {},
              tb.players.map((p, i) => `${playerName(p)}${tb.places ? ` (${tb.places[i] + 1})` : ''}`).join(' · '),
              ' ',
              tb.game ? h('a', { href: tb.places ? `#/replay/${tb.game}` : `#/game/${tb.game}` }, tb.places ? t('tournament.replay') : t('tournament.watch')) : null,
            ),
          ),
        ),
        r.byes.length ? h('p.hint', {}, t('tournament.byes', { names: r.byes.map(playerName).join(', ') })) : null,
      ),
    );
}

/**
 * @param {HTMLElement} root the page
 * @param {string} id the tournament
 */
export async function renderTournament(root, id) {
  let tn;
  const me = () => (app.me ? app.me.id : null);
  const act = async (path, body) => {
    try {
      tn = await api('POST', `/api/tournaments/${id}/${path}`, body);
      draw();
    } catch (e) {
      showError(e);
    }
  };
  const myGame = () => {
    const last = tn.paired[tn.paired.length - 1];
    const table = last && last.tables.find((tb) => !tb.places && tb.players.some((p) => p.id === me()));
    return table ? table.game : null;
  };
  const draw = () => {
    const entered = tn.players.some((p) => p.id === me());
    const over = tn.status === 'finished' || tn.status === 'cancelled';
    const game = myGame();
    mount(
      root,
      h(
        'div.tournament',
        { 'data-testid': 'tournament', 'data-status': tn.status },
        h(
          'section.card',
          {},
          h('h2', {}, tn.name),
          h('p.hint', { 'data-testid': 'tournament-summary' }, summaryLine(tn)),
          game ? h('p', {}, h('a.button.primary', { href: `#/game/${game}`, 'data-testid': 'tournament-my-table' }, t('tournament.your_table'))) : null,
          h(
            'div.row',
            {},
            !over && !entered
              ? h(
                  'button.primary',
                  { 'data-testid': 'tournament-join', onclick: () => act('join', { invite: new URLSearchParams(location.hash.split('?')[1] || '').get('invite') || undefined }) },
                  t('tournament.join'),
                )
              : null,
            !over && entered ? h('button', { 'data-testid': 'tournament-leave', onclick: () => act('leave', {}) }, t('tournament.leave')) : null,
            tn.status === 'open' && tn.created_by === me() ? h('button', { 'data-testid': 'tournament-start', onclick: () => act('start', {}) }, t('tournament.start_now')) : null,
          ),
          tn.invite ? h('p.hint', { 'data-testid': 'tournament-invite' }, t('tournament.invite_link', { link: `${location.origin}/#/tournament/${tn.id}?invite=${tn.invite}` })) : null,
        ),
        tn.podium.length
          ? h(
              'section.card.podium',
              { 'data-testid': 'tournament-podium' },
              h('h2', {}, t('tournament.podium')),
              tn.podium.map((p) => h('p', { 'data-testid': 'podium-place', 'data-place': String(p.place) }, t('tournament.place', { place: p.place, name: playerName(p) }))),
            )
          : null,
        h(
          'section.card',
          {},
          h('h2', {}, t('tournament.standings')),
          tn.standings.length ? h('div.scroll-x', {}, standingsTable(tn.standings)) : h('p.hint', {}, t('tournament.players', { names: tn.players.map(playerName).join(', ') || '—' })),
          h('p.hint', {}, t('tournament.tiebreaks')),
        ),
        roundsList(tn.paired, tn.format === 'arena'),
      ),
    );
    document.title = `${tn.name} · Pyramidion`;
  };
  mount(root, h('p.loading', {}, t('shell.loading')));
  const load = async () => {
    tn = await api('GET', `/api/tournaments/${id}`);
    draw();
  };
  try {
    await load();
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, errorText(e.code)));
  }
  // The standings come with each message; the rounds and tables are read again with them.
  const off = app.socket.onMessage((msg) => {
    if (msg.type !== 'tournament' || msg.tournament !== id) return;
    tn.standings = msg.standings;
    tn.status = msg.status;
    draw();
    load().catch(showError);
  });
  const offStatus = app.socket.onStatus((status) => {
    if (status === 'connected') app.socket.send({ type: 'watch_lobby' });
  });
  app.leave = () => {
    off();
    offStatus();
    app.socket.send({ type: 'unwatch_lobby' });
  };
}
