// @ts-check
// A Web Worker that runs the judge of a finished game's record in the page (local analysis,
// web/js/local-analysis.js): a whole game's analysis takes seconds, which in the page would
// freeze the replay meanwhile. It answers the report (the same JSON the server's analysis
// serves) or the engine's error code.
import { loadEngines } from './engine.js';

self.onmessage = async (event) => {
  const { ask, record, budget, seed } = event.data;
  try {
    const engines = await loadEngines();
    const game = engines.fromRecord(record);
    try {
      self.postMessage({ ask, report: game.analyse(budget, BigInt(seed)) });
    } finally {
      game.free();
    }
  } catch (e) {
    self.postMessage({ ask, code: (e && e.code) || 'engine_error', message: String(e && e.message) });
  }
};
