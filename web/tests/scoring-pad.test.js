// The shell's scoring pad lists every seat, then the automa, with the points the view gives
// per stage (`null`: not scored yet); the stages scored are those some row has points for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { padRows, scoredStages } from '../js/scoring-pad.js';

const name = (seat) => `P${seat}`;

test('seats then the automa, each with its stage points and total', () => {
  const view = {
    stages: 4,
    seats: [
      { seat: 0, score: 12, stage_points: [5, 7, null, null] },
      { seat: 1, score: 9, stage_points: [4, 5, null, null] },
    ],
    automa: { name: 'legend', score: 10, stage_points: [3, 7, null, null] },
  };
  const rows = padRows(view, name, 'Automa');
  assert.deepEqual(
    rows.map((r) => [r.name, r.total]),
    [
      ['P0', 12],
      ['P1', 9],
      ['Automa', 10],
    ],
  );
  assert.equal(scoredStages(rows), 2);
});

test('a seat eliminated early leaves the stages others scored', () => {
  const view = {
    stages: 4,
    seats: [
      { seat: 0, score: 3, stage_points: [3, null, null, null] },
      { seat: 1, score: 20, stage_points: [8, 12, null, null] },
    ],
  };
  assert.equal(scoredStages(padRows(view, name)), 2);
  assert.equal(scoredStages(padRows({ stages: 4, seats: [{ seat: 0, score: 0, stage_points: [null, null, null, null] }] }, name)), 0);
});
