// @ts-check
import { applyPatch } from './patch.js';

// A message: JSON text, or a binary frame holding its raw DEFLATE. Null if unreadable.
async function decode(data) {
  try {
    if (typeof data === 'string') return JSON.parse(data);
    const text = await new Response(new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
    return JSON.parse(text);
  } catch (e) {
    console.error(e);
    return null;
  }
}

// Liveness of an open connection (issue 53): a frozen instance, or a proxy still holding the
// tunnel to one, keeps a WebSocket open that nothing comes through, and the browser cannot see
// the server's WebSocket pings. After this long with nothing heard the page asks (a `ping`)…
export const QUIET_MS = 6000;
// …and when nothing at all comes back within this long, it drops the connection and opens a
// new one (which the proxy sends to a live instance): a dead link is left within ~10 s.
export const ANSWER_MS = 4000;
// How often the page looks (timers of hidden tabs run late; the times above are measured).
const WATCH_MS = 1000;

// One WebSocket per page, reconnecting by itself. Subscriptions are remembered with the last
// event seen, so after a reconnect each game resumes from where it was (`last_event`).
export class Socket {
  constructor() {
    this.handlers = new Set();
    this.statusHandlers = new Set();
    this.subscriptions = new Map(); // game id -> last event seen (or null)
    // The last state of each game followed: a `patch` applies to it (see patch.js).
    this.states = new Map(); // game id -> state message
    // An unlisted game is followed with its invite (its players need none).
    this.invites = new Map(); // game id -> invite token
    this.status = 'connecting';
    this.retry = 0;
    this.queue = [];
    this.heard = 0; // when anything last came from the server (Date.now())
    // A page left for another closes its socket, also when the browser keeps it in its
    // back-forward cache (which may keep a WebSocket open): the server tells players with no
    // page open by push and mail, so a page out of sight must not count as present. Coming
    // back to it reconnects, and every game resumes from its last event.
    this.away = false;
    window.addEventListener('pagehide', () => {
      this.away = true;
      this.ws.close();
    });
    window.addEventListener('pageshow', (e) => {
      if (!this.away) return;
      this.away = false;
      if (e.persisted) {
        this.retry = 0;
        this.connect();
      }
    });
    this.connect();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    // Large messages come deflated (binary frames, docs/protocol.md "Patches").
    const ws = new WebSocket(`${proto}://${location.host}/ws?deflate=1`);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    // Inflating takes a moment: messages are handled in the order they came, one at a time.
    let inbox = Promise.resolve();
    this.setStatus(this.retry ? 'reconnecting' : 'connecting');
    ws.onopen = () => {
      this.retry = 0;
      this.setStatus('connected');
      this.watch(ws);
      for (const [game, last] of this.subscriptions) {
        this.sendNow({ type: 'subscribe', game, last_event: last ?? undefined, invite: this.invites.get(game) });
      }
      const pending = this.queue;
      this.queue = [];
      // Never a move (see `sendMove`); subscriptions and the like are safe to send late.
      pending.filter((m) => m.type !== 'move').forEach((m) => this.sendNow(m));
    };
    ws.onmessage = (e) => {
      this.heard = Date.now();
      inbox = inbox
        .then(() => decode(e.data))
        .then((msg) => msg && this.receive(msg))
        // A handler's failure must not stop the messages after it.
        .catch((err) => console.error(err));
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.away) return;
      this.retry += 1;
      this.setStatus('reconnecting');
      // Back off up to 10 s; a reconnect resumes every subscription.
      const delay = Math.min(10000, 300 * 2 ** Math.min(this.retry, 6));
      setTimeout(() => this.connect(), delay);
    };
  }

  // Watches `ws` while it is this page's open connection: quiet for QUIET_MS, a ping; no answer
  // (nor anything else) ANSWER_MS after it, a new connection.
  watch(ws) {
    this.heard = Date.now();
    let pingedAt = null;
    const look = () => {
      if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      const now = Date.now();
      if (pingedAt !== null && this.heard > pingedAt) pingedAt = null;
      if (pingedAt === null && now - this.heard >= QUIET_MS) {
        pingedAt = now;
        this.sendNow({ type: 'ping' });
      } else if (pingedAt !== null && now - pingedAt >= ANSWER_MS) {
        console.warn('the server did not answer for', now - this.heard, 'ms: reconnecting');
        this.reconnect();
        return;
      }
      setTimeout(look, WATCH_MS);
    };
    setTimeout(look, WATCH_MS);
  }

  // One message, in order: a patch becomes the state it stands for (see patch.js).
  receive(msg) {
    if (msg.type === 'patch') {
      const state = applyPatch(this.states.get(msg.game), msg);
      if (!state) {
        // It does not follow on from what this page holds: ask again from the last event.
        if (this.subscriptions.has(msg.game)) this.resubscribe(msg.game);
        return;
      }
      msg = state;
    }
    if (msg.type === 'state') this.states.set(msg.game, msg);
    if (msg.type === 'state' && this.subscriptions.has(msg.game)) {
      this.subscriptions.set(msg.game, msg.event);
    }
    this.handlers.forEach((h) => h(msg));
  }

  setStatus(status) {
    this.status = status;
    this.statusHandlers.forEach((h) => h(status));
  }

  onMessage(h) {
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  }

  onStatus(h) {
    this.statusHandlers.add(h);
    h(this.status);
    return () => this.statusHandlers.delete(h);
  }

  sendNow(msg) {
    this.ws.send(JSON.stringify(msg));
  }

  // Sent now on an open connection, else queued until the next one opens; a move is never
  // queued (`sendMove`). Whether it was sent or queued.
  send(msg) {
    if (msg.type === 'move') return this.sendMove(msg);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.sendNow(msg);
    else this.queue.push(msg);
    return true;
  }

  // A move is sent on an open connection or not at all (issue 46): queued, it would be played
  // after the reconnect, maybe long after, when its player no longer looks at the board and
  // nothing ever said it was not sent. The game page keeps its board inert while the socket
  // is not connected and says why. Whether it was sent.
  sendMove(msg) {
    if (this.status !== 'connected' || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.sendNow(msg);
    return true;
  }

  subscribe(game, invite) {
    this.subscriptions.set(game, null);
    if (invite) this.invites.set(game, invite);
    this.send({ type: 'subscribe', game, invite });
  }

  // Asks again from the last event seen (after a gap in the numbering).
  resubscribe(game) {
    const last = this.subscriptions.get(game);
    this.send({ type: 'subscribe', game, last_event: last ?? undefined, invite: this.invites.get(game) });
  }

  unsubscribe(game) {
    this.invites.delete(game);
    this.states.delete(game);
    if (this.subscriptions.delete(game)) this.send({ type: 'unsubscribe', game });
  }

  // Forces a new connection now (the "reconnect" control, and tests of resume).
  reconnect() {
    const old = this.ws;
    this.ws = null;
    try {
      old.close();
    } catch {
      /* already closed */
    }
    this.retry = 1;
    this.connect();
  }
}
