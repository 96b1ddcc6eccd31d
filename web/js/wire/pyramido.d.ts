// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire
import type { Outcome, RankKey, Seat } from './core';

export type BlockView = { colour: string, 
/**
 * Jewel quadrants, e.g. `["nw", "se"]` (empty: none).
 */
jewels: Array<string>, };

/**
 * Where a domino's block B lies relative to its block A. A domino is defined with B east of A;
 * `S`, `W`, `N` are that domino turned 1, 2, 3 quarters clockwise (icons turn with it).
 */
export type Dir = "E" | "S" | "W" | "N";

/**
 * A tile face up: block A (west) and block B (east) in canonical orientation.
 */
export type DominoView = { id: number, a: BlockView, b: BlockView, };

/**
 * Why a player was eliminated: their stage `stage` got stuck with `holes` cells no domino
 * could fill and only `cards` unused resurfacing cards to cover them.
 */
export type EliminationView = { stage: number, holes: number, cards: number, };

/**
 * The window stage 1 fills: its top-left block on the canvas and whether it is 5 wide × 4 high
 * (`wide`) or 4 wide × 5 high.
 */
export type FrameRect = { x: number, y: number, wide: boolean, };

/**
 * A marked area of the stage being built, as it would score now.
 */
export type LiveAreaView = { colour: string, 
/**
 * Visible jewels in the area (its points).
 */
jewels: number, 
/**
 * Its quadrants on the top-view grid (10 wide: `q % 10`, `q / 10`), whose top-left is
 * block `grid_origin` of the stage-1 canvas.
 */
cells: Array<number>, };

/**
 * One marked area at a stage's end.
 */
export type MarkedArea = { colour: string, 
/**
 * Visible jewels in the area (its points).
 */
jewels: number, 
/**
 * The area's lowest top-view quadrant (its name, e.g. `c4`, see core's `area_name`).
 */
anchor: number, 
/**
 * The top-view quadrants the area covered when it was scored (bit `q` = quadrant `q`, as
 * in the top view), listed as quadrant numbers in views so a table can outline it.
 */
cells: number[], };

/**
 * The structured form of a move that clients act on (see [`crate::descriptor`]). Slots and
 * piles are 0-based here; texts number them from 1. Cells are stage-local block coordinates.
 */
export type MoveForm = { "kind": "take", slot: number, } | { "kind": "place", x: number, y: number, dir: Dir, cells: [[number, number], [number, number]], eliminates: boolean, } | { "kind": "mark", side: string, x: number, y: number, } | { "kind": "resurface", side: string, x: number, y: number, colour: string, 
/**
 * The card's two sides' colours.
 */
card: [string, string], quadrant: string, } | { "kind": "pass" } | { "kind": "refill", pile: number, slot: number | null, } | { "kind": "cover", x: number, y: number, cell: string, colour: string, 
/**
 * The card's two sides' colours.
 */
card: [string, string], quadrant: string, };

/**
 * What the seat to move decides now.
 */
export type Phase = "take" | "place" | "mark" | "resurface" | "refill" | "cover" | "over";

export type PileView = { size: number, top: DominoView | null, };

export type PlacedBlockView = { 
/**
 * 1 to 4.
 */
stage: number, 
/**
 * Stage-local block coordinates (stage 1: on the 9×9 canvas; cell `a1` is (0, 0)).
 */
x: number, y: number, colour: string, 
/**
 * Jewel quadrants, e.g. `["nw", "se"]` (empty: none).
 */
jewels: Array<string>, 
/**
 * The resurfacing card this block is (its two sides' colours), if it is one.
 */
card: [string, string] | null, 
/**
 * Carries a jewel marker (of its colour).
 */
marker: boolean, };

export type SeatView = { status: Status, 
/**
 * Set once the player is eliminated.
 */
elimination: EliminationView | null, 
/**
 * The stage-1 frame once forced.
 */
frame: FrameRect | null, 
/**
 * Blocks in placing order (the order the top view stacks them).
 */
blocks: Array<PlacedBlockView>, dominoes: Array<number>, 
/**
 * Indices (in `blocks`) of the blocks A and B of the domino placed last.
 */
last_domino: [number, number] | null, markers_in_hand: Array<string>, 
/**
 * Unused resurfacing cards, each as its two sides' colours.
 */
cards_in_hand: Array<[string, string]>, 
/**
 * The completed stages' scores with their marked areas and Mino bonus (the totals are
 * the summary's `stage_points`).
 */
stage_breakdowns: Array<StageScore>, 
/**
 * What the current stage would score if it ended now.
 */
stage_value: number, 
/**
 * The marked areas of the stage being built, as they would score now (their Mino bonus
 * is the smallest `jewels`).
 */
live_areas: Array<LiveAreaView>, 
/**
 * Stage-1 canvas block at the top-left of the top-view grid `live_areas` use.
 */
grid_origin: [number, number], seat: Seat, 
/**
 * Points so far, or the final score once the game is over (the outcome's).
 */
score: number, 
/**
 * Per stage (1 at 0), its points once scored; absent in games not scored by stage.
 */
stage_points?: Array<number | null>, };

/**
 * A stage's score: each marked area scores its visible jewels, plus the Mino bonus (the
 * jewels of the marked area with the fewest jewels; 0 when nothing is marked).
 */
export type StageScore = { 
/**
 * Marked areas in marker-colour order.
 */
areas: Array<MarkedArea>, mino: number, total: number, };

export type Status = "building" | "done" | "eliminated";

export type View = { 
/**
 * Whose view this is (`None`: a spectator).
 */
seat: Seat | null, quarry: [DominoView | null, DominoView | null, DominoView | null], piles: [PileView, PileView, PileView, PileView], 
/**
 * The domino taken, to place now.
 */
held: DominoView | null, 
/**
 * The quarry slot (1–3) taken this turn, until refilled.
 */
empty_slot: number | null, 
/**
 * Indices (in the mover's `blocks`) of the new domino's blocks A and B while marking or
 * resurfacing.
 */
new_blocks: [number, number] | null, 
/**
 * Holes the mover must still cover, the next first.
 */
holes: Array<string>, seats: Array<SeatView>, 
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
