// @ts-check
// Stage-end activations as a plan: the player picks areas and payments (or takes the engine's
// best allocation), sees the stage total the plan reaches, may remove an activation or reset
// the plan, and nothing is sent before Finish. Finishing below the best allocation asks first.
// Every figure comes from the view: each open area's payments with their points and costs,
// the points a kept Mythical adds, the best allocation and its total. The server checks every
// move again when the plan is sent.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { colourName } from './pieces.js';

/**
 * @import { ScoringView, AreaView, PaymentOption, Colour, Gems } from '../wire/forgotten-treasures'
 * @typedef {import('./table.js').Ctx} Ctx
 * @typedef {PaymentOption & { area: string, colour: Colour }} PlanItem one planned activation: a payment the view offers, its area and the area's colour
 * @typedef {{ key: string, items: PlanItem[], confirming: boolean, queue: string[] | null, sentAt: number | null }} Plan
 */

/**
 * @param {string} payment
 * @param {Colour} colour
 * @returns {string}
 */
export function payText(payment, colour) {
  return t(`pay.${payment}`, { colour: colourName(colour) });
}

// The plan of the seat being scored, kept per stage end (a new stage end starts empty).
/**
 * @param {Ctx} ctx
 * @returns {Plan}
 */
function planOf(ctx) {
  const { view, ui } = ctx;
  const key = `${view.stage}:${view.scoring.seat}`;
  if (!ui.plan || ui.plan.key !== key) ui.plan = { key, items: [], confirming: false, queue: null, sentAt: null };
  return ui.plan;
}

// The names of the areas in the plan (the pyramid outlines them).
/**
 * @param {Ctx} ctx
 * @returns {Set<string> | null}
 */
export function plannedAreas(ctx) {
  const sc = ctx.view.scoring;
  if (!sc || !ctx.myTurn || sc.seat !== ctx.state.seat) return null;
  return new Set(planOf(ctx).items.map((i) => i.area));
}

// Gems left after the plan: what the seat holds minus what the planned payments spend.
/**
 * @param {Ctx} ctx
 * @param {Plan} plan
 * @returns {Gems}
 */
function gemsLeft(ctx, plan) {
  const left = { ...ctx.view.seats[ctx.view.scoring.seat].gems };
  for (const item of plan.items) {
    left[item.colour] -= item.coloured;
    left.mythical -= item.mythical;
  }
  return left;
}

// What the plan would score: the activations already made, the planned ones, and the
// Mythicals still held after it.
/**
 * @param {Ctx} ctx
 * @param {Plan} plan
 */
function planTotals(ctx, plan) {
  const sc = ctx.view.scoring;
  const planned = plan.items.reduce((sum, i) => sum + i.points, 0);
  const kept = gemsLeft(ctx, plan).mythical;
  const areas = sc.points + planned;
  return { areas, kept, total: areas + kept * sc.points_per_mythical };
}

// Sends the queued plan one move per state, each once the previous one was accepted.
/**
 * @param {Ctx} ctx
 * @param {Plan} plan
 */
function sendQueued(ctx, plan) {
  if (!plan.queue || !plan.queue.length || ctx.pending || plan.sentAt === ctx.state.state_id) return;
  const next = plan.queue[0];
  if (!ctx.legal.some((m) => m.text === next)) {
    plan.queue = null;
    return;
  }
  plan.sentAt = ctx.state.state_id;
  plan.queue.shift();
  setTimeout(() => ctx.play(next), 0);
}

/**
 * @param {Ctx} ctx
 * @param {Plan} plan
 */
function finish(ctx, plan) {
  plan.confirming = false;
  plan.queue = [...plan.items.map((i) => i.text), 'done'];
  plan.items = [];
  ctx.redraw();
}

// The engine's best allocation as plan items (each one of the payments the view offers).
/**
 * @param {ScoringView} sc
 * @returns {PlanItem[]}
 */
