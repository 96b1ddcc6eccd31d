// Puzzles offline (web/js/puzzle-offline.js) over the in-memory store: which kept puzzle a
// page opened offline shows, and what each answer of the server does to a move tried offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEEP_PER_GAME, keepPuzzle, memoryPuzzleStore, offlinePuzzle, queueAttempt, sendAttempts } from '../js/puzzle-offline.js';

const puzzle = (id, game = 'g', extra = {}) => ({ id, game, seat: 0, view: {}, legal: [{ text: 'a' }], themes: [], tried: null, ...extra });

test('a kept puzzle is shown offline without its explanation, the latest untried one first', async () => {
  const store = memoryPuzzleStore();
  await keepPuzzle(store, puzzle('p1'), 1);
  await keepPuzzle(store, puzzle('p2', 'g', { explanation: { solutions: ['a'] } }), 2);
  await keepPuzzle(store, puzzle('p3', 'g', { tried: { solved: true } }), 3);
  await keepPuzzle(store, puzzle('q1', 'other'), 4);
  const shown = await offlinePuzzle(store, 'g');
  assert.equal(shown && shown.id, 'p2', 'the latest kept and not tried, of this game');
  assert.equal(shown && shown.explanation, undefined, 'no solution is kept before a try');
  assert.equal((await offlinePuzzle(store, 'g', { after: 'p2' }))?.id, 'p1', 'Next: another one');
  assert.equal((await offlinePuzzle(store, 'g', { id: 'p3' }))?.id, 'p3', 'one asked by its id, tried or not');
  assert.equal(await offlinePuzzle(store, 'g', { id: 'nope' }), null);
  // Tried offline: waiting to be sent, it is not offered again.
  await queueAttempt(store, { id: 'p2', game: 'g', move: 'a' }, 5);
  assert.equal((await offlinePuzzle(store, 'g'))?.id, 'p1');
  await queueAttempt(store, { id: 'p1', game: 'g', move: 'a' }, 6);
  assert.equal((await offlinePuzzle(store, 'g'))?.id, 'p1', 'none left to try: the latest waiting one');
  assert.equal((await offlinePuzzle(store, 'g', { after: 'p1' }))?.id, 'p2');
  assert.equal(await offlinePuzzle(store, 'other', { after: 'q1' }), null, 'none at all');
});

test('the oldest kept puzzles of a game go beyond the limit', async () => {
  const store = memoryPuzzleStore();
  for (let i = 0; i < KEEP_PER_GAME + 3; i++) await keepPuzzle(store, puzzle(`p${i}`), i);
  await keepPuzzle(store, puzzle('x', 'other'), 0);
  const kept = await store.puzzles.all();
  assert.equal(kept.filter((p) => p.game === 'g').length, KEEP_PER_GAME);
  assert.ok(!kept.some((p) => p.id === 'p0' || p.id === 'p2'));
  assert.ok(
    kept.some((p) => p.id === 'x'),
    "another game's are not counted",
  );
});

test('a move tried offline is sent once the server answers: its first move only, kept while there is no connection, dropped once answered or refused', async () => {
  const store = memoryPuzzleStore();
  await queueAttempt(store, { id: 'p1', game: 'g', move: 'a' }, 1);
  const again = await queueAttempt(store, { id: 'p1', game: 'g', move: 'b' }, 2);
  assert.equal(again.move, 'a', 'the first try is the one rated');
  await queueAttempt(store, { id: 'p2', game: 'g', move: 'c' }, 3);
  await queueAttempt(store, { id: 'p3', game: 'g', move: 'd' }, 4);
  // No connection: nothing sent, everything kept.
  const offline = Object.assign(new Error('down'), { code: 'network' });
  assert.deepEqual(
    await sendAttempts(store, async () => {
      throw offline;
    }),
    [],
  );
  assert.equal((await store.attempts.all()).length, 3);
  // Back: judged by the server (p1), refused (p2: a puzzle it no longer has), then the
  // connection fails again (p3 waits).
  const sent = [];
  const done = await sendAttempts(store, async (a) => {
    sent.push([a.id, a.move]);
    if (a.id === 'p1') return { solved: true, move: a.move };
    if (a.id === 'p2') throw Object.assign(new Error('gone'), { code: 'not_found' });
    throw offline;
  });
  assert.deepEqual(sent, [
    ['p1', 'a'],
    ['p2', 'c'],
    ['p3', 'd'],
  ]);
  assert.deepEqual(
    done.map((d) => [d.attempt.id, d.result ? 'judged' : d.code]),
    [
      ['p1', 'judged'],
      ['p2', 'not_found'],
    ],
  );
  assert.deepEqual(
    (await store.attempts.all()).map((a) => a.id),
    ['p3'],
  );
});
