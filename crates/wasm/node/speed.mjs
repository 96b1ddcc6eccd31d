// The WebAssembly half of the speed figures (docs/performance.md, "The engines in
// WebAssembly"): the same work as `examples/speed.rs` times natively, here in a module built
// with the `speed` feature, under Node's V8 (the engine Chromium runs it with).
//
//   scripts/build-wasm --features speed --out /tmp/wasm-speed
//   PYRAMIDION_WASM_DIR=/tmp/wasm-speed node crates/wasm/node/speed.mjs [SECONDS] [POSITIONS]
//
// Seconds are the main thread's time on a processor (Linux's /proc/thread-self/schedstat), as
// on the native side. Not a test (speed is measured, never asserted): its file name keeps
// `node --test` off it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dir = process.env.PYRAMIDION_WASM_DIR || join(root, 'web', 'wasm');
const glue = await import(pathToFileURL(join(dir, 'pyramidion_wasm.js')).href);
glue.initSync({ module: readFileSync(join(dir, 'pyramidion_wasm_bg.wasm')) });

/** Seconds this thread has run on a processor (the first field of its schedstat, in ns), or
 * with PYRAMIDION_SPEED_CLOCK=wall the wall clock's (to compare with speed-chromium.mjs). */
const wall = process.env.PYRAMIDION_SPEED_CLOCK === 'wall';
const cpuSeconds = wall
  ? () => performance.now() / 1000
  : () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;

const seconds = Number(process.argv[2] ?? 5);
const count = Number(process.argv[3] ?? 6);
const ROUNDS = 5;
for (const d of JSON.parse(glue.games())) {
  const players = Math.min(Math.max(d.seats.min, 2), d.seats.max);
  const options = JSON.stringify({ players });
  const rates = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = cpuSeconds();
    let games = 0;
    while (cpuSeconds() - start < seconds / ROUNDS) {
      glue.benchRandomGames(d.key, options, BigInt(1 + round * 1_000_000 + games), 20);
      games += 20;
    }
    rates.push(games / (cpuSeconds() - start));
  }
  rates.sort((a, b) => a - b);
  const positions = JSON.parse(glue.benchPositions(d.key, 11n, count));
  const engines = positions.map((r) => glue.Engine.fromRecord(JSON.stringify(r)));
  const start = cpuSeconds();
  const chosen = engines.map((e) => e.botMove('max', 5n));
  const perMove = ((cpuSeconds() - start) * 1000) / engines.length;
  engines.forEach((e) => e.free());
  console.log(
    `${d.key}: random ${players}-player games/s best ${rates[ROUNDS - 1].toFixed(0)} median ` +
      `${rates[Math.floor(ROUNDS / 2)].toFixed(0)}; max ${perMove.toFixed(1)} ms/move over ` +
      `${engines.length} positions (${chosen.join(' | ')})`,
  );
}
