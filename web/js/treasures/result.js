// End of the game: the final ranking with every tie-break explained, and the record.
import { h } from '../dom.js';
import { t } from '../i18n.js';

const gemsLeft = (p) => p.gems.reduce((a, b) => a + b, 0);
const bestStage = (p) => Math.max(...p.stage_scores);

// Why `a` ranks ahead of (or level with) `b` when their totals are equal.
function tieReason(a, b, sameRank) {
  if (sameRank) return t('result.tie_shared');
  if (gemsLeft(a) !== gemsLeft(b)) return t('result.tie_gems', { a: gemsLeft(a), b: gemsLeft(b) });
  return t('result.tie_stage', { a: bestStage(a), b: bestStage(b) });
}

export function resultPanel(ctx) {
  const { view, state } = ctx;
  const outcome = view.outcome || state.outcome;
  const rows = view.players.map((p) => ({ p, name: ctx.seatName(p.seat), score: outcome.scores[p.seat], rank: outcome.ranks[p.seat] }));
  rows.sort((x, y) => x.rank - y.rank || x.p.seat - y.p.seat);
  const notes = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    if (a.score === b.score) notes.push(`${a.name} / ${b.name}: ${tieReason(a.p, b.p, a.rank === b.rank)}`);
  }
  let headline;
  if (view.legend) {
    // The engine ranks the player 0 only on strictly more points (THE Legend wins ties).
    const legend = outcome.automa;
    const won = outcome.ranks[0] === 0;
    headline = won ? t('result.solo_won', { score: outcome.scores[0], legend }) : t('result.solo_lost', { score: outcome.scores[0], legend });
    if (outcome.scores[0] === legend) notes.push(t('result.legend_wins_ties'));
  } else {
    const winners = rows.filter((r) => r.rank === 0).map((r) => r.name);
    const iWon = rows.some((r) => r.rank === 0 && r.p.seat === state.seat);
    if (winners.length > 1) headline = t('result.shared_win', { names: winners.join(', ') });
    else headline = iWon ? t('result.you_win') : t('result.winner', { name: winners[0] });
  }
  const ranking = rows.map((r) => ({ name: r.name, score: r.score, rank: r.rank + 1, gems: gemsLeft(r.p), best: bestStage(r.p) }));
  if (view.legend) {
    // THE Legend takes whichever of the two places the player did not.
    const legendRank = outcome.ranks[0] === 0 ? 2 : 1;
    ranking.push({ name: t(`solo.${view.legend.mode}`), score: outcome.automa, rank: legendRank, gems: null, best: Math.max(...view.legend.stage_scores) });
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
      h('thead', {}, h('tr', {}, h('th', {}, t('result.rank')), h('th', {}, t('result.player')), h('th', {}, t('pad.total')), h('th', {}, t('result.gems_left')), h('th', {}, t('result.best_stage')))),
      h('tbody', {}, ranking.map((r) => h('tr', {}, h('td', {}, `${r.rank}`), h('td', {}, r.name), h('td', {}, h('strong', {}, `${r.score}`)), h('td', {}, r.gems === null ? '–' : `${r.gems}`), h('td', {}, `${r.best}`)))),
    ),
    notes.length ? h('ul.tie-notes', { 'data-testid': 'tie-notes' }, notes.map((n) => h('li', {}, n))) : h('p.hint', {}, t('result.no_ties')),
    h('p', {}, h('a', { href: `/api/games/${ctx.id}/record?format=text`, target: '_blank', rel: 'noopener', 'data-testid': 'record-link' }, t('result.record')), ' · ', h('a', { href: '#/' }, t('result.back'))),
  );
}
