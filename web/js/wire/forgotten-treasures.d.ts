// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire
import type { AutomaSummary, Outcome, RankKey, Seat } from './core';

export type AreaView = { name: string, colour: Colour, icons: number, cells: Array<number>, activation: Payment | null, 
/**
 * Points the activation added (when activated).
 */
activation_points: number | null, 
/**
 * While open, the payments the seat being scored can make for this area with the gems it
 * holds now, each with its points and cost (only in that seat's own view). A plan of
 * several activations spends the sum of their costs.
 */
payments: Array<PaymentOption>, };

/**
 * What the back of a domino shows: each block's colour and number of icons.
 */
export type BackBlock = { colour: Colour, icons: number, };

/**
 * One activation of the best allocation: its move text and what it names.
 */
export type BestActivation = { text: string, area: string, payment: Payment, points: number, };

export type BlockView = { 
/**
 * 1–4.
 */
stage: number, 
/**
 * Stage-local block coordinates (stage 1: the canvas), as in `place` moves.
 */
x: number, y: number, 
/**
 * North-west quadrant on the top-view grid (10 wide), as in `activate` moves.
 */
quadrant: number, block: ColouredBlock, };

/**
 * A block's colour by name, as views send it. The rules count colours as indices 0–4 (a
 * block's `colour`, THE Legend's wishes), in this order, which is also [`Gem::ALL`]'s; a
 * view names them so that no client depends on the order.
 */
export type Colour = "orange" | "blue" | "purple" | "green" | "red";

/**
 * A block as views show it: its colour by name and its icons' quadrants (bits as in
 * [`pyramidion_pyramid::placement::Quadrants`]: 1 nw, 2 ne, 4 sw, 8 se).
 */
export type ColouredBlock = { colour: Colour, icons: number, };

/**
 * Where a domino's block B lies relative to its block A. A domino is defined with B east of A;
 * `S`, `W`, `N` are that domino turned 1, 2, 3 quarters clockwise (icons turn with it).
 */
export type Dir = "E" | "S" | "W" | "N";

export type DominoView = { id: number, 
/**
 * Block A (west) and B (east) of the domino lying east-west.
 */
blocks: [ColouredBlock, ColouredBlock], };

/**
 * The window stage 1 fills: its top-left block on the canvas and whether it is 5 wide × 4 high
 * (`wide`) or 4 wide × 5 high.
 */
export type FrameRect = { x: number, y: number, wide: boolean, };

export type Gem = "orange" | "blue" | "purple" | "green" | "red" | "mythical";

/**
 * A multiset of gems (the bag has no order: a draw picks uniformly among its gems). It
 * travels as [`GemCounts`], an object keyed by gem name.
 */
export type Gems = { orange: number, blue: number, purple: number, green: number, red: number, mythical: number, };

/**
 * Where a domino went: its stage (1–4), its placement, and the two cells it covers (A first).
 */
export type LastPlacement = { stage: number, placement: Placement, cells: [[number, number], [number, number]], };

/**
 * Why THE Legend took the domino he took.
 */
export type LegendDominoReason = "space_of_last_gem" | "leftmost_found_no_gem";

/**
 * Why THE Legend collected a gem.
 */
export type LegendGemReason = "wish" | "mythical_for_missed_wish";

export type LegendGemView = { gem: Gem, 
/**
 * 0–4.
 */
space: number, reason: LegendGemReason, };

/**
 * THE Legend's points at one stage end: each coloured gem is worth the stage number, each
 * Mythical 2.
 */
export type LegendStageScore = { coloured: number, coloured_value: number, mythical: number, mythical_value: number, points: number, };

/**
 * One of THE Legend's turns: what he took and, for each take, the rule of his turn
 * (RULES.md, "His turn") that chose it, so that the log says why without a rule in the page.
 */
export type LegendTurnView = { 
/**
 * The ply of the player's move his turn followed.
 */
ply: number, 
/**
 * His wishes this turn: the colours of the gem icons of his top domino then.
 */
wishes: [Colour, Colour], 
/**
 * The gems he collected from the gem areas, in order.
 */
gems: Array<LegendGemView>, 
/**
 * His wishes he found in no face-up space.
 */
missed: Array<Colour>, 
/**
 * The space (0–4) whose domino he took, the domino, and why that one.
 */
space: number | null, domino: DominoView | null, domino_reason: LegendDominoReason | null, 
/**
 * The gem he drew blindly from the bag (he found none).
 */
drew: Gem | null, };

