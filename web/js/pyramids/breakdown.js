// @ts-check
// End of the game, below the shell's ranking: every player's score edifice by edifice, as the
// engine counted it (the view's `final_score` and `detail`), in the order of the ranking.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { shownOutcome } from '../result.js';
import { COLOURS, colourName, stoneChip } from './pieces.js';

/**
 * @param {import('./table.js').Ctx} ctx
 * @returns {HTMLElement[]}
 */
export function scoreBreakdown(ctx) {
  const { view, state } = ctx;
  // The server's ranking, as the result panel reads it.
  const outcome = shownOutcome(state, view);
  const rows = view.seats.map((p) => ({ p, name: ctx.seatName(p.seat), rank: outcome.ranks[p.seat] }));
  rows.sort((a, b) => a.rank - b.rank || a.p.seat - b.p.seat);
  // Each cell names its column too: on a phone the rows become cards (see table.css).
  const cell = (/** @type {number} */ v, /** @type {string} */ label) => h('td', { 'data-label': label }, `${v}`);
  const head = [
    t('result.player'),
    ...COLOURS.map((c) => h('span.head-chip', { title: t('py.score.group', { colour: colourName(c) }) }, stoneChip(c, 16))),
    t('py.score.longest'),
    t('py.score.bonus'),
    t('py.score.pyramid'),
    t('py.score.obelisk'),
    t('py.score.tomb'),
    t('py.score.glyphs'),
    t('pad.total'),
  ];
  return [
    h(
      'div.py-breakdown-wrap',
      {},
      h(
        'table.py-breakdown',
        { 'data-testid': 'breakdown' },
        h('caption', {}, t('py.score.caption')),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            head.map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map(({ p, name }) => {
            const sc = p.final_score;
            const d = p.detail;
            const tomb = d.tomb_majorities.length
              ? h(
                  'span',
                  {},
                  `${sc.tomb} (`,
                  d.tomb_majorities.map((c) => stoneChip(c, 14)),
                  ` ${d.tomb_majorities.map(colourName).join(', ')})`,
                )
              : h('span', {}, `${sc.tomb}`);
            const ties = d.tomb_ties.length
              ? h(
                  'div.tomb-ties',
                  { 'data-testid': 'tomb-ties' },
                  d.tomb_ties.map((c) => stoneChip(c, 12)),
                  ' ',
                  t('py.score.tomb_tied', { colours: d.tomb_ties.map(colourName).join(', ') }),
                )
              : null;
            return h(
              'tr',
              { 'data-seat': p.seat, 'data-testid': 'breakdown-row' },
              h('th', { scope: 'row' }, name),
              COLOURS.map((c) => cell(sc.pyramid.groups[c], t('py.score.group', { colour: colourName(c) }))),
              cell(sc.pyramid.longest, t('py.score.longest')),
              cell(sc.pyramid.bonus, t('py.score.bonus')),
              h('td', { 'data-label': t('py.score.pyramid') }, h('strong', {}, `${sc.pyramid.total}`)),
              h('td', { 'data-label': t('py.score.obelisk'), title: COLOURS.map((c) => `${colourName(c)} ${p.obelisk_stages[c]}`).join(', ') }, `${sc.obelisk}`),
              h('td', { 'data-label': t('py.score.tomb'), title: COLOURS.map((c) => `${colourName(c)} ${d.tomb_stones[c]}`).join(', ') }, h('div', {}, tomb, ties)),
              h('td', { 'data-label': t('py.score.glyphs'), title: t('py.score.glyph_split', d.glyphs) }, `${sc.glyphs}`),
              h('td', { 'data-label': t('pad.total') }, h('strong', {}, `${sc.total}`)),
            );
          }),
        ),
      ),
    ),
    h(
      'ul.py-tomb-details',
      { 'data-testid': 'tomb-details' },
      rows.map(({ p, name }) =>
        // "Your tomb", not "Tombeau de Vous": the reader's own row in the second person.
        h(
          'li',
          {},
          p.seat === ctx.state.seat ? t('py.score.tomb_stones_yours') : t('py.score.tomb_stones', { name }),
          ' ',
          COLOURS.map((c) => h('span.tomb-stone', {}, stoneChip(c, 14), `${p.detail.tomb_stones[c]}`)),
          ' · ',
          t('py.score.glyph_split', p.detail.glyphs),
        ),
      ),
    ),
    h('p.hint', {}, t('py.score.rules')),
  ];
}
