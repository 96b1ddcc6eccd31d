// Stage end: activating areas (chosen on the pyramid or in the list, paid with the legal
// payments the server offers), the engine's exact best allocation, discarding down to 5, and
// the scoring pad with every player's per-area breakdown, as in the rulebook's examples.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { GEMS, colourName, gemName, gemSvg } from './pieces.js';

export function payText(payment, colour) {
  return t(`pay.${payment}`, { colour: colourName(colour) });
}

export function stageEndPanel(ctx, focus) {
  const { view, legal, ui, play } = ctx;
  const player = view.players[focus];
  if (view.phase === 'discard') {
    if (!ctx.myTurn || view.to_move !== focus) {
      return h('div.stage-end', {}, h('p', {}, t('scoring.others_discard', { name: ctx.seatName(view.to_move) })));
    }
    const held = player.gems.reduce((a, b) => a + b, 0);
    return h(
      'div.stage-end',
      { 'data-testid': 'discard-panel' },
      h('p', {}, t('scoring.discard', { count: held })),
      h(
        'div.moves',
        {},
        legal
          .filter((m) => m.kind === 'discard')
          .map((m) => {
            const gem = GEMS.indexOf(m.gem);
            return h('button.gem-button', { 'data-move': m.text, 'data-testid': 'discard', onclick: () => play(m.text) }, gemSvg(gem), ` ${gemName(gem)}`);
          }),
      ),
    );
  }
  const sc = view.scoring;
  if (!sc) return null;
  const mythicalLeft = view.players[sc.seat].gems[5];
  const liveTotal = sc.points + mythicalLeft;
  if (!ctx.myTurn || sc.seat !== ctx.state.seat) {
    return h('div.stage-end', {}, h('p', {}, t('scoring.others_scoring', { name: ctx.seatName(sc.seat), points: liveTotal })));
  }

  // Playing the best allocation: one activation per state, each sent once the previous one
  // has been accepted.
  if (ui.bestQueue && ui.bestQueue.length && !ctx.pending && ui.bestSentAt !== ctx.state.state_id) {
    const next = ui.bestQueue[0];
    if (legal.some((m) => m.text === next)) {
      ui.bestSentAt = ctx.state.state_id;
      ui.bestQueue.shift();
      setTimeout(() => play(next), 0);
    } else {
      ui.bestQueue = null;
    }
  }

  const area = sc.areas.find((a) => a.name === ui.area);
  const payments = area ? legal.filter((m) => m.kind === 'activate' && m.area === area.name) : [];
  const gain = sc.best_total - liveTotal;
  return h(
    'div.stage-end',
    { 'data-testid': 'scoring-panel' },
    h('p.live-points', { 'data-testid': 'stage-points' }, t('scoring.live', { points: sc.points, mythical: mythicalLeft, total: liveTotal })),
    h(
      'ul.areas',
      {},
      sc.areas.map((a) =>
        h(
          'li',
          { class: [a.activation ? 'activated' : '', ui.area === a.name ? 'selected' : ''].join(' ') },
          h(
            'button.area-button',
            { 'data-testid': `area-button-${a.name}`, onclick: () => ((ui.area = a.name), ctx.redraw()), disabled: !!a.activation },
            t('scoring.area_label', { name: a.name, colour: colourName(a.colour), count: a.icons }),
          ),
          a.activation ? h('span.paid', {}, ` ${payText(a.activation, a.colour)} → +${a.activation_points}`) : null,
        ),
      ),
    ),
    area && !area.activation
      ? h(
          'div.payments',
          { 'data-testid': 'payments' },
          h('p', {}, t('scoring.choose_payment', { name: area.name })),
          payments.length
            ? payments.map((m) => h('button', { 'data-move': m.text, 'data-testid': 'pay', onclick: () => play(m.text) }, `${payText(m.payment, area.colour)} → +${m.points}`))
            : h('p.hint', {}, t('scoring.cannot_pay')),
        )
      : h('p.hint', {}, t('scoring.pick_area')),
    h(
      'div.row',
      {},
      h(
        'button',
        {
          'data-testid': 'best-allocation',
          disabled: !sc.best.length,
          title: t('scoring.best_hint'),
          onclick: () => {
            ui.bestQueue = sc.best.map((b) => b.text);
            ui.showBest = false;
            ctx.redraw();
          },
        },
        sc.best.length ? t('scoring.best', { total: sc.best_total, gain }) : t('scoring.best_done', { total: sc.best_total }),
      ),
      h(
        'label.check',
        {},
        h('input', { type: 'checkbox', checked: !!ui.showBest, onchange: (e) => ((ui.showBest = e.target.checked), ctx.redraw()) }),
        t('scoring.show_best'),
      ),
      h('button.primary', { 'data-testid': 'finish-scoring', onclick: () => play('done') }, t('scoring.done', { total: liveTotal })),
    ),
  );
}

