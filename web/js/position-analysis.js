// @ts-check
// The local analysis of a running game's open decision (issue 50, item 5): the server analyses
// a game only once it is over, so while it runs the page judges the seat's decision itself, on
// request, in the analysis worker (local-analysis.js), from the seat's view alone: the game's
// sampler rebuilds a state, and each of the judge's futures redraws what the view hides, so no
// hidden card is ever taken for the truth. It works with the connection down too (nothing is
// asked of the server). Offered only at a table where no other person sits (bots, THE Legend,
// a solo game): a judge that reads the position for one player in a game against people would
// be an engine at their side. The result says it was computed in the browser, with its budget.
import { h } from './dom.js';
import { t } from './i18n.js';
import { judgeInBrowser, POSITION_BUDGET } from './local-analysis.js';

/**
 * Per game, the judgement asked for and the state it belongs to (a new state forgets it).
 * @type {Map<string, {stateId: number | string, status: 'running' | 'done' | 'failed', decision?: any}>}
 */
const asked = new Map();

/**
 * A points figure as the replay's analysis says it: signed, one decimal.
 * @param {number} v
 */
const signed = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)}`;

/**
 * The control and its result under the board, or null where it is not offered.
 * @param {any} ctx the table's context (the shell's)
 * @param {(move: any, as?: 'advice') => string} moveText the game's way to say a move (as one
 *   to make, `'advice'`, where the game words it so: a suggestion is not a move made)
 */
export function positionAnalysis(ctx, moveText) {
  const st = ctx.state;
  if (st.finished || st.seat === null || st.seat === undefined || st.to_move !== st.seat) return null;
  if (ctx.table.seats.some((/** @type {any} */ s, /** @type {number} */ i) => s.type === 'human' && i !== st.seat)) return null;
  const key = ctx.id;
  let entry = asked.get(key);
  if (entry && entry.stateId !== st.state_id) {
    asked.delete(key);
    entry = undefined;
  }
  const judge = () => {
    const mine = { stateId: st.state_id, status: /** @type {'running'} */ ('running') };
    asked.set(key, mine);
    ctx.redraw();
    judgeInBrowser(ctx.table.game, st.view, st.seat)
      .then((decision) => {
        if (asked.get(key) !== mine) return;
        asked.set(key, { stateId: st.state_id, status: decision ? 'done' : 'failed', decision });
        ctx.redraw();
      })
      .catch((e) => {
        console.warn('local judgement:', e && e.code, e && e.message);
        if (asked.get(key) === mine) asked.set(key, { stateId: st.state_id, status: 'failed' });
        ctx.redraw();
      });
  };
  const status = entry ? entry.status : 'none';
  const attrs = { 'data-testid': 'position-analysis', 'data-state': status, 'data-budget': POSITION_BUDGET };
  if (status === 'running') return h('p.card.position-analysis', { ...attrs, role: 'status' }, t('preview2.running', { budget: POSITION_BUDGET }));
  if (status === 'done' && entry) {
    const d = entry.decision;
    return h(
      'div.card.position-analysis',
      { ...attrs, 'data-best': d.best, role: 'status' },
      h('p', {}, h('strong', {}, t('preview2.best', { move: moveText(d.best_move, 'advice'), points: signed(d.best_points) }))),
      h('p.hint', { 'data-testid': 'position-analysis-label' }, t('preview2.done', { budget: POSITION_BUDGET, count: d.candidates })),
    );
  }
  return h(
    'div.position-analysis',
    attrs,
    status === 'failed' ? h('p.hint', {}, t('preview2.failed')) : null,
    h('button', { 'data-testid': 'judge-local', onclick: judge, title: t('preview2.judge_hint') }, t('preview2.judge')),
  );
}
