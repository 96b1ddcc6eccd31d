// @ts-check
// Puzzles offline (issue 48): every puzzle this browser was shown is kept in IndexedDB, so
// that the puzzle page opens one with no connection, and a move tried offline is kept and sent
// when the server can be reached again (`POST /api/puzzles/{id}/attempt`), where it is judged
// and rated like any first try. The browser judges nothing: it is sent no solution before a
// try, and what it sends is a move the server checks, nothing else (no verdict, no time).
//
// The storage is a small interface (`get`, `put`, `all`, `delete` per store) so that the logic
// (which kept puzzle to show, what a sent attempt does) is tested in Node with the in-memory
// one (web/tests/puzzle-offline.test.js); the page uses IndexedDB's.

import { api } from './api.js';

/**
 * A puzzle as the server sent it (`PuzzleView`, docs/protocol.md "Puzzles"), kept without its
 * explanation (shown only after a try, from the try's answer).
 * @typedef {{ id: string, game: string, kept_at: number } & Record<string, any>} KeptPuzzle
 */

/**
 * A move tried offline, waiting for the connection: one per puzzle (the first try is the one
 * that is rated).
 * @typedef {{ id: string, game: string, move: string, at: number }} PendingAttempt
 */

/**
 * @template T
 * @typedef {{
 *   get: (id: string) => Promise<T | undefined>,
 *   put: (item: T) => Promise<void>,
 *   all: () => Promise<T[]>,
 *   delete: (id: string) => Promise<void>,
 * }} Table
 */

/** @typedef {{ puzzles: Table<KeptPuzzle>, attempts: Table<PendingAttempt> }} PuzzleStore */

/** Puzzles kept per game at the most: the oldest go first. */
export const KEEP_PER_GAME = 50;

/**
 * @template {{ id: string }} T
 * @returns {Table<T>}
 */
function memoryTable() {
  /** @type {Map<string, T>} */
  const items = new Map();
  const copy = (/** @type {T} */ x) => JSON.parse(JSON.stringify(x));
  return {
    get: async (id) => (items.has(id) ? copy(/** @type {T} */ (items.get(id))) : undefined),
    put: async (x) => {
      items.set(x.id, copy(x));
    },
    all: async () => [...items.values()].map(copy),
    delete: async (id) => {
      items.delete(id);
    },
  };
}

/** @returns {PuzzleStore} */
export function memoryPuzzleStore() {
  return { puzzles: memoryTable(), attempts: memoryTable() };
}

/**
 * Keeps a puzzle the server sent, for a page opened offline; the game's oldest beyond
 * [`KEEP_PER_GAME`] are forgotten.
 * @param {PuzzleStore} store
 * @param {any} puzzle the server's `PuzzleView`
 * @param {number} now
 */
export async function keepPuzzle(store, puzzle, now) {
  const { explanation: _explanation, ...shown } = puzzle;
  await store.puzzles.put({ ...shown, kept_at: now });
  const mine = (await store.puzzles.all()).filter((p) => p.game === puzzle.game).sort((a, b) => b.kept_at - a.kept_at);
  for (const old of mine.slice(KEEP_PER_GAME)) await store.puzzles.delete(old.id);
}

/**
 * The kept puzzle to show offline: `id` where asked (and kept), else the game's latest kept
 * one not tried yet (neither before, by its `tried`, nor offline), other than `after`; where
 * none is left, the latest one whose move waits for the connection (a page reloaded after a
 * try shows it waiting).
 * @param {PuzzleStore} store
 * @param {string} game
 * @param {{ id?: string, after?: string }} [which]
 * @returns {Promise<KeptPuzzle | null>}
 */
export async function offlinePuzzle(store, game, which = {}) {
  if (which.id) return (await store.puzzles.get(which.id)) || null;
  const pending = new Set((await store.attempts.all()).map((a) => a.id));
  const open = (await store.puzzles.all()).filter((p) => p.game === game && !p.tried && !pending.has(p.id) && p.id !== which.after).sort((a, b) => b.kept_at - a.kept_at);
  if (open[0]) return open[0];
  const waiting = (await store.attempts.all()).filter((a) => a.game === game && a.id !== which.after).sort((a, b) => b.at - a.at);
  for (const a of waiting) {
    const kept = await store.puzzles.get(a.id);
    if (kept) return kept;
  }
  return null;
}

/**
 * Keeps a move tried offline, to send when the connection returns. A puzzle already waiting
 * keeps its first move.
 * @param {PuzzleStore} store
 * @param {{ id: string, game: string, move: string }} attempt
 * @param {number} now
 * @returns {Promise<PendingAttempt>} the attempt that waits
 */
