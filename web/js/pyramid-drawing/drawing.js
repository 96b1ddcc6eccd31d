// @ts-check
// Pyramid drawing shared by the Pyramido-family tables: blocks (hue + pattern + icons),
// dominoes, ghost placements and a player's pyramid seen from above, to scale. A game passes
// its palette: the colour names (CSS class `pc-<name>`, or its own prefix) and one pattern per
// colour, so colour is never the only cue. Blocks here are {colour: name, icons: quadrant mask}.
import { s, clickable, stylesheet } from '../dom.js';
import { slotLayers } from './slots.js';
import { t } from '../i18n.js';

// The drawing's styles and the layout both Pyramido games share (loaded once, before each
// table's own table.css).
stylesheet(new URL('./drawing.css', import.meta.url));

const NW = 1,
  NE = 2,
  SW = 4,
  SE = 8;
/** Each quadrant: its mask bit, its column and row in the block (0 or 1), its name. @type {[number, number, number, string][]} */
export const QUADRANTS = [
  [NW, 0, 0, 'nw'],
  [NE, 1, 0, 'ne'],
  [SW, 0, 1, 'sw'],
  [SE, 1, 1, 'se'],
];
/**
 * Where a domino's block B lies from its block A: east, south, west, north.
 * @typedef {'E' | 'S' | 'W' | 'N'} Dir
 */
/** The directions, a quarter clockwise each (a domino is drawn with B east of A). @type {Dir[]} */
export const DIRS = ['E', 'S', 'W', 'N'];

/**
 * A block to draw: its colour's name and the quadrants that carry an icon (a mask of
 * QUADRANTS' bits).
 * @typedef {{ colour: string, icons: number }} Block
 */

/**
 * A palette (see `palette`): the pattern ids' prefix, each colour's pattern, the colour class
 * prefix and the icon drawn on a block's iconed quadrants (null: a jewel).
 * @typedef {{ prefix: string, colours: Map<string, string>, cls: string, icon: ((block: Block, cx: number, cy: number) => SVGElement) | null }} Palette
 */

/**
 * Where stage 1 lies on its canvas (in blocks) and whether it is 5 wide and 4 high (`wide`)
 * or 4 wide and 5 high.
 * @typedef {{ x: number, y: number, wide?: boolean }} Frame
 */

// Pattern shapes on a 0.5 × 0.5 tile, by name.
/** @type {Record<string, () => SVGElement>} */
const PATTERNS = {
  dots: () => s('circle', { cx: 0.25, cy: 0.25, r: 0.07, class: 'pat' }),
  'fine-dots': () => s('circle', { cx: 0.25, cy: 0.25, r: 0.06, class: 'pat' }),
  horizontal: () => s('path', { d: 'M0 0.25 H0.5', class: 'pat' }),
  vertical: () => s('path', { d: 'M0.25 0 V0.5', class: 'pat' }),
  diagonal: () => s('path', { d: 'M0 0.5 L0.5 0', class: 'pat' }),
  cross: () => s('path', { d: 'M0 0 L0.5 0.5 M0.5 0 L0 0.5', class: 'pat' }),
  grid: () => s('path', { d: 'M0 0.25 H0.5 M0.25 0 V0.5', class: 'pat' }),
};

// A palette: `colours` = [[name, pattern], …]; `prefix` keeps its pattern ids apart.
// `opts`: {cls: the colour class prefix (default `pc-`), icon: (block, cx, cy) → the SVG
// element drawn on each iconed quadrant (default a jewel; Forgotten Treasures draws gems)}.
/**
 * @param {string} prefix
 * @param {[string, string][]} colours
 * @param {{ cls?: string, icon?: (block: Block, cx: number, cy: number) => SVGElement }} [opts]
 * @returns {Palette}
 */
export function palette(prefix, colours, opts = {}) {
  return { prefix, colours: new Map(colours), cls: opts.cls || 'pc-', icon: opts.icon || null };
}

// Quadrant names (["nw", "se"], or one name) → mask.
/**
 * @param {string | string[]} names
 * @returns {number}
 */
export function quadrantMask(names) {
  let m = 0;
  for (const word of Array.isArray(names) ? names : [names]) {
    const q = QUADRANTS.find((x) => x[3] === word);
    if (q) m |= q[0];
  }
  return m;
}

// Quadrant masks turned a quarter clockwise (nw→ne→se→sw→nw), as the engine does.
/**
 * @param {number} mask
 * @param {number} quarters
 * @returns {number}
 */
