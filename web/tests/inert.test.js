// The replay's board is inert (issue 46): every move control a game's table draws there is
// disabled and clicks on the table stop, but enlarging a pyramid still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { makeInert } from '../js/inert.js';

// Just enough of the DOM for the tables' output: tags, test ids, and simple selector lists
// (`tag` or `[data-testid=x]`, comma-separated).
class El {
  constructor(tag, testid = null, children = []) {
    this.tagName = tag.toUpperCase();
    this.attrs = new Map(testid ? [['data-testid', testid]] : []);
    this.children = children;
    this.parent = null;
    this.disabled = false;
    this.listeners = [];
    for (const c of children) c.parent = this;
  }
  matches(selectors) {
    return selectors.split(',').some((raw) => {
      const sel = raw.trim();
      const id = /^\[data-testid=([\w-]+)\]$/.exec(sel);
      return id ? this.attrs.get('data-testid') === id[1] : this.tagName === sel.toUpperCase();
    });
  }
  querySelectorAll(selectors) {
    return this.children.flatMap((c) => [...(c.matches(selectors) ? [c] : []), ...c.querySelectorAll(selectors)]);
  }
  closest(selectors) {
    for (let el = this; el; el = el.parent) if (el.matches(selectors)) return el;
    return null;
  }
  setAttribute(name, value) {
    this.attrs.set(name, value);
  }
  addEventListener(type, listener, capture) {
    this.listeners.push({ type, listener, capture });
  }
  // A click on `target`: the capture listeners of this root, then (unless stopped) the target's.
  click(target) {
    let stopped = false;
    const e = { target, stopPropagation: () => (stopped = true), preventDefault: () => {} };
    for (const l of this.listeners) if (l.type === 'click' && l.capture) l.listener(e);
    return !stopped;
  }
}

// What Pyramido's table draws at a flagged placement in the replay: the placing controls,
// the market's take buttons, a ghost placement (a clickable slot), and the enlarge toggle.
const drawPyramido = () => {
  const ghost = new El('g', 'ghost');
  const enlarge = new El('button', 'enlarge');
  const own = new El('section', 'own-area', [new El('button', 'rotate'), new El('button', 'confirm-place'), new El('svg', null, [ghost])]);
  const market = new El('section', 'market', [new El('button', 'take'), new El('button', 'take'), new El('button', 'pass')]);
  const card = new El('div', 'player-card', [enlarge]);
  const status = new El('p', 'status-line');
  return { drawn: [status, [new El('div', 'table', [card, own, market])], null], ghost, enlarge };
};

const buttons = (drawn) =>
  drawn
    .flat(Infinity)
    .filter(Boolean)
    .flatMap((r) => [...(r.matches('button') ? [r] : []), ...r.querySelectorAll('button')]);

test('no move control of a replayed table is enabled; enlarging still is', () => {
  const { drawn } = drawPyramido();
  assert.equal(makeInert(drawn), 5);
  const live = buttons(drawn).filter((b) => !b.disabled);
  assert.deepEqual(
    live.map((b) => b.attrs.get('data-testid')),
    ['enlarge'],
  );
  for (const b of buttons(drawn).filter((b) => b.disabled)) assert.equal(b.attrs.get('aria-disabled'), 'true');
});

test('a click on the replayed table stops there, except on a view control', () => {
  const { drawn, ghost, enlarge } = drawPyramido();
  makeInert(drawn);
  const table = drawn[1][0];
  assert.equal(table.click(ghost), false, 'a ghost placement is not chosen');
  assert.equal(table.click(enlarge), true, 'the pyramid is still enlarged');
});

test('the replay makes every table it draws inert', () => {
  const source = readFileSync(new URL('../js/replay.js', import.meta.url), 'utf8');
  assert.match(source, /drawn = render\(ctx\);[\s\S]*makeInert\(drawn\);[\s\S]*mount\(\s*root/);
});
