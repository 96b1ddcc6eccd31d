// @ts-check
// Instant previews at the table (issue 50, item 4): what a choice would give, computed in the
// page by the engines' module before anything is sent, the server staying the authority for
// every move it acknowledges. The page holds only its seat's view; the game is rebuilt from
// that view by the game's sampler (what the view hides drawn at random), never from a state
// the server did not send. The shell names no game: a table asks `ctx.preview(moves)` and
// reads the view after them as it reads any view of its own game.
import { loadEngines } from './engine.js';

/**
 * A previewer for one game page: `after(state, moves, redraw)` answers the seat's view after
 * `moves` from the state `state` (the socket's: `state_id`, `seat`, `view`) when it is known,
 * `null` while it is being computed (then `redraw` is called once it is), and `null` for
 * good where the game has no sampler or the engines cannot be loaded (no preview is shown).
 * @param {string} game the game's key
 */
export function previewer(game) {
  /** @type {Map<string, any>} */
  const known = new Map();
  /** @type {number | string | null} */
  let forState = null;
  let unavailable = false;
  /** @type {Promise<import('./engine.js').Engines> | null} */
  let engines = null;

  /**
   * @param {{state_id: number | string, seat: number | null, view: any}} state
   * @param {string[]} moves
   * @param {() => void} redraw
   */
  const after = (state, moves, redraw) => {
    if (unavailable || state.seat === null || state.seat === undefined) return null;
    if (forState !== state.state_id) {
      forState = state.state_id;
      known.clear();
    }
    const key = JSON.stringify(moves);
    if (known.has(key)) return known.get(key);
    known.set(key, null);
    if (!engines) engines = loadEngines();
    engines
      .then((e) => {
        if (!e.samplesViews(game)) {
          unavailable = true;
          return;
        }
        if (forState !== state.state_id) return;
        // Any sample will do: a preview shows what the seat's own choice gives, which the
        // hidden parts do not change (a fixed seed keeps it the same on every redraw). The
        // moves are played on a game rebuilt for this preview alone.
        const rebuilt = e.fromView(game, state.view, state.seat, 1n);
        try {
          for (const m of moves) rebuilt.play(m);
          known.set(key, rebuilt.view(state.seat));
        } finally {
          rebuilt.free();
        }
        redraw();
      })
      .catch((err) => {
        // A preview is a help, never a condition of play: without one the table is as before.
        console.warn('no preview:', err && err.code, err && err.message);
        unavailable = true;
      });
    return null;
  };
  return { after };
}
