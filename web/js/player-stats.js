// @ts-check
// What a profile shows beyond its ratings (issue 49): follow and challenge buttons, the
// rating graph per game, statistics per game (games, win rate by player count, mean and best
// score, the best value of each ranking key) and the fair-play record, all from
// `GET /api/users/{id}/stats`, computed by the server.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t, has } from './i18n.js';
import { app, showError, toast } from './shell.js';
import { ratingGraph } from './rating-graph.js';

const percent = (wins, games) => (games ? Math.round((100 * wins) / games) : 0);

function gameStats(g) {
  return h(
    'div.game-stats',
    { 'data-testid': `stats-${g.game}` },
    h('h4', {}, t(`game.${g.game}`)),
    h(
      'p',
      {},
      // The wins as a figure: a word agreeing with them read "0 vinta" beside "1 partita".
      t('people3.stats_line', { count: g.games, wins: g.wins, percent: percent(g.wins, g.games) }),
      g.best_score !== null && g.best_score !== undefined ? ` · ${t('profile.stats_scores', { mean: g.mean_score, best: g.best_score })}` : '',
    ),
    h(
      'table.data',
      {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('profile.stats_players')), h('th', { scope: 'col' }, t('profile.stats_games')), h('th', { scope: 'col' }, t('profile.stats_win_rate')))),
      h(
        'tbody',
        {},
        g.by_players.map((b) => h('tr', {}, h('td', {}, b.players === 1 ? t('profile.stats_solo') : String(b.players)), h('td', {}, String(b.games)), h('td', {}, `${percent(b.wins, b.games)} %`))),
      ),
    ),
    Object.entries(g.best).map(([key, value]) => h('p.hint', {}, t('profile.stats_best_key', { key: has(`result.${key}`) ? t(`result.${key}`) : key, value }))),
  );
}

// Follow / unfollow, and a challenge (a 2-seat table of the chosen game, the other seat kept
// for this player) once followed.
function socialBar(p, st, games, redraw) {
  const me = app.me;
  if (!me || me.id === p.id || p.guest) return null;
  if (me.guest) return h('p.hint', {}, t('social.guest_hint'));
  const follow = async () => {
    try {
      await api(st.followed ? 'DELETE' : 'POST', `/api/users/${encodeURIComponent(p.id)}/follow`);
      redraw();
    } catch (e) {
      showError(e);
    }
  };
  const duelGames = games.filter((g) => g.seats.min <= 2 && g.seats.max >= 2);
  const select = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { 'data-testid': 'challenge-game', 'aria-label': t('lobby.game') },
      duelGames.map((g) => h('option', { value: g.key }, t(`game.${g.key}`))),
    )
  );
  const challenge = async () => {
    try {
      const table = await api('POST', '/api/tables', { game: select.value, options: { players: 2 }, seats: [{ type: 'me' }, { type: 'friend', user: p.id }], listed: false });
      toast(t('social.challenge_sent', { name: p.name }), 'info', { keep: true });
      location.hash = `#/table/${table.id}`;
    } catch (e) {
      showError(e);
    }
  };
  return h(
    'div.row.social-bar',
    {},
    h('button', { 'data-testid': 'follow', 'aria-pressed': String(st.followed), onclick: follow }, st.followed ? t('social.unfollow') : t('social.follow')),
    st.followed && duelGames.length ? [select, h('button.primary', { 'data-testid': 'challenge', onclick: challenge }, t('social.challenge'))] : null,
  );
}

/**
 * The profile's extra sections, filled in when the statistics arrive.
 * @param {{ id: string, name: string, guest: boolean }} p the profile
 */
export function profileExtras(p) {
  const box = h('div.profile-extras', { 'data-testid': 'profile-extras' });
  const draw = async () => {
    let st;
    let games;
    try {
      [st, games] = await Promise.all([api('GET', `/api/users/${encodeURIComponent(p.id)}/stats`), api('GET', '/api/games')]);
    } catch (e) {
      return showError(e);
    }
    mount(
      box,
      h(
        'section.card',
        {},
        h('p', { 'data-testid': 'presence' }, st.online === null ? null : [st.online ? t('social.online') : t('social.offline'), ' · '], t('social.followers', { count: st.followers })),
        socialBar(p, st, games.games, draw),
      ),
      st.rating_history.length ? h('section.card', {}, h('h3', {}, t('profile.graphs')), st.rating_history.map(ratingGraph)) : null,
      h(
        'section.card',
        { 'data-testid': 'profile-stats' },
        h('h3', {}, t('profile.stats')),
        st.games.length ? st.games.map(gameStats) : h('p.hint', {}, t('profile.no_stats')),
        h('p', { 'data-testid': 'fair-play' }, t('people3.fair_play', { games: st.fair_play.games, resigned: st.fair_play.resigned, timed_out: st.fair_play.timed_out })),
      ),
    );
  };
  draw();
  return box;
}
