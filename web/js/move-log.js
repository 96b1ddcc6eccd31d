// @ts-check
// The whole move log of a game, grouped by turn (a turn: the moves one seat plays until
// another seat is to move), with each player's name; it scrolls, and keeps the newest turn in
// view. A game's table says how a move reads (`describe`); the shell does the rest.
import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * @typedef {import('./envelope.js').TableContext} TableContext
 * @typedef {{ ply: number, seat: number, text: string } & Record<string, any>} LoggedMove
 * @typedef {{ after: number, name: string, lines: string[], testid?: string }} Interlude
 * @typedef {{ seat: number | null, first: number, round: number, moves: LoggedMove[], interlude?: Interlude }} Turn
 */

// [{seat, first, round, moves: [move…]}…] from the moves as this page may see them. Turns
// are numbered by round of play: a round ends when a seat that already played in it is to
// play again (every seat plays once per round, whoever starts it).
// `interludes` are turns of no seat that a table's view reports inside a move (an automa's,
// a solo mode's opponent): [{after: ply, name, lines: [text…]}…], each shown as a turn of
// its own right after the move numbered `after`, in that move's round.
/**
 * @param {LoggedMove[]} log
 * @param {Interlude[]} [interludes]
 * @returns {Turn[]}
 */
export function turnsOf(log, interludes = []) {
  /** @type {Turn[]} */
  const turns = [];
  let round = 1;
  let played = new Set();
  const after = new Map(interludes.map((x) => [x.after, x]));
  log.forEach((m, i) => {
    const last = turns[turns.length - 1];
    if (last && last.seat === m.seat && !last.interlude) last.moves.push(m);
    else {
      if (played.has(m.seat)) {
        round += 1;
        played = new Set();
      }
      played.add(m.seat);
      turns.push({ seat: m.seat, first: i, round, moves: [m] });
    }
    const x = after.get(m.ply);
    if (x) turns.push({ seat: null, first: i, round, moves: [], interlude: x });
  });
  return turns;
}

/**
 * @param {TableContext} ctx
 * @param {(move: LoggedMove) => string} [describe]
 * @param {Interlude[]} [interludes]
 */
export function moveLog(ctx, describe = (m) => m.text, interludes = []) {
  const turns = turnsOf(ctx.log, interludes);
  const mine = ctx.seat;
  const list = h(
    'ol.log.turns',
    { 'data-testid': 'move-log-turns', tabindex: '0', 'aria-label': t('table.move_log') },
    turns.map((turn, i) => {
      const newest = i === turns.length - 1;
      // Another player's (or a bot's) latest turn is highlighted briefly, to be followed.
      const fresh = newest && turn.seat !== mine;
      if (turn.interlude) {
        const x = turn.interlude;
        return h(
          `li.turn.interlude${fresh ? '.fresh' : ''}`,
          { 'data-round': turn.round, 'data-after-ply': x.after, 'data-testid': x.testid || null },
          h('span.who', {}, t('table.turn_of', { n: turn.round, name: x.name })),
          h(
            'ul',
            {},
            x.lines.map((line) => h('li', {}, line)),
          ),
        );
      }
      return h(
        `li.turn${fresh ? '.fresh' : ''}`,
        { 'data-turn-seat': turn.seat, 'data-round': turn.round },
        h('span.who', {}, t('table.turn_of', { n: turn.round, name: ctx.seatName(turn.seat) })),
        h(
          'ul',
          {},
          turn.moves.map((m) => h('li', { 'data-ply': m.ply }, describe(m))),
        ),
      );
    }),
  );
  // Scrolled to the newest turn once it is in the page.
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return h('section.card.log', { 'data-testid': 'move-log' }, h('h3', {}, t('table.moves', { count: ctx.log.length })), list);
}
