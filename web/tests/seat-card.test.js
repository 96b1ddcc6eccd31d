// A seat card says "· to move" while that seat's turn runs, never once the game has ended (a
// resignation leaves the rules' view with a seat to move: "aurora · to move" stayed on a
// finished game's card).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isToMove } from '../js/seat-card.js';

test('the seat to move of a running game is marked, and no seat of a finished one', () => {
  const running = { view: { to_move: 1 }, state: { finished: false } };
  assert.equal(isToMove(running, 1), true);
  assert.equal(isToMove(running, 0), false);
  const resigned = { view: { to_move: 1 }, state: { finished: true } };
  assert.equal(isToMove(resigned, 1), false);
});
