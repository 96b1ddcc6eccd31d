// The whole move log of a game, grouped by turn (a turn: the moves one seat plays until
// another seat is to move), with each player's name; it scrolls, and keeps the newest turn in
// view. A game's table says how a move reads (`describe`); the shell does the rest.
import { h } from './dom.js';
import { t } from './i18n.js';

// [{seat, first, round, moves: [move…]}…] from the moves as this page may see them. Turns
// are numbered by round of play: a round ends when a seat that already played in it is to
// play again (every seat plays once per round, whoever starts it).
export function turnsOf(log) {
  const turns = [];
  let round = 1;
  let played = new Set();
  log.forEach((m, i) => {
    const last = turns[turns.length - 1];
    if (last && last.seat === m.seat) {
      last.moves.push(m);
      return;
    }
    if (played.has(m.seat)) {
      round += 1;
      played = new Set();
    }
    played.add(m.seat);
    turns.push({ seat: m.seat, first: i, round, moves: [m] });
  });
  return turns;
}

export function moveLog(ctx, describe = (m) => m.text) {
  const turns = turnsOf(ctx.log);
  const mine = ctx.seat;
  const list = h(
    'ol.log.turns',
    { 'data-testid': 'move-log-turns', tabindex: '0', 'aria-label': t('table.move_log') },
    turns.map((turn, i) => {
      const newest = i === turns.length - 1;
      // Another player's (or a bot's) latest turn is highlighted briefly, to be followed.
      const fresh = newest && turn.seat !== mine;
      return h(
        `li.turn${fresh ? '.fresh' : ''}`,
        { 'data-turn-seat': turn.seat, 'data-round': turn.round },
        h('span.who', {}, t('table.turn_of', { n: turn.round, name: ctx.seatName(turn.seat) })),
        h('ul', {}, turn.moves.map((m) => h('li', { 'data-ply': m.ply }, describe(m)))),
      );
    }),
  );
  // Scrolled to the newest turn once it is in the page.
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return h(
    'section.card.log',
    { 'data-testid': 'move-log' },
    h('h3', {}, t('table.moves', { count: ctx.log.length })),
    list,
  );
}
