// @ts-check
// The score line under a seat's board (or the automa's panel), drawn by the shell from the
// view's envelope (`seats`, `automa`): the points stage by stage (`–` until a stage is scored, as on the scoring pad; the stage being
// played in bold) and its total. A table adds its own facts before the total (`middle`) and
// after it (`after`); `testid` names the total (default `total`; `null` for none).
import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * @typedef {import('./envelope.js').TableContext} TableContext
 */

/**
 * @param {TableContext} ctx
 * @param {number | 'automa'} seat a seat, or the automa (solo)
 * @param {{ middle?: any, after?: any, testid?: string | null }} [extra]
 * @returns {HTMLElement | null}
 */
export function scoreLine(ctx, seat, extra = {}) {
  const { view } = ctx;
  const summary = seat === 'automa' ? view.automa : view.seats[seat];
  if (!summary) return null;
  const points = summary.stage_points || [];
  return h(
    'div.score-line',
    {},
    points.map((p, i) =>
      h('span', { class: i + 1 === view.stage && view.phase !== 'over' ? 'current' : '' }, `${t('table.stage_short', { stage: i + 1 })}: ${p === null || p === undefined ? '–' : p}`),
    ),
    extra.middle,
    h('strong', { 'data-testid': extra.testid === undefined ? 'total' : extra.testid, 'data-score': summary.score }, t('table.total', { total: summary.score })),
    extra.after,
  );
}
