// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire
import type { Outcome, RankKey, Seat } from './core';

/**
 * A cell's mark. X always moves first; the seed decides which seat plays X.
 */
export type Mark = "x" | "o";

/**
 * The structured form of a move: the cell as numbers, never a string to split.
 */
export type MoveForm = { "kind": "mark", row: number, column: number, };

/**
 * A game of noughts and crosses is played, then over.
 */
export type Phase = "play" | "over";

export type SeatView = { mark: Mark, seat: Seat, 
/**
 * Points so far, or the final score once the game is over (the outcome's).
 */
score: number, 
/**
 * Per stage (1 at 0), its points once scored; absent in games not scored by stage.
 */
stage_points?: Array<number | null>, };

export type View = { 
/**
 * Rows of cells, top row first.
 */
board: [[Mark | null, Mark | null, Mark | null], [Mark | null, Mark | null, Mark | null], [Mark | null, Mark | null, Mark | null]], seats: Array<SeatView>, 
/**
 * The seat whose decision it is (`None` once the game is over).
 */
to_move: Seat | null, phase: Phase, 
/**
 * The stage (or round) the next move belongs to, from 1.
 */
stage: number, 
/**
 * Stages in a game (the descriptor's).
 */
stages: number, 
/**
 * The seat that opened the current stage.
 */
first_player: Seat, 
/**
 * The final result, once the game is over.
 */
outcome: Outcome | null, };
