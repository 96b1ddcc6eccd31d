// Issue 46: a turn-based table showed "1 d 0 h" for the seat waiting beside "23 h 59" for the
// seat whose day was running: one unit for both until two days.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readFile } from 'node:fs/promises';

// The page's catalogs, served from web/ as the server does.
globalThis.fetch = /** @type {any} */ (
  async (/** @type {string} */ path) => {
    const text = await readFile(new URL(`..${path}`, import.meta.url), 'utf8');
    return { ok: true, json: async () => JSON.parse(text) };
  }
);
globalThis.localStorage = /** @type {any} */ ({ getItem: () => 'en', setItem() {} });
globalThis.navigator = /** @type {any} */ ({ languages: ['en'], language: 'en' });
globalThis.document = /** @type {any} */ ({ documentElement: {} });
const { initI18n } = await import('../js/i18n.js');
await initI18n();
const { formatClock } = await import('../js/clocks.js');

test('a day and its last minute read in the same unit; days only from two days on', () => {
  const day = 24 * 3600 * 1000;
  assert.equal(formatClock(day), '24 h 00');
  assert.equal(formatClock(day - 60_000), '23 h 59');
  assert.equal(formatClock(2 * day - 1000), '47 h 59');
  assert.equal(formatClock(2 * day), '2 d 0 h');
  assert.equal(formatClock(3 * day + 5 * 3600 * 1000), '3 d 5 h');
  assert.equal(formatClock(65_000), '1:05');
  assert.equal(formatClock(-5), '0:00');
});
