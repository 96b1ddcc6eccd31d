// Issue 46: a move clicked while the connection was down showed nothing, then was played after
// the server came back. The socket sends a move on an open connection or not at all; other
// messages (subscriptions) still wait for the next connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';

// A browser's globals, enough for the socket: no network, each connection opened by the test.
const opened = [];
class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  constructor(url) {
    this.url = url;
    this.readyState = FakeWebSocket.CONNECTING;
    this.sent = [];
    opened.push(this);
  }
  send(text) {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('not open');
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = FakeWebSocket.CLOSED;
    if (this.onclose) this.onclose();
  }
  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen();
  }
  drop() {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose();
  }
}
globalThis.WebSocket = /** @type {any} */ (FakeWebSocket);
globalThis.window = /** @type {any} */ ({ addEventListener() {} });
globalThis.location = /** @type {any} */ ({ protocol: 'http:', host: 'localhost' });

const { Socket } = await import('../js/socket.js');
const move = { type: 'move', game: 'g1', state_id: 3, move: 'take 1' };

test('a move is never sent while the socket is down, nor later when it reconnects', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const socket = new Socket();
  const first = opened.at(-1);
  socket.subscribe('g1');
  // Still connecting: the subscription waits; the move is refused.
  assert.equal(socket.sendMove(move), false);
  assert.equal(socket.send(move), false, 'a move is not queued either way');
  first.open();
  assert.ok(
    first.sent.some((m) => m.type === 'subscribe'),
    'the subscription goes out',
  );
  assert.ok(
    first.sent.every((m) => m.type !== 'move'),
    'never the move',
  );

  // Connected: sent at once.
  assert.equal(socket.sendMove(move), true);
  assert.deepEqual(first.sent.at(-1), move);

  // The server restarts: "Reconnecting…"; a move clicked now is refused, not kept.
  first.drop();
  assert.equal(socket.status, 'reconnecting');
  assert.equal(socket.sendMove({ ...move, state_id: 4 }), false);
  socket.send({ ...move, state_id: 5 });
  t.mock.timers.tick(10_000);
  const second = opened.at(-1);
  assert.notEqual(second, first, 'it reconnects by itself');
  second.open();
  assert.equal(socket.status, 'connected');
  assert.ok(second.sent.length > 0, 'the game is followed again');
  assert.ok(
    second.sent.every((m) => m.type !== 'move'),
    `no move sent after the reconnect: ${JSON.stringify(second.sent)}`,
  );
});

// Time passing a second at a time: Node's mock clock jumps to the end of a tick before it
// runs the timers due, so a chain of timers needs small steps.
function advance(t, ms) {
  for (let done = 0; done < ms; done += 1000) t.mock.timers.tick(Math.min(1000, ms - done));
}

// Issue 53: a frozen instance (or a proxy holding the tunnel to it) keeps the socket open with
// nothing coming through; the page must notice by itself and reconnect within ~10 s.
test('a silent connection is pinged, and left for a new one when nothing answers', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const { QUIET_MS, ANSWER_MS } = await import('../js/socket.js');
  assert.ok(QUIET_MS + ANSWER_MS <= 10_000, 'a dead link is left within 10 s');
  const socket = new Socket();
  const first = opened.at(-1);
  first.open();
  // A live server answers the ping: the connection stays.
  advance(t, QUIET_MS + 1000);
  const ping = first.sent.at(-1);
  assert.equal(ping.type, 'ping', `a ping after ${QUIET_MS} ms of silence`);
  first.onmessage({ data: JSON.stringify({ type: 'pong' }) });
  advance(t, ANSWER_MS + 1000);
  assert.equal(opened.at(-1), first, 'an answered ping keeps the connection');
  assert.equal(socket.status, 'connected');
  // Nothing answers any more: a new connection within QUIET_MS + ANSWER_MS (+ one look).
  const before = first.sent.length;
  advance(t, QUIET_MS + ANSWER_MS + 1000);
  assert.ok(first.sent.length > before, 'it asked again');
  assert.equal(first.readyState, FakeWebSocket.CLOSED, 'the dead connection is closed');
  const second = opened.at(-1);
  assert.notEqual(second, first, 'and a new one opened');
  assert.equal(socket.status, 'reconnecting');
  second.open();
  assert.equal(socket.status, 'connected');
});

test('a connection that keeps talking is never pinged', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  new Socket();
  const ws = opened.at(-1);
  ws.open();
  for (let i = 0; i < 30; i++) {
    advance(t, 6000 - 1000);
    ws.onmessage({ data: JSON.stringify({ type: 'notice' }) });
  }
  assert.ok(
    ws.sent.every((m) => m.type !== 'ping'),
    JSON.stringify(ws.sent),
  );
  assert.equal(opened.at(-1), ws);
});
