// @ts-check
// Placing the domino in hand, shared by both Pyramido games: only the orientations that have
// a legal slot are offered (Rotate and `R` skip the others); a first tap, click or Enter on a
// slot selects it (its domino shows), a second one or "Place here" places it. A placement
// whose structured move says it eliminates the player (`eliminates`, a fact from the engine)
// asks first. The controls keep their place whether a slot is selected or not, so the board
// never moves under a finger. No rule is decided here: the slots are the legal moves.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { DIRS } from './drawing.js';

/** @typedef {import('./drawing.js').Dir} Dir */

/**
 * The structured form of a placement in both Pyramido games (`place`): block A at (`x`, `y`) on
 * the stage being built, block B towards `dir`; `cells` are both blocks' cells, A first (stage
 * coordinates). Pyramido adds `eliminates`: this placement dooms the player (a fact from the
 * engine).
 * @typedef {import('../envelope.js').MoveBase & { kind: 'place', x: number, y: number, dir: Dir, cells: [number, number][], eliminates?: boolean }} PlaceForm
 */

/**
 * What these helpers read of a table's context: the legal moves (any game's: only its
 * placements are read), the local choices (`ui.dir`, `ui.selected`, `ui.confirm`), `play` and
 * `redraw`, and whether it is a replay.
 * @typedef {import('../envelope.js').TableContext<import('../envelope.js').MoveBase>} PlacingContext
 */

/** @param {PlaceForm} p */
const cellsKey = (p) =>
  p.cells
    .map((c) => c.join(','))
    .sort()
    .join(';');

// The legal placements among the structured moves: {text, x, y, dir, cells, eliminates?}.
/**
 * @param {import('../envelope.js').MoveBase[]} legal
 * @returns {PlaceForm[]}
 */
export function placements(legal) {
  // A move of kind `place` carries the placement's fields (the descriptor's form).
  return /** @type {PlaceForm[]} */ (legal.filter((m) => m.kind === 'place'));
}

// The orientations (in DIRS order: a quarter clockwise each) with at least one legal slot.
/**
 * @param {import('../envelope.js').MoveBase[]} legal
 * @returns {Dir[]}
 */
export function usableDirs(legal) {
  const all = placements(legal);
  return DIRS.filter((d) => all.some((p) => p.dir === d));
}

// The orientation shown: the one chosen if it still has a slot, else the first that has one.
/**
 * @param {PlacingContext} ctx
 * @returns {Dir}
 */
export function currentDir(ctx) {
  const dirs = usableDirs(ctx.legal);
  if (!dirs.includes(ctx.ui.dir)) ctx.ui.dir = dirs[0] || DIRS[0];
  return ctx.ui.dir;
}

// The slots of the orientation shown.
/**
 * @param {PlacingContext} ctx
 * @returns {PlaceForm[]}
 */
export function ghostsNow(ctx) {
  // The replay's analysis shows its two moves whatever their orientations.
  if (ctx.replay) return placements(ctx.legal);
  const dir = currentDir(ctx);
  return placements(ctx.legal).filter((p) => p.dir === dir);
}

// Focuses a slot of the own pyramid (the one of `text`, else the first) without scrolling.
/** @param {string | null} [text] */
export function focusGhost(text) {
  requestAnimationFrame(() => {
    const box = document.querySelector('[data-testid="my-pyramid"]');
    if (!box) return;
    const el = /** @type {SVGElement | null} */ ((text && box.querySelector(`[data-testid=ghost][data-move="${text}"]`)) || box.querySelector('[data-testid=ghost]'));
    if (el) el.focus({ preventScroll: true });
  });
}

// The next orientation that has a slot; a selected slot stays selected when the turned
// domino still covers the same two cells. `keepFocus`: the focus goes back to the pyramid.
/**
 * @param {PlacingContext} ctx
 * @param {boolean} keepFocus
 */
export function rotate(ctx, keepFocus) {
  const { ui, legal } = ctx;
  const all = placements(legal);
  const dirs = usableDirs(legal);
  if (dirs.length < 2) return;
  const before = ui.selected ? all.find((p) => p.text === ui.selected) : null;
  ui.dir = dirs[(dirs.indexOf(currentDir(ctx)) + 1) % dirs.length];
  ui.confirm = null;
  if (before) {
    const same = all.find((p) => p.dir === ui.dir && cellsKey(p) === cellsKey(before));
    ui.selected = same ? same.text : null;
  }
  ctx.redraw();
  if (keepFocus || ui.selected) focusGhost(ui.selected);
}

