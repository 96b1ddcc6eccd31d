// @ts-check
// The table of a game without a folder of its own, drawn only from the platform's view
// vocabulary (`seats`, `to_move`, `board`…) and the structured legal moves: no rule of any
// game here. A view with a `board` (rows of cells) is drawn as a grid whose cells are the legal
// moves that name their `row` and `column`; any other legal move is a button with its text.
// The shell draws the status line and prompt (web/js/status-bar.js) and the result
// (web/js/result.js).
import { h, stylesheet } from './dom.js';
import { t } from './i18n.js';
import { statusBar } from './status-bar.js';

// The generic table's styles live next to it, as every table's do (loaded once).
stylesheet(new URL('./generic.css', import.meta.url));

/**
 * @typedef {{ text: string, kind?: string, row?: number, column?: number }} LegalMove
 * @typedef {{ seat: number, score?: number, total?: number, mark?: string }} SeatView
 */

/** The text a cell shows: a mark's name, or nothing for an empty cell. */
function cellText(cell) {
  if (cell === null || cell === undefined) return '';
  return typeof cell === 'string' ? cell.toUpperCase() : String(cell);
}

/** The board as a grid of cells; a cell that is a legal move is a button. */
function grid(board, legal, play, enabled) {
  /** @type {Map<string, LegalMove>} */
  const byCell = new Map();
  for (const m of legal) {
    if (Number.isInteger(m.row) && Number.isInteger(m.column)) byCell.set(`${m.row},${m.column}`, m);
  }
  return h(
    'div.generic-board',
    { role: 'grid', 'data-testid': 'generic-board', style: `--columns: ${board[0]?.length ?? 1}` },
    board.flatMap((row, r) =>
      row.map((cell, c) => {
        const m = byCell.get(`${r},${c}`);
        const label = cellText(cell);
        return m && enabled
          ? h('button.generic-cell', { role: 'gridcell', 'data-move': m.text, 'aria-label': m.text, onclick: () => play(m.text) }, label)
          : h('span.generic-cell', { role: 'gridcell', 'data-cell': `${r},${c}` }, label);
      }),
    ),
  );
}

export function renderGeneric(ctx) {
  const { view, legal, play } = ctx;
  /** @type {SeatView[]} */
  const seats = Array.isArray(view.seats) ? view.seats : [];
  const board = Array.isArray(view.board) && view.board.every(Array.isArray) ? view.board : null;
  const onBoard = board ? legal.filter((m) => Number.isInteger(m.row) && Number.isInteger(m.column)) : [];
  const others = legal.filter((m) => !onBoard.includes(m));
  return [
    statusBar(ctx, { stage: view.stages > 1 ? undefined : false }),
    h(
      'div.generic',
      { 'data-testid': 'generic-table' },
      h('h2', {}, t(`game.${ctx.table.game}`)),
      seats.length
        ? h(
            'ul.generic-seats',
            {},
            seats.map((s) => h('li', {}, [ctx.seatName(s.seat), s.mark ? ` (${cellText(s.mark)})` : '', `: ${s.score ?? ''}`].join(''))),
          )
        : null,
      board ? grid(board, onBoard, play, ctx.myTurn) : null,
      others.length && ctx.myTurn
        ? h(
            'div.moves',
            {},
            others.map((m) => h('button', { 'data-move': m.text, onclick: () => play(m.text) }, m.text)),
          )
        : null,
    ),
  ];
}
