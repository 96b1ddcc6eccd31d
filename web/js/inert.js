// @ts-check
// A replay's board is a picture of the game, not a table to play at. The games' tables draw
// their move controls there as on a live table (take, rotate, place here, pass…), and at a
// flagged decision the analysis's two moves as choices; the replay makes every one of them
// inert: disabled (and said so), and a click on the table stops there. Only the controls that
// change the view (enlarging a player's pyramid, and closing it) stay live.

/** The controls a replay keeps: they change what is shown, never the game. */
export const VIEW_CONTROLS = '[data-testid=enlarge], [data-testid=shrink]';

const CONTROLS = 'button, input, select, textarea';

/**
 * The elements drawn by a table (one, several, nested lists; nulls and text skipped).
 * @param {any} drawn
 * @returns {any[]}
 */
const elements = (drawn) => (Array.isArray(drawn) ? drawn.flat(Infinity) : [drawn]).filter((n) => n && typeof n.querySelectorAll === 'function');

/**
 * Disables every control a table drew but those of the view, and stops clicks on anything
 * else it drew (slots, ghost placements, cards with a click handler).
 * @param {any} drawn what the table's renderer returned
 * @returns {number} the controls disabled
 */
export function makeInert(drawn) {
  let disabled = 0;
  for (const root of elements(drawn)) {
    const controls = [...(root.matches(CONTROLS) ? [root] : []), ...root.querySelectorAll(CONTROLS)];
    for (const el of controls) {
      if (el.matches(VIEW_CONTROLS)) continue;
      el.disabled = true;
      el.setAttribute('aria-disabled', 'true');
      disabled += 1;
    }
    root.addEventListener(
      'click',
      (/** @type {Event} */ e) => {
        const target = /** @type {any} */ (e.target);
        if (target && typeof target.closest === 'function' && target.closest(VIEW_CONTROLS)) return;
        e.stopPropagation();
        e.preventDefault();
      },
      true,
    );
  }
  return disabled;
}