export function rotateIcons(mask, quarters) {
  let r = mask;
  for (let i = 0; i < ((quarters % 4) + 4) % 4; i++) {
    r = ((r & NW) << 1) | ((r & NE) << 2) | ((r & SE) >> 1) | ((r & SW) >> 2);
  }
  return r;
}

// A domino's two blocks as they lie in direction `dir` ([A, B]).
/**
 * @template {Block} B
 * @param {B[]} blocks
 * @param {Dir} dir
 * @returns {B[]}
 */
export function orient(blocks, dir) {
  const q = DIRS.indexOf(dir);
  return blocks.map((b) => ({ ...b, icons: rotateIcons(b.icons, q) }));
}

/** @param {Palette} pal */
export function patternDefs(pal) {
  const defs = s('defs');
  for (const [name, pattern] of pal.colours) {
    defs.append(s('pattern', { id: `${pal.prefix}-pat-${name}`, patternUnits: 'userSpaceOnUse', width: 0.5, height: 0.5 }, PATTERNS[pattern]()));
  }
  return defs;
}

// A jewel: a small diamond centred on (cx, cy).
/**
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 */
function jewel(cx, cy, r) {
  return s('polygon.jewel', { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` });
}

// One block with its top-left corner at (x, y), 2 units wide (a unit is one quadrant).
// `extra`: {class, marker (draw a jewel marker), card (draw a resurfacing-card border)}.
/**
 * @typedef {{ class?: string, marker?: boolean, card?: boolean }} BlockExtra
 */
/**
 * @param {Palette} pal
 * @param {Block} block
 * @param {number} x
 * @param {number} y
 * @param {BlockExtra} [extra]
 * @returns {SVGElement}
 */
export function blockSvg(pal, block, x, y, extra = {}) {
  const g = s('g', { class: `block ${pal.cls || 'pc-'}${block.colour} ${extra.class || ''}`, transform: `translate(${x} ${y})` });
  g.append(
    s('rect', { class: 'block-fill', x: 0.04, y: 0.04, width: 1.92, height: 1.92, rx: 0.12 }),
    s('rect', { class: 'block-pattern', x: 0.04, y: 0.04, width: 1.92, height: 1.92, rx: 0.12, fill: `url(#${pal.prefix}-pat-${block.colour})` }),
  );
  if (extra.card) g.append(s('rect.card-edge', { x: 0.16, y: 0.16, width: 1.68, height: 1.68, rx: 0.08 }));
  for (const [bit, qx, qy] of QUADRANTS) {
    if (block.icons & bit) g.append(pal.icon ? pal.icon(block, qx + 0.5, qy + 0.5) : jewel(qx + 0.5, qy + 0.5, 0.3));
  }
  if (extra.marker) {
    g.append(s('circle.marker', { cx: 1, cy: 1, r: 0.36 }), s('circle.marker-core', { cx: 1, cy: 1, r: 0.14 }));
  }
  return g;
}

// A domino lying east-west (A west, B east), as an SVG element `width` pixels wide.
/**
 * @param {Palette} pal
 * @param {Block[]} blocks
 * @param {number} width
 * @param {string} [label]
 * @returns {SVGElement}
 */
export function dominoSvg(pal, blocks, width, label) {
  return s(
    'svg.domino',
    { viewBox: '-0.1 -0.1 4.2 2.2', width, height: (width * 2.2) / 4.2, role: 'img', 'aria-label': label },
    label ? s('title', {}, label) : null,
    patternDefs(pal),
    blockSvg(pal, blocks[0], 0, 0),
    blockSvg(pal, blocks[1], 2, 0),
  );
}

// A single block as a small picture (previews of resurfacing choices).
// `extra` as for blockSvg (default: drawn as a resurfacing card's side).
/**
 * @param {Palette} pal
 * @param {Block} block
 * @param {number} width
 * @param {string} label
 * @param {BlockExtra} [extra]
 * @returns {SVGElement}
 */
export function blockPicture(pal, block, width, label, extra = { card: true }) {
  return s('svg.block-pic', { viewBox: '-0.1 -0.1 2.2 2.2', width, height: width, role: 'img', 'aria-label': label }, patternDefs(pal), blockSvg(pal, block, 0, 0, extra));
}

// Top-left corner, in quadrant units, of block (x, y) of stage `stage` (1–4): stage 1 on its
// canvas, later stages on the half-offset lattice over the stage-1 frame.
/**
 * @param {Frame | null | undefined} frame
 * @param {number} stage
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
export function blockOrigin(frame, stage, x, y) {
  if (stage === 1 || !frame) return [2 * x, 2 * y];
  return [2 * (frame.x + x) + stage - 1, 2 * (frame.y + y) + stage - 1];
}

/** @param {[number, number][]} cells */
function span(cells) {
  const minX = Math.min(...cells.map((c) => c[0]));
  const minY = Math.min(...cells.map((c) => c[1]));
  const maxX = Math.max(...cells.map((c) => c[0]));
  const maxY = Math.max(...cells.map((c) => c[1]));
  return { x: minX, y: minY, width: maxX - minX + 2, height: maxY - minY + 2 };
}

// The outline of a set of unit squares: every side not shared with another square of the set.
/**
 * @param {[number, number][]} cells
 * @returns {string}
 */
export function outline(cells) {
  const set = new Set(cells.map(([x, y]) => `${x},${y}`));
  let d = '';
  for (const [x, y] of cells) {
    if (!set.has(`${x},${y - 1}`)) d += `M${x} ${y}h1`;
    if (!set.has(`${x},${y + 1}`)) d += `M${x} ${y + 1}h1`;
    if (!set.has(`${x - 1},${y}`)) d += `M${x} ${y}v1`;
    if (!set.has(`${x + 1},${y}`)) d += `M${x + 1} ${y}v1`;
  }
  return d;
}

// A pyramid seen from above. `blocks`: [{stage, x, y, block, card, marker, title}] bottom-up;
// opts: {frame, stage (being built), label, testid, last: [i, j] (indices of the last domino),
// lastCells: {stage, cells: [[x, y], [x, y]]} (the last domino by its blocks, instead of `last`),
// ghosts: [{key, cells, blocks (oriented, A first), selected, dooms, label, onPick}] (see slots.js),
// targets: [{key, stage, x, y, label, testid, selected, onPick}] (blocks or holes to choose),
// areas: [{cells: [[x, y]] in quadrant units, count, label, testid, class, name (data-area),
// shaded (each cell drawn, for the class to fill), onPick}] (outlined, with their count)}.
/**
 * @typedef {{ stage: number, x: number, y: number, block: Block, card?: boolean, marker?: boolean, title?: string }} PlacedBlock
 * @typedef {{ key: string, stage: number, x: number, y: number, label: string, testid?: string, selected?: boolean, onPick?: (e: Event) => void }} Target
 * @typedef {{ cells: [number, number][], count: number, label: string, testid?: string, class?: string, name?: string, shaded?: boolean, onPick?: (e: Event) => void }} Area
 * @typedef {{
 *   frame?: Frame | null,
 *   stage?: number,
 *   label?: string,
 *   testid?: string,
 *   last?: number[] | null,
 *   lastCells?: { stage: number, cells: [number, number][] } | null,
 *   ghosts?: import('./slots.js').Ghost[],
 *   targets?: Target[],
 *   areas?: Area[],
 * }} PyramidOptions
 */
/**
 * @param {Palette} pal
 * @param {PlacedBlock[]} blocks
 * @param {PyramidOptions} [opts]
 * @returns {SVGElement}
 */
export function pyramidSvg(pal, blocks, opts = {}) {
  /** @type {import('./slots.js').Bounds} */
  const bounds = [];
  const layers = s('g');
  const svg = s('svg.pyramid', { role: 'group', 'aria-label': opts.label, 'data-testid': opts.testid });
  svg.append(patternDefs(pal));
  const f = opts.frame;
  if (f) {
    const [w, hgt] = f.wide ? [5, 4] : [4, 5];
    bounds.push([2 * f.x, 2 * f.y, 2 * w, 2 * hgt]);
    layers.append(s('rect.frame', { x: 2 * f.x, y: 2 * f.y, width: 2 * w, height: 2 * hgt }));
    const st = opts.stage;
    if (st >= 2 && st <= 4) {
      const [ox, oy] = blockOrigin(f, st, 0, 0);
      layers.append(s('rect.stage-grid', { x: ox, y: oy, width: 2 * (w - st + 1), height: 2 * (hgt - st + 1) }));
    }
  }
  for (const b of blocks) {
    const [x, y] = blockOrigin(f, b.stage, b.x, b.y);
    bounds.push([x, y, 2, 2]);
    const g = blockSvg(pal, b.block, x, y, { class: `stage-${b.stage}`, marker: b.marker, card: b.card });
    if (b.title) g.append(s('title', {}, b.title));
    layers.append(g);
  }
  const lastCells = opts.lastCells
    ? opts.lastCells.cells.map(([x, y]) => blockOrigin(f, opts.lastCells.stage, x, y))
    : (opts.last || [])
        .map((i) => blocks[i])
        .filter(Boolean)
        .map((b) => blockOrigin(f, b.stage, b.x, b.y));
  if (lastCells.length === 2) layers.append(s('rect.last-placed', { ...span(lastCells), 'data-testid': 'last-placed' }));
  for (const area of opts.areas || []) {
    const g = s('g', { class: `area${area.class ? ` ${area.class}` : ''}`, 'data-area': area.name, 'data-testid': area.testid || 'live-area' });
    if (area.shaded) for (const [x, y] of area.cells) g.append(s('rect.area-cell', { x, y, width: 1, height: 1 }));
    g.append(s('path.area-outline', { d: outline(area.cells) }));
    const [lx, ly] = area.cells[0];
    g.append(s('circle.area-badge', { cx: lx + 0.5, cy: ly + 0.5, r: 0.42 }), s('text.area-count', { x: lx + 0.5, y: ly + 0.66, 'text-anchor': 'middle' }, `${area.count}`));
    g.append(s('title', {}, area.label));
    if (area.onPick) clickable(g, area.onPick, area.label);
    layers.append(g);
  }
  for (const tg of opts.targets || []) {
    const [x, y] = blockOrigin(f, tg.stage, tg.x, tg.y);
    bounds.push([x, y, 2, 2]);
    const g = s('g', { class: `target${tg.selected ? ' selected' : ''}`, 'data-testid': tg.testid, 'data-key': tg.key });
    g.append(s('rect.target-outline', { x: x + 0.1, y: y + 0.1, width: 1.8, height: 1.8, rx: 0.15 }));
    if (tg.onPick) clickable(g, tg.onPick, tg.label);
    g.append(s('title', {}, tg.label));
    layers.append(g);
  }
  const ghosts = (opts.ghosts || []).map((gh) => ({ ...gh, cells: gh.cells.map(([x, y]) => blockOrigin(f, opts.stage, x, y)) }));
  const [slots, previews] = slotLayers(ghosts, (b, x, y) => blockSvg(pal, b, x, y, { class: 'preview' }), bounds);
  layers.append(slots, previews);
  fitViewBox(svg, bounds, !!f);
  svg.append(layers);
  return svg;
}

// Sets a pyramid drawing's view box around `bounds` ([x, y, w, h] of everything drawn),
// padded; an empty stage 1 shows the space around e5, and before stage 1's frame is known
// there is room for a whole 5×4 / 4×5 stage around the blocks. Both Pyramido games use it.
/**
 * @param {SVGElement} svg
 * @param {import('./slots.js').Bounds} bounds
 * @param {boolean} framed
 */
export function fitViewBox(svg, bounds, framed) {
  if (!bounds.length) bounds.push([6, 6, 6, 6]);
  let x0 = Math.min(...bounds.map((b) => b[0]));
  let y0 = Math.min(...bounds.map((b) => b[1]));
  let x1 = Math.max(...bounds.map((b) => b[0] + b[2]));
  let y1 = Math.max(...bounds.map((b) => b[1] + b[3]));
  const min = framed ? 0 : 12;
  if (x1 - x0 < min) [x0, x1] = [(x0 + x1) / 2 - min / 2, (x0 + x1) / 2 + min / 2];
  if (y1 - y0 < min) [y0, y1] = [(y0 + y1) / 2 - min / 2, (y0 + y1) / 2 + min / 2];
  const pad = 0.5;
  svg.setAttribute('viewBox', `${x0 - pad} ${y0 - pad} ${x1 - x0 + 2 * pad} ${y1 - y0 + 2 * pad}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
}

/**
 * The title of `seat`'s pyramid: "Your pyramid" for the reader's own seat (never "Pyramid of
 * You", "Pyramide de Vous": issue 46 item 8), else "Pyramid of {name}".
 * @param {any} ctx the table's context (`state.seat`: the reader's seat; `replay`: a replay,
 *   where no seat is the reader's unless `readerSeat` says so, as a puzzle's explanation does)
 * @param {number} seat
 * @returns {string}
 */
export function pyramidTitle(ctx, seat) {
  const own = ctx.replay ? ctx.readerSeat : ctx.state && ctx.state.seat;
  return own === seat ? t('table.your_pyramid') : t('table.pyramid_of', { name: ctx.seatName(seat) });
}
