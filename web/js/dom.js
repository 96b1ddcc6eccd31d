// @ts-check
// Tiny DOM helpers: build elements declaratively, no framework and no build step.
const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An element's attributes: `on<event>` functions are listened to, `class` is added to the
 * spec's classes, `text` is the text content; `undefined`, `null` and `false` are left out,
 * `true` is an empty attribute and anything else its string.
 * @typedef {Record<string, any>} Attrs
 */

/**
 * What an element holds: nodes, text (numbers are written out), nested lists; `undefined`,
 * `null` and `false` are left out.
 * @typedef {Node | string | number | boolean | null | undefined | Children} Child
 * @typedef {Array<Child>} Children
 */

// h('button.primary', {onclick, 'data-move': m}, 'text', child…): tag with optional .classes.
/**
 * @param {string} spec
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(spec, attrs, ...children) {
  return build(document.createElement(tagOf(spec)), spec, attrs, children);
}

// Same for SVG elements.
/**
 * @param {string} spec
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(spec, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tagOf(spec)), spec, attrs, children);
}

/** @param {string} spec */
function tagOf(spec) {
  return spec.split('.')[0] || 'div';
}

/**
 * @template {Element} E
 * @param {E} el
 * @param {string} spec
 * @param {Attrs | null | undefined} attrs
 * @param {Child[]} children
 * @returns {E}
 */
function build(el, spec, attrs, children) {
  const classes = spec.split('.').slice(1);
  if (classes.length) el.setAttribute('class', classes.join(' '));
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'class') {
      el.setAttribute('class', [el.getAttribute('class'), v].filter(Boolean).join(' '));
    } else if (k === 'text') {
      el.textContent = v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// Replaces the children of `el`.
/**
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A press under way: a pointer down and not yet up. A table redrawn meanwhile by something
// else than the press (a state from the server, a preview worked out in the background)
// replaces the pressed element between press and release, and the browser then fires no
// click: the click is lost (a browser test lost a "Finish scoring" so, on a loaded machine,
// to the preview of the plan just chosen). `unlessPressed(draw)` puts such a redraw off until
// just after the release and its click; a press held longer than two seconds stops putting
// anything off.
let pressed = false;
let pressTimer = 0;
/** @type {Set<() => unknown>} */
const putOff = new Set();
const released = () => {
  pressed = false;
  clearTimeout(pressTimer);
  // After the release's click (dispatched in the same task as the release).
  setTimeout(() => {
    const draws = [...putOff];
    putOff.clear();
    for (const draw of draws) draw();
  }, 0);
};
if (typeof document !== 'undefined' && typeof document.addEventListener === 'function') {
  document.addEventListener(
    'pointerdown',
    () => {
      pressed = true;
      clearTimeout(pressTimer);
      pressTimer = setTimeout(released, 2000);
    },
    true,
  );
  document.addEventListener('pointerup', released, true);
  document.addEventListener('pointercancel', released, true);
}

/**
 * `draw`, put off while a press is under way (see above).
 * @template {() => unknown} D
 * @param {D} draw
 * @returns {() => void}
 */
export function unlessPressed(draw) {
  return () => {
    if (pressed) putOff.add(draw);
    else draw();
  };
}

// Makes an element act as a button for mouse, finger and keyboard (Enter / Space).
/**
 * @template {Element} E
 * @param {E} el
 * @param {(e: Event) => void} handler
 * @param {string} [label]
 * @returns {E}
 */
export function clickable(el, handler, label) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  if (label) el.setAttribute('aria-label', label);
  el.addEventListener('click', handler);
  el.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      handler(e);
    }
  });
  return el;
}

// Like `mount`, for a page redrawn in place: the keyboard focus goes back to the element that
// plays the same part in the new content (same `data-testid`, and same `data-move` or
// `data-key` when it has one), so redrawing never throws a keyboard user back to the top.
/**
 * @param {Element} el
 * @param {...Child} children
 * @returns {Element}
 */
export function remount(el, ...children) {
  const active = /** @type {HTMLElement | SVGElement | null} */ (document.activeElement);
  let again = null;
  if (active && active !== el && el.contains(active) && active.dataset && active.dataset.testid) {
    const attrs = ['testid', 'move', 'key'].filter((k) => active.dataset[k] !== undefined);
    const css = attrs.map((k) => `[data-${k}="${CSS.escape(active.dataset[k])}"]`).join('');
    const index = [...el.querySelectorAll(css)].indexOf(active);
    again = { css, index };
  }
  mount(el, ...children);
  if (again) {
    const matches = el.querySelectorAll(again.css);
    const next = /** @type {HTMLElement | SVGElement | undefined} */ (matches[Math.max(0, Math.min(again.index, matches.length - 1))]);
    if (next && typeof next.focus === 'function') next.focus({ preventScroll: true });
  }
  return el;
}

// A table's own stylesheet, next to its module (`stylesheet(new URL('./table.css',
// import.meta.url))`): added once, after web/style.css, whose shared rules it builds on.
/** @param {URL | string} url */
export function stylesheet(url) {
  const href = String(url);
  if ([.../** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll('link[rel=stylesheet]'))].some((l) => l.href === href)) return;
  document.head.append(h('link', { rel: 'stylesheet', href }));
}
