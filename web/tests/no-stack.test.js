// A player never sees a stack trace (issue 47): pages show a translated message and an error
// code, and leave the trace to the console. No module of the shell or a game reads an error's
// `stack`, the only way one could reach the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../js/', import.meta.url).pathname;

/** @param {string} dir @returns {string[]} */
function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

test('no module of web/js reads an error stack', () => {
  const files = modules(root);
  assert.ok(files.length > 20, `found ${files.length} modules`);
  const readers = files.filter((f) => /\.stack\b/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(readers, []);
});
