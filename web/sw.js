// Pyramidion's service worker: shows the Web Push notifications the server sends to a player
// who is away (your move in a turn-based game, a rematch offer, a table that filled), also
// when no Pyramidion page is open, and opens the game on a click. The server writes the
// notification's words in the language the browser subscribed with (docs/protocol.md,
// "Notifications").
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

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
