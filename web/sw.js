// Pyramidion's service worker: shows the Web Push notifications the server sends to a player
// who is away (your move in a turn-based game, a rematch offer, a table that filled), also
// when no Pyramidion page is open, and opens the game on a click. The server writes the
// notification's words in the language the browser subscribed with (docs/protocol.md,
// "Notifications").
//
// It also keeps the site for offline play (issue 50, docs/client.md "Offline play"): the
// shell, the engines' module (web/wasm/) and every game folder's files, so that a page opened
// with no connection starts and plays against the bots in the page (#/offline).

// The cache's name carries its version: a worker that keeps files differently gets a new
// name, and `activate` deletes every other Pyramidion cache (an old worker's files would
// otherwise stay on the device for ever).
const CACHE = 'pyramidion-site-v1';
const CACHE_PREFIX = 'pyramidion-site-';

// What the page reads to start and to play offline. The list of the site's files is the
// server's (`GET /offline-files.json`: every file of web/ it serves, the games' folders
// included), so that the worker names no file of any game and a new game's files are kept
// with no change here.
async function precache() {
  const cache = await caches.open(CACHE);
  let files = ['/', '/index.html'];
  try {
    const res = await fetch('/offline-files.json', { cache: 'no-store' });
    if (res.ok) files = files.concat((await res.json()).files.map((f) => `/${f}`));
  } catch {
    // No list (a server too old to serve one): the shell's entry only; the rest is kept as
    // the page fetches it (see `fetch` below).
  }
  // File by file, not `addAll`: one file missing (web/wasm/ not built on a development
  // server) must not leave the rest uncached. Four at a time, not all at once: the server
  // limits requests per address (docs/server.md, "Limits"), and the page being opened asks
  // for its own files beside these.
  const queue = files.slice();
  const keep = async () => {
    for (let path = queue.shift(); path; path = queue.shift()) {
      try {
        const res = await fetch(path, { cache: 'no-store' });
        if (res.ok) await cache.put(path, res);
      } catch {
        // Kept later, when the page fetches it.
      }
    }
  };
  await Promise.all([keep(), keep(), keep(), keep()]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});
self.addEventListener('activate', (event) =>
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  ),
);

// The two answers of the API the shell reads to start (who the player is, the registered
// games) are kept for a page opened offline, and the tutorials' lessons (the list and each
// game's: the games' data, the same for everyone, issue 48) so that a lesson already visited
// opens offline; no other answer of the API is written to the device (a player's history,
// notes, games and tutorial progress stay on the server).
const KEPT_API = new Set(['/api/me', '/api/games', '/api/tutorials']);
const KEPT_LESSONS = /^\/api\/tutorials\/[a-z0-9-]+$/;

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  // Another site, a move, an upload, the socket: the network's business alone.
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname === '/ws') return;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/internal/') || url.pathname === '/metrics') {
    // Network first for the API: its answers are live (tables, turns, clocks) and must never
    // be an old copy while the server can be reached; offline, only the kept ones answer.
    if (KEPT_API.has(url.pathname) || KEPT_LESSONS.test(url.pathname)) event.respondWith(networkFirst(req, url.pathname));
    return;
  }
  // The site's own files: network first too, the cache being what answers offline. No file
  // of web/ has a content hash in its name (app.js is app.js after every deploy), so a
  // cache-first file would stay the version first kept: a page mixing an old module with new
  // ones, or the engines' bindings with another build's binary (the two must match exactly),
  // would break. Fresh when the server answers, the device's copy when it does not.
  // A navigation is the shell's page whatever its path (the routes are in the hash).
  event.respondWith(networkFirst(req, req.mode === 'navigate' ? '/' : url.pathname + url.search));
});

/**
 * The network's answer (kept for offline), or the kept copy when the network fails.
 * @param {Request} req
 * @param {string} key the cache's key for it
 */
async function networkFirst(req, key) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(key, res.clone());
    return res;
  } catch (e) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = data.title || 'Pyramidion';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      icon: '/favicon.svg',
      // One notification per game and event: a newer one replaces it.
      tag: `${data.kind || 'pyramidion'}-${data.game || ''}`,
      data: { url: data.url || '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const w of windows) {
        if (new URL(w.url).origin === self.location.origin) {
          await w.focus();
          return w.navigate ? w.navigate(url) : undefined;
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
