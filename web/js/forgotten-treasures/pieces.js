// @ts-check
// Forgotten Treasures pieces drawn in SVG: its palette for the shared pyramid drawing
// (web/js/pyramid-drawing/drawing.js: blocks, dominoes), domino backs and gems. Colour is never the only cue: every colour has its own block
// pattern and gem shape, and every piece carries a text label.
import { s } from '../dom.js';
import { t } from '../i18n.js';
import { blockSvg, dominoSvg as sharedDominoSvg, palette, patternDefs } from '../pyramid-drawing/drawing.js';

/**
 * @import { ColouredBlock, BackBlock, Colour, Gem } from '../wire/forgotten-treasures'
 */

// The order the table lists colours and gems in (the view names them; it has no order).
/** @type {Colour[]} */
export const COLOURS = ['orange', 'blue', 'purple', 'green', 'red'];
/** @type {Gem[]} */
export const GEMS = [...COLOURS, 'mythical'];

/**
 * @param {Colour} c
 * @returns {string}
 */
export function colourName(c) {
  return t(`colour.${c}`);
}

/**
 * @param {Gem} g
 * @returns {string}
 */
export function gemName(g) {
  return t(`gem.${g}`);
}

// Gem outline centred on (cx, cy) with radius r: one shape per gem kind.
/**
 * @param {Gem} kind
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @returns {SVGElement}
 */
function gemPath(kind, cx, cy, r) {
  const poly = (/** @type {number} */ n, /** @type {number} */ rot) =>
    Array.from({ length: n }, (_, i) => {
      const a = rot + (i * 2 * Math.PI) / n;
      return `${(cx + r * Math.cos(a)).toFixed(3)},${(cy + r * Math.sin(a)).toFixed(3)}`;
    }).join(' ');
  switch (kind) {
    case 'orange':
      return s('circle', { cx, cy, r: r * 0.85 });
    case 'blue':
      return s('polygon', { points: poly(4, -Math.PI / 2) });
    case 'purple':
      return s('polygon', { points: poly(3, -Math.PI / 2) });
    case 'green':
      return s('polygon', { points: poly(6, 0) });
    case 'red':
      return s('rect', { x: cx - r * 0.72, y: cy - r * 0.72, width: r * 1.44, height: r * 1.44 });
    default: {
      // Mythical: a five-pointed star.
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 ? r * 0.45 : r;
        pts.push(`${(cx + rr * Math.cos(a)).toFixed(3)},${(cy + rr * Math.sin(a)).toFixed(3)}`);
      }
      return s('polygon', { points: pts.join(' ') });
    }
  }
}

/**
 * @param {Gem} kind
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @returns {SVGElement}
 */
export function gemIcon(kind, cx, cy, r) {
  const el = gemPath(kind, cx, cy, r);
  el.setAttribute('class', `gem gem-${kind}`);
  return el;
}

// A standalone gem picture for HTML (chips, inventories).
/**
 * @param {Gem} kind
 * @param {number} [size]
 * @returns {SVGElement}
 */
export function gemSvg(kind, size = 18) {
  return s('svg.gem-svg', { viewBox: '0 0 2 2', width: size, height: size, 'aria-hidden': 'true' }, gemIcon(kind, 1, 1, 0.9));
}

// The blocks' palette for the shared pyramid drawing: one pattern per colour, the colour's gem
// on each iconed quadrant, classes `c-<colour>`.
export const PALETTE = palette(
  'ft',
  [
    ['orange', 'fine-dots'],
    ['blue', 'horizontal'],
    ['purple', 'cross'],
    ['green', 'diagonal'],
    ['red', 'vertical'],
  ],
  // The drawing passes back a block of this table's (a Colour): a gem of that colour.
  { cls: 'c-', icon: (block, cx, cy) => gemIcon(/** @type {Colour} */ (block.colour), cx, cy, 0.34) },
);

// A domino lying east-west (A west, B east), 4×2 units, as an SVG element of `width` pixels.
/**
 * @param {ColouredBlock[]} blocks
 * @param {number} [width]
 * @param {string} [label]
 * @returns {SVGElement}
 */
export function dominoSvg(blocks, width = 64, label) {
  // A tooltip naming the colours and gems (the glyphs' meaning) on hover.
  return sharedDominoSvg(PALETTE, blocks, width, label || dominoLabel(blocks));
}

/**
 * @param {ColouredBlock[]} blocks
 * @returns {string}
 */
export function dominoLabel(blocks) {
  return blocks.map((b) => t('piece.block', { colour: colourName(b.colour), count: popcount(b.icons) })).join(' | ');
}

// The back of a face-down domino: colours and icon counts, positions unknown.
/**
 * @param {BackBlock[]} back each block's colour and number of icons
 * @param {number} [width]
 * @returns {SVGElement}
 */
export function backSvg(back, width = 64) {
  const label = back.map((b) => t('piece.block', { colour: colourName(b.colour), count: b.icons })).join(' | ');
  const svg = s(
    'svg.domino.back',
    { viewBox: '-0.1 -0.1 4.2 2.2', width, height: (width * 2.2) / 4.2, role: 'img', 'aria-label': t('piece.back', { blocks: label }) },
    s('title', {}, t('piece.back', { blocks: label })),
    patternDefs(PALETTE),
  );
  back.forEach((b, i) => {
    const g = blockSvg(PALETTE, { colour: b.colour, icons: 0 }, i * 2, 0, { class: 'face-down' });
    g.append(s('text', { x: 1, y: 1.3, class: 'icon-count', 'text-anchor': 'middle' }, `${b.icons}`));
    svg.append(g);
  });
  return svg;
}

/**
 * @param {number} m
 * @returns {number}
 */
export function popcount(m) {
  let n = 0;
  for (let b = m; b; b &= b - 1) n++;
  return n;
}
