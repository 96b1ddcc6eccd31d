// @ts-check
// The games this browser plays offline (issue 50; docs/client.md "Offline play"): each one a
// game the page dealt itself — (game, options, seed, moves) and who sits where — kept in
// IndexedDB so that it survives a reload and a closed tab, and uploaded once it is over and
// the server can be reached (`POST /api/offline-games`), where it is replayed, checked and
// kept unrated in the player's history.
//
// The storage is a small interface (`get`, `put`, `all`, `delete`) so that the logic around
// it (a new game, the bots' seeds, what to upload and what an answer does to a game) is tested
// in Node with the in-memory one; the page uses IndexedDB's.

/**
 * A seat of an offline game: this page's player, or a bot of a level the game lists.
 * @typedef {{ type: 'me' } | { type: 'bot', level: string }} OfflineSeat
 */

/**
 * An offline game as it is kept. `status`: `playing`, `over` (to upload), `uploaded` (the
 * server kept it as `server_id`) or `refused` (the server's `code` said why; never sent again).
 * @typedef {{
 *   id: string,
 *   game: string,
 *   options: any,
 *   seed: number,
 *   moves: string[],
 *   seats: OfflineSeat[],
 *   seat: number,
 *   status: 'playing' | 'over' | 'uploaded' | 'refused',
 *   started_at: number,
 *   updated_at: number,
 *   server_id?: string,
 *   code?: string,
 * }} OfflineGame
 */

/**
 * Where offline games are kept.
 * @typedef {{
 *   get: (id: string) => Promise<OfflineGame | undefined>,
 *   put: (game: OfflineGame) => Promise<void>,
 *   all: () => Promise<OfflineGame[]>,
 *   delete: (id: string) => Promise<void>,
 * }} OfflineBackend
 */

/**
 * A new offline game, dealt from a fresh seed.
 * @param {{ game: string, options: any, seats: OfflineSeat[], now: number, random: (bytes: Uint8Array) => Uint8Array }} spec
 * `random` fills bytes (the page's `crypto.getRandomValues`)
 * @returns {OfflineGame}
 */
export function newOfflineGame({ game, options, seats, now, random }) {
  const bytes = random(new Uint8Array(15));
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0'));
  // 53 bits: the seed travels as a JSON number, which keeps integers exactly up to 2^53.
  const seed = Number(BigInt(`0x${hex.slice(0, 7).join('')}`) & ((1n << 53n) - 1n));
  return {
    id: hex.slice(7).join(''),
    game,
    options,
    seed,
    moves: [],
    seats,
    seat: seats.findIndex((s) => s.type === 'me'),
    status: 'playing',
    started_at: now,
    updated_at: now,
  };
}

/**
 * The seed of the bot's move at `ply`: from the game's seed and the ply alone, so that a
 * page reloaded while a bot was thinking plays the same move.
 * @param {number} seed the game's
 * @param {number} ply
 * @returns {bigint}
 */
export function botSeed(seed, ply) {
  return (BigInt(seed) * 1000003n + BigInt(ply) + 1n) & ((1n << 63n) - 1n);
}

/**
 * The seat to move's bot level, or `null` when it is not a bot's turn.
 * @param {OfflineGame} game
 * @param {number | undefined} toMove
 */
export function botToMove(game, toMove) {
  if (toMove === undefined) return null;
  const seat = game.seats[toMove];
  return seat && seat.type === 'bot' ? seat.level : null;
}

/**
 * What the server is sent for a finished game (docs/protocol.md, "Offline games").
 * @param {OfflineGame} game
 */
export function uploadBody(game) {
  return {
    client_id: game.id,
    record: { game: game.game, options: game.options, seed: game.seed, moves: game.moves },
    seats: game.seats,
  };
}

/** The server's codes that say an upload will never be kept: it is not sent again. */
const FINAL_REFUSALS = new Set(['bad_offline_record', 'offline_not_over', 'unknown_bot_level', 'bad_request', 'payload_too_large']);

/**
 * Uploads every finished game not uploaded yet, oldest first, and keeps what the server
 * answered: `uploaded` with its id, or `refused` with its code. Stops at the first answer that
 * says to try later (no connection, the server busy or failing): the games stay `over`.
 * @param {OfflineBackend} store
 * @param {(body: any) => Promise<{ id: string }>} post sends one upload; throws `{code}` on refusal
 * @param {number} now
 * @returns {Promise<OfflineGame[]>} the games uploaded or refused now
 */
export async function uploadFinished(store, post, now) {
  const waiting = (await store.all()).filter((g) => g.status === 'over').sort((a, b) => a.updated_at - b.updated_at);
  const done = [];
  for (const game of waiting) {
    let answer;
    try {
      answer = await post(uploadBody(game));
    } catch (e) {
      const code = e && e.code;
      if (!FINAL_REFUSALS.has(code)) break;
      const refused = { ...game, status: /** @type {const} */ ('refused'), code, updated_at: now };
      await store.put(refused);
      done.push(refused);
      continue;
    }
    const uploaded = { ...game, status: /** @type {const} */ ('uploaded'), server_id: answer.id, updated_at: now };
    await store.put(uploaded);
    done.push(uploaded);
  }
  return done;
}

/**
 * The offline games kept in memory (Node's tests; a browser without IndexedDB).
 * @returns {OfflineBackend}
 */
export function memoryBackend() {
  /** @type {Map<string, OfflineGame>} */
  const games = new Map();
  const copy = (g) => structuredClone(g);
  return {
    get: async (id) => (games.has(id) ? copy(games.get(id)) : undefined),
    put: async (g) => {
      games.set(g.id, copy(g));
    },
    all: async () => [...games.values()].map(copy),
    delete: async (id) => {
      games.delete(id);
    },
  };
}

const DB_NAME = 'pyramidion-offline';
const STORE = 'games';

/**
 * The offline games in this browser's IndexedDB.
 * @param {IDBFactory} idb
 * @returns {Promise<OfflineBackend>}
 */
export async function indexedDbBackend(idb) {
  /** @type {IDBDatabase} */
  const db = await new Promise((resolve, reject) => {
    const open = idb.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: 'id' });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  /**
   * @param {IDBTransactionMode} mode
   * @param {(store: IDBObjectStore) => IDBRequest} act
   */
  const run = (mode, act) =>
    new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = act(tx.objectStore(STORE));
      // Written when the transaction commits, not when the request succeeds: a reload right
      // after a move must find it.
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  return {
    get: (id) => run('readonly', (s) => s.get(id)),
    put: async (g) => {
      await run('readwrite', (s) => s.put(g));
    },
    all: () => run('readonly', (s) => s.getAll()),
    delete: async (id) => {
      await run('readwrite', (s) => s.delete(id));
    },
  };
}

/** @type {Promise<OfflineBackend> | null} */
let opened = null;

/**
 * This page's store of offline games (IndexedDB, or memory where there is none).
 * @returns {Promise<OfflineBackend>}
 */
export function offlineGames() {
  if (!opened) {
    opened = typeof indexedDB === 'undefined' ? Promise.resolve(memoryBackend()) : indexedDbBackend(indexedDB);
    opened.catch(() => {
      opened = null;
    });
  }
  return opened;
}
