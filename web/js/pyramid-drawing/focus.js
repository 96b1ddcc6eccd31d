// @ts-check
// After a move, the keyboard focus goes to the first control of the player's next decision
// (the first quarry tile, slot, marker button…), so a keyboard player never has to Tab back
// from the top of the page, and that control is scrolled into view when it is off screen or
// under the sticky clock bar and status line. `controls`: a CSS selector list; the first
// match in page order wins. Nothing moves when the focus is already on one of them, or while
// a dialog is open.
/** @param {string} controls */
export function focusNextDecision(controls) {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active.matches && active.matches(controls)) return;
    if (document.querySelector('dialog[open]')) return;
    const first = /** @type {HTMLElement | SVGElement | null} */ (document.querySelector(controls));
    if (!first) return;
    first.focus({ preventScroll: true });
    const head = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--table-head-h')) || 0;
    const r = first.getBoundingClientRect();
    // `nearest` honours the page's scroll padding (the sticky head's height, CSS).
    if (r.top < head || r.bottom > window.innerHeight) first.scrollIntoView({ block: 'nearest' });
  });
}
