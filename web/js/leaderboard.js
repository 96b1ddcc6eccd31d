// @ts-check
// The rating leaderboard of one game (accounts and bot levels), and links to every game's.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { errorText, showError } from './shell.js';

/**
 * @param {HTMLElement} root the page
 * @param {string} [game]
 */
export async function renderLeaderboard(root, game) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let board;
  let catalog;
  try {
    [board, catalog] = await Promise.all([api('GET', `/api/leaderboards/${encodeURIComponent(game)}`), api('GET', '/api/games')]);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, errorText(e.code)));
  }
  mount(
    root,
    h(
      'section.card.leaderboard',
      { 'data-testid': 'leaderboard' },
      h('h2', {}, t('leaderboard.title', { game: t(`game.${board.game}`) })),
      h(
        'nav.row',
        { 'aria-label': t('leaderboard.games') },
        catalog.games.map((g) => (g.key === board.game ? h('strong', {}, t(`game.${g.key}`)) : h('a', { href: `#/leaderboard/${g.key}` }, t(`game.${g.key}`)))),
      ),
      board.players.length
        ? h(
            'table.data',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['#', t('result.player'), t('profile.rating'), t('profile.games')].map((c) => h('th', { scope: 'col' }, c)),
              ),
            ),
            h(
              'tbody',
              {},
              board.players.map((p, i) =>
                h(
                  'tr',
                  { 'data-testid': 'leaderboard-row' },
                  h('td', {}, String(i + 1)),
                  h('td', {}, p.bot ? t('leaderboard.bot', { level: t(`bot.${p.bot}`) }) : h('a', { href: `#/player/${encodeURIComponent(p.user)}` }, p.name)),
                  h('td', {}, t('profile.rating_value', { rating: p.rating, deviation: p.deviation })),
                  h('td', {}, String(p.games)),
                ),
              ),
            ),
          )
        : h('p.hint', {}, t('leaderboard.empty')),
      h('p.hint', {}, t('leaderboard.how')),
      h('p.hint', {}, t('leaderboard.provisional')),
    ),
  );
  document.title = `${t('leaderboard.title', { game: t(`game.${board.game}`) })} · Pyramidion`;
}
