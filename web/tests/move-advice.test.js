// The running game's judgement names its best move as one to make ("take god 2, Anubis"), not
// in the move log's past tense ("took god 2, Anubis"): each game words its moves both ways
// through its own catalog (web/js/<game>/i18n), in every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const catalogs = {};
for (const code of ['en', 'fr', 'it']) {
  catalogs[code] = { ...read(`../i18n/${code}.json`) };
  for (const game of ['pyramids', 'pyramido', 'forgotten-treasures']) Object.assign(catalogs[code], read(`../js/${game}/i18n/${code}.json`));
}

// What the page gives i18n.js: the catalogs served at /i18n/<code>.json, and a browser's bits.
globalThis.fetch = async (url) => ({ ok: true, json: async () => catalogs[String(url).match(/(\w+)\.json$/)[1]] });
globalThis.localStorage = { getItem: () => 'en', setItem: () => {} };
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { initI18n, setLanguage } = await import('../js/i18n.js');
const pyramids = await import('../js/pyramids/moves.js');
const treasures = await import('../js/forgotten-treasures/moves.js');
await initI18n();

const moves = {
  pyramids: [
    { kind: 'god', god: 'anubis', number: 2, text: 'god 2' },
    { kind: 'pair', pair: 0, text: 'pair 1' },
    { kind: 'pyramid', place: 'a1', row: 0, slot: 0, hand: 0, card: 3, text: 'pyramid a1' },
    { kind: 'obelisk', hand: 0, card: 3, text: 'obelisk' },
    { kind: 'tomb', hand: 1, card: 4, text: 'tomb 2' },
    { kind: 'done', text: 'done' },
    { kind: 'discard', hand: 0, card: 5, text: 'discard 1' },
  ],
  treasures: [
    { kind: 'take', space: 0, gem: null, text: 'take 1' },
    { kind: 'take', space: 1, gem: 'blue', text: 'take 2 blue' },
    { kind: 'flip', pile: 0, text: 'flip 1' },
    { kind: 'place', x: 0, y: 0, dir: 'e', cells: [], text: 'place a1 e' },
    { kind: 'activate', area: 'c4', payment: '2m', points: 3, text: 'activate c4 2m' },
    { kind: 'done', text: 'done' },
    { kind: 'discard', gem: 'red', text: 'discard red' },
  ],
};

for (const code of ['en', 'fr', 'it']) {
  test(`${code}: every move a judge may suggest reads as one to make, not the log's past`, async () => {
    await setLanguage(code, false);
    for (const [game, say] of [
      ['pyramids', pyramids.moveText],
      ['treasures', treasures.moveText],
    ]) {
      for (const m of moves[game]) {
        const advice = say(/** @type {any} */ (m), 'advice');
        // English "put" is the same in both tenses; every other wording differs.
        if (!(code === 'en' && advice.startsWith('put '))) assert.notEqual(advice, say(/** @type {any} */ (m)), `${game} ${m.kind}`);
        assert.ok(!/advice\./.test(advice) && !/\{\w+\}/.test(advice), `${game} ${m.kind}: ${advice}`);
      }
    }
  });
}

test('English: the judge says "take", the log "took"', async () => {
  await setLanguage('en', false);
  const god = /** @type {any} */ (moves.pyramids[0]);
  assert.equal(pyramids.moveText(god, 'advice'), 'take god 2, Anubis');
  assert.equal(pyramids.moveText(god), 'took god 2, Anubis');
});

// Pyramido words its moves in its table module (drawn in the page): its catalog holds the same
// advice keys as its log keys, in every language.
test('Pyramido has an advice wording for each move of its log, in every language', () => {
  for (const code of ['en', 'fr', 'it']) {
    const c = read(`../js/pyramido/i18n/${code}.json`);
    for (const kind of ['take', 'place', 'mark', 'resurface', 'pass', 'refill', 'cover']) assert.ok(c[`pyo.advice.${kind}`], `${code} pyo.advice.${kind}`);
  }
});
