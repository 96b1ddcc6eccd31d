// End of the game: the final ranking with every tie-break explained, and the record.
import { h } from '../dom.js';
import { t } from '../i18n.js';

// The engine's ranking keys (`score`, `gems_left`, `best_stage`) by name, per seat.
const keyValue = (outcome, name, seat) => {
  const key = outcome.keys.find((k) => k.name === name);
  return key ? key.values[seat] : null;
};

export function resultPanel(ctx) {
  const { view, state } = ctx;
  const outcome = view.outcome || state.outcome;
  const rows = view.seats.map((p) => ({ p, name: ctx.seatName(p.seat), score: outcome.scores[p.seat], rank: outcome.ranks[p.seat] }));
  rows.sort((x, y) => x.rank - y.rank || x.p.seat - y.p.seat);
  // Why each seat ranks where it does against the seat just above it, as the engine decided.
  const notes = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    const by = outcome.decided_by[b.p.seat];
    if (by && by !== 'score') {
      const values = { a: keyValue(outcome, by, a.p.seat), b: keyValue(outcome, by, b.p.seat) };
      notes.push(`${a.name} / ${b.name}: ${t(`tie.${by}`, values)}`);
    }
  }
  let headline;
  if (view.legend) {
    const legend = outcome.automa;
    const won = outcome.ranks[0] === 0;
    headline = won ? t('result.solo_won', { score: outcome.scores[0], legend }) : t('result.solo_lost', { score: outcome.scores[0], legend });
    if (outcome.decided_by[0]) notes.push(t(`tie.${outcome.decided_by[0]}`));
  } else {
    const winners = rows.filter((r) => r.rank === 0).map((r) => r.name);
    const iWon = rows.some((r) => r.rank === 0 && r.p.seat === state.seat);
    if (winners.length > 1) headline = t('result.shared_win', { names: winners.join(', ') });
    else headline = iWon ? t('result.you_win') : t('result.winner', { name: winners[0] });
  }
  // One column per tie-break the engine ranked on (none in solo: THE Legend wins ties).
  const tieKeys = outcome.keys.map((k) => k.name).filter((name) => name !== 'score');
  const ranking = rows.map((r) => ({ name: r.name, score: r.score, rank: r.rank + 1, ties: tieKeys.map((name) => keyValue(outcome, name, r.p.seat)) }));
  if (view.legend) {
    // THE Legend takes whichever of the two places the player did not.
    const legendRank = outcome.ranks[0] === 0 ? 2 : 1;
    ranking.push({ name: t('legend.name'), score: outcome.automa, rank: legendRank, ties: tieKeys.map(() => null) });
    ranking.sort((a, b) => a.rank - b.rank);
  }
  return h(
    'section.card.result',
    { 'data-testid': 'result' },
    h('h2', {}, t('result.title')),
    h('p.headline', { 'data-testid': 'result-headline' }, headline),
    h(
      'table.ranking',
      { 'data-testid': 'ranking' },
      h('thead', {}, h('tr', {}, h('th', {}, t('result.rank')), h('th', {}, t('result.player')), h('th', {}, t('pad.total')), tieKeys.map((name) => h('th', {}, t(`result.${name}`))))),
      h('tbody', {}, ranking.map((r) => h('tr', {}, h('td', {}, `${r.rank}`), h('td', {}, r.name), h('td', {}, h('strong', {}, `${r.score}`)), r.ties.map((v) => h('td', {}, v === null ? '–' : `${v}`))))),
    ),
    notes.length ? h('ul.tie-notes', { 'data-testid': 'tie-notes' }, notes.map((n) => h('li', {}, n))) : h('p.hint', {}, t('result.no_ties')),
    h('p', {}, h('a', { href: `/api/games/${ctx.id}/record?format=text`, target: '_blank', rel: 'noopener', 'data-testid': 'record-link' }, t('result.record')), ' · ', h('a', { href: '#/' }, t('result.back'))),
  );
}