function bestPlan(sc) {
  return sc.best.flatMap((b) => {
    const area = sc.areas.find((a) => a.name === b.area);
    const option = area && area.payments.find((p) => p.text === b.text);
    return option ? [{ ...option, area: area.name, colour: area.colour }] : [];
  });
}

// The seat's score once the plan is played and the scoring finished, computed in the page by
// the rules themselves from this seat's view (the shell's `ctx.preview`) before anything is
// sent; nothing until it is known.
/**
 * @param {Ctx} ctx
 * @param {Plan} plan
 */
function planPreview(ctx, plan) {
  const moves = [...plan.items.map((i) => i.text), 'done'];
  const after = ctx.preview ? ctx.preview(moves) : null;
  if (!after) return null;
  const seat = ctx.view.scoring.seat;
  const score = after.seats[seat].score;
  return h(
    'p.hint.ft-preview',
    { 'data-testid': 'preview', 'data-moves': moves.join(';'), 'data-seat': seat, 'data-score': score, role: 'status' },
    t('ft.preview.plan', { score, now: ctx.view.seats[seat].score }),
  );
}

/** @param {Ctx} ctx */
export function activationPanel(ctx) {
  const { view, ui } = ctx;
  const sc = view.scoring;
  if (!ctx.myTurn || sc.seat !== ctx.state.seat) {
    // The reader's own seat (a replay, a reload while its stage end is under way) is said in
    // the second person: "You are activating", never "You is activating".
    const points = sc.points + sc.mythical_kept;
    if (sc.seat === ctx.state.seat) return h('div.stage-end', {}, h('p', {}, t('scoring.you_scoring', { points, count: points })));
    return h('div.stage-end', {}, h('p', {}, t('scoring.others_scoring', { name: ctx.seatName(sc.seat), points, count: points })));
  }
  // A replay's analysis lists its best move first: its area is chosen, so that its payment
  // (drawn and marked) shows.
  if (ctx.replay) {
    const first = ctx.legal.find((m) => m.kind === 'activate');
    if (first) ui.area = first.area;
  }
  const plan = planOf(ctx);
  const doneMove = ctx.legal.find((m) => m.kind === 'done');
  sendQueued(ctx, plan);
  const sending = !!(plan.queue && plan.queue.length);
  const left = gemsLeft(ctx, plan);
  const { areas: areaPoints, kept, total } = planTotals(ctx, plan);
  const inPlan = new Map(plan.items.map((i) => [i.area, i]));
  const area = sc.areas.find((a) => a.name === ui.area && !a.activation && !inPlan.has(a.name));
  const affordable = (/** @type {PaymentOption} */ p, /** @type {AreaView} */ a) => p.coloured <= left[a.colour] && p.mythical <= left.mythical;
  const payments = area ? area.payments.filter((p) => affordable(p, area)) : [];
  const add = (/** @type {AreaView} */ a, /** @type {PaymentOption} */ p) => {
    plan.items.push({ ...p, area: a.name, colour: a.colour });
    plan.confirming = false;
    ui.area = null;
    ctx.redraw();
  };
  // A puzzle asks for the best move: the best allocation (its plan, its total, the warning
  // that a plan scores less) would answer it.
  const helped = !ctx.puzzle;
  const below = helped && total < sc.best_total;
  const rows = [
    h('p.live-points', { 'data-testid': 'stage-points', 'data-total': total }, t('scoring.live', { points: areaPoints, mythical: kept, total, count: total })),
    plan.items.length && !sending && !ctx.replay ? planPreview(ctx, plan) : null,
    h(
      'ul.areas',
      {},
      sc.areas.map((a) => {
        const item = inPlan.get(a.name);
        const state = a.activation ? 'activated' : item ? 'planned' : '';
        return h(
          'li',
          { class: [state, ui.area === a.name ? 'selected' : ''].join(' ') },
          h(
            'button.area-button',
            {
              'data-testid': `area-button-${a.name}`,
              'aria-pressed': ui.area === a.name ? 'true' : 'false',
              onclick: () => ((ui.area = a.name), ctx.redraw()),
              disabled: !!a.activation || !!item || sending,
            },
            t('scoring.area_label', { name: a.name, colour: colourName(a.colour), count: a.icons }),
          ),
          a.activation ? h('span.paid', {}, ` ✓ ${payText(a.activation, a.colour)} → +${a.activation_points}`) : null,
          item
            ? h(
                'span.planned',
                {},
                ` ${t('scoring.planned')}: ${payText(item.payment, a.colour)} → +${item.points} `,
                h(
                  'button.small',
                  {
                    'data-testid': `unplan-${a.name}`,
                    disabled: sending,
                    'aria-label': t('scoring.unplan', { name: a.name }),
                    onclick: () => ((plan.items = plan.items.filter((i) => i !== item)), (plan.confirming = false), ctx.redraw()),
                  },
                  '✕',
                ),
              )
            : null,
        );
      }),
    ),
  ];
  if (area && !sending) {
    rows.push(
      h(
        'div.payments',
        { 'data-testid': 'payments' },
        h('p', {}, t('scoring.choose_payment', { name: area.name })),
        payments.length
          ? payments.map((p) => h('button', { 'data-move': p.text, 'data-testid': 'pay', onclick: () => add(area, p) }, `${payText(p.payment, area.colour)} → +${p.points}`))
          : h('p.hint', {}, t('scoring.cannot_pay')),
      ),
    );
  } else if (!sending) rows.push(h('p.hint', {}, t('scoring.pick_area')));
  rows.push(
    h(
      'div.row',
      {},
      !helped
        ? null
        : h(
            'button',
            {
              'data-testid': 'best-allocation',
              disabled: !sc.best.length || sending,
              title: t('scoring.best_hint'),
              onclick: () => {
                plan.items = bestPlan(sc);
                plan.confirming = false;
                ui.area = null;
                ctx.redraw();
              },
            },
            sc.best.length ? t('scoring.best_plan', { total: sc.best_total, count: sc.best_total }) : t('scoring.best_done', { total: sc.best_total, count: sc.best_total }),
          ),
      h('button', { 'data-testid': 'reset-plan', disabled: !plan.items.length || sending, onclick: () => ((plan.items = []), (plan.confirming = false), ctx.redraw()) }, t('scoring.reset')),
      !helped ? null : h('label.check', {}, h('input', { type: 'checkbox', checked: !!ui.showBest, onchange: (e) => ((ui.showBest = e.target.checked), ctx.redraw()) }), t('scoring.show_best')),
      h(
        'button.primary',
        // With nothing planned it plays the engine's `done` (a replay's analysis marks it).
        {
          'data-testid': 'finish-scoring',
          'data-move': !plan.items.length && doneMove ? doneMove.text : null,
          disabled: sending,
          onclick: () => (below ? ((plan.confirming = true), ctx.redraw()) : finish(ctx, plan)),
        },
        t('scoring.done', { total, count: total }),
      ),
    ),
  );
  if (plan.confirming && !sending) {
    rows.push(
      h(
        'div.confirm',
        { role: 'alertdialog', 'aria-labelledby': 'finish-below-best', 'data-testid': 'confirm-finish' },
        h('p', { id: 'finish-below-best' }, t('scoring.below_best', { total, best: sc.best_total, count: sc.best_total })),
        h('button.primary', { 'data-testid': 'confirm-finish-yes', onclick: () => finish(ctx, plan) }, t('scoring.finish_anyway', { total, count: total })),
        h('button', { 'data-testid': 'confirm-finish-no', onclick: () => ((plan.confirming = false), ctx.redraw()) }, t('scoring.back_to_plan')),
      ),
    );
    requestAnimationFrame(() => /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=confirm-finish-no]'))?.focus({ preventScroll: true }));
  }
  if (sending) rows.push(h('p.hint', { 'data-testid': 'plan-sending' }, t('scoring.sending')));
  return h('div.stage-end', { 'data-testid': 'scoring-panel', 'data-sending': sending ? 'true' : 'false' }, rows);
}
