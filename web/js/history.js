// @ts-check
// "My games": every game I sat at, with its date, game, opponents, my result, score and
// rating change, each linking to its replay (or to the game while it is played), and the
// exports. Also the shared pieces other pages use to show a seat, a date or a result.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t, language } from './i18n.js';
import { app, showError } from './shell.js';

// A seat as everyone sees it: a player's name (linking to nothing here), or a bot's level.
export function seatLabel(seat, index) {
  if (!seat) return t('seat.number', { n: index + 1 });
  if (seat.type === 'human') return seat.me ? t('seat.you_named', { name: seat.name }) : seat.name;
  if (seat.type === 'bot') return t('seat.bot_named', { n: index + 1, level: t(`bot.${seat.level}`) });
  return t(`seat.${seat.type}`, { name: seat.name });
}

export function dateText(ms) {
  if (!ms) return '';
  return new Date(ms).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
}

// A seat that is a person links to their profile; a bot is its level.
export function seatLink(seat, index) {
  if (seat && seat.type === 'human') return h('a', { href: `#/player/${encodeURIComponent(seat.user)}` }, seatLabel(seat, index));
  return seatLabel(seat, index);
}

// The result of a finished game for its player, in words (not only colour).
export function resultText(mine, seats) {
  if (mine.rank === undefined || mine.rank === null) return '';
  // A game that ended early (resigned, abandoned, claimed) has ranks but no scores.
  if (mine.score === undefined || mine.score === null) return mine.won ? t('history.won_only') : t('history.rank_only', { rank: mine.rank + 1 });
  if (seats === 1) return mine.won ? t('history.solo_won', { score: mine.score }) : t('history.solo_lost', { score: mine.score });
  return mine.won ? t('history.won', { score: mine.score }) : t('history.rank', { rank: mine.rank + 1, score: mine.score });
}

export function ratingText(rating) {
  if (!rating) return null;
  // Left out of the rating (a provisional player met again): "+0" says why (issue 46).
  if (rating.counted === false) return t('history.rating_not_counted', { after: Math.round(rating.after) });
  const delta = Math.round(rating.after - rating.before);
  return t('history.rating_change', { after: Math.round(rating.after), delta: delta >= 0 ? `+${delta}` : String(delta) });
}

// Download links of a game's record: text (what `pyramidion replay` reads) and JSON.
export function exportLinks(table) {
  if (table.status !== 'finished') return null;
  return h(
    'span.exports',
    {},
    h('a', { href: `/api/games/${table.id}/record?format=text&download=true`, download: '', 'data-testid': 'export-text' }, t('export.text')),
    ' · ',
    h('a', { href: `/api/games/${table.id}/record?format=json&download=true`, download: '' }, t('export.json')),
  );
}

export function historyItem(game) {
  const opponents = game.seats
    .map((s, i) => [s, i])
    .filter(([, i]) => !game.mine.seats.includes(i))
    .map(([s, i]) => seatLink(s, i));
  const href = game.status === 'finished' ? `#/replay/${game.id}` : game.status === 'open' ? `#/table/${game.id}` : `#/game/${game.id}`;
  const rating = ratingText(game.mine.rating);
  return h(
    'li.history-item',
    { 'data-testid': `history-${game.id}` },
    h('a.history-game', { href }, t(`game.${game.game}`)),
    ' ',
    h('span.hint', {}, dateText(game.finished_at || game.created_at)),
    h('div', {}, opponents.length ? [t('history.against'), ' ', opponents.flatMap((o, i) => (i ? [', ', o] : [o]))] : t('history.alone')),
    h(
      'div.row',
      {},
      h(`span.status.${game.status}`, {}, t(`status.${game.status}`)),
      game.rated ? h('span.badge', {}, t('history.rated')) : h('span.badge.casual', {}, t('history.casual')),
      game.offline ? h('span.badge.casual', { 'data-testid': 'history-offline' }, t('offline.played_offline')) : null,
      // The result and how the game ended are one item of the row, the separator bound to the
      // result by a no-break space: on a phone the row wrapped before "· resigned", which then
      // opened a line of its own.
      h(
        'span.history-outcome',
        {},
        h('strong', { 'data-testid': 'history-result' }, resultText(game.mine, game.seats.length)),
        game.result && game.result.ending ? h('span.ending', { 'data-testid': 'history-ending' }, `\u00a0· ${t(`history.ending.${game.result.ending}`)}`) : null,
      ),
      rating ? h('span', { 'data-testid': 'history-rating' }, rating) : null,
    ),
    game.status === 'finished' ? h('div.row', {}, h('a', { href }, t('history.replay')), exportLinks(game)) : null,
  );
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderHistory(root) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    const mine = await api('GET', '/api/me/games');
    const me = app.me;
    mount(
      root,
      h(
        'section.card.history',
        { 'data-testid': 'history' },
        h('h2', {}, t('history.title')),
        me
          ? h(
              'p.row',
              {},
              h('a', { href: `#/player/${encodeURIComponent(me.id)}`, 'data-testid': 'my-profile' }, t('history.my_profile')),
              h('a', { href: `/api/users/${encodeURIComponent(me.id)}/games.ndjson?limit=500`, download: '', 'data-testid': 'export-all' }, t('export.all')),
            )
          : null,
        mine.games.length ? h('ul.history-list', {}, mine.games.map(historyItem)) : h('p.hint', {}, t('lobby.no_games')),
      ),
    );
    document.title = `${t('history.title')} · Pyramidion`;
  } catch (e) {
    showError(e);
    mount(root, h('p.hint', {}, t('shell.failed')));
  }
}
