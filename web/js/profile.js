// @ts-check
// A player's public profile: ratings per game, best scores per solo mode, recent games.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { errorText, showError } from './shell.js';
import { historyItem } from './history.js';
import { profileExtras } from './player-stats.js';

// An option set as words, from the descriptor's own keys and values (`solo.the-legend`).
export function optionsText(options) {
  return Object.entries(options || {})
    .filter(([key]) => key !== 'players')
    .map(([key, value]) => t(`${key}.${value}`))
    .join(', ');
}

/**
 * @param {HTMLElement} root the page
 * @param {string} [key]
 */
export async function renderProfile(root, key) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let p;
  try {
    p = await api('GET', `/api/users/${encodeURIComponent(key)}`);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, errorText(e.code)));
  }
  mount(
    root,
    h(
      'div.profile',
      { 'data-testid': 'profile' },
      h('section.card', {}, h('h2', { 'data-testid': 'profile-name' }, p.name), p.guest ? h('p.hint', {}, t('profile.guest')) : null),
      profileExtras(p),
      h(
        'section.card',
        {},
        h('h3', {}, t('profile.ratings')),
        p.ratings.length
          ? h(
              'table.data',
              { 'data-testid': 'profile-ratings' },
              h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('lobby.game')), h('th', { scope: 'col' }, t('profile.rating')), h('th', { scope: 'col' }, t('profile.games')))),
              h(
                'tbody',
                {},
                p.ratings.map((r) =>
                  h(
                    'tr',
                    { 'data-testid': `rating-${r.game}` },
                    h('td', {}, h('a', { href: `#/leaderboard/${r.game}` }, t(`game.${r.game}`))),
                    h('td', {}, t('profile.rating_value', { rating: r.rating, deviation: r.deviation })),
                    h('td', {}, String(r.games)),
                  ),
                ),
              ),
            )
          : h('p.hint', {}, t('profile.no_ratings')),
      ),
      p.solo_bests.length
        ? h(
            'section.card',
            {},
            h('h3', {}, t('profile.solo_bests')),
            h(
              'ul',
              { 'data-testid': 'profile-solo' },
              p.solo_bests.map((b) => h('li', {}, t('profile.solo_best', { game: t(`game.${b.game}`), mode: optionsText(b.options), best: b.best, wins: b.wins, count: b.games }))),
            ),
          )
        : null,
      h(
        'section.card',
        {},
        h('h3', {}, t('profile.recent')),
        p.recent.length ? h('ul.history-list', {}, p.recent.map(historyItem)) : h('p.hint', {}, t('lobby.no_games')),
        h('a', { href: `/api/users/${encodeURIComponent(p.id)}/games.ndjson?limit=500`, download: '' }, t('export.all')),
      ),
    ),
  );
  document.title = `${p.name} · Pyramidion`;
}
