// The offline games' logic (web/js/offline-store.js) over the in-memory store: a new game,
// the bots' seeds, and the upload of finished games (what each answer of the server does to
// a game kept in the browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botSeed, botToMove, memoryBackend, newOfflineGame, uploadBody, uploadFinished } from '../js/offline-store.js';

const counting = () => {
  let n = 0;
  return (bytes) => bytes.map(() => (n++ * 37 + 200) % 256);
};

test('a new offline game: its player and bots, a seed a JSON number keeps exactly, an id the server takes', () => {
  const random = counting();
  const seats = [{ type: 'me' }, { type: 'bot', level: 'greedy' }];
  const a = newOfflineGame({ game: 'g', options: { players: 2 }, seats, now: 5, random });
  const b = newOfflineGame({ game: 'g', options: { players: 2 }, seats, now: 6, random });
  assert.equal(a.seat, 0);
  assert.equal(a.status, 'playing');
  assert.deepEqual(a.moves, []);
  assert.ok(Number.isSafeInteger(a.seed) && a.seed >= 0, String(a.seed));
  assert.equal(JSON.parse(JSON.stringify(a)).seed, a.seed);
  assert.match(a.id, /^[0-9a-f]{16}$/);
  assert.notEqual(a.id, b.id);
  assert.notEqual(a.seed, b.seed);
  // A bot at seat 0: the player's seat is found wherever it is.
  assert.equal(newOfflineGame({ game: 'g', options: null, seats: [seats[1], seats[0]], now: 1, random }).seat, 1);
});

test("a bot's seed depends on the game's seed and the ply only, and fits the engine's seed", () => {
  assert.equal(botSeed(42, 3), botSeed(42, 3));
  assert.notEqual(botSeed(42, 3), botSeed(42, 4));
  assert.notEqual(botSeed(42, 3), botSeed(43, 3));
  const big = botSeed(Number.MAX_SAFE_INTEGER, 1000);
  assert.ok(big >= 0n && big < 1n << 63n);
});

test("whose turn is a bot's", () => {
  const g = newOfflineGame({ game: 'g', options: null, seats: [{ type: 'me' }, { type: 'bot', level: 'easy' }], now: 1, random: counting() });
  assert.equal(botToMove(g, 1), 'easy');
  assert.equal(botToMove(g, 0), null);
  assert.equal(botToMove(g, undefined), null);
});

test('finished games are uploaded oldest first; a refusal is final, a lost connection is tried again later', async () => {
  const store = memoryBackend();
  const random = counting();
  const make = (status, updated_at, moves) => ({ ...newOfflineGame({ game: 'g', options: { players: 1 }, seats: [{ type: 'me' }], now: updated_at, random }), status, updated_at, moves });
  const playing = make('playing', 1, ['a']);
  const first = make('over', 2, ['a', 'b']);
  const bad = make('over', 3, ['x']);
  const third = make('over', 4, ['c']);
  for (const g of [playing, third, bad, first]) await store.put(g);

  const sent = [];
  let online = true;
  const post = async (body) => {
    if (!online) throw Object.assign(new Error('offline'), { code: 'network' });
    sent.push(body);
    if (body.client_id === bad.id) throw Object.assign(new Error('no'), { code: 'bad_offline_record' });
    return { id: `server-${body.client_id}` };
  };

  online = false;
  assert.deepEqual(await uploadFinished(store, post, 10), []);
  assert.equal((await store.get(first.id)).status, 'over', 'kept to upload later');

  online = true;
  const done = await uploadFinished(store, post, 11);
  assert.deepEqual(
    sent.map((b) => b.client_id),
    [first.id, bad.id, third.id],
  );
  assert.deepEqual(sent[0], uploadBody(first));
  assert.deepEqual(sent[0].record, { game: 'g', options: { players: 1 }, seed: first.seed, moves: ['a', 'b'] });
  assert.deepEqual(
    done.map((g) => g.status),
    ['uploaded', 'refused', 'uploaded'],
  );
  assert.equal((await store.get(first.id)).server_id, `server-${first.id}`);
  assert.equal((await store.get(bad.id)).code, 'bad_offline_record');
  assert.equal((await store.get(playing.id)).status, 'playing', 'a game being played is not sent');

  // Nothing is sent twice.
  sent.length = 0;
  assert.deepEqual(await uploadFinished(store, post, 12), []);
  assert.deepEqual(sent, []);
});

test('a server that fails (not a refusal) leaves the game to upload later', async () => {
  const store = memoryBackend();
  const g = { ...newOfflineGame({ game: 'g', options: null, seats: [{ type: 'me' }], now: 1, random: counting() }), status: /** @type {const} */ ('over') };
  await store.put(g);
  const post = async () => {
    throw Object.assign(new Error('busy'), { code: 'storage_failing' });
  };
  assert.deepEqual(await uploadFinished(store, post, 2), []);
  assert.equal((await store.get(g.id)).status, 'over');
});
