// @ts-check
// The view envelope every game's view shares (docs/protocol.md, "Views"), as JSDoc types for
// the shell's modules (`// @ts-check`): the shell draws the frame from these fields only, a
// table its board from the rest of its game's view. Types only: nothing here runs.

/**
 * One seat's summary: its number, its points and, in games scored by stage, its points per
 * stage (`null` until that stage is scored). A game adds its own fields beside these.
 * @typedef {{ seat: number, score: number, stage_points?: (number | null)[] }} SeatSummary
 */

/**
 * An automa's line beside the seats (solo): its name is the catalog key `automa.<name>`.
 * @typedef {{ name: string, score: number, stage_points?: (number | null)[] }} AutomaSummary
 */

/**
 * One comparison of the final ranking and each seat's value for it.
 * @typedef {{ name: string, values: number[] }} RankKey
 */

/**
 * The end of a game as the engine ranked it: scores, ranks (0 first, shared when tied), the
 * automa's score, the keys compared in order and, per seat, the key that decided its place.
 * @typedef {{ scores: number[], ranks: number[], automa?: number | null, keys: RankKey[], decided_by: (string | null)[] }} Outcome
 */

/**
 * The envelope: per-seat summaries, whose move it is, the phase (`over` at the end), the stage
 * of how many, the first player, the automa (solo) and the outcome (`null` until the end).
 * @typedef {{
 *   seats: SeatSummary[],
 *   to_move: number | null,
 *   phase: string,
 *   stage: number,
 *   stages: number,
 *   first_player: number,
 *   automa?: AutomaSummary | null,
 *   outcome?: Outcome | null,
 * }} Envelope
 */

/**
 * What the shell hands a table (and its own frame modules): the view, the state message, this
 * page's seat, the legal moves, whether it is this page's turn, names, and the shell's helpers.
 * @typedef {{
 *   id: string,
 *   view: Envelope & Record<string, any>,
 *   state: { state_id: number, seat: number | null, finished?: boolean, outcome?: Outcome | null },
 *   seat: number | null,
 *   legal: Array<{ text: string, kind?: string } & Record<string, any>>,
 *   myTurn: boolean,
 *   ui: Record<string, any>,
 *   log: Array<{ ply: number, seat: number, text: string } & Record<string, any>>,
 *   seatName: (seat: number) => string,
 * }} TableContext
 */

export {};
