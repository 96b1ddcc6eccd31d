// Forgotten Treasures pieces drawn in SVG: blocks (colour + pattern + gem icons), dominoes,
// domino backs and gems. Colour is never the only cue: every colour has its own block
// pattern and gem shape, and every piece carries a text label.
import { s } from '../dom.js';
import { t } from '../i18n.js';
import { DIRS, QUADRANTS as SHARED_QUADRANTS, orient, rotateIcons } from '../pyramid-drawing/drawing.js';

export const COLOURS = ['orange', 'blue', 'purple', 'green', 'red'];
export const GEMS = [...COLOURS, 'mythical'];
// Quadrants, orientations, icon turning and a domino's blocks as they lie are the shared
// pyramid drawing's.
export { DIRS, orient, rotateIcons };
export const QUADRANTS = SHARED_QUADRANTS.map(([bit, x, y]) => [bit, x, y]);

export function colourName(c) {
  return t(`colour.${COLOURS[c]}`);
}

export function gemName(g) {
  return t(`gem.${GEMS[g]}`);
}

// Gem outline centred on (cx, cy) with radius r: one shape per gem kind.
function gemPath(kind, cx, cy, r) {
  const poly = (n, rot) =>
    Array.from({ length: n }, (_, i) => {
      const a = rot + (i * 2 * Math.PI) / n;
      return `${(cx + r * Math.cos(a)).toFixed(3)},${(cy + r * Math.sin(a)).toFixed(3)}`;
    }).join(' ');
  switch (GEMS[kind]) {
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

export function gemIcon(kind, cx, cy, r) {
  const el = gemPath(kind, cx, cy, r);
  el.setAttribute('class', `gem gem-${GEMS[kind]}`);
  return el;
}

// A standalone gem picture for HTML (chips, inventories).
export function gemSvg(kind, size = 18) {
  return s(
    'svg.gem-svg',
    { viewBox: '0 0 2 2', width: size, height: size, 'aria-hidden': 'true' },
    gemIcon(kind, 1, 1, 0.9),
  );
}

// SVG pattern definitions for the five block colours (put once in each SVG that draws blocks).
export function patternDefs() {
  const p = (id, ...children) =>
    s('pattern', { id, patternUnits: 'userSpaceOnUse', width: 0.5, height: 0.5 }, ...children);
  return s(
    'defs',
    {},
    p('pat-orange', s('circle', { cx: 0.25, cy: 0.25, r: 0.06, class: 'pat' })),
    p('pat-blue', s('path', { d: 'M0 0.25 H0.5', class: 'pat' })),
    p('pat-purple', s('path', { d: 'M0 0 L0.5 0.5 M0.5 0 L0 0.5', class: 'pat' })),
    p('pat-green', s('path', { d: 'M0 0.5 L0.5 0', class: 'pat' })),
    p('pat-red', s('path', { d: 'M0.25 0 V0.5', class: 'pat' })),
  );
}

// One block whose top-left corner is (x, y), 2 units wide (a unit is one quadrant).
export function blockSvg(block, x, y, extra = {}) {
  const name = COLOURS[block.colour];
  const g = s('g', { class: `block c-${name} ${extra.class || ''}`, transform: `translate(${x} ${y})` });
  g.append(
    s('rect', { class: 'block-fill', x: 0.04, y: 0.04, width: 1.92, height: 1.92, rx: 0.12 }),
    s('rect', { class: 'block-pattern', x: 0.04, y: 0.04, width: 1.92, height: 1.92, rx: 0.12, fill: `url(#pat-${name})` }),
  );
  for (const [bit, qx, qy] of QUADRANTS) {
    if (block.icons & bit) g.append(gemIcon(block.colour, qx + 0.5, qy + 0.5, 0.34));
  }
  return g;
}

// A domino lying east-west (A west, B east), 4×2 units, as an SVG element of `width` pixels.
export function dominoSvg(blocks, width = 64, label) {
  return s(
    'svg.domino',
    { viewBox: '-0.1 -0.1 4.2 2.2', width, height: (width * 2.2) / 4.2, role: 'img', 'aria-label': label || dominoLabel(blocks) },
    // A tooltip naming the colours and gems (the glyphs' meaning) on hover.
    s('title', {}, label || dominoLabel(blocks)),
    patternDefs(),
    blockSvg(blocks[0], 0, 0),
    blockSvg(blocks[1], 2, 0),
  );
}

export function dominoLabel(blocks) {
  return blocks
    .map((b) => t('piece.block', { colour: colourName(b.colour), count: popcount(b.icons) }))
    .join(' | ');
}

// The back of a face-down domino: colours and icon counts, positions unknown.
export function backSvg(back, width = 64) {
  const label = back.map((b) => t('piece.block', { colour: colourName(b.colour), count: b.icons })).join(' | ');
  const svg = s('svg.domino.back', { viewBox: '-0.1 -0.1 4.2 2.2', width, height: (width * 2.2) / 4.2, role: 'img', 'aria-label': t('piece.back', { blocks: label }) }, s('title', {}, t('piece.back', { blocks: label })), patternDefs());
  back.forEach((b, i) => {
    const g = blockSvg({ colour: b.colour, icons: 0 }, i * 2, 0, { class: 'face-down' });
    g.append(s('text', { x: 1, y: 1.3, class: 'icon-count', 'text-anchor': 'middle' }, `${b.icons}`));
    svg.append(g);
  });
  return svg;
}

export function popcount(m) {
  let n = 0;
  for (let b = m; b; b &= b - 1) n++;
  return n;
}