// Places `text`, unless the engine says it eliminates the player: then it asks first, and
// only the question's own button (`anyway`) places it.
/**
 * @param {PlacingContext} ctx
 * @param {string} text
 * @param {boolean} [anyway]
 */
export function confirmPlace(ctx, text, anyway) {
  const move = placements(ctx.legal).find((p) => p.text === text);
  if (!move) return;
  if (move.eliminates && !anyway) {
    ctx.ui.selected = text;
    ctx.ui.confirm = text;
    ctx.redraw();
    requestAnimationFrame(() => {
      const el = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=eliminate-cancel]'));
      if (el) el.focus({ preventScroll: true });
    });
    return;
  }
  ctx.ui.confirm = null;
  ctx.play(text);
}

// A tap or Enter on a slot selects it (its domino shows); a second one places the domino.
/**
 * @param {PlacingContext} ctx
 * @param {string} text
 */
export function pickGhost(ctx, text) {
  if (ctx.ui.selected === text) confirmPlace(ctx, text);
  else {
    ctx.ui.selected = text;
    ctx.ui.confirm = null;
    ctx.redraw();
    focusGhost(text);
  }
}

// `R` anywhere in the own area turns the domino and keeps the focus on the pyramid.
/**
 * @param {PlacingContext} ctx
 * @returns {(e: KeyboardEvent) => void}
 */
export function onRotateKey(ctx) {
  return (e) => {
    if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      rotate(ctx, true);
    }
  };
}

// The domino in hand (`turned`: its picture lying east-west), turned as shown, with Rotate and
// "Place here" (disabled until a slot is picked) when placing, and the question before an
// eliminating placement (`warning`: its text).
/**
 * @param {PlacingContext} ctx
 * @param {SVGElement} turned
 * @param {boolean} placing
 * @param {string} [warning]
 * @returns {HTMLElement}
 */
export function handRow(ctx, turned, placing, warning) {
  const dir = placing ? currentDir(ctx) : DIRS[0];
  const dirs = placing ? usableDirs(ctx.legal) : [];
  turned.style.transform = `rotate(${DIRS.indexOf(dir) * 90}deg)`;
  const selected = ctx.ui.selected ? placements(ctx.legal).find((p) => p.text === ctx.ui.selected) : null;
  return h(
    'div.hand',
    { 'data-testid': 'hand' },
    h('span.label', {}, t('table.hand')),
    h('span.hand-box', { 'data-dir': dir }, turned),
    placing
      ? h(
          'button',
          { 'data-testid': 'rotate', onclick: () => rotate(ctx, false), title: t('place.rotate_hint'), disabled: dirs.length < 2, 'data-orientations': dirs.length },
          `⟳ ${t('place.rotate')}`,
        )
      : null,
    placing
      ? h(
          'button.primary',
          { 'data-testid': 'confirm-place', class: selected && selected.eliminates ? 'danger' : '', disabled: !selected, onclick: () => selected && confirmPlace(ctx, selected.text) },
          t('place.confirm'),
        )
      : null,
    placing && selected && selected.eliminates && ctx.ui.confirm !== selected.text ? h('span.doom-note', { 'data-testid': 'eliminates-note' }, `⚠ ${t('place.eliminates_short')}`) : null,
    placing && selected && ctx.ui.confirm === selected.text ? confirmBox(ctx, selected.text, warning) : null,
  );
}

/**
 * @param {PlacingContext} ctx
 * @param {string} text
 * @param {string} warning
 */
function confirmBox(ctx, text, warning) {
  return h(
    'div.doom-confirm',
    { role: 'alertdialog', 'aria-modal': 'false', 'aria-labelledby': 'doom-text', 'data-testid': 'eliminate-confirm' },
    h('p', { id: 'doom-text' }, `⚠ ${warning}`),
    h(
      'div.row',
      {},
      h('button.danger', { 'data-testid': 'eliminate-anyway', onclick: () => confirmPlace(ctx, text, true) }, t('place.eliminate_anyway')),
      h('button', { 'data-testid': 'eliminate-cancel', onclick: () => ((ctx.ui.confirm = null), (ctx.ui.selected = null), ctx.redraw(), focusGhost(null)) }, t('place.choose_another')),
    ),
  );
}

// The line under the hand: slots here, and how to place.
/** @param {PlacingContext} ctx */
export function placeHint(ctx) {
  return h('p.hint.place-hint', {}, t('place.hint', { count: ghostsNow(ctx).length }));
}
