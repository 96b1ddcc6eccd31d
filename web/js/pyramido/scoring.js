// @ts-check
// Pyramido's part of the shell's scoring pad (each stage's marked areas and Mino bonus as the
// engine scored them); the shell draws the pad and the end of the game.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { scoringPad as padFrame } from '../scoring-pad.js';

/**
 * @import { SeatView } from '../wire/pyramido'
 * @typedef {import('./table.js').Ctx} Ctx
 */

/** @param {string} c */
const colourName = (c) => t(`pyo.colour.${c}`);

/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 * @param {number} stage
 */
function breakdown(ctx, p, stage) {
  const sc = p.stage_breakdowns[stage - 1];
  if (!sc) return h('div.breakdown', {}, h('strong', {}, `${ctx.seatName(p.seat)}: –`), h('ul', {}, h('li', {}, t('pyo.eliminated'))));
  const { ui } = ctx;
  const shown = !!(ui.shownStage && ui.shownStage.seat === p.seat && ui.shownStage.stage === stage);
  return h(
    'div.breakdown',
    {},
    h('strong', {}, `${ctx.seatName(p.seat)}: ${sc.total}`),
    sc.areas.length
      ? h(
          'button.small.outline-areas',
          {
            'data-testid': `outline-${stage}-${p.seat}`,
            'aria-pressed': shown ? 'true' : 'false',
            onclick: () => ((ui.shownStage = shown ? null : { seat: p.seat, stage }), ctx.redraw()),
          },
          shown ? t('pyo.hide_areas') : t('pyo.outline_areas', { stage }),
        )
      : null,
    h(
      'ul',
      {},
      sc.areas.map((a) => h('li', {}, t('pyo.area', { colour: colourName(a.colour), count: a.jewels }))),
      sc.areas.length ? h('li', {}, t('pyo.mino', { count: sc.mino })) : h('li', {}, t('pyo.no_areas')),
    ),
  );
}

/** @param {Ctx} ctx */
export function scoringPad(ctx) {
  const { view } = ctx;
  const scored = view.seats.some((p) => p.stage_points.some((v) => v !== null));
  return padFrame(ctx, {
    note: scored && !view.outcome ? h('p.hint', { 'data-testid': 'next-first' }, t('pyo.next_first', { stage: view.stage, name: ctx.seatName(view.first_player) })) : null,
    breakdown: (stage) => view.seats.map((p) => breakdown(ctx, p, stage)),
  });
}

// Why a player was eliminated, as the engine says (stage, holes, cards left).
/**
 * @param {SeatView} p
 * @returns {string}
 */
export function eliminationText(p) {
  const e = p.elimination;
  if (!e) return t('pyo.eliminated');
  return e.cards === 0 ? t('pyo.elimination_none', { stage: e.stage, holes: e.holes }) : t('pyo.elimination', { stage: e.stage, holes: e.holes, count: e.cards });
}
