// @ts-check
// The scoring pad of a game scored by stage, drawn by the shell from the view's envelope: one
// row per seat (and the automa in solo) with its points per stage (`stage_points`, `null`
// until scored) and its total (`score`), then each scored stage's breakdown, newest first and
// open. The game's table says what a stage's breakdown lists (`breakdown(stage)`) and may add
// a line under the pad (`note`).
import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * @typedef {import('./envelope.js').Envelope} Envelope
 * @typedef {import('./envelope.js').TableContext} TableContext
 * @typedef {Pick<Envelope, 'seats' | 'stages' | 'automa'>} PadView the fields the pad reads
 * @typedef {{ name: string, points: (number | null)[], total: number }} PadRow
 */

/**
 * The pad's rows: every seat, then the automa.
 * @param {PadView} view
 * @param {(seat: number) => string} seatName
 * @param {string} [automaName]
 * @returns {PadRow[]}
 */
export function padRows(view, seatName, automaName = '') {
  const rows = view.seats.map((p) => ({ name: seatName(p.seat), points: p.stage_points || [], total: p.score }));
  if (view.automa) rows.push({ name: automaName, points: view.automa.stage_points || [], total: view.automa.score });
  return rows;
}

/**
 * Stages scored so far: the last stage any row has points for.
 * @param {PadRow[]} rows
 * @returns {number}
 */
export function scoredStages(rows) {
  let done = 0;
  for (const r of rows) r.points.forEach((v, i) => v !== null && v !== undefined && (done = Math.max(done, i + 1)));
  return done;
}

/**
 * @param {TableContext} ctx
 * @param {{ breakdown?: (stage: number) => any, note?: any }} [game]
 */
export function scoringPad(ctx, game = {}) {
  const { view } = ctx;
  const rows = padRows(view, ctx.seatName, view.automa ? t(`automa.${view.automa.name}`) : '');
  const done = scoredStages(rows);
  const stages = Array.from({ length: view.stages }, (_, i) => i + 1);
  return h(
    'section.card.pad',
    { 'data-testid': 'scoring-pad' },
    h('h3', {}, t('pad.title')),
    h(
      'table.pad',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, ''),
          stages.map((s) => h('th', {}, t('table.stage_short', { stage: s }))),
          h('th', {}, t('pad.total')),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            h('th', {}, r.name),
            stages.map((s) => h('td', {}, r.points[s - 1] === null || r.points[s - 1] === undefined ? '–' : `${r.points[s - 1]}`)),
            h('td', {}, h('strong', {}, `${r.total}`)),
          ),
        ),
      ),
    ),
    game.note || null,
    game.breakdown
      ? Array.from({ length: done }, (_, i) => done - i).map((stage, i) =>
          h('details.stage-breakdown', { open: i === 0, 'data-testid': `breakdown-${stage}` }, h('summary', {}, t('pad.breakdown', { stage })), game.breakdown(stage)),
        )
      : null,
  );
}
