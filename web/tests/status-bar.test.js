// The shell's status line says what the view's envelope says: the end, the seat to move's own
// step, or whom the others wait for (in the game's catalog namespace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveNumber, promptKey as shellPromptKey } from '../js/status-bar.js';

// The catalog of a game that words its own prompts (no catalog is loaded here).
const catalog = new Set(['pyo.prompt.take', 'pyo.prompt.others', 'py.prompt.others_discard']);
const promptKey = (ctx, ns) => shellPromptKey(ctx, ns, (key) => catalog.has(key));

const ctx = (view, myTurn = false) => ({ view: { stage: 1, stages: 4, first_player: 0, outcome: null, ...view }, state: { state_id: 1 }, myTurn, seatName: (s) => `P${s}` });

test('the seat to move reads its step; the others read whom they wait for', () => {
  assert.deepEqual(promptKey(ctx({ phase: 'take', to_move: 0 }, true), 'pyo.'), ['pyo.prompt.take', {}]);
  // Without a message for the phase, the namespace's general one.
  assert.deepEqual(promptKey(ctx({ phase: 'take', to_move: 1 }), 'pyo.'), ['pyo.prompt.others', { name: 'P1' }]);
  assert.deepEqual(promptKey(ctx({ phase: 'discard', to_move: 2 }), 'py.'), ['py.prompt.others_discard', { name: 'P2' }]);
});

test("a game that words no prompt reads the shell's", () => {
  assert.deepEqual(promptKey(ctx({ phase: 'play', to_move: 0 }, true), ''), ['prompt.your_turn', {}]);
  assert.deepEqual(promptKey(ctx({ phase: 'play', to_move: 1 }), ''), ['prompt.waiting_for', { name: 'P1' }]);
});

test('the end wins over any phase; nobody to move says nothing', () => {
  assert.deepEqual(promptKey(ctx({ phase: 'over', to_move: null }), 'py.'), ['prompt.over', {}]);
  assert.deepEqual(promptKey(ctx({ phase: 'place', to_move: null, outcome: { scores: [] } }), ''), ['prompt.over', {}]);
  assert.equal(promptKey(ctx({ phase: 'place', to_move: null }), ''), null);
  const resigned = { ...ctx({ phase: 'place', to_move: 1 }), state: { state_id: 9, finished: true } };
  assert.deepEqual(promptKey(resigned, ''), ['prompt.over', {}]);
});

test('the player reads the number of the move to come, which an undo takes back, not the state id', () => {
  assert.equal(moveNumber({ state_id: 0, event: 0 }), 1);
  // Five moves played, one taken back: the server's state id is 4 + 2 × 1 = 6, the move to come is the 5th.
  assert.equal(moveNumber({ state_id: 6, event: 4 }), 5);
  // A page that numbers its states by moves (the tutorial) has no event.
  assert.equal(moveNumber({ state_id: 3 }), 4);
});
