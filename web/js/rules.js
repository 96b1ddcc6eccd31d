// @ts-check
// How to play: each game's rules summary and solo modes, written with the game in its own
// folder (`js/<key>/rules.<lang>.html`, falling back to English). The shell only knows the
// key from the descriptors: it names no game.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { language, t } from './i18n.js';
import { showError } from './shell.js';

// A link to the rules of the game `key`; `newTab` keeps a game page open behind it.
export function rulesLink(key, newTab = false) {
  return h(
    'a.rules-link',
    { href: `#/rules/${key}`, 'data-testid': `rules-${key}`, target: newTab ? '_blank' : null, rel: newTab ? 'noopener' : null },
    newTab ? t('rules.link_table') : t('rules.link', { game: t(`game.${key}`) }),
  );
}

// The lobby's card: one link per game of the descriptors.
export function rulesCard(games) {
  return h(
    'section.card.how-to-play',
    { 'data-testid': 'how-to-play' },
    h('h2', {}, t('rules.title')),
    h(
      'ul',
      {},
      games.map((g) => h('li', {}, rulesLink(g.key))),
    ),
  );
}

async function fetchRules(key) {
  for (const code of [language(), 'en']) {
    const res = await fetch(`/js/${encodeURIComponent(key)}/rules.${code}.html`);
    if (res.ok) return res.text();
  }
  throw Object.assign(new Error('no rules'), { code: 'not_found' });
}

/**
 * @param {HTMLElement} root the page
 * @param {string} [key]
 */
export async function renderRules(root, key) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    const { games } = await api('GET', '/api/games');
    const game = games.find((g) => g.key === key);
    if (!game) throw Object.assign(new Error('unknown game'), { code: 'not_found' });
    const html = await fetchRules(key);
    const { tutorials } = await api('GET', '/api/tutorials').catch(() => ({ tutorials: [] }));
    const learn = tutorials.some((x) => x.game === key);
    const body = h('div.rules-text', { 'data-testid': 'rules-text', lang: language() });
    // The summaries are this site's own static pages, served next to the game's table.
    body.innerHTML = html;
    mount(
      root,
      h(
        'article.card.rules',
        { 'data-testid': 'rules-page', 'data-game': key },
        h('p', {}, h('a', { href: '#/' }, `← ${t('rules.back')}`)),
        h('h2', {}, t('rules.of', { game: t(`game.${key}`) })),
        learn ? h('p', {}, h('a.button.primary', { href: `#/learn/${key}`, 'data-testid': 'rules-learn' }, t('tutorial.link'))) : null,
        body,
      ),
    );
    document.title = `${t('rules.of', { game: t(`game.${key}`) })} · Pyramidion`;
  } catch (e) {
    showError(e);
    mount(root, h('p.hint', {}, t('shell.failed')));
  }
}
