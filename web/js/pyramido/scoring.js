// Pyramido scoring pad (every player's stage scores, each stage's marked areas and Mino bonus
// as the engine scored them) and the end of the game (ranking with the engine's tie-breaks).
import { h } from '../dom.js';
import { t } from '../i18n.js';

const colourName = (c) => t(`pyo.colour.${c}`);

function breakdown(ctx, p, stage) {
  const sc = p.stage_scores[stage - 1];
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

export function scoringPad(ctx) {
  const { view } = ctx;
  const done = Math.max(...view.seats.map((p) => p.stage_scores.length), 0);
  return h(
    'section.card.pad',
    { 'data-testid': 'scoring-pad' },
    h('h3', {}, t('pad.title')),
    h(
      'table.pad',
      {},
      h('thead', {}, h('tr', {}, h('th', {}, ''), [1, 2, 3, 4].map((s) => h('th', {}, t('table.stage_short', { stage: s }))), h('th', {}, t('pad.total')))),
      h(
        'tbody',
        {},
        view.seats.map((p) =>
          h(
            'tr',
            {},
            h('th', {}, ctx.seatName(p.seat)),
            [0, 1, 2, 3].map((i) => h('td', {}, p.stage_scores[i] ? `${p.stage_scores[i].total}` : '–')),
            h('td', {}, h('strong', {}, `${p.score}`)),
          ),
        ),
      ),
    ),
    done && !view.outcome ? h('p.hint', { 'data-testid': 'next-first' }, t('pyo.next_first', { stage: view.stage, name: ctx.seatName(view.first_player) })) : null,
    Array.from({ length: done }, (_, i) => done - i).map((stage, i) =>
      h('details.stage-breakdown', { open: i === 0, 'data-testid': `breakdown-${stage}` }, h('summary', {}, t('pad.breakdown', { stage })), view.seats.map((p) => breakdown(ctx, p, stage))),
    ),
  );
}

// Why a player was eliminated, as the engine says (stage, holes, cards left).
export function eliminationText(p) {
  const e = p.elimination;
  if (!e) return t('pyo.eliminated');
  return e.cards === 0 ? t('pyo.elimination_none', { stage: e.stage, holes: e.holes }) : t('pyo.elimination', { stage: e.stage, holes: e.holes, count: e.cards });
}

const keyValue = (outcome, name, seat) => {
  const key = outcome.keys.find((k) => k.name === name);
  return key ? key.values[seat] : null;
};

export function resultPanel(ctx) {
  const { view, state } = ctx;
  const outcome = view.outcome;
  const rows = view.seats.map((p) => ({ p, name: ctx.seatName(p.seat), score: outcome.scores[p.seat], rank: outcome.ranks[p.seat] }));
  rows.sort((x, y) => x.rank - y.rank || x.p.seat - y.p.seat);
  const notes = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    const by = outcome.decided_by[b.p.seat];
    if (by && by !== 'score') notes.push(`${a.name} / ${b.name}: ${t(`tie.${by}`, { a: keyValue(outcome, by, a.p.seat), b: keyValue(outcome, by, b.p.seat) })}`);
  }
  const winners = rows.filter((r) => r.rank === 0);
  let headline;
  if (winners.length > 1) headline = t('result.shared_win', { names: winners.map((r) => r.name).join(', ') });
  else headline = winners[0].p.seat === state.seat ? t('result.you_win') : t('result.winner', { name: winners[0].name });
  const cell = (v) => (v === null || v === undefined ? '–' : `${v}`);
  return h(
    'section.card.result',
    { 'data-testid': 'result' },
    h('h2', {}, t('result.title')),
    h('p.headline', { 'data-testid': 'result-headline' }, headline),
    h(
      'table.ranking',
      { 'data-testid': 'ranking' },
      h('thead', {}, h('tr', {}, h('th', {}, t('result.rank')), h('th', {}, t('result.player')), h('th', {}, t('pad.total')), h('th', {}, t('pyo.unused_cards')), h('th', {}, t('result.best_stage')))),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            h('td', {}, `${r.rank + 1}`),
            h('td', {}, r.name, r.p.status === 'eliminated' ? h('div.elimination', { 'data-testid': 'result-elimination' }, eliminationText(r.p)) : ''),
            h('td', {}, h('strong', {}, `${r.score}`)),
            h('td', {}, cell(keyValue(outcome, 'unused_cards', r.p.seat))),
            h('td', {}, cell(keyValue(outcome, 'best_stage', r.p.seat))),
          ),
        ),
      ),
    ),
    notes.length ? h('ul.tie-notes', { 'data-testid': 'tie-notes' }, notes.map((n) => h('li', {}, n))) : h('p.hint', {}, t('result.no_ties')),
    h('p', {}, h('a', { href: `/api/games/${ctx.id}/record?format=text`, target: '_blank', rel: 'noopener', 'data-testid': 'record-link' }, t('result.record')), ' · ', h('a', { href: '#/' }, t('result.back'))),
  );
}
