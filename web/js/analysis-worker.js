// @ts-check
// A Web Worker that runs the judge of a finished game's record in the page (local analysis,
// web/js/local-analysis.js): a whole game's analysis takes seconds, which in the page would
// freeze the replay meanwhile. It answers the report (the same JSON the server's analysis
// serves), or a running game's open decision judged, or the engine's error code.
import { loadEngines } from './engine.js';

// A message with a `record` asks for that finished game's report; one with a `view` for the
// decision open in a running game, judged on a game rebuilt from the seat's view (the page
// never holds more).
self.onmessage = async (event) => {
  const { ask, record, view, game: key, seat, budget, seed } = event.data;
  try {
    const engines = await loadEngines();
    const game = view ? engines.fromView(key, view, seat, BigInt(seed)) : engines.fromRecord(record);
    try {
      const report = view ? { decision: game.judgeNow(budget, BigInt(seed)) } : game.analyse(budget, BigInt(seed));
      self.postMessage({ ask, report });
    } finally {
      game.free();
    }
  } catch (e) {
    self.postMessage({ ask, code: (e && e.code) || 'engine_error', message: String(e && e.message) });
  }
};
