// @ts-check
// The clock and the prompt never scroll away: on a live table the shell's clock bar and the
// table's status line (the prompt, the stage) stick to the top of the window while the rest
// scrolls. They are two siblings under the page root, so the status line sticks just under
// the clock bar, whose height (one line on a desktop, more on a phone) is measured here and
// kept in `--clockbar-h`; `--table-head-h` (both) lets a scrolled-to area stop under them.
// The game page measures it after every draw, whatever the game (a table the shell draws
// generically has the same head); a table drawn elsewhere (a tutorial) measures it itself.
const root = document.documentElement;
/** @type {Element[]} */
let watched = [];
const measure = () => {
  const bar = document.querySelector('#app > .clockbar');
  const status = document.querySelector('#app > .table-status');
  const barH = bar ? bar.getBoundingClientRect().height : 0;
  root.style.setProperty('--clockbar-h', `${Math.round(barH)}px`);
  root.style.setProperty('--table-head-h', `${Math.round(barH + (status ? status.getBoundingClientRect().height : 0))}px`);
};
const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;

// Called on every draw (the shell redraws the bar each time): watches the new elements.
export function watchTableHead() {
  requestAnimationFrame(() => {
    const now = [document.querySelector('#app > .clockbar'), document.querySelector('#app > .table-status')].filter(Boolean);
    if (observer && (now.length !== watched.length || now.some((el, i) => el !== watched[i]))) {
      observer.disconnect();
      now.forEach((el) => observer.observe(el));
      watched = now;
    }
    measure();
  });
}

// A new placing step shows the whole own area (pyramid, slots and buttons) under the sticky
// head (its `scroll-margin-top` is the head's height, CSS).
export function bringIntoView() {
  requestAnimationFrame(() => {
    const own = document.querySelector('[data-testid=own-area]');
    if (!own) return;
    measure();
    const head = parseFloat(getComputedStyle(root).getPropertyValue('--table-head-h')) || 0;
    const r = own.getBoundingClientRect();
    if (r.top < head - 1 || r.bottom > window.innerHeight) own.scrollIntoView({ block: 'start' });
  });
}
