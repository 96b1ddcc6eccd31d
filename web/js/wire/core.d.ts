// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire

/**
 * An automa's line beside the seats (solo games): its name is a catalog key
 * (`automa.<name>`); its points and points per stage read as a seat's do.
 */
export type AutomaSummary = { name: string, score: number, stage_points: Array<number | null>, };

/**
 * The envelope of a view: `S` is the game's per-seat view (which flattens a
 * [`SeatSummary`]), `P` its phase (a name; `over` once the game has ended).
 */
export type Envelope<S, P> = { seats: Array<S>, 
/**
 * The seat whose decision it is (`None` once the game is over).
 */
to_move: Seat | null, phase: P, 
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

/**
 * Final result with every tie-break applied.
 */
export type Outcome = { 
/**
 * Final score per seat.
 */
scores: Array<number>, 
/**
 * Rank per seat: 0 is the winner; tied seats (after all tie-breaks) share a rank.
 */
ranks: Array<number>, 
/**
 * Score of the automa opponent in solo games (it ranks 0 when it wins).
 */
automa: number | null, 
/**
 * What seats are compared on, in order (the score among them), larger first. Each key's
 * name is a stable, translatable code (`score`, `gems_left`, `best_stage`…).
 */
keys: Array<RankKey>, 
/**
 * Per seat, the key that set it apart from the seat ranked just above it (`shared`
 * when they are level on every key); `None` for the seat ranked first.
 */
decided_by: Array<string | null>, };

/**
 * One comparison of the final ranking and each seat's value for it.
 */
export type RankKey = { name: string, values: Array<number>, };

/**
 * A seat at the table, numbered from 0 in turn order of the first stage/round.
 */
export type Seat = number;

/**
 * What the shell shows of one seat in every game: its number, its points and, in games
 * scored by stage, its points per stage (`None` until that stage is scored). A game's
 * per-seat view flattens one beside its own fields.
 */
export type SeatSummary = { seat: Seat, 
/**
 * Points so far, or the final score once the game is over (the outcome's).
 */
score: number, 
/**
 * Per stage (1 at 0), its points once scored; absent in games not scored by stage.
 */
stage_points?: Array<number | null>, };
