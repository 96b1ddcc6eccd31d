// @ts-check
// Web Push in this browser: the service worker (/sw.js), the subscription made with the
// server's VAPID key and sent to the server, and the offer to turn it on where it matters
// (a turn-based table I create or join). `status` is cached so that pages draw it at once.
import { api } from './api.js';
import { h } from './dom.js';
import { t, language } from './i18n.js';
import { showError, toast } from './shell.js';

const DISMISS_KEY = 'pyr.push_offer_dismissed';
// A clock with this much time per turn or more makes a game turn-based (as the server says).
export const TURN_BASED_MS = 3600 * 1000;

// `error`: why the last try to turn push on failed (the browser's error, or the server's
// refusal code), said on the settings page until a try succeeds.
/** @type {{ supported: boolean, subscribed: boolean, permission: string, error: null | { browser?: string, server?: string } }} */
export const status = { supported: false, subscribed: false, permission: 'default', error: null };
const listeners = new Set();

export function onPushChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

function changed() {
  listeners.forEach((f) => f());
}

function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration() {
  return navigator.serviceWorker.getRegistration('/');
}

// Reads whether this browser has a subscription; called at start.
export async function initPush() {
  status.supported = supported();
  if (!status.supported) return changed();
  status.permission = Notification.permission;
  try {
    const reg = await registration();
    const sub = reg ? await reg.pushManager.getSubscription() : null;
    status.subscribed = Boolean(sub);
    // The server may have forgotten it (e.g. a guest's data swept): tell it again.
    if (sub && status.permission === 'granted') await api('POST', '/api/push/subscribe', { ...sub.toJSON(), lang: language() });
  } catch {
    status.subscribed = false;
  }
  changed();
}

function keyBytes(base64url) {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

// Asks for permission (on a click: browsers allow it only then), subscribes and tells the
// server. True when push is on.
export async function enablePush() {
  if (!supported()) return false;
  try {
    status.permission = await Notification.requestPermission();
    if (status.permission !== 'granted') return false;
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    const reg = await navigator.serviceWorker.ready;
    const settings = await api('GET', '/api/notify');
    const sub = (await reg.pushManager.getSubscription()) || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(settings.push_public_key) }));
    await api('POST', '/api/push/subscribe', { ...sub.toJSON(), lang: language() });
    status.subscribed = true;
    status.error = null;
    return true;
  } catch (e) {
    // The server's refusals carry a string code; a browser's DOMException a number.
    if (e && typeof e.code === 'string') {
      status.error = { server: String(e.code) };
      showError(e);
    } else {
      const reason = e ? [e.name, e.message].filter(Boolean).join(': ') : '';
      status.error = { browser: reason };
      toast(t('settings.push_failed'));
    }
    return false;
  } finally {
    changed();
  }
}

export async function disablePush() {
  try {
    const reg = await registration();
    const sub = reg ? await reg.pushManager.getSubscription() : null;
    if (sub) {
      await api('POST', '/api/push/unsubscribe', { endpoint: sub.endpoint });
      await sub.unsubscribe();
    }
    status.subscribed = false;
  } catch (e) {
    showError(e);
  }
  changed();
}

// The offer to turn notifications on, for a turn-based table I sit at (null when it is on,
// refused, impossible here, or dismissed).
export function notifyOffer(table) {
  const turnBased = table && table.clock && table.clock.turn_ms >= TURN_BASED_MS;
  const seated = table && table.seats.some((s) => s.me && s.type === 'human');
  if (!turnBased || !seated || !status.supported || status.subscribed) return null;
  if (status.permission === 'denied' || localStorage.getItem(DISMISS_KEY) === '1') return null;
  const box = h(
    'div.card.notify-offer',
    { 'data-testid': 'notify-offer' },
    h('p', {}, t('notify_offer.text')),
    h(
      'p.row',
      {},
      h(
        'button.primary',
        {
          'data-testid': 'notify-offer-enable',
          onclick: async () => {
            if (await enablePush()) {
              toast(t('notify_offer.done'), 'info');
              box.remove();
            }
          },
        },
        t('notify_offer.enable'),
      ),
      h(
        'button',
        {
          'data-testid': 'notify-offer-dismiss',
          onclick: () => {
            localStorage.setItem(DISMISS_KEY, '1');
            box.remove();
          },
        },
        t('notify_offer.dismiss'),
      ),
    ),
  );
  return box;
}
