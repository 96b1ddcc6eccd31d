// The move log groups moves into turns and numbers them by round of play (a round ends when a
// seat that already played in it is to play again), whoever starts the round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { turnsOf } from '../js/move-log.js';

const moves = (...seats) => seats.map((seat, ply) => ({ seat, ply, text: `m${ply}` }));
const summary = (turns) => turns.map((t) => [t.interlude ? 'x' : t.seat, t.round, t.moves.length]);

test('consecutive moves of one seat are one turn; each seat once makes a round', () => {
  assert.deepEqual(summary(turnsOf(moves(0, 0, 1, 1, 1, 0, 1))), [
    [0, 1, 2],
    [1, 1, 3],
    [0, 2, 1],
    [1, 2, 1],
  ]);
});

test('a round started by another seat still counts every seat once', () => {
  // Three seats; seat 1 starts round 2 (as the next first player does): 0 1 2 | 1 2 0 | 2.
  assert.deepEqual(summary(turnsOf(moves(0, 1, 2, 1, 2, 0, 2))), [
    [0, 1, 1],
    [1, 1, 1],
    [2, 1, 1],
    [1, 2, 1],
    [2, 2, 1],
    [0, 2, 1],
    [2, 3, 1],
  ]);
});

test("an automa's turn follows the move it answered, in that move's round", () => {
  const log = moves(0, 0, 0);
  const turns = turnsOf(log, [{ after: 1, name: 'Automa', lines: ['took'] }]);
  assert.deepEqual(summary(turns), [
    [0, 1, 2],
    ['x', 1, 0],
    [0, 2, 1],
  ]);
  assert.equal(turns[1].interlude.name, 'Automa');
});

test('an empty log has no turns', () => {
  assert.deepEqual(turnsOf([]), []);
});
