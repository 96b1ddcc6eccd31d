// @ts-check
// The view envelope every game's view shares (docs/protocol.md, "Views"), as JSDoc types for
// the shell's modules (`// @ts-check`): the shell draws the frame from these fields only, a
// table its board from the rest of its game's view. Types only: nothing here runs.

/**
 * The envelope and its parts are the Rust types of crates/core/src/envelope.rs, declared in
 * web/js/wire/core.d.ts: per-seat summaries (`SeatSummary`: its number, its points and, in
 * games scored by stage, its points per stage, `null` until scored; a game adds its own fields
 * beside these), whose move it is, the phase (`over` at the end), the stage of how many, the
 * first player and the outcome (`null` until the end; the server ranks absent and resigned
 * seats last, docs/protocol.md "Playing with people"). Solo games add the automa's line
 * (`AutomaSummary`, its name the catalog key `automa.<name>`).
 * @import { SeatSummary, AutomaSummary, Outcome, RankKey } from './wire/core'
 * @typedef {import('./wire/core').Envelope<SeatSummary, string> & { automa?: AutomaSummary | null }} Envelope
 */

/**
 * A move as every client receives it (docs/protocol.md, "Moves: text and structured form"):
 * its record `text` (what `play` sends back) and its structured form flattened beside it, a
 * `kind` and the fields the game's descriptor lists for that kind. Each game's folder names its
 * own kinds and fields (`MoveForm` in `web/js/<game>/moves.js`, `table.js`); the shell reads
 * only these two.
 * @typedef {{ text: string, kind?: string }} MoveBase
 */

/**
 * A move of any game, for the shell: its text, its kind and fields it does not read.
 * @typedef {MoveBase & Record<string, any>} AnyMove
 */

/**
 * A move of the game's record as this page may see it (the move log, `last_move`, `missed`, a
 * notice's `move`): its number (`ply`, from 0) and the seat that played it beside the move.
 * @template [M=AnyMove]
 * @typedef {{ ply: number, seat: number } & M} Logged
 */

/**
 * A seat of a table as the server lists it (docs/protocol.md, "Creating a table"): a player
 * (`human`: `user`, `name`, `me` when it is this page's), a `bot` of a `level`, or a seat still
 * `open` or kept for an `invite`.
 * @typedef {{ type: string, user?: string, name?: string, me?: boolean, level?: string } & Record<string, any>} TableSeat
 */

/**
 * A table as the server sends it: its game's key, its seats, its status and the rest.
 * @typedef {{ id: string, game: string, status: string, seats: TableSeat[] } & Record<string, any>} TableInfo
 */

/**
 * The state message a table draws (docs/protocol.md, "Server → client"; a replay's position
 * has the same shape).
 * @template [M=AnyMove]
 * @typedef {{
 *   state_id: number,
 *   seat: number | null,
 *   to_move?: number | null,
 *   legal?: M[],
 *   last_move?: Logged<M> | null,
 *   finished?: boolean,
 *   outcome?: Outcome | null,
 * } & Record<string, any>} StateMessage
 */

/**
 * What the shell hands a table (and its own frame modules): the view, the state message, this
 * page's seat, the legal moves, whether it is this page's turn, names, and the shell's helpers:
 * `play(text)` sends a move, `redraw()` draws the state again (after a local choice kept in
 * `ui`), `moveLog(describe)` is the shell's move log. A replay (`replay: true`) hands the same
 * context with no legal moves, or the two moves of an analysed decision, and a `play` that does
 * nothing. A puzzle (`puzzle: true`, `#/puzzles`) is a position to solve: the table offers no
 * helper of its own that shows the best move (a best plan, a suggested move). `preview(moves)` is this seat's view after `moves`, computed in the page (web/js/preview.js;
 * `null` until known or where the game offers none). `M` is the game's moves (its `MoveForm`), `V` its view.
 * @template [M=AnyMove]
 * @template {Envelope} [V=Envelope & Record<string, any>]
 * @typedef {{
 *   id: string,
 *   table: TableInfo,
 *   view: V,
 *   state: StateMessage<M>,
 *   seat: number | null,
 *   legal: M[],
 *   myTurn: boolean,
 *   ui: Record<string, any>,
 *   log: Logged<M>[],
 *   seatName: (seat: number) => string,
 *   play: (text: string) => void,
 *   redraw: () => void,
 *   pending: boolean,
 *   replay?: boolean,
 *   puzzle?: boolean,
 *   receivedAt?: number,
 *   notice?: string | null,
 *   freshMove?: Logged<M> | null,
 *   moveLog?: (describe?: (move: Logged<M>) => string, interludes?: import('./move-log.js').Interlude[]) => HTMLElement,
 *   preview?: (moves: string[]) => V | null,
 * }} TableContext
 */

export {};
