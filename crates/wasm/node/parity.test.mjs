// Parity of the engines in WebAssembly with the native build (issue 50, item 2): the same
// (game, options, seed, moves) give byte-identical legal moves, views (every seat and a
// spectator), outcomes, move replies and bot moves, and a game rebuilt from a seat's view
// (each game's sampler) previews a move identically.
//
//   scripts/build-wasm --features tic-tac-toe   # the module, with every game the tests register
//   node --test crates/wasm/node/
//
// (scripts/test does both.) The native half is `crates/wasm/examples/parity_fixture.rs`, run
// here with cargo: it plays PYRAMIDION_PARITY_GAMES random games of each game (1,000 unless
// set) and prints their moves and the SHA-256 of everything they showed; this replays each
// game in the module, hashes the same strings and compares. A missing module is a failure,
// never a skip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadEngines } from '../../../web/js/engine.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const moduleDir = process.env.PYRAMIDION_WASM_DIR || join(root, 'web', 'wasm');
const gamesPerGame = process.env.PYRAMIDION_PARITY_GAMES || '1000';
const botSamples = process.env.PYRAMIDION_PARITY_BOT_GAMES || '2';

/** The module, loaded through the page's own loader (web/js/engine.js). */
async function engines() {
  const wasm = join(moduleDir, 'pyramidion_wasm_bg.wasm');
  assert.ok(
    existsSync(wasm),
    `no WebAssembly module at ${wasm}: build it with scripts/build-wasm --features tic-tac-toe`,
  );
  return loadEngines({
    glue: pathToFileURL(join(moduleDir, 'pyramidion_wasm.js')),
    wasm: readFileSync(wasm),
  });
}

/** The native half: the registry's descriptors, then one line per game. */
function nativeFixture() {
  // The example alone, with the module's own features: the two builds must unify the same
  // dependency features (`-p`, not the workspace, whose other crates could add some).
  const out = execFileSync(
    'cargo',
    ['run', '--quiet', '--locked', '-p', 'pyramidion-wasm', '--features', 'tic-tac-toe',
      '--example', 'parity_fixture', '--', gamesPerGame, botSamples],
    { cwd: root, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [games, ...lines] = out.toString().trimEnd().split('\n');
  return { games, records: lines.map((l) => JSON.parse(l)) };
}

/**
 * Replays one game of the fixture in the module, feeding the hash the same strings in the
 * same order as the native side; returns the first bot move that differs, if any.
 */
function replay(Engine, record) {
  const e = new Engine(record.game, JSON.stringify(record.options), BigInt(record.seed));
  try {
    const hash = createHash('sha256');
    const feed = (text) => hash.update(text).update('\n');
    const bots = new Map(record.bots.map((b) => [`${b.ply} ${b.level}`, b]));
    const differences = [];
    for (let i = 0; ; i++) {
      feed(e.legalMoves());
      for (let seat = 0; seat < e.seats; seat++) feed(e.view(seat));
      feed(e.view(undefined));
      feed(e.outcome());
      if (e.toMove === undefined) {
        assert.equal(i, record.moves.length, `${record.game} seed ${record.seed}: ended early`);
        break;
      }
      for (const p of record.previews.filter((p) => p.ply === e.ply)) {
        // The game rebuilt from the seat's view (the sampler) previews a move as natively.
        const rebuilt = Engine.fromView(record.game, e.view(p.seat), p.seat, BigInt(p.seed));
        try {
          rebuilt.play(p.move);
          const digest = createHash('sha256').update(rebuilt.view(p.seat)).digest('hex');
          if (digest !== p.digest) differences.push(`preview at ply ${p.ply}: digests differ`);
        } finally {
          rebuilt.free();
        }
      }
      for (const [key, b] of bots) {
        if (b.ply !== e.ply) continue;
        const chosen = e.botMove(b.level, BigInt(b.seed));
        if (chosen !== b.move) differences.push(`bot ${key}: native ${b.move}, wasm ${chosen}`);
        bots.delete(key);
      }
      feed(e.play(record.moves[i]));
    }
    assert.equal(bots.size, 0, 'every sampled bot position was reached');
    return { digest: hash.digest('hex'), differences };
  } finally {
    e.free();
  }
}

test('the module registers the same games as the native build', async () => {
  const { glue } = await engines();
  const { games } = fixture();
  assert.equal(glue.games(), games);
});

let cached = null;
function fixture() {
  cached ??= nativeFixture();
  return cached;
}

test('random games of every game: views, outcomes and bot moves byte for byte', async () => {
  const { glue } = await engines();
  const { records } = fixture();
  const byGame = new Map();
  for (const r of records) {
    const seen = byGame.get(r.game) ?? { games: 0, moves: 0, bots: 0, failures: [] };
    const { digest, differences } = replay(glue.Engine, r);
    seen.games += 1;
    seen.moves += r.moves.length;
    seen.bots += r.bots.length;
    if (digest !== r.digest) seen.failures.push(`seed ${r.seed} ${JSON.stringify(r.options)}: digests differ`);
    seen.failures.push(...differences.map((d) => `seed ${r.seed}: ${d}`));
    byGame.set(r.game, seen);
  }
  const registered = JSON.parse(glue.games()).map((d) => d.key);
  assert.deepEqual([...byGame.keys()], registered, 'every registered game was played');
  for (const [game, seen] of byGame) {
    assert.ok(seen.games >= Number(gamesPerGame), `${game}: ${seen.games} games`);
    assert.ok(seen.bots >= 6, `${game}: every bot level on a sample (${seen.bots} bot moves)`);
    assert.deepEqual(seen.failures.slice(0, 10), [], `${game}: ${seen.failures.length} differences`);
    console.log(`${game}: ${seen.games} games, ${seen.moves} moves, ${seen.bots} bot moves: identical`);
  }
});
