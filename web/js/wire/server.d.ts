// Generated from the Rust types by crates/server/src/wire.rs: do not edit.
// Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire
import type { Outcome, RankKey } from './core';

/**
 * Who may take a free seat at a table, when not anyone (`crate::social::audience` stores and
 * checks it).
 */
export type Audience = { "type": "friends" } | { "type": "club", club: string, };

/**
 * A stored chat message, as clients get it.
 */
export type ChatMessage = { id: string, game: string, 
/**
 * `players` or `spectators`.
 */
channel: string, user: string, name: string, 
/**
 * The writer's seat (players' channel), none for a spectator.
 */
seat: number | null, text: string | null, phrase: string | null, 
/**
 * Moves played when it was written (the replay places it there).
 */
ply: number, at: number, };

export type ClientMsg = { "type": "subscribe", game: string, last_event?: number, 
/**
 * The table's invite: an unlisted game is followed by its players and by whoever
 * holds it.
 */
invite?: string, } | { "type": "unsubscribe", game: string, } | { "type": "move", game: string, state_id: number, move: string, } | { "type": "ping", id?: number, } | { "type": "chat", game: string, text?: string, phrase?: string, } | { "type": "watch_lobby" } | { "type": "unwatch_lobby" };

/**
 * A clock profile a table may be created with (the server's list is configurable).
 */
export type ClockProfile = { key: string, 
/**
 * Real time: the bank each seat starts with (0 for turn-based profiles).
 */
bank_ms: number, 
/**
 * Real time: added to the bank of a seat whose turn ends.
 */
bonus_ms: number, 
/**
 * Turn-based: the time of every turn (0 for real-time profiles).
 */
turn_ms: number, };

/**
 * What a `state` message says of the clock (see docs/protocol.md).
 */
export type ClockView = { profile: ClockProfile, 
/**
 * Per seat, its time left as of this message: the running seat's counts down.
 */
remaining_ms: Array<number>, running: number | null, timeouts: Array<number>, 
/**
 * Time-outs after which a seat is played by a bot.
 */
bot_after: number, 
/**
 * Per seat, until when its player is on vacation (ms since the epoch; null: not): its
 * turn-based clock is paused until then (`crate::live::vacation`).
 */
vacation_until: Array<number | null>, };

/**
 * The stored result (and a `state` message's `ending`) of a game that ended early: why
 * (`resigned`, `abandoned` or `claimed`), the final ranks and who resigned in order, and who
 * was absent. Its fields are in the order the stored results have always had (alphabetical);
 * `absent` is left out when empty, so that results stored before it read the same.
 */
export type EarlyResult = { absent: Array<number>, ending: string, ranks: Array<number>, resigned: Array<number>, };

/**
 * `open` (waiting for players) → `live` → `finished`; an open table may be `abandoned`.
 */
export type GameStatus = "open" | "live" | "finished" | "abandoned";

/**
 * A move as it travels to clients: its record text and its structured form (`kind` and
 * named fields, flattened beside `text`).
 */
export type MoveInfo = { text: string, kind?: string } & Record<string, unknown>;

/**
 * See [`StateMsg::sealed`].
 */
export type SealedEnd = { challenge: string, 
/**
 * When the day's deals, records and ranking become public (ms since the epoch).
 */
public_at: number, };

/**
 * The person a seat is kept for or held by.
 */
export type SeatPerson = { user: string, name: string, 
/**
 * Whether it is the viewer.
 */
me: boolean, };

/**
 * A move played, as one connection may see it (other seats' hidden cards redacted until the
 * game is over): its number (`ply`, from 0), who played it, its text and structured form.
 */
export type SeenMove = { ply: number, seat: number } & MoveInfo;

export type ServerMsg = { "type": "hello", user: string, name: string, guest: boolean, } | { "type": "state" } & StateMsg | { "type": "patch", game: string, state_id: number, event: number, from: number, clock: ClockView | null, 
/**
 * The operations, in order (`live::patch` writes them from the two states' texts).
 */
patch: ([path: string, value: unknown] | [path: string])[], } | { "type": "notice", game: string, kind: string, seat: number, move: SeenMove, 
/**
 * The seat's time-outs so far, and after how many a bot takes the seat over.
 */
timeouts: number, bot_after: number, } | { "type": "rematch_offer", game: string, table: string, by: string, } | { "type": "challenge", table: string, 
/**
 * The game's key.
 */
game: string, by: string, } | { "type": "pairing", waiting: number, other_kind: number, out_of_range: number, table: string | null, } | { "type": "chat", game: string, message: ChatMessage, } | { "type": "turn", game: string, your_turn: boolean, finished: boolean, } | { "type": "tournament" } & TournamentMsg | { "type": "table", table: Table<TableSeat>, } | { "type": "error", code: string, message: string, game: string | null, 
/**
 * The rules engine's reason for an `illegal_move` (e.g. `slot_occupied`).
 */
reason: string | null, state_id: number | null, } | { "type": "pong", id: number | null, };