// Stages already scored by everybody (their breakdown and pad column are final).
function scoredStages(view) {
  return view.phase === 'over' ? 4 : view.stage - 1;
}

function playerBreakdown(ctx, p, stage) {
  const areas = p.scored_areas.filter((a) => a.stage === stage);
  const fromAreas = areas.reduce((sum, a) => sum + a.points, 0);
  const mythical = p.stage_scores[stage - 1] - fromAreas;
  return h(
    'div.breakdown',
    {},
    h('strong', {}, `${ctx.seatName(p.seat)}: ${p.stage_scores[stage - 1]}`),
    h(
      'ul',
      {},
      areas.map((a) =>
        h('li', {}, t('scoring.breakdown_area', { name: a.name, colour: colourName(a.colour), count: a.icons, payment: payText(a.payment, a.colour), points: a.points })),
      ),
      mythical > 0 ? h('li', {}, t('scoring.breakdown_mythical', { count: mythical })) : null,
      !areas.length && mythical <= 0 ? h('li', {}, t('scoring.breakdown_nothing')) : null,
    ),
  );
}

function legendBreakdown(l, stage) {
  const sc = l.scored[stage - 1];
  if (!sc) return null;
  return h(
    'div.breakdown',
    {},
    h('strong', {}, `${t(`solo.${l.mode}`)}: ${l.stage_scores[stage - 1]}`),
    h('ul', {}, h('li', {}, t('scoring.legend_breakdown', { coloured: sc.coloured, value: sc.coloured_value, mythical: sc.mythical, mvalue: sc.mythical_value }))),
  );
}

export function scoringPad(ctx) {
  const { view } = ctx;
  const done = scoredStages(view);
  const rows = view.players.map((p) => ({ name: ctx.seatName(p.seat), scores: p.stage_scores, total: p.total }));
  if (view.legend) rows.push({ name: t(`solo.${view.legend.mode}`), scores: view.legend.stage_scores, total: view.legend.total });
  return h(
    'section.card.pad',
    { 'data-testid': 'scoring-pad' },
    h('h3', {}, t('pad.title')),
    h(
      'table.pad',
      {},
      h('thead', {}, h('tr', {}, h('th', {}, ''), [1, 2, 3, 4].map((s) => h('th', {}, t('table.stage_short', { stage: s }))), h('th', {}, t('pad.total')))),
      h('tbody', {}, rows.map((r) => h('tr', {}, h('th', {}, r.name), r.scores.map((v, i) => h('td', {}, i < done ? `${v}` : '–')), h('td', {}, h('strong', {}, `${r.total}`))))),
    ),
    Array.from({ length: done }, (_, i) => i + 1)
      .reverse()
      .map((stage, i) =>
        h(
          'details.stage-breakdown',
          { open: i === 0, 'data-testid': `breakdown-${stage}` },
          h('summary', {}, t('pad.breakdown', { stage })),
          view.players.map((p) => playerBreakdown(ctx, p, stage)),
          view.legend ? legendBreakdown(view.legend, stage) : null,
        ),
      ),
  );
}
