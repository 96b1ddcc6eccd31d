// A player's pyramid in SVG, to scale: stage 1 on its canvas, later stages on the half-offset
// lattice, painted bottom-up so what shows is the top surface scoring looks at. Optional
// layers: ghost placements (the legal slots of the domino in hand), the areas of a stage end,
// and the last domino placed.
import { h, s, clickable } from '../dom.js';
import { t } from '../i18n.js';
import { blockSvg, colourName, orient, patternDefs } from './pieces.js';
import { blockOrigin as sharedOrigin, fitViewBox, outline } from '../pyramid-drawing/drawing.js';
import { slotLayers } from '../pyramid-drawing/slots.js';

// Top-left corner, in quadrant units, of block (x, y) of stage `stage` (1–4).
function blockOrigin(player, stage, x, y) {
  return sharedOrigin(player.frame, stage, x, y);
}

// Top-left block of the scoring grid: the frame, or (while the engine has not fixed the frame
// yet) the origin it used for the blocks' quadrant numbers, read back from a stage-1 block.
function gridOrigin(player) {
  if (player.frame) return [player.frame.x, player.frame.y];
  const b = player.blocks.find((x) => x.stage === 1);
  return b ? [b.x - (b.quadrant % 10) / 2, b.y - Math.floor(b.quadrant / 10) / 2] : [0, 0];
}

// A scoring-grid quadrant (10 wide) in the same units.
function quadrantOrigin(origin, q) {
  return [2 * origin[0] + (q % 10), 2 * origin[1] + Math.floor(q / 10)];
}

function frameSize(f) {
  return f.wide ? [5, 4] : [4, 5];
}

export function pyramidSvg(player, opts = {}) {
  // Nothing to draw yet: say so instead of showing an empty board.
  if (!player.blocks.length && !(opts.ghosts && opts.ghosts.length)) {
    return h('p.hint.empty-pyramid', { 'data-testid': opts.testid }, t('pyramid.empty'));
  }
  const bounds = [];
  const layers = s('g');
  const svg = s('svg.pyramid', {
    role: 'group',
    'aria-label': opts.label || t('pyramid.label'),
    'data-testid': opts.testid,
  });
  svg.append(patternDefs());

  const f = player.frame;
  if (f) {
    const [w, h] = frameSize(f);
    bounds.push([2 * f.x, 2 * f.y, 2 * w, 2 * h]);
    layers.append(s('rect.frame', { x: 2 * f.x, y: 2 * f.y, width: 2 * w, height: 2 * h }));
    // The grid of the stage being built, when it is above the first.
    const stage = player.pyramid_stage;
    if (stage >= 2 && stage <= 4) {
      const [ox, oy] = blockOrigin(player, stage, 0, 0);
      layers.append(s('rect.stage-grid', { x: ox, y: oy, width: 2 * (w - stage + 1), height: 2 * (h - stage + 1) }));
    }
  }

  for (const b of player.blocks) {
    const [x, y] = blockOrigin(player, b.stage, b.x, b.y);
    bounds.push([x, y, 2, 2]);
    const g = blockSvg(b.block, x, y, { class: `stage-${b.stage}` });
    g.append(s('title', {}, t('pyramid.block', { stage: b.stage, colour: colourName(b.block.colour) })));
    layers.append(g);
  }

  if (player.last_placement && opts.highlightLast !== false) {
    const { stage } = player.last_placement;
    const cells = player.last_placement.cells.map(([x, y]) => blockOrigin(player, stage, x, y));
    const minX = Math.min(cells[0][0], cells[1][0]);
    const minY = Math.min(cells[0][1], cells[1][1]);
    layers.append(
      s('rect.last-placed', {
        x: minX,
        y: minY,
        width: Math.abs(cells[0][0] - cells[1][0]) + 2,
        height: Math.abs(cells[0][1] - cells[1][1]) + 2,
        'data-testid': 'last-placed',
      }),
    );
  }

  const origin = gridOrigin(player);
  for (const area of opts.areas || []) {
    const cells = area.cells.map((q) => quadrantOrigin(origin, q));
    const classes = ['area'];
    if (area.activation) classes.push('activated');
    if (opts.planned && opts.planned.has(area.name)) classes.push('planned');
    if (opts.best && opts.best.has(area.name)) classes.push('best');
    if (opts.selectedArea === area.name) classes.push('selected');
    const g = s('g', { class: classes.join(' '), 'data-area': area.name, 'data-testid': `area-${area.name}` });
    for (const [x, y] of cells) g.append(s('rect.area-cell', { x, y, width: 1, height: 1 }));
    g.append(s('path.area-outline', { d: outline(cells) }));
    const [lx, ly] = cells[0];
    g.append(s('circle.area-badge', { cx: lx + 0.5, cy: ly + 0.5, r: 0.42 }));
    g.append(s('text.area-count', { x: lx + 0.5, y: ly + 0.66, 'text-anchor': 'middle' }, `${area.icons}`));
    const label = t('scoring.area_label', { name: area.name, colour: colourName(area.colour), count: area.icons });
    g.append(s('title', {}, label));
    if (opts.onArea) clickable(g, () => opts.onArea(area), label);
    layers.append(g);
  }

  const ghosts = (opts.ghosts || []).map((ghost) => ({
    key: ghost.text,
    cells: ghost.cells.map(([x, y]) => blockOrigin(player, opts.stage, x, y)),
    blocks: opts.hand ? orient(opts.hand, ghost.dir) : null,
    selected: opts.selected === ghost.text,
    label: t('place.ghost_label', { move: `${String.fromCharCode(97 + ghost.x)}${ghost.y + 1} ${ghost.dir}` }),
    onPick: () => opts.onGhost(ghost),
  }));
  const [slots, previews] = slotLayers(ghosts, (block, x, y) => blockSvg(block, x, y, { class: 'preview' }), bounds);
  layers.append(slots);

  fitViewBox(svg, bounds, !!f);
  svg.append(layers, previews);
  return svg;
}
