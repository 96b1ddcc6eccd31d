// @ts-check
// The legal slots of the domino in hand on a pyramid drawing, shared by both Pyramido games.
// On an upper stage the slots of one orientation overlap each other (each covers two cells,
// and a cell is in up to four slots), so dominoes drawn for every slot make an unreadable
// mesh. Here a slot is one marker on block A's cell (an outline and a dot with a tick towards
// block B), and that cell is also its hit area: in one orientation block A's cell names the
// slot, so hit areas never overlap. The domino itself is drawn on hover, focus and selection,
// above every marker and without catching the pointer.
import { s, clickable } from '../dom.js';

// `ghosts`: [{key, cells: [[x, y], [x, y]] (quadrant units, A first), blocks (oriented, A
// first; null: no preview), selected, dooms, label, onPick}]; `drawBlock(block, x, y)` draws a
// preview block. Returns the markers' layer and the previews' layer (to append above it) and
// pushes what they cover onto `bounds`.
/**
 * A legal slot to draw: its key (the move's text), its two cells (quadrant units, A first),
 * its two blocks as they would lie (A first; null: no preview), whether it is selected, whether
 * it dooms the player, its label and what a pick does.
 * @typedef {{ key: string, cells: [number, number][], blocks?: import('./drawing.js').Block[] | null, selected?: boolean, dooms?: boolean, label: string, onPick: (e: Event) => void }} Ghost
 */
/**
 * What a drawing covers: [x, y, width, height] boxes in quadrant units.
 * @typedef {[number, number, number, number][]} Bounds
 */
/**
 * @param {Ghost[]} ghosts
 * @param {(block: import('./drawing.js').Block, x: number, y: number) => SVGElement} drawBlock
 * @param {Bounds} bounds
 * @returns {[SVGElement, SVGElement]}
 */
export function slotLayers(ghosts, drawBlock, bounds) {
  const markers = s('g.slots');
  const previews = s('g.ghost-previews');
  let selectedGroup = null;
  for (const gh of ghosts) {
    const [[ax, ay], [bx, by]] = gh.cells;
    bounds.push([ax, ay, 2, 2], [bx, by, 2, 2]);
    const g = s('g', {
      class: `ghost${gh.selected ? ' selected' : ''}${gh.dooms ? ' dooms' : ''}`,
      'data-testid': 'ghost',
      'data-key': gh.key,
      'data-move': gh.key,
      'data-eliminates': gh.dooms ? 'true' : null,
    });
    const preview = () => {
      const p = s('g.ghost-preview-blocks', { 'aria-hidden': 'true' });
      if (gh.blocks) gh.cells.forEach(([x, y], i) => p.append(drawBlock(gh.blocks[i], x, y)));
      p.append(s('rect.ghost-span', { x: Math.min(ax, bx) + 0.04, y: Math.min(ay, by) + 0.04, width: Math.abs(ax - bx) + 1.92, height: Math.abs(ay - by) + 1.92, rx: 0.15 }));
      return p;
    };
    // The selected slot keeps its domino drawn, on top of the other markers.
    if (gh.selected) g.append(preview());
    // The hit area: block A's whole cell (transparent, but it takes the pointer).
    g.append(s('rect.ghost-hit', { x: ax, y: ay, width: 2, height: 2 }));
    g.append(s('rect.ghost-outline', { x: ax + 0.22, y: ay + 0.22, width: 1.56, height: 1.56, rx: 0.3 }));
    // The dot on block A, and a tick towards block B: which way the domino lies.
    const [dx, dy] = [Math.sign(bx - ax), Math.sign(by - ay)];
    g.append(s('path.ghost-tick', { d: `M${ax + 1} ${ay + 1} l${dx * 0.75} ${dy * 0.75}` }));
    g.append(s('circle.ghost-anchor', { cx: ax + 1, cy: ay + 1, r: 0.26 }));
    if (gh.dooms) g.append(s('text.ghost-warning', { x: ax + 1, y: ay + 1.17, 'text-anchor': 'middle' }, '!'));
    const shown = s('g.ghost-preview', { 'data-for': gh.key, 'aria-hidden': 'true' }, preview());
    previews.append(shown);
    const show = (/** @type {boolean} */ on) => shown.classList.toggle('shown', on);
    g.addEventListener('pointerenter', (e) => e.pointerType !== 'touch' && show(true));
    g.addEventListener('pointerleave', () => show(false));
    g.addEventListener('focus', () => show(true));
    g.addEventListener('blur', () => show(false));
    clickable(g, gh.onPick, gh.label);
    if (gh.selected) selectedGroup = g;
    else markers.append(g);
  }
  if (selectedGroup) markers.append(selectedGroup);
  return [markers, previews];
}
