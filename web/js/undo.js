// @ts-check
// Undo within a turn (issue 46): "Undo" above the board, and Ctrl+Z (⌘Z), while the server
// says the last step may be taken back (`state.undo`: the game's rules decide, the browser
// never works it out). One step a press; the new state comes over the socket to every
// follower.
import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError } from './shell.js';

/** @type {Set<string>} games with an undo on its way (a second press waits for its answer) */
const asking = new Set();

/**
 * Asks the server to take back the last step of the state `stateId`.
 * @param {string} id
 * @param {number} stateId
 * @param {() => void} redraw
 */
async function undo(id, stateId, redraw) {
  if (asking.has(id)) return;
  asking.add(id);
  redraw();
  try {
    await api('POST', `/api/games/${id}/undo`, { state_id: stateId });
  } catch (e) {
    showError(e);
  } finally {
    asking.delete(id);
    redraw();
  }
}

/**
 * The Undo bar, when the server offers it to this page's seat and the socket is live.
 * @param {{ id: string, state: { undo?: boolean, state_id: number, finished?: boolean }, redraw: () => void }} ctx
 * @param {boolean} online
 */
export function undoBar(ctx, online) {
  if (!ctx.state.undo || ctx.state.finished || !online) return null;
  return h(
    'p.undo-bar.row',
    {},
    h(
      'button',
      {
        'data-testid': 'undo',
        title: t('undo.shortcut'),
        disabled: asking.has(ctx.id),
        onclick: () => undo(ctx.id, ctx.state.state_id, ctx.redraw),
      },
      t('undo.button'),
    ),
    h('span.hint', {}, t('undo.hint')),
  );
}

/**
 * Ctrl+Z (⌘Z on a Mac) takes back a step where the bar would; it leaves a text field's own
 * undo alone (chat, notes). Returns the function that stops listening.
 * @param {string} id
 * @param {() => ({ undo?: boolean, state_id: number, finished?: boolean } | null)} current
 * @param {() => boolean} online
 * @param {() => void} redraw
 */
export function undoKey(id, current, online, redraw) {
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z') return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    const st = current();
    if (!st || !st.undo || st.finished || !online()) return;
    e.preventDefault();
    undo(id, st.state_id, redraw);
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