export type LegendView = { mode: SoloMode, 
/**
 * His pile, bottom first; every domino in it was face up when he took it.
 */
pile: Array<DominoView>, 
/**
 * Colours he wants next: the icon colours of his top domino.
 */
wishes: [Colour, Colour], gems: Gems, 
/**
 * Every turn he played, oldest first, each with the rule that chose what he took.
 */
turns: Array<LegendTurnView>, stage_draw: Gem | null, 
/**
 * Per finished stage, the coloured gems and Mythicals he scored and how they made his
 * points (the scoring pad's breakdown).
 */
scored: Array<LegendStageScore>, };

/**
 * The structured form of a move that clients act on (see [`crate::descriptor`]). Spaces and
 * piles are 0-based here; texts number them from 1.
 */
export type MoveForm = { "kind": "take", space: number, gem: Gem | null, } | { "kind": "flip", pile: number, } | { "kind": "place", x: number, y: number, dir: Dir, cells: [[number, number], [number, number]], } | { "kind": "activate", area: string, payment: Payment, points: number, } | { "kind": "done" } | { "kind": "discard", gem: Gem, };

export type Options = { 
/**
 * 1–4; 1 requires a solo mode.
 */
players: number, solo?: SoloMode | null, };

/**
 * How an activation is paid; `C` = gems of the area's colour, `M` = Mythical. Serialized as
 * in move texts (`1c`, `2c2m`…), so views and moves name a payment the same way.
 */
export type Payment = "1c" | "2m" | "3c" | "2c2m" | "1c4m" | "6m";

/**
 * One way to pay an area's activation: what it earns and which gems it spends.
 */
export type PaymentOption = { text: string, payment: Payment, points: number, 
/**
 * Gems of the area's colour spent.
 */
coloured: number, 
/**
 * Mythical gems spent.
 */
mythical: number, };

export type Phase = "take" | "flip" | "place" | "activate" | "discard" | "over";

export type PileTop = { "kind": "face_up", domino: DominoView, } | { "kind": "face_down", back: [BackBlock, BackBlock], } | { "kind": "empty" };

/**
 * A domino on a stage grid: block A at (`x`, `y`) (stage-local block coordinates), block B
 * one step in direction `dir`. Text form: column letter + 1-based row, then the direction,
 * e.g. `e5 E`.
 */
export type Placement = { x: number, y: number, dir: Dir, };

export type ScoredAreaView = { 
/**
 * 1–4.
 */
stage: number, name: string, colour: Colour, icons: number, payment: Payment, points: number, };

export type ScoringView = { seat: Seat, areas: Array<AreaView>, spent: Gems, 
/**
 * Points from activations so far (Mythicals left are added when done).
 */
points: number, 
/**
 * What each Mythical still held will add when the seat is done, and what the ones held
 * now would add: the stage total if the seat finished now is `points + mythical_kept`.
 */
points_per_mythical: number, mythical_kept: number, 
/**
 * The engine's exact best completion from here (most points, then fewest gems), as
 * `activate` moves, and the stage total it reaches with the Mythicals kept. Only in the
 * view of the seat being scored (its own pyramid and gems: nothing hidden).
 */
best: Array<BestActivation>, best_total: number, };

export type SeatView = { gems: Gems, stage_complete: boolean, 
/**
 * Current stage of this pyramid (1–4; 5 when finished).
 */
pyramid_stage: number, frame: FrameRect | null, blocks: Array<BlockView>, dominoes: Array<number>, 
/**
 * The last domino placed.
 */
last_placement: LastPlacement | null, 
/**
 * Every area activated at past stage ends (the per-area breakdown of the scoring pad);
 * a stage's score is these points plus `mythical_points` of that stage.
 */
scored_areas: Array<ScoredAreaView>, 
/**
 * Per stage (1–4 at 0–3): the points the Mythicals kept added when the stage was scored.
 */
mythical_points: [number, number, number, number], seat: Seat, 
/**
 * Points so far, or the final score once the game is over (the outcome's).
 */
score: number, 
/**
 * Per stage (1 at 0), its points once scored; absent in games not scored by stage.
 */
stage_points?: Array<number | null>, };

/**
 * Solo modes against THE Legend.
 */
export type SoloMode = "a-legend" | "the-legend";

export type SpaceView = { pile_size: number, top: PileTop, gems: Gems, };

export type View = { game: string, seat: Seat | null, options: Options, ply: number, spaces: Array<SpaceView>, bag_size: number, discard: Gems, 
/**
 * The domino taken this turn (face up), waiting to be placed.
 */
hand: DominoView | null, scoring: ScoringView | null, legend: LegendView | null, 
/**
 * THE Legend as the scoreboard and the result show him beside the seats (solo only).
 */
automa: AutomaSummary | null, seats: Array<SeatView>, 
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
