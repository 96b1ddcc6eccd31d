// The page's face of the engines (web/js/engine.js) over the real module: what a page gets
// from a game it plays itself, and the server's codes for what the rules refuse.
//
//   scripts/build-wasm --features tic-tac-toe && node --test crates/wasm/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineError, loadEngines } from '../../../web/js/engine.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const moduleDir = process.env.PYRAMIDION_WASM_DIR || join(root, 'web', 'wasm');

async function engines() {
  const wasm = join(moduleDir, 'pyramidion_wasm_bg.wasm');
  assert.ok(existsSync(wasm), `no WebAssembly module at ${wasm}: build it with scripts/build-wasm`);
  return loadEngines({ glue: pathToFileURL(join(moduleDir, 'pyramidion_wasm.js')), wasm: readFileSync(wasm) });
}

const refusedWith = (code) => (e) => e instanceof EngineError && e.code === code;

test('a solo game against THE Legend plays to its end in the page, and its record replays', async () => {
  const e = await engines();
  const g = e.newGame('forgotten-treasures', { players: 1, solo: 'the-legend' }, 42n);
  assert.equal(g.seats, 1);
  assert.equal(g.toMove, 0);
  while (g.toMove !== undefined) {
    const legal = g.legalMoves().map((m) => m.text);
    const chosen = g.botMove('greedy', BigInt(g.ply));
    assert.ok(legal.includes(chosen), `${chosen} is legal`);
    const played = g.play(chosen);
    assert.equal(played.text, chosen);
    assert.equal(played.seat, 0);
  }
  const outcome = g.outcome();
  assert.equal(outcome.scores.length, 1);
  assert.equal(typeof outcome.automa, 'number', "THE Legend's score");
  const record = g.record();
  assert.equal(record.game, 'forgotten-treasures');
  assert.equal(record.moves.length, g.ply);
  const again = e.fromRecord(record);
  assert.deepEqual(again.view(0), g.view(0));
  assert.deepEqual(again.outcome(), outcome);
  g.free();
  again.free();
});

test('what the rules refuse comes back with the server codes, and changes nothing', async () => {
  const e = await engines();
  assert.throws(() => e.newGame('chess', null, 1n), refusedWith('unknown_game'));
  assert.throws(() => e.newGame('pyramids', { players: 9 }, 1n), refusedWith('bad_player_count'));
  const g = e.newGame('tic-tac-toe', null, 1n);
  const first = g.toMove;
  g.play('b2');
  assert.throws(() => g.play('b2'), refusedWith('cell_taken'));
  assert.throws(() => g.play('jump'), refusedWith('bad_move_syntax'));
  assert.throws(() => g.view(2), refusedWith('bad_seat'));
  assert.throws(() => g.botMove('grandmaster', 1n), refusedWith('unknown_level'));
  assert.equal(g.ply, 1);
  assert.equal(g.toMove, 1 - first, 'the other seat is still to move');
  assert.deepEqual(g.view(), g.view(undefined), "a spectator's view");
  assert.throws(() => e.fromRecord('game: tic-tac-toe\nseed: 1\nmoves:\nb2\nb2\n'), refusedWith('cell_taken'));
  g.free();
});

test('an analysis computed in the page reports each decision with its budget', async () => {
  const e = await engines();
  const g = e.newGame('pyramids', { players: 2 }, 5n);
  for (let i = 0; i < 6; i++) g.play(g.botMove('random', BigInt(i)));
  const report = g.analyse(16, 1n);
  assert.equal(report.game, 'pyramids');
  assert.equal(report.budget, 16);
  assert.ok(report.decisions.length > 0 && report.decisions.every((d) => d.ply < 6));
  assert.throws(() => g.analyse(0, 1n), refusedWith('bad_budget'));
  g.free();
});

test("a running game's decision is judged from a seat's view, on a move that seat may play", async () => {
  const e = await engines();
  for (const game of e.games().map((d) => d.key).filter((key) => e.samplesViews(key))) {
    const g = e.newGame(game, { players: 2 }, 7n);
    // A decision with a choice, a few moves in.
    for (let i = 0; i < 4 || g.legalMoves().length < 2; i++) g.play(g.botMove('random', BigInt(i)));
    const seat = g.toMove;
    const view = g.view(seat);
    const rebuilt = e.fromView(game, view, seat, 3n);
    const decision = rebuilt.judgeNow(200, 1n);
    assert.equal(decision.seat, seat, game);
    assert.ok(
      g.legalMoves().some((m) => m.text === decision.best),
      `${game}: ${decision.best}`,
    );
    assert.throws(() => rebuilt.judgeNow(0, 1n), refusedWith('bad_budget'));
    rebuilt.free();
    g.free();
  }
});
