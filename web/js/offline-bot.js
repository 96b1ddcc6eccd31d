// @ts-check
// A Web Worker that plays the bots' moves of an offline game (web/js/offline.js): a strong
// level thinks for a second or more, which in the page would freeze the table meanwhile. It
// rebuilds the game from its record each time (a few milliseconds) and answers the move's
// text, or the engine's error code.
import { loadEngines } from './engine.js';

self.onmessage = async (event) => {
  const { ask, record, level, seed } = event.data;
  try {
    const engines = await loadEngines();
    const game = engines.fromRecord(record);
    try {
      self.postMessage({ ask, move: game.botMove(level, BigInt(seed)) });
    } finally {
      game.free();
    }
  } catch (e) {
    self.postMessage({ ask, code: (e && e.code) || 'engine_error', message: String(e && e.message) });
  }
};
