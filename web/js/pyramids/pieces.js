// @ts-check
// Pyramids pieces drawn in SVG: construction cards (stones with a colour AND a shape, the
// glyph), a necropolis' Pyramid on its stone grid with ghost places, Obelisk columns.
import { s } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @import { CardView, Colour } from '../wire/pyramids'
 * @typedef {import('./moves.js').PyramidMove} PyramidMove
 */

// The order the table lists colours in (the rulebook's; the view names them).
/** @type {Colour[]} */
export const COLOURS = ['blue', 'white', 'red', 'green', 'yellow'];
/** @type {Record<string, string>} */
const FILL = { blue: '#2f63c9', white: '#f3f0e4', red: '#c23b2a', green: '#2f8a3f', yellow: '#e3b92c' };
/** @type {Record<string, string>} */
const INK = { blue: '#fff', white: '#222', red: '#fff', green: '#fff', yellow: '#222' };

/** @param {string} c */
export const colourName = (c) => t(`py.colour.${c}`);
/** @param {string} g */
export const glyphName = (g) => t(`py.glyph.${g}`);

/**
 * @param {CardView} card
 * @returns {string}
 */
export function cardLabel(card) {
  const stones = card.stones.map((st) => colourName(st.colour)).join(', ');
  return card.glyph ? t('py.card_label_glyph', { stones, glyph: glyphName(card.glyph) }) : t('py.card_label', { stones });
}

// The shape each colour carries, so that colour is never the only cue.
/**
 * @param {string} colour
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {import('../dom.js').Attrs} [extra]
 * @returns {SVGElement}
 */
export function stoneShape(colour, cx, cy, r, extra = {}) {
  const attrs = { fill: INK[colour], ...extra };
  switch (colour) {
    case 'blue':
      return s('circle', { cx, cy, r: r * 0.8, ...attrs });
    case 'white':
      return s('rect', { x: cx - r * 0.7, y: cy - r * 0.7, width: r * 1.4, height: r * 1.4, ...attrs });
    case 'red':
      return s('path', { d: `M${cx},${cy - r} L${cx + r},${cy + r * 0.8} L${cx - r},${cy + r * 0.8} Z`, ...attrs });
    case 'green':
      return s('path', { d: `M${cx},${cy - r} L${cx + r},${cy} L${cx},${cy + r} L${cx - r},${cy} Z`, ...attrs });
    default: {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 ? r * 0.45 : r;
        pts.push(`${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`);
      }
      return s('polygon', { points: pts.join(' '), ...attrs });
    }
  }
}

// A small stone token (legend, obelisk columns, tomb counts).
/**
 * @param {string} colour
 * @param {number} [size]
 * @returns {SVGElement}
 */
export function stoneChip(colour, size = 18) {
  return s(
    'svg.stone-chip',
    { width: size, height: size, viewBox: '0 0 20 20', role: 'img', 'aria-label': colourName(colour) },
    s('rect', { x: 1, y: 1, width: 18, height: 18, rx: 3, fill: FILL[colour], stroke: '#333', 'stroke-width': 1 }),
    stoneShape(colour, 10, 10, 6),
  );
}

/**
 * @param {string} glyph
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function glyphShape(glyph, x, y, size) {
  const st = { fill: 'none', stroke: '#5b3b12', 'stroke-width': size * 0.12 };
  if (glyph === 'pyramid') return s('path', { d: `M${x},${y + size} L${x + size / 2},${y} L${x + size},${y + size} Z`, ...st });
  if (glyph === 'obelisk')
    return s('path', {
      d: `M${x + size * 0.35},${y + size} L${x + size * 0.38},${y + size * 0.2} L${x + size / 2},${y} L${x + size * 0.62},${y + size * 0.2} L${x + size * 0.65},${y + size} Z`,
      ...st,
    });
  return s('path', {
    d: `M${x + size * 0.1},${y + size} L${x + size * 0.1},${y + size * 0.45} A${size * 0.4},${size * 0.45} 0 0 1 ${x + size * 0.9},${y + size * 0.45} L${x + size * 0.9},${y + size} Z`,
    ...st,
  });
}

// The parts of a card at (x, y) in units of `u` px: the upper half (glyph), the stone strip.
/**
 * @param {CardView} card
 * @param {number} x
 * @param {number} y
 * @param {number} u
 * @param {{ ghost?: boolean }} [options]
 * @returns {SVGElement[]}
 */
