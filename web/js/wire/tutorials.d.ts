// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire

/**
 * `POST …/try`'s body.
 */
export type Attempt = { move: string, };

export type LessonOutline = { key: string, 
/**
 * `tutorial.<game>.<lesson>`
 */
title: string, steps: Array<StepOutline>, };

/**
 * A move as it travels to clients: its record text and its structured form (`kind` and
 * named fields, flattened beside `text`).
 */
export type MoveInfo = { text: string, kind?: string } & Record<string, unknown>;

/**
 * `GET`/`PUT /api/tutorials/{game}/progress`: the steps the user solved.
 */
export type Progress = { solved: Array<StepRef>, };

export type StepOutline = { key: string, 
/**
 * The learner's seat.
 */
seat: number, 
/**
 * `tutorial.<game>.<lesson>.<step>`: what to do.
 */
text: string, 
/**
 * `tutorial.<game>.<lesson>.<step>.hint`: a hint on request.
 */
hint: string, };

export type StepRef = { lesson: string, step: string, };

/**
 * A step's position for its learner: what a live table's state gives a seat to move.
 */
export type StepState = { seat: number, seats: number, to_move: number | null, 
/**
 * The game's view (`import('../wire/<game key>').View`).
 */
view: unknown, 
/**
 * The learner's legal moves (the rules' list, not the step's answer).
 */
legal: Array<MoveInfo>, };

/**
 * `POST …/try`'s answer: `ok`, the verdict and its figures, and the step that follows.
 */
export type TryAnswer = { ok: boolean, 
/**
 * The next step (`lesson`, `step`) once this one is solved; `null` after the last.
 */
next: StepRef | null, 
/**
 * The moves that solve the step, canonical; only once it is solved.
 */
accepted?: Array<string>, } & ({ "verdict": "solved", value: number | null, } | { "verdict": "illegal", code: string, } | { "verdict": "worse", gain: string, best: number, got: number, missed: number, } | { "verdict": "other" });

/**
 * `GET /api/tutorials`: the games that have a tutorial, with their size.
 */
export type TutorialList = { tutorials: Array<TutorialSummary>, };

/**
 * `GET /api/tutorials/{game}`: the outline and every step's position.
 */
export type TutorialPage = { 
/**
 * Per lesson, per step: the position as the learner sees it.
 */
positions: Array<Array<StepState>>, game: string, lessons: Array<LessonOutline>, 
/**
 * The options of the real game against an easy bot that ends the tutorial.
 */
final_table: Record<string, unknown>, 
/**
 * Whether that game is solo (the game's automa plays, no bot seat).
 */
final_solo: boolean, };

export type TutorialSummary = { game: string, lessons: number, steps: number, };