/**
 * One line of the standings (`crate::tournament` tie-breaks: points, opponents, score, wins).
 */
export type StandingView = { 
/**
 * 1 for the leaders; level players share a rank.
 */
rank: number, points: number, 
/**
 * The opponents' mean points summed over games (a decimal, from the core's twelfths).
 */
opponents: number, score: number, wins: number, games: number, byes: number, withdrawn: boolean, 
/**
 * Arena: the player's last two games were sole wins, so the next counts double.
 */
on_fire: boolean, id: string, name: string, bot: boolean, };

/**
 * The fields of a `state` message.
 */
export type StateMsg = { game: string, state_id: number, event: number, seat: number | null, to_move: number | null, 
/**
 * The last move, as this connection may see it.
 */
last_move: SeenMove | null, missed: Array<SeenMove>, 
/**
 * The game's `View` (its declarations: `web/js/wire/<game>.d.ts`).
 */
view: unknown, 
/**
 * Legal moves of `seat`, when it is its turn: record text and structured form, written
 * as JSON straight from the games' forms (`AnyGame::legal_json`).
 */
legal: Array<MoveInfo>, finished: boolean, outcome: Outcome | null, 
/**
 * Each seat's time left and whose clock runs (none: the table has no clock).
 */
clock: ClockView | null, 
/**
 * Seats a bot plays: bot seats, resigned seats, and seats that timed out too often.
 */
bots: Array<boolean>, 
/**
 * Seats resigned, in order (they rank last, the first to resign lowest).
 */
resigned: Array<number>, 
/**
 * When the game ended before its rules said so: `{ending, ranks, resigned}` and `absent`
 * when any (`ending`: `resigned`, `abandoned` or `claimed`); `outcome` is then null.
 */
ending: EarlyResult | null, 
/**
 * The seats whose player is away while the game runs: the others may claim the game
 * against them (`POST /api/games/{id}/claim`). The server says it; clients do not work it
 * out from the clock.
 */
away: Array<number>, 
/**
 * Whether this connection's seat may take back the last step now (`POST
 * /api/games/{id}/undo`): the server decides from the game's rules; clients do not work
 * it out.
 */
undo: boolean, 
/**
 * A daily challenge's finished game whose end position is sealed until its day is over
 * for everyone (`view` is then the position before the last move, while `outcome` is
 * the final result): which challenge, and when its end and the day's ranking open.
 * Absent for any other game, and once the day is over.
 */
sealed: SealedEnd | null, };

/**
 * A table as clients see it (the lobby, the history, the Watch page, a rematch), with the
 * display name of every seated human. Its seats are [`TableSeat`]s but on the Watch page,
 * which rates each of them (`crate::http::meet::RatedSeat`). Built by `crate::http::api::table_of`..
 */
export type Table<S = TableSeat> = { id: string, 
/**
 * The game's key.
 */
game: string, options: Record<string, unknown>, status: GameStatus, listed: boolean, rated: boolean, clock: ClockProfile | null, seats: Array<S>, created_at: number, result: unknown, 
/**
 * Only the creator is shown the invite token (they share the link).
 */
invite: string | null, 
/**
 * Who may take its free seats, when not anyone (`crate::social::audience`).
 */
audience?: Audience, };

/**
 * A seat of a table, as clients see it (`type` says which).
 */
export type TableSeat = { "type": "open" } | { "type": "invite" } | { "type": "reserved" } & SeatPerson | { "type": "bot", level: string, } | { "type": "human" } & SeatPerson;

/**
 * A `tournament` message: what changed, and the standings as they are now.
 */
export type TournamentMsg = { tournament: string, 
/**
 * `round_started` (Swiss), `seated` (Arena: the recipient's new table), `standings` (a
 * result moved them) or `finished`.
 */
event: string, 
/**
 * `running`, `finished` or `cancelled`.
 */
status: string, 
/**
 * The round just started (from 0).
 */
round: number | null, 
/**
 * The recipient's game in the round just started.
 */
game: string | null, standings: Array<StandingView>, };
