// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire
import type { Outcome, RankKey, Seat } from './core';

/**
 * Optional edifices of a God tile (the Pyramid card is always mandatory).
 */
export type Allowed = { tomb: boolean, obelisk: boolean, 
/**
 * Tomb **or** Obelisk, not both (Sekhmet with 4–5 players).
 */
one_of: boolean, };

/**
 * A card as views show it: its id (always under the key `"card"`), its glyph, and its stones
 * left to right, each `{colour, x0, x1}` (colour and x-interval on the card's 6-unit strip).
 */
export type CardView = { card: number, glyph: Glyph | null, stones: Array<Stone>, };

/**
 * The five stone colours, in rulebook order.
 */
export type Colour = "blue" | "white" | "red" | "green" | "yellow";

export type EdificePoints = { pyramid: number, obelisk: number, tomb: number, };

/**
 * A glyph printed on some cards: worth 2 points in the edifice it names.
 */
export type Glyph = "pyramid" | "obelisk" | "tomb";

/**
 * The five God tiles, numbered 1–5 (their number is the pair-picking order).
 */
export type God = "horus" | "anubis" | "khepri" | "sekhmet" | "thoth";

export type GodView = { god: God, number: number, allows: Allowed, owner: Seat | null, 
/**
 * Set aside this round (2 players).
 */
set_aside: boolean, };

/**
 * The structured form of a move that clients act on (see [`crate::descriptor`]). `hand` is
 * the 0-based hand position and `card` the card it names; both are `None` in the redacted
 * form other seats get of a move that hides its card (a card put in a Tomb or discarded).
 */
export type MoveForm = { "kind": "god", god: God, number: number, } | { "kind": "pair", pair: number, } | { "kind": "pyramid", hand: number, card: number | null, place: string, row: number, slot: number, } | { "kind": "obelisk", hand: number, card: number | null, } | { "kind": "tomb", hand: number | null, card: number | null, } | { "kind": "done" } | { "kind": "discard", hand: number | null, card: number | null, };

export type PairView = { 
/**
 * 1-based, as in `pair N`.
 */
number: number, 
/**
 * `None` once taken.
 */
cards: Array<CardView> | null, taken_by: Seat | null, };

/**
 * What the seat to move decides now.
 */
export type Phase = "choose_god" | "choose_pair" | "build_pyramid" | "build_more" | "discard" | "over";

/**
 * Points anyone can count during the game: Pyramid, Obelisk, and the glyphs in them.
 */
export type PublicScore = { pyramid: PyramidScore, obelisk: number, glyphs: number, total: number, };

/**
 * A pyramid's points: the largest group per colour, the longest group once more, the bonus.
 */
export type PyramidScore = { 
/**
 * Largest connected group per colour (blue, white, red, green, yellow), in stones; it
 * travels keyed by colour name.
 */
groups: Record<Colour, number>, 
/**
 * The single longest group, scored again.
 */
longest: number, 
/**
 * 10 when every colour's group has at least 3 stones.
 */
bonus: number, total: number, };

/**
 * A player's points, edifice by edifice.
 */
export type Score = { pyramid: PyramidScore, obelisk: number, 
/**
 * 5 per colour in which this tomb holds strictly more stones than every other tomb.
 */
tomb: number, 
/**
 * 2 per glyph lying in its own edifice.
 */
glyphs: number, total: number, };

/**
 * The parts of a final score a player cannot read off the public edifices.
 */
export type ScoreDetail = { 
/**
 * Tomb stones per colour, keyed by colour name.
 */
tomb_stones: Record<Colour, number>, 
/**
 * Colours in which this Tomb holds strictly more stones than every other one (5 points
 * each; a tie for the most wins nothing).
 */
tomb_majorities: Array<Colour>, 
/**
 * Colours in which this Tomb ties another for the most stones (no points).
 */
tomb_ties: Array<Colour>, 
/**
 * Glyph points in the Pyramid, the Obelisk and the Tomb.
 */
glyphs: EdificePoints, };

export type SeatView = { god: God | null, hand_size: number, 
/**
 * Only for the seat itself.
 */
hand: Array<CardView> | null, 
/**
 * Rows bottom (`a`) to top (`d`), 4/3/2/1 entries; the bottom row's cards are packed to
 * the left (it floats until complete).
 */
pyramid: Array<Array<CardView | null>>, 
/**
 * Bottom card first; each covers the top half of the previous one.
 */
obelisk: Array<CardView>, tomb_size: number, 
/**
 * Only for the seat itself, and for everyone at the end.
 */
tomb: Array<CardView> | null, public_score: PublicScore, 
/**
 * Obelisk cards showing each colour: its columns, keyed by colour name.
 */
obelisk_stages: Record<Colour, number>, 
/**
 * The pair this seat took from the quarry this round (none yet: empty). Public: at the
 * table everyone saw it taken; what became of each card afterwards is not said.
 */
took: Array<CardView>, 
/**
 * The cards this seat discarded face up at the latest round end.
 */
discarded: Array<CardView>, 
/**
 * Full score, at the end.
 */
final_score: Score | null, 
/**
 * How the Tomb and the glyphs scored, at the end.
 */
detail: ScoreDetail | null, seat: Seat, 
/**
 * Points so far, or the final score once the game is over (the outcome's).
 */
score: number, 
/**
 * Per stage (1 at 0), its points once scored; absent in games not scored by stage.
 */
stage_points?: Array<number | null>, };

/**
 * One stone: a colour over the interval `x0..x1` of its card's strip.
 */
export type Stone = { colour: Colour, x0: number, x1: number, };

/**
 * The building turn in progress.
 */
export type TurnView = { seat: Seat, god: God, obelisk_built: boolean, tomb_built: boolean, };

export type View = { 
/**
 * Whose view this is (`None`: a spectator).
 */
seat: Seat | null, 
/**
 * The tiles used at this table, in number order.
 */
gods: Array<GodView>, quarry: Array<PairView>, deck_size: number, discard: Array<CardView>, turn: TurnView | null, seats: Array<SeatView>, 
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