export async function queueAttempt(store, attempt, now) {
  const waiting = await store.attempts.get(attempt.id);
  if (waiting) return waiting;
  const kept = { id: attempt.id, game: attempt.game, move: attempt.move, at: now };
  await store.attempts.put(kept);
  return kept;
}

/**
 * Sends the moves tried offline, oldest first. One the server answered (judged, or refused:
 * a puzzle it no longer has, a move it does not take) is sent no more; one that found no
 * connection stops the run and waits for the next.
 * @param {PuzzleStore} store
 * @param {(attempt: PendingAttempt) => Promise<any>} post the server's answer, or an error
 *   with `code` (`network`: no answer)
 * @returns {Promise<{ attempt: PendingAttempt, result?: any, code?: string }[]>} what the
 *   server said of each one sent
 */
export async function sendAttempts(store, post) {
  const waiting = (await store.attempts.all()).sort((a, b) => a.at - b.at);
  const done = [];
  for (const attempt of waiting) {
    try {
      const result = await post(attempt);
      done.push({ attempt, result });
    } catch (e) {
      const code = e && typeof e === 'object' && 'code' in e ? String(e.code) : 'network';
      if (code === 'network') break;
      done.push({ attempt, code });
    }
    await store.attempts.delete(attempt.id);
  }
  return done;
}

const DB_NAME = 'pyramidion-puzzles';

/**
 * The puzzles and waiting moves in this browser's IndexedDB.
 * @param {IDBFactory} idb
 * @returns {Promise<PuzzleStore>}
 */
export async function indexedDbPuzzleStore(idb) {
  /** @type {IDBDatabase} */
  const db = await new Promise((resolve, reject) => {
    const open = idb.open(DB_NAME, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('puzzles', { keyPath: 'id' });
      open.result.createObjectStore('attempts', { keyPath: 'id' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  /**
   * @template T
   * @param {string} name
   * @returns {Table<T>}
   */
  const table = (name) => {
    /**
     * @param {IDBTransactionMode} mode
     * @param {(store: IDBObjectStore) => IDBRequest} act
     * @returns {Promise<any>}
     */
    const run = (mode, act) =>
      new Promise((resolve, reject) => {
        const tx = db.transaction(name, mode);
        const req = act(tx.objectStore(name));
        // Written when the transaction commits: a reload right after a try must find it.
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    return {
      get: (id) => run('readonly', (s) => s.get(id)),
      put: async (x) => {
        await run('readwrite', (s) => s.put(x));
      },
      all: () => run('readonly', (s) => s.getAll()),
      delete: async (id) => {
        await run('readwrite', (s) => s.delete(id));
      },
    };
  };
  return { puzzles: table('puzzles'), attempts: table('attempts') };
}

/** @type {Promise<PuzzleStore> | null} */
let opened = null;

/**
 * This page's store of puzzles (IndexedDB, or memory where there is none).
 * @returns {Promise<PuzzleStore>}
 */
export function puzzleStore() {
  if (!opened) {
    opened = typeof indexedDB === 'undefined' ? Promise.resolve(memoryPuzzleStore()) : indexedDbPuzzleStore(indexedDB);
    opened.catch(() => {
      opened = null;
    });
  }
  return opened;
}

/** @type {Set<(done: { attempt: PendingAttempt, result?: any, code?: string }[]) => void>} */
const listeners = new Set();

/**
 * Calls `fn` with what the server said of the moves sent after they waited offline.
 * @param {(done: { attempt: PendingAttempt, result?: any, code?: string }[]) => void} fn
 * @returns {() => void} stops it
 */
export function onAttemptsSent(fn) {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** @type {Promise<any[]> | null} */
let sending = null;

/**
 * Sends the moves tried offline (when the socket connects, and when the browser says it is
 * online again); one run at a time.
 * @returns {Promise<{ attempt: PendingAttempt, result?: any, code?: string }[]>}
 */
export function sendPuzzleAttempts() {
  if (!sending) {
    sending = (async () => {
      try {
        const store = await puzzleStore();
        const done = await sendAttempts(store, (a) => api('POST', `/api/puzzles/${encodeURIComponent(a.id)}/attempt`, { move: a.move }));
        if (done.length) for (const fn of [...listeners]) fn(done);
        return done;
      } catch (e) {
        console.warn('puzzle tries not sent:', e);
        return [];
      } finally {
        sending = null;
      }
    })();
  }
  return sending;
}

if (typeof window !== 'undefined') window.addEventListener('online', () => sendPuzzleAttempts());
