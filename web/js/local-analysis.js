// @ts-check
// Local analysis (issue 50, item 5): the judge run in the page, in a Web Worker
// (web/js/analysis-worker.js), when the player asks, when the server's analysis queue is full
// (429/503) or when the server cannot be reached. It reads the game's record, which the
// server publishes once the game is over (nothing is hidden then), and gives the report the
// server's analysis gives, with a smaller budget: the replay says it was computed in the
// browser, and with how many playouts per decision.

/** Playouts per decision in the page: a whole game of the longest in about ten seconds. */
export const LOCAL_BUDGET = 100;

/** @type {Worker | null} */
let worker = null;
let asks = 0;
/** @type {Map<number, {resolve: (report: any) => void, reject: (e: Error) => void}>} */
const waiting = new Map();

/**
 * A finished game's record as the server writes it (JSON text), kept as text: its seed is a
 * 64-bit number that a JavaScript number would round, and the record would then replay
 * another deal.
 * @param {string} id the game's id
 * @returns {Promise<string>}
 */
export async function recordText(id) {
  const res = await fetch(`/api/games/${id}/record?format=json`, { credentials: 'same-origin' });
  if (!res.ok) throw Object.assign(new Error(`record: ${res.status}`), { code: 'network', status: res.status });
  return res.text();
}

/**
 * The analysis of a finished game's record, computed in this page.
 * @param {string} record the record's JSON text (`recordText`)
 * @param {number} [budget] playouts per decision
 * @returns {Promise<any>} the report, as the server's analysis serves it
 */
export function analyseInBrowser(record, budget = LOCAL_BUDGET) {
  if (!worker) {
    worker = new Worker(new URL('./analysis-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      const { ask, report, code, message } = event.data;
      const asked = waiting.get(ask);
      waiting.delete(ask);
      if (!asked) return;
      if (report) asked.resolve(report);
      else asked.reject(Object.assign(new Error(message), { code }));
    };
  }
  const ask = ++asks;
  return new Promise((resolve, reject) => {
    waiting.set(ask, { resolve, reject });
    worker.postMessage({ ask, record, budget, seed: 1 });
  });
}
