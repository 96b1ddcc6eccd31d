// Placing the domino in hand: only the orientations that have a legal slot are offered
// (Rotate and `R` skip the others), the ghosts of the current orientation preview the domino
// on hover, focus and selection, and the keyboard focus stays on the pyramid while turning.
// The controls keep their place whether a slot is selected or not, so the board never moves
// under a finger.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { DIRS, dominoLabel, dominoSvg } from './pieces.js';
import { placements } from './pyramid.js';

const cellsKey = (p) => p.cells.map((c) => c.join(',')).sort().join(';');

// The orientations (in DIRS order: a quarter clockwise each) with at least one legal slot.
export function usableDirs(legal) {
  const all = placements(legal);
  return DIRS.filter((d) => all.some((p) => p.dir === d));
}

// The orientation shown: the one chosen if it still has a slot, else the first that has one.
export function currentDir(ctx) {
  const dirs = usableDirs(ctx.legal);
  if (!dirs.includes(ctx.ui.dir)) ctx.ui.dir = dirs[0] || DIRS[0];
  return ctx.ui.dir;
}

// The ghost slots of the orientation shown.
export function ghostsNow(ctx) {
  // The replay's analysis shows its two moves whatever their orientations.
  if (ctx.replay) return placements(ctx.legal);
  const dir = currentDir(ctx);
  return placements(ctx.legal).filter((p) => p.dir === dir);
}

// Focuses a ghost of the own pyramid (the one of `text`, else the first) without scrolling.
export function focusGhost(text) {
  requestAnimationFrame(() => {
    const box = document.querySelector('[data-testid="my-pyramid"]');
    if (!box) return;
    const el = (text && box.querySelector(`[data-move="${text}"]`)) || box.querySelector('[data-testid=ghost]');
    if (el) el.focus({ preventScroll: true });
  });
}

// The next orientation that has a slot; a selected slot stays selected when the turned
// domino still covers the same two cells. `keepFocus`: the focus goes back to the pyramid.
export function rotate(ctx, keepFocus) {
  const { ui, legal } = ctx;
  const all = placements(legal);
  const dirs = usableDirs(legal);
  if (dirs.length < 2) return;
  const before = ui.selected ? all.find((p) => p.text === ui.selected) : null;
  ui.dir = dirs[(dirs.indexOf(currentDir(ctx)) + 1) % dirs.length];
  if (before) {
    const same = all.find((p) => p.dir === ui.dir && cellsKey(p) === cellsKey(before));
    ui.selected = same ? same.text : null;
  }
  ctx.redraw();
  if (keepFocus) focusGhost(ui.selected);
  else if (ui.selected) focusGhost(ui.selected);
}

// A tap or Enter on a ghost selects it (its preview stays); a second one places the domino.
export function pickGhost(ctx, ghost) {
  if (ctx.ui.selected === ghost.text) ctx.play(ghost.text);
  else {
    ctx.ui.selected = ghost.text;
    ctx.redraw();
    focusGhost(ghost.text);
  }
}

// `R` anywhere in the own area turns the domino and keeps the focus on the pyramid.
export function onRotateKey(ctx) {
  return (e) => {
    if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      rotate(ctx, true);
    }
  };
}

// The domino in hand, turned as shown, with Rotate and "Place here" (disabled until a slot
// is picked) when placing.
export function handRow(ctx, hand, placing) {
  const dir = placing ? currentDir(ctx) : DIRS[0];
  const dirs = placing ? usableDirs(ctx.legal) : [];
  const turned = dominoSvg(hand.blocks, 76, dominoLabel(hand.blocks));
  turned.style.transform = `rotate(${DIRS.indexOf(dir) * 90}deg)`;
  return h(
    'div.hand',
    { 'data-testid': 'hand' },
    h('span.label', {}, t('table.hand')),
    h('span.hand-box', { 'data-dir': dir }, turned),
    placing
      ? h('button', { 'data-testid': 'rotate', onclick: () => rotate(ctx, false), title: t('place.rotate_hint'), disabled: dirs.length < 2, 'data-orientations': dirs.length }, `⟳ ${t('place.rotate')}`)
      : null,
    placing ? h('button.primary', { 'data-testid': 'confirm-place', disabled: !ctx.ui.selected, onclick: () => ctx.ui.selected && ctx.play(ctx.ui.selected) }, t('place.confirm')) : null,
  );
}

// The line under the hand: slots here, orientations that fit.
export function placeHint(ctx) {
  return h('p.hint.place-hint', {}, t('place.hint', { count: ghostsNow(ctx).length }));
}
