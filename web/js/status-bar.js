// @ts-check
// The status line above a table, drawn by the shell from the view's envelope: the stage, the
// prompt (what the seat to move does, or whom the others wait for), who plays first, the
// number of the move to come; a table adds its own facts (`info`). Prompts come from the game's catalog
// namespace `ns`: `<ns>prompt.<phase>` for the seat to move, `<ns>prompt.others_<phase>` (else
// `<ns>prompt.others`) for the others, `prompt.over` at the end; a game that words none of
// them reads the shell's `prompt.your_turn` and `prompt.waiting_for`.
import { h } from './dom.js';
import { t, has } from './i18n.js';

/**
 * @typedef {import('./envelope.js').Envelope} Envelope
 * @typedef {{ view: Pick<Envelope, 'to_move' | 'phase' | 'stage' | 'stages' | 'first_player' | 'outcome'>, state: { state_id: number, event?: number, finished?: boolean, unnumbered?: boolean }, myTurn: boolean, seatName: (seat: number) => string }} StatusCtx
 */

/**
 * The prompt's catalog key and parameters.
 * @param {StatusCtx} ctx
 * @param {string} ns
 * @param {(key: string) => boolean} [known] whether the catalog has a message
 * @returns {[string, Record<string, string>] | null}
 */
export function promptKey(ctx, ns, known = has) {
  const { view } = ctx;
  const first = (/** @type {string[]} */ keys) => keys.find(known) || keys[keys.length - 1];
  // Over by the rules, or ended otherwise (resigned, abandoned, claimed).
  if (view.phase === 'over' || view.outcome || ctx.state.finished) return ['prompt.over', {}];
  if (ctx.myTurn) return [first([`${ns}prompt.${view.phase}`, 'prompt.your_turn']), {}];
  if (view.to_move === null || view.to_move === undefined) return null;
  return [first([`${ns}prompt.others_${view.phase}`, `${ns}prompt.others`, 'prompt.waiting_for']), { name: ctx.seatName(view.to_move) }];
}

/**
 * The number of the move to come, for the player: one more than the moves played (the state's
 * `event`), which an undo takes back. Not the `state_id`: that one grows by two at an undo (it
 * names a state for the protocol, so that a move sent for a taken-back state is refused).
 * Pages without an `event` (tutorial, offline) number their states by moves already.
 * @param {StatusCtx['state']} state
 */
export function moveNumber(state) {
  return (typeof state.event === 'number' ? state.event : state.state_id) + 1;
}

/**
 * @param {StatusCtx} ctx
 * @param {{ ns?: string, className?: string, stage?: any, first?: string, info?: any[] }} [game]
 *   `stage`: the table's own stage element (default: `table.stage`; `false`: none); `first`: the catalog key
 *   that names the first player (none: not shown).
 */
export function statusBar(ctx, game = {}) {
  const { view, state } = ctx;
  const key = promptKey(ctx, game.ns || '');
  return h(
    `div.table-status${game.className ? `.${game.className}` : ''}`,
    { 'data-testid': 'table-status' },
    game.stage === false ? null : game.stage || h('span.stage', { 'data-testid': 'stage' }, t('table.stage', { stage: view.stage, stages: view.stages })),
    h('span.prompt', { 'data-testid': 'prompt', class: ctx.myTurn ? 'yours' : '', role: 'status' }, key ? t(key[0], key[1]) : ''),
    game.first ? h('span.info', { 'data-testid': 'first-player' }, t(game.first, { name: ctx.seatName(view.first_player) })) : null,
    game.info || null,
    state.finished || state.unnumbered ? null : h('span.info', { 'data-testid': 'move-number' }, t('table.state', { n: moveNumber(state) })),
  );
}
