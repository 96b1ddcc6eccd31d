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
