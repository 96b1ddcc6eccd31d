// The engines' loader (web/js/engine.js) without the module: a refusal thrown by the module
// (a JSON string with the engine's code) becomes an `EngineError` with that code; anything
// else passes through untouched. The module itself is tested in crates/wasm/node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, checked, loadEngines } from '../js/engine.js';

test('a refusal from the module is an EngineError with its code', () => {
  const refusal = JSON.stringify({ code: 'illegal_move', message: 'slot_occupied' });
  assert.throws(
    () =>
      checked(() => {
        throw refusal;
      }),
    (e) => e instanceof EngineError && e.code === 'illegal_move' && e.message === 'slot_occupied',
  );
  assert.equal(
    checked(() => 'b2'),
    'b2',
  );
});

test('a string that is not a refusal, and real errors, are not mistaken for one', () => {
  assert.throws(
    () =>
      checked(() => {
        throw 'unreachable executed';
      }),
    (e) => e instanceof EngineError && e.code === 'engine_error' && e.message === 'unreachable executed',
  );
  const crash = new RangeError('memory access out of bounds');
  assert.throws(
    () =>
      checked(() => {
        throw crash;
      }),
    (e) => e === crash,
  );
});

test('a module that cannot be loaded rejects, and a later call tries again', async () => {
  const missing = { glue: new URL('file:///nonexistent/pyramidion_wasm.js') };
  const first = loadEngines(missing);
  assert.equal(loadEngines(missing), first, 'one load at a time');
  await assert.rejects(first);
  const again = loadEngines(missing);
  assert.notEqual(again, first, 'the failure is not kept');
  await assert.rejects(again);
});