function cardParts(card, x, y, u, { ghost = false } = {}) {
  const parts = [s('rect', { x, y, width: 6 * u, height: 2 * u, rx: u * 0.15, fill: '#e9d6a8', stroke: '#6d5320', 'stroke-width': 1, opacity: ghost ? 0.75 : 1 })];
  // The glyph says its name on hover (a tooltip): its shape alone is not self-explanatory.
  if (card.glyph) parts.push(s('g', { 'data-glyph': card.glyph }, s('title', {}, glyphName(card.glyph)), glyphShape(card.glyph, x + 0.3 * u, y + 0.15 * u, 0.7 * u)));
  for (const st of card.stones) {
    const sx = x + st.x0 * u;
    const w = (st.x1 - st.x0) * u;
    parts.push(s('rect', { x: sx + 1, y: y + u + 1, width: w - 2, height: u - 2, rx: 2, fill: FILL[st.colour], stroke: '#333', 'stroke-width': 0.8, 'data-colour': st.colour }));
    // The shape as large as the stone allows: it must stay readable on a 375 px screen.
    parts.push(stoneShape(st.colour, sx + w / 2, y + 1.5 * u, u * 0.4));
  }
  return parts;
}

// One card on its own (quarry, hand, tomb).
/**
 * @param {CardView} card
 * @param {number} [u]
 * @returns {SVGElement}
 */
export function cardSvg(card, u = 14) {
  return s(
    'svg.py-card',
    { width: 6 * u + 2, height: 2 * u + 2, viewBox: `-1 -1 ${6 * u + 2} ${2 * u + 2}`, role: 'img', 'aria-label': cardLabel(card), 'data-card': card.card },
    s('title', {}, cardLabel(card)),
    cardParts(card, 0, 0, u),
  );
}

// Where a card of row `row` at index `i` lies, in units (rows bottom a = 0 to top d = 3). The
// bottom row floats, so one card's width is kept free on its left for `a0`.
const cardX = (/** @type {number} */ row, /** @type {number} */ i) => 6 + 6 * i + 3 * row;
const cardY = (/** @type {number} */ row) => 3 - row;

// A Pyramid: rows bottom to top as the view lists them; `ghosts` = legal pyramid moves
// ({text, row, slot}); `preview` = the hand card to show in the selected ghost.
/**
 * @param {(CardView | null)[][]} rows
 * @param {{ unit?: number, testid?: string | null, label?: string, ghosts?: PyramidMove[], preview?: CardView | null, selected?: string | null, onGhost?: (move: PyramidMove) => void }} [opts]
 * @returns {SVGElement}
 */
export function pyramidSvg(rows, opts = {}) {
  const u = opts.unit || 12;
  // The drawing spans the full pyramid's footprint, and one card more on the left while a
  // ghost shows there (`a0`) or on the right of an incomplete bottom row.
  const ghostXs = (opts.ghosts || []).map((g) => cardX(g.row, g.slot - 1));
  const bottom = rows[0].filter(Boolean).length;
  const X0 = Math.min(6, ...ghostXs);
  const X1 = Math.max(30, cardX(0, bottom), ...ghostXs.map((x) => x + 6));
  const W = (X1 - X0) * u;
  const H = 5 * u;
  const children = [];
  for (let row = 0; row < 4; row++) {
    rows[row].forEach((card, i) => {
      if (card) children.push(s('g', { 'data-card': card.card, 'data-place': `${row}:${i}` }, cardParts(card, cardX(row, i) * u, cardY(row) * u, u)));
    });
    for (const g of (opts.ghosts || []).filter((m) => m.row === row)) {
      // `a0` goes left of the row; `a{k}` (k ≥ 1) and the upper rows' slots are 1-based.
      const i = g.slot - 1;
      const x = cardX(row, i) * u;
      const y = cardY(row) * u;
      const selected = opts.selected === g.text;
      const el = s(
        'g.ghost',
        { class: selected ? 'selected' : '', 'data-testid': 'ghost', 'data-move': g.text, tabindex: 0, role: 'button', 'aria-label': t('py.ghost_label', { place: g.place }) },
        s('rect', { x, y, width: 6 * u, height: 2 * u, rx: 3, fill: selected ? '#fff7d1' : 'rgba(255,255,255,0.35)', stroke: '#b07d00', 'stroke-width': 2, 'stroke-dasharray': '5 3' }),
        selected && opts.preview
          ? s('g.preview', { opacity: 0.85 }, cardParts(opts.preview, x, y, u, { ghost: true }))
          : s('text', { x: x + 3 * u, y: y + 1.3 * u, 'text-anchor': 'middle', 'font-size': u * 0.9, fill: '#7a5600' }, g.place),
      );
      const pick = (/** @type {Event} */ e) => {
        e.preventDefault();
        opts.onGhost(g);
      };
      el.addEventListener('click', pick);
      el.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') pick(e);
      });
      children.push(el);
    }
  }
  return s(
    'svg.py-pyramid',
    { viewBox: `${X0 * u} 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': opts.label || '', 'data-testid': opts.testid || null, preserveAspectRatio: 'xMidYMax meet' },
    s('line', { x1: X0 * u, y1: H - 0.5, x2: X1 * u, y2: H - 0.5, stroke: '#b39b6a' }),
    children,
  );
}
