// @ts-check
// Friends (#/friends): the players I follow, who of them is on the site or playing (with a
// link to their listed games), and a player search. Accounts only: a guest is asked to sign
// in (guests are temporary, so they neither follow nor are followed).
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, showError } from './shell.js';

function playerLink(p) {
  return h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, p.name);
}

function search() {
  const results = h('ul.search-results', { 'data-testid': 'player-results' });
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'search', 'data-testid': 'player-search', placeholder: t('social.search_placeholder'), 'aria-label': t('social.search') }));
  let asked = 0;
  input.oninput = async () => {
    const mine = ++asked;
    const q = input.value.trim();
    if (!q) return mount(results);
    try {
      const found = await api('GET', `/api/users?q=${encodeURIComponent(q)}`);
      if (mine !== asked) return;
      mount(results, found.players.length ? found.players.map((p) => h('li', {}, playerLink(p))) : h('li.hint', {}, t('social.nobody_found')));
    } catch (e) {
      showError(e);
    }
  };
  return h('section.card', {}, h('h2', {}, t('social.search')), input, results);
}

function friendItem(f) {
  const state = f.playing ? 'playing' : f.online ? 'online' : 'offline';
  return h(
    'li.friend',
    { 'data-testid': `friend-${f.name}`, 'data-state': state },
    h('span.presence', { 'data-state': state, 'aria-hidden': 'true' }),
    playerLink(f),
    ' · ',
    t(`social.${state}`),
    f.games.map((g) => [' · ', h('a', { href: `#/game/${g}` }, t('social.watch'))]),
  );
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderFriends(root) {
  document.title = `${t('social.friends')} · Pyramidion`;
  if (!app.me || app.me.guest) {
    return mount(root, h('div.friends', {}, h('section.card', {}, h('h1', {}, t('social.friends')), h('p.hint', {}, t('social.guest_hint'))), search()));
  }
  mount(root, h('p.loading', {}, t('shell.loading')));
  let list;
  try {
    list = await api('GET', '/api/me/friends');
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, t('shell.failed')));
  }
  mount(
    root,
    h(
      'div.friends',
      { 'data-testid': 'friends' },
      h(
        'section.card',
        {},
        h('h1', {}, t('social.friends')),
        list.friends.length ? h('ul.friend-list', {}, list.friends.map(friendItem)) : h('p.hint', {}, t('social.no_friends')),
        h('p', {}, h('a', { href: '#/clubs', 'data-testid': 'clubs-link' }, t('club.title'))),
      ),
      search(),
    ),
  );
}
