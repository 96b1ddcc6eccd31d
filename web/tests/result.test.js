// The shell's result panel reads the engine's outcome and the view's seats: it ranks nothing
// itself. Without a catalog, `t` returns the message key, so the tests read keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headline, keyValue, rankingRows, shownOutcome, tieNotes } from '../js/result.js';

const name = (seat) => `P${seat}`;
// Three seats: seat 2 first, seats 0 and 1 level on points, seat 0 ahead on gems left.
const three = {
  seats: [
    { seat: 0, score: 30 },
    { seat: 1, score: 30 },
    { seat: 2, score: 41 },
  ],
  outcome: {
    scores: [30, 30, 41],
    ranks: [1, 2, 0],
    automa: null,
    keys: [
      { name: 'score', values: [30, 30, 41] },
      { name: 'gems_left', values: [4, 2, 0] },
    ],
    decided_by: ['score', 'gems_left', null],
  },
};

test('rows follow the ranks, with the tie-break columns asked for', () => {
  const rows = rankingRows(three, name, ['gems_left']);
  assert.deepEqual(
    rows.map((r) => [r.name, r.rank, r.score, r.ties]),
    [
      ['P2', 1, 41, [0]],
      ['P0', 2, 30, [4]],
      ['P1', 3, 30, [2]],
    ],
  );
  assert.equal(keyValue(three.outcome, 'gems_left', 1), 2);
  assert.equal(keyValue(three.outcome, 'missing', 1), null);
});

test('a note says which key set a seat apart from the one above it, with both values', () => {
  const rows = rankingRows(three, name, []);
  assert.deepEqual(tieNotes(three.outcome, rows), ['P0 / P1: tie.gems_left']);
});

test('a shared first place names every winner; a single winner is you or named', () => {
  const shared = { ...three, outcome: { ...three.outcome, ranks: [0, 0, 1], decided_by: [null, 'shared', 'score'] } };
  const rows = rankingRows(shared, name, []);
  assert.deepEqual(
    rows.map((r) => r.name),
    ['P0', 'P1', 'P2'],
  );
  assert.equal(headline(shared.outcome, rows, 0, ''), 'result.shared_win');
  const single = rankingRows(three, name, []);
  assert.equal(headline(three.outcome, single, 2, ''), 'result.you_win');
  assert.equal(headline(three.outcome, single, 0, ''), 'result.winner');
});

test('in solo the automa takes the place the player did not, and its rule is the note', () => {
  const solo = (rank, by) => ({
    seats: [{ seat: 0, score: 50 }],
    automa: { name: 'legend', score: 50 },
    outcome: { scores: [50], ranks: [rank], automa: 50, keys: [{ name: 'score', values: [50] }], decided_by: [by] },
  });
  const lost = solo(1, 'automa_wins_ties');
  const rows = rankingRows(lost, name, ['gems_left'], 'Automa');
  assert.deepEqual(
    rows.map((r) => [r.name, r.rank, r.ties]),
    [
      ['Automa', 1, [null]],
      ['P0', 2, [null]],
    ],
  );
  assert.deepEqual(tieNotes(lost.outcome, rows), ['tie.automa_wins_ties']);
  assert.equal(headline(lost.outcome, rows, 0, 'Automa'), 'result.automa_won');
  const won = solo(0, null);
  const wonRows = rankingRows(won, name, [], 'Automa');
  assert.deepEqual(
    wonRows.map((r) => [r.name, r.rank]),
    [
      ['P0', 1],
      ['Automa', 2],
    ],
  );
  assert.deepEqual(tieNotes(won.outcome, wonRows), []);
  assert.equal(headline(won.outcome, wonRows, 0, 'Automa'), 'result.automa_beaten');
});

test("the end screen draws the server's ranking: a resigner the rules rank first is not crowned", () => {
  // Issue 46: three seats, seat 1 resigned in round 2 and its bot scored most. The view
  // carries the rules' outcome; the state carries the server's.
  const rules = { scores: [40, 52, 31], ranks: [1, 0, 2], automa: null, keys: [{ name: 'score', values: [40, 52, 31] }], decided_by: ['score', null, 'score'] };
  const server = { ...rules, ranks: [0, 2, 1], decided_by: [null, 'resigned', 'score'] };
  const outcome = /** @type {any} */ (shownOutcome({ outcome: server }, { outcome: rules }));
  assert.equal(outcome, server);
  const seats = [
    { seat: 0, score: 40 },
    { seat: 1, score: 52 },
    { seat: 2, score: 31 },
  ];
  const rows = rankingRows({ seats, outcome }, name, []);
  assert.deepEqual(
    rows.map((r) => [r.name, r.rank]),
    [
      ['P0', 1],
      ['P2', 2],
      ['P1', 3],
    ],
  );
  assert.equal(headline(outcome, rows, 1, ''), 'result.winner', 'the page of the resigner does not say "You win!"');
  assert.equal(headline(outcome, rows, 0, ''), 'result.you_win');
  assert.deepEqual(tieNotes(outcome, rows), ['P2 / P1: tie.resigned']);
});
