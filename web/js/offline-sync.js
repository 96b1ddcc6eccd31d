// @ts-check
// The offline side of the shell (issue 50): the service worker that keeps the site for
// offline play (web/sw.js), and the upload of the games finished offline whenever the server
// can be reached again (on every connection of the socket, and at a game's end).
import { api } from './api.js';
import { t } from './i18n.js';
import { toast } from './shell.js';
import { offlineGames, uploadFinished } from './offline-store.js';

/**
 * Registers the service worker (the push notifications' too: one worker for the site). The
 * page says when the worker controls it (`data-offline-ready` on <html>): from then on it
 * starts and plays with no connection.
 */
export async function registerOffline() {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    const mark = () => {
      if (navigator.serviceWorker.controller) document.documentElement.dataset.offlineReady = 'true';
    };
    mark();
    navigator.serviceWorker.addEventListener('controllerchange', mark);
  } catch (e) {
    // A browser that refuses workers (a private window in some): the site works online.
    console.warn('no service worker:', e);
  }
}

let syncing = null;

/**
 * Uploads the games finished offline and not uploaded yet; one run at a time (a second call
 * meanwhile waits for it). Says in a toast how many the history gained.
 * @returns {Promise<number>} how many were kept by the server now
 */
export function uploadOfflineGames() {
  if (!syncing) {
    syncing = (async () => {
      try {
        const store = await offlineGames();
        const done = await uploadFinished(store, (body) => api('POST', '/api/offline-games', body), Date.now());
        const kept = done.filter((g) => g.status === 'uploaded').length;
        if (kept) toast(t('offline.uploaded', { count: kept }), 'info', { keep: true });
        return kept;
      } catch (e) {
        console.warn('offline games not uploaded:', e);
        return 0;
      } finally {
        syncing = null;
      }
    })();
  }
  return syncing;
}
