// @ts-check
// The daily challenges: today's list in the lobby (one attempt per account) and each
// challenge's own leaderboard.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, showError } from './shell.js';
import { optionsText } from './profile.js';
import { dateText } from './history.js';

function challengeName(c) {
  const mode = optionsText(c.options);
  const against = c.bots.length ? t('daily.against', { level: t(`bot.${c.bots[0]}`) }) : '';
  return [t(`game.${c.game}`), mode, against].filter(Boolean).join(' · ');
}

// One attempt: the button is disabled while the table is asked for, so a double click does
// not ask twice. When the server refuses (the attempt was taken in another tab, say), the
// list is read again so that it links to the attempt instead of offering Start.
async function start(c, button) {
  button.disabled = true;
  try {
    const table = await api('POST', `/api/daily/${c.id}`);
    location.hash = `#/game/${table.id}`;
  } catch (e) {
    showError(e);
    button.disabled = false;
    if (e.code === 'daily_already_played') refresh(button.closest('[data-testid=daily]'));
  }
}

// Start says first what it costs (issue 46: the daily started on one click, with nothing
// saying it was the day's only attempt): the attempt begins on the second button.
function askFirst(c, button) {
  const item = button.closest('li');
  if (!item || item.querySelector('.daily-confirm')) return;
  const ask = h(
    'div.daily-confirm.card',
    { 'data-testid': `daily-confirm-${c.id}`, role: 'alertdialog', 'aria-label': t('daily.one_attempt') },
    h('p', {}, t('daily.one_attempt')),
    h(
      'p.row',
      {},
      h('button.small.primary', { 'data-testid': `daily-go-${c.id}`, onclick: (e) => start(c, e.currentTarget) }, t('daily.go')),
      ' ',
      h('button.small', { 'data-testid': `daily-not-now-${c.id}`, onclick: () => ask.remove() }, t('daily.not_now')),
    ),
  );
  item.append(ask);
  /** @type {HTMLElement | null} */ (ask.querySelector('button'))?.focus();
}

async function refresh(section) {
  if (!section) return;
  try {
    const daily = await api('GET', '/api/daily');
    if (section.isConnected) section.replaceWith(dailySection(daily));
  } catch (e) {
    showError(e);
  }
}

export function dailySection(daily) {
  const guest = !app.me || app.me.guest;
  return h(
    'section.card.daily',
    { 'data-testid': 'daily' },
    h('h2', {}, t('daily.title')),
    h('p.hint', {}, guest ? t('daily.sign_in') : t('daily.rules')),
    h(
      'ul.daily-list',
      {},
      daily.challenges.map((c) =>
        h(
          'li',
          { 'data-testid': `daily-${c.id}` },
          h('span', {}, challengeName(c)),
          ' ',
          c.played
            ? h('a', { href: `#/game/${c.played}`, 'data-testid': `daily-played-${c.id}` }, t('daily.played'))
            : h('button.small.primary', { 'data-testid': `daily-start-${c.id}`, disabled: guest, onclick: (e) => askFirst(c, e.currentTarget) }, t('daily.start')),
          ' ',
          h('a', { href: `#/daily/${c.id}`, 'data-testid': `daily-board-${c.id}` }, t('daily.leaderboard')),
        ),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} root the page
 * @param {string} [id]
 */
export async function renderDailyBoard(root, id) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let board;
  try {
    board = await api('GET', `/api/daily/${encodeURIComponent(id)}/leaderboard`);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, errorText(e.code)));
  }
  const title = board.game ? t('daily.board_title', { game: t(`game.${board.game}`), day: board.day }) : t('daily.title');
  mount(
    root,
    h(
      'section.card',
      { 'data-testid': 'daily-board' },
      h('h2', {}, title),
      board.options ? h('p.hint', {}, optionsText(board.options)) : null,
      board.entries.length
        ? h(
            'table.data',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['#', t('result.player'), t('daily.score'), t('daily.result')].map((c) => h('th', { scope: 'col' }, c)),
              ),
            ),
            h(
              'tbody',
              {},
              board.entries.map((e, i) =>
                h(
                  'tr',
                  {},
                  h('td', {}, String(i + 1)),
                  h('td', {}, h('a', { href: `#/player/${encodeURIComponent(e.user)}` }, e.name)),
                  h('td', {}, String(e.score)),
                  h('td', {}, e.won ? t('daily.won') : t('daily.lost')),
                ),
              ),
            ),
          )
        : board.finished > 0
          ? // Hidden until the day is over for everyone: how many finished, never who nor how.
            h('p.hint', { 'data-testid': 'daily-finished' }, t('daily.finished', { count: board.finished }))
          : h('p.hint', { 'data-testid': 'daily-empty' }, t('daily.empty')),
      board.hidden_until ? h('p.hint', { 'data-testid': 'daily-hidden' }, t('daily.hidden_until', { time: dateText(board.hidden_until) })) : null,
    ),
  );
  document.title = `${title} · Pyramidion`;
}
