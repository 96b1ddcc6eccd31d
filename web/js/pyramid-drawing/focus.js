// After a move, the keyboard focus goes to the first control of the player's next decision
// (the first quarry tile, slot, marker button…), so a keyboard player never has to Tab back
// from the top of the page. `controls`: a CSS selector list; the first match in page order
// wins. Nothing moves when focus is already on one of them, or while a dialog is open.
export function focusNextDecision(controls) {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active.matches && active.matches(controls)) return;
    if (document.querySelector('dialog[open]')) return;
    const first = document.querySelector(controls);
    if (first) first.focus({ preventScroll: true });
  });
}
