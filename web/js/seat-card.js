// @ts-check
// The card of one seat at a table, drawn by the shell for every game (it was drawn by each
// table, three times): its head says whose it is (the seat's name, or the game's title for it)
// and `· to move` while it is that seat's turn (from the envelope's `to_move`, never once the
// game has ended: a resignation leaves the rules' view with a seat to move), then the game's
// own notes and an action (enlarging its board); the game's body comes under the head.
import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * @typedef {{
 *   kind?: string,
 *   title?: any,
 *   notes?: any[],
 *   action?: any,
 *   attrs?: Record<string, any>,
 *   body?: any[],
 * }} SeatCardParts `kind`: the card's class (default `player`); `attrs`: more attributes of the card
 */

/**
 * Whether `seat` is to move: the view says so and the game goes on (a game ended early, by a
 * resignation, a claim or an abandonment, keeps the view it stopped at).
 * @param {{ view: { to_move?: number | null }, state: { finished?: boolean } }} ctx
 * @param {number} seat
 */
export function isToMove(ctx, seat) {
  return !ctx.state.finished && ctx.view.to_move === seat;
}

/**
 * @param {import('./envelope.js').TableContext} ctx
 * @param {number} seat
 * @param {SeatCardParts} [parts]
 * @returns {HTMLElement}
 */
export function seatCard(ctx, seat, parts = {}) {
  const turn = isToMove(ctx, seat);
  return h(
    `section.card.${parts.kind || 'player'}`,
    { ...(parts.attrs || {}), class: turn ? 'to-move' : '', 'data-seat': seat },
    h('div.card-head', {}, h('h3', {}, parts.title ?? ctx.seatName(seat), turn ? h('span.turn-mark', {}, ` · ${t('table.to_move')}`) : null, ...(parts.notes || [])), parts.action || null),
    ...(parts.body || []),
  );
}
