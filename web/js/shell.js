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

export function toast(text, kind = 'error') {
  const box = document.getElementById('toasts');
  // The last message stays readable on the page (for tests and screen readers' history).
  document.getElementById('app').dataset.lastToast = text;
  const el = h(`div.toast.${kind}`, { 'data-testid': `toast-${kind}` }, text);
  box.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3500);
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
