// The browser's `patch` messages (docs/protocol.md, "Patches") make the same state a whole
// `state` message would carry, or refuse a patch that does not follow on from the last state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from '../js/patch.js';

const base = {
  type: 'state',
  game: 'g1',
  state_id: 7,
  event: 7,
  missed: [],
  clock: null,
  view: { ply: 3, seats: [{ score: 1 }, { score: 2 }], note: 'x' },
  legal: [{ text: 'a' }, { text: 'b' }],
};

test('a patch sets, appends and removes by JSON pointer, and outside fields come whole', () => {
  const next = applyPatch(base, {
    type: 'patch',
    game: 'g1',
    from: 7,
    state_id: 8,
    event: 8,
    clock: { to_move: 1 },
    patch: [['/view/ply', 4], ['/view/seats/1/score', 5], ['/legal/2', { text: 'c' }], ['/view/note'], ['/legal/0']],
  });
  assert.deepEqual(next, {
    type: 'state',
    game: 'g1',
    state_id: 8,
    event: 8,
    clock: { to_move: 1 },
    missed: [],
    view: { ply: 4, seats: [{ score: 1 }, { score: 5 }] },
    legal: [{ text: 'b' }, { text: 'c' }],
  });
  // The base is left as it was: the page may still draw it.
  assert.equal(base.view.ply, 3);
  assert.equal(base.legal.length, 2);
});

test('escaped pointer tokens name members with / and ~', () => {
  const withOdd = { ...base, view: { 'a/b': 1, 'c~d': 2 } };
  const next = applyPatch(withOdd, { game: 'g1', from: 7, state_id: 8, event: 8, patch: [['/view/a~1b', 3], ['/view/c~0d']] });
  assert.deepEqual(next.view, { 'a/b': 3 });
});

test('a patch that does not follow on from the last state is a gap (null)', () => {
  assert.equal(applyPatch(base, { game: 'g1', from: 6, state_id: 8, event: 8, patch: [] }), null);
  assert.equal(applyPatch(null, { game: 'g1', from: 7, state_id: 8, event: 8, patch: [] }), null);
});

test('an operation on a path that does not exist is a gap, not a wrong state', () => {
  const quiet = console.error;
  console.error = () => {};
  try {
    assert.equal(applyPatch(base, { game: 'g1', from: 7, state_id: 8, event: 8, patch: [['/view/none/x', 1]] }), null);
    assert.equal(applyPatch(base, { game: 'g1', from: 7, state_id: 8, event: 8, patch: [['/legal/5', 1]] }), null);
    assert.equal(applyPatch(base, { game: 'g1', from: 7, state_id: 8, event: 8, patch: [['/legal/2']] }), null);
  } finally {
    console.error = quiet;
  }
});
