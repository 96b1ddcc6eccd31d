// The speed figures of `speed.mjs`, in Chromium itself: the module (built with the `speed`
// feature) is served to a headless Chromium page driven through chromedriver, which runs the
// same work and times it with the page's clock (wall time: a page cannot read its thread's
// processor time, so on a busy machine compare it with `speed.mjs` on the wall clock too:
// PYRAMIDION_SPEED_CLOCK=wall).
//
//   scripts/build-wasm --features speed --out /tmp/wasm-speed
//   PYRAMIDION_WASM_DIR=/tmp/wasm-speed node crates/wasm/node/speed-chromium.mjs [SECONDS] [POSITIONS]
//
// Needs Debian's chromium and chromium-driver (scripts/test installs them). Not a test.
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = process.env.PYRAMIDION_WASM_DIR || '/tmp/wasm-speed';
const seconds = Number(process.argv[2] ?? 5);
const count = Number(process.argv[3] ?? 6);

// The work, as the page runs it (the same loop as speed.mjs, timed by performance.now()).
const page = `<!doctype html><script type="module">
import init, * as glue from '/pyramidion_wasm.js';
window.result = (async () => {
  await init();
  const lines = [];
  for (const d of JSON.parse(glue.games())) {
    const players = Math.min(Math.max(d.seats.min, 2), d.seats.max);
    const options = JSON.stringify({ players });
    const rates = [];
    for (let round = 0; round < 5; round++) {
      const start = performance.now();
      let games = 0;
      while (performance.now() - start < ${seconds * 1000} / 5) {
        glue.benchRandomGames(d.key, options, BigInt(1 + round * 1000000 + games), 20);
        games += 20;
      }
      rates.push(games / ((performance.now() - start) / 1000));
    }
    rates.sort((a, b) => a - b);
    const engines = JSON.parse(glue.benchPositions(d.key, 11n, ${count}))
      .map((r) => glue.Engine.fromRecord(JSON.stringify(r)));
    const start = performance.now();
    const chosen = engines.map((e) => e.botMove('max', 5n));
    const perMove = (performance.now() - start) / engines.length;
    lines.push(d.key + ': random ' + players + '-player games/s best ' + rates[4].toFixed(0) +
      ' median ' + rates[2].toFixed(0) + '; max ' + perMove.toFixed(1) + ' ms/move over ' +
      engines.length + ' positions (' + chosen.join(' | ') + ')');
  }
  return lines;
})();
</script>`;

const server = createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  } else if (req.url === '/pyramidion_wasm.js' || req.url === '/pyramidion_wasm_bg.wasm') {
    const type = req.url.endsWith('.js') ? 'text/javascript' : 'application/wasm';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(join(dir, req.url)));
  } else {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const pageUrl = `http://127.0.0.1:${server.address().port}/`;

const port = 9500 + Math.floor(Math.random() * 400);
const driver = spawn('chromedriver', [`--port=${port}`], { stdio: 'ignore' });
const webdriver = async (method, path, body) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(json.value)}`);
  return json.value;
};
try {
  let session;
  for (let i = 0; !session; i++) {
    try {
      session = await webdriver('POST', '/session', {
        capabilities: {
          alwaysMatch: {
            'goog:chromeOptions': {
              binary: '/usr/bin/chromium',
              args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                `--user-data-dir=${mkdtempSync(join(tmpdir(), 'speed-'))}`],
            },
            timeouts: { script: 600000 },
          },
        },
      });
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((ok) => setTimeout(ok, 200));
    }
  }
  const id = session.sessionId;
  await webdriver('POST', `/session/${id}/url`, { url: pageUrl });
  const lines = await webdriver('POST', `/session/${id}/execute/async`, {
    script: 'const done = arguments[0]; const wait = () => window.result ? window.result.then(done, (e) => done(["error " + e])) : setTimeout(wait, 50); wait();',
    args: [],
  });
  for (const line of lines) console.log(line);
  console.log(`(Chromium ${session.capabilities.browserVersion}, wall clock)`);
  await webdriver('DELETE', `/session/${id}`);
} finally {
  driver.kill();
  server.close();
}
