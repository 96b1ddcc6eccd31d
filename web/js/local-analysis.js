// @ts-check
// Local analysis (issue 50, item 5): the judge run in the page, in a Web Worker
// (web/js/analysis-worker.js). A finished game's, when the player asks, when the server's
// analysis queue is full (429/503) or when the server cannot be reached: it reads the game's
// record, which the server publishes once the game is over (nothing is hidden then), and
// gives the report the server's analysis gives, with a smaller budget: the replay says it was
// computed in the browser, and with how many playouts per decision. A running game's open
// decision (position-analysis.js), which the server never analyses: judged from the seat's
// view alone, through the game's sampler.

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
  return ask({ record, budget, seed: 1 });
}

/**
 * Playouts for one decision of a running game judged in the page: as many as the judge of a
 * finished game's local report spends on a whole game's first decisions, a few seconds.
 */
export const POSITION_BUDGET = 2000;

/**
 * The decision open in a running game, judged in this page from the seat's view alone (the
 * game's sampler rebuilds a state; each of the judge's futures redraws what the view hides).
 * @param {string} game the game's key
 * @param {any} view the seat's view, as the server sent it
 * @param {number} seat
 * @param {number} [budget] playouts
 * @returns {Promise<any>} the decision (`best`, `best_move`, `best_points`, `candidates`, `samples`), or null
 */
export async function judgeInBrowser(game, view, seat, budget = POSITION_BUDGET) {
  const report = await ask({ game, view, seat, budget, seed: 1 });
  return report.decision;
}

/**
 * One question to the worker (started on the first).
 * @param {object} message
 * @returns {Promise<any>}
 */
function ask(message) {
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
  const number = ++asks;
  return new Promise((resolve, reject) => {
    waiting.set(number, { resolve, reject });
    /** @type {Worker} */ (worker).postMessage({ ask: number, ...message });
  });
}
