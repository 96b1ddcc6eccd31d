// @ts-check
// What every page shares with the shell: the page's state (who is signed in, the socket, the
// current page's hooks), refreshing the identity, and error messages. A leaf under the pages:
// app.js, the entry point, imports the pages; the pages import this, never app.js.
import { api } from './api.js';
import { h } from './dom.js';
import { t, has } from './i18n.js';

export const app = {
  me: null,
  socket: null,
  // Set by the current page; called when it is left (timers, subscriptions).
  leave: null,
  // Set by a page that can redraw itself in a new language without reloading.
  rerender: null,
  // Set by the entry point: redraws the identity in the top bar once it changed.
  identityChanged: null,
};

// A clear, translated message for every error code the server (or the network) can give.
export function errorText(code, reason) {
  if (code === 'illegal_move' && reason) {
    const key = `reason.${reason}`;
    return has(key) ? t('error.illegal_move_reason', { reason: t(key) }) : t('error.illegal_move');
  }
  const key = `error.${code}`;
  return has(key) ? t(key) : t('error.unknown', { code });
}

/**
 * A short message over the page. It belongs to the page that raised it and goes with it
 * (`clearPageToasts`, at every change of route: a game page's time-out notice is not news in the
 * lobby), unless `keep`: a message about a click that also moves the player to another page
 * ("challenge sent", then the table) or about no page at all (games uploaded).
 * @param {string} text
 * @param {string} [kind]
 * @param {{ keep?: boolean }} [opts]
 */
export function toast(text, kind = 'error', opts = {}) {
  const box = document.getElementById('toasts');
  // The last message stays readable on the page (for tests and screen readers' history).
  document.getElementById('app').dataset.lastToast = text;
  const el = h(`div.toast.${kind}`, { 'data-testid': `toast-${kind}`, 'data-page': !opts.keep }, text);
  box.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3500);
}

/** Removes the toasts of the page being left (called by the router before it draws the next). */
export function clearPageToasts() {
  for (const el of document.querySelectorAll('#toasts [data-page]')) el.remove();
}

export function showError(err) {
  document.getElementById('app').dataset.lastError = err.code || 'internal';
  toast(errorText(err.code || 'internal', err.reason));
}

export async function refreshMe() {
  app.me = await api('GET', '/api/me');
  if (app.identityChanged) app.identityChanged();
  return app.me;
}
