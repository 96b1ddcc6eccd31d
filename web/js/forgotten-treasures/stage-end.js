// @ts-check
// Stage end: the activation plan (activation-plan.js), discarding down to 5, and
// every player's per-area breakdown in the shell's scoring pad, as in the rulebook's examples.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { scoringPad as padFrame } from '../scoring-pad.js';
import { GEMS, colourName, gemName, gemSvg } from './pieces.js';
import { activationPanel, payText } from './activation-plan.js';

export { payText };
export { plannedAreas } from './activation-plan.js';

/**
 * @typedef {import('./table.js').Ctx} Ctx
 */

/**
 * @import { SeatView, LegendView } from '../wire/forgotten-treasures'
 * @param {Ctx} ctx
 * @param {number} focus the seat whose pyramid is drawn big
 */
export function stageEndPanel(ctx, focus) {
  const { view, legal, play } = ctx;
  const player = view.seats[focus];
  if (view.phase === 'discard') {
    if (!ctx.myTurn || view.to_move !== focus) {
      return h('div.stage-end', {}, h('p', {}, t('scoring.others_discard', { name: ctx.seatName(view.to_move) })));
    }
    const held = GEMS.reduce((n, gem) => n + player.gems[gem], 0);
    return h(
      'div.stage-end',
      { 'data-testid': 'discard-panel' },
      h('p', {}, t('scoring.discard', { count: held })),
      h(
        'div.moves',
        {},
        legal
          .filter((m) => m.kind === 'discard')
          .map((m) => h('button.gem-button', { 'data-move': m.text, 'data-testid': 'discard', onclick: () => play(m.text) }, gemSvg(m.gem), ` ${gemName(m.gem)}`)),
      ),
    );
  }
  return view.scoring ? activationPanel(ctx) : null;
}

/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 * @param {number} stage
 */
function playerBreakdown(ctx, p, stage) {
  const areas = p.scored_areas.filter((a) => a.stage === stage);
  const mythical = p.mythical_points[stage - 1];
  const points = p.stage_points[stage - 1];
  // A seat still scoring the stage has no points yet: a dash, as the pad's cells say, not
  // "null" and not "nothing scored".
  if (points == null) return h('div.breakdown', {}, h('strong', {}, `${ctx.seatName(p.seat)}: –`));
  return h(
    'div.breakdown',
    {},
    h('strong', {}, `${ctx.seatName(p.seat)}: ${points}`),
    h(
      'ul',
      {},
      areas.map((a) => h('li', {}, t('scoring.breakdown_area', { name: a.name, colour: colourName(a.colour), count: a.icons, payment: payText(a.payment, a.colour), points: a.points }))),
      mythical > 0 ? h('li', {}, t('scoring.breakdown_mythical', { count: mythical })) : null,
      !areas.length && mythical <= 0 ? h('li', {}, t('scoring.breakdown_nothing')) : null,
    ),
  );
}

/**
 * @param {LegendView} l
 * @param {number} stage
 */
function legendBreakdown(l, stage) {
  const sc = l.scored[stage - 1];
  if (!sc) return null;
  return h(
    'div.breakdown',
    {},
    h('strong', {}, `${t('legend.name')}: ${sc.points}`),
    h('ul', {}, h('li', {}, t('scoring.legend_breakdown', { coloured: sc.coloured, value: sc.coloured_value, mythical: sc.mythical, mvalue: sc.mythical_value }))),
  );
}

// The shell's pad, with each scored stage's breakdown: every player's areas, then THE Legend's.
/** @param {Ctx} ctx */
export function scoringPad(ctx) {
  const { view } = ctx;
  return padFrame(ctx, { breakdown: (stage) => [view.seats.map((p) => playerBreakdown(ctx, p, stage)), view.legend ? legendBreakdown(view.legend, stage) : null] });
}
