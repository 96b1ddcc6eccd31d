// @ts-check
// Following the game: any other player's pyramid can be enlarged into a dialog that shows the
// table's own drawing at the size of the player's own pyramid, with the player's name and
// score line. Which seat is enlarged lives in `ctx.ui`, so the dialog survives the redraw of
// every move: it is drawn again, still open, showing the new position, with the reader's
// scroll (and sideways pan) kept. Escape, the dialog's button or a tap beside it closes it,
// and the keyboard focus goes back to the button that opened it.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * What these helpers read of a table's context: `ui.enlarged` (the seat shown, or null),
 * `ui.enlargedScroll` (where the reader scrolled) and `redraw`.
 * @typedef {import('../envelope.js').TableContext<import('../envelope.js').MoveBase>} EnlargeContext
 * @typedef {import('../dom.js').Child} Child
 * @typedef {{ title: Child, body: Child, wide?: boolean }} Enlarged
 */

// The toggle on a player's card: a real button whose pressed state says the dialog is open.
// `what` names the drawing ("Pyramid of Ann"), for a screen reader telling the cards apart.
/**
 * @param {EnlargeContext} ctx
 * @param {number} seat
 * @param {string} what
 * @returns {HTMLElement}
 */
export function enlargeButton(ctx, seat, what) {
  const open = ctx.ui.enlarged === seat;
  return h(
    'button.small.enlarge',
    {
      type: 'button',
      'data-testid': 'enlarge',
      'data-key': seat,
      'aria-pressed': open ? 'true' : 'false',
      'aria-haspopup': 'dialog',
      'aria-label': open ? t('table.shrink_of', { what }) : t('table.enlarge_of', { what }),
      onclick: () => (open ? shrink(ctx) : enlarge(ctx, seat)),
    },
    open ? t('table.shrink') : t('table.enlarge'),
  );
}

/**
 * @param {EnlargeContext} ctx
 * @param {number} seat
 */
function enlarge(ctx, seat) {
  ctx.ui.enlarged = seat;
  ctx.ui.enlargedScroll = {};
  ctx.redraw();
}

/** @param {EnlargeContext} ctx */
function shrink(ctx) {
  const seat = ctx.ui.enlarged;
  ctx.ui.enlarged = null;
  const open = /** @type {HTMLDialogElement | null} */ (document.querySelector('dialog[data-testid=enlarged]'));
  if (open && open.open) open.close();
  ctx.redraw();
  const button = /** @type {HTMLElement | null} */ (document.querySelector(`[data-testid=enlarge][data-key="${seat}"]`));
  if (button) button.focus();
}

// The open dialog, when a seat is enlarged: `draw(seat)` gives {title, body, wide} (the
// drawing, name and score line as the table draws them; `wide` for a drawing much wider than
// tall, which then gets the whole width of a large screen), or null when the seat has nothing
// to show. A table puts the result anywhere in what it renders.
/**
 * @param {EnlargeContext} ctx
 * @param {(seat: number) => Enlarged | null} draw
 * @returns {HTMLDialogElement | null}
 */
export function enlargedDialog(ctx, draw) {
  const seat = ctx.ui.enlarged;
  if (seat === null || seat === undefined) return null;
  const content = draw(seat);
  if (!content) {
    ctx.ui.enlarged = null;
    return null;
  }
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      'dialog.enlarged',
      { class: content.wide ? 'wide' : '', 'data-testid': 'enlarged', 'data-seat': seat, 'aria-labelledby': 'enlarged-title' },
      h(
        'div.enlarged-head',
        {},
        h('h2', { id: 'enlarged-title', 'data-testid': 'enlarged-title' }, content.title),
        h('button.small', { type: 'button', 'data-testid': 'shrink', autofocus: true, onclick: () => shrink(ctx) }, `× ${t('table.shrink')}`),
      ),
      content.body,
    )
  );
  // Escape: close it the same way as the button (the focus goes back to the card).
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault();
    shrink(ctx);
  });
  // A tap on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener('click', (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) shrink(ctx);
  });
  // Where the reader scrolled — the dialog, and any part a table marks `data-scroll-key` (a
  // wide drawing panned sideways) — is kept for the next redraw.
  dialog.addEventListener(
    'scroll',
    (e) => {
      const el = /** @type {HTMLElement} */ (e.target);
      const key = el === dialog ? '' : el.dataset && el.dataset.scrollKey;
      if (key === undefined) return;
      ctx.ui.enlargedScroll = { ...ctx.ui.enlargedScroll, [key]: [el.scrollLeft, el.scrollTop] };
    },
    { capture: true, passive: true },
  );
  // Opened once it is in the page (a redraw puts a new one there; nothing is painted between).
  queueMicrotask(() => {
    if (!dialog.isConnected || dialog.open) return;
    dialog.showModal();
    for (const [key, [left, top]] of Object.entries(ctx.ui.enlargedScroll || {})) {
      const el = key === '' ? dialog : dialog.querySelector(`[data-scroll-key="${CSS.escape(key)}"]`);
      if (el) [el.scrollLeft, el.scrollTop] = [left, top];
    }
  });
  return dialog;
}
