// @ts-check
// "Your move": the games where I am to move, a count in the top bar, and a browser
// notification (and an optional sound) when it becomes my turn anywhere, also while the page
// is in the background. The server pushes a `turn` message to every connection of a player
// when the seat to move changes in one of their games; the list itself is `GET /api/me/turns`.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, showError } from './shell.js';
import { tableLine } from './lobby.js';
import { formatClock } from './clocks.js';
import { dateText } from './history.js';
import { enablePush, status as pushStatus } from './push.js';

const SOUND_KEY = 'pyr.turn_sound';
// The event that asks for the list again (see `initTurns`).
const TURNS_CHANGED = 'pyr:turns-changed';
// The games where I am to move, by id (each the table as `GET /api/me/turns` gives it).
const mine = new Map();

// The games that wait for my move now: not those my vacation pauses (`paused_until`).
function waiting() {
  return [...mine.values()].filter((g) => !g.paused_until).length;
}
function pausedCount() {
  return mine.size - waiting();
}
let readAt = performance.now();
const listeners = new Set();

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === '1';
}

export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? '1' : '0');
  if (on) beep();
}

// The tab's title starts with how many games wait for my move ("(2) Your move · Pyramidion")
// on every page: pages set their own title, and the count is put back in front of it.
const COUNT_PREFIX = /^\(\d+\) /;
function titleWithCount() {
  const base = document.title.replace(COUNT_PREFIX, '');
  const want = waiting() > 0 ? `(${waiting()}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

function changed() {
  renderCount();
  listeners.forEach((f) => f());
}

async function reload() {
  try {
    const list = await api('GET', '/api/me/turns');
    mine.clear();
    list.games.forEach((g) => mine.set(g.id, g));
    readAt = performance.now();
  } catch (e) {
    if (e.code !== 'unauthorized') showError(e);
  }
  changed();
}

// The top bar's link: how many games wait for me (the text says it, not only a colour).
function renderCount() {
  const el = document.getElementById('turns');
  if (!el) return;
  titleWithCount();
  const count = waiting();
  const paused = pausedCount();
  el.dataset.count = String(count);
  el.dataset.paused = String(paused);
  el.classList.toggle('waiting', count > 0);
  mount(el, t('turns.count', { count }), paused ? ` ${t('people2.turns_paused', { count: paused })}` : null);
}

// A short tone, made on the spot (no sound file to load).
function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch {
    /* no audio here: the notification and the count still say it */
  }
}

function notify(game) {
  const table = mine.get(game);
  // Not for the game on screen in a visible page: its table already says so.
  const looking = !document.hidden && location.hash === `#/game/${game}`;
  if (looking) return;
  if ('Notification' in window && Notification.permission === 'granted') {
    const n = new Notification(t('turns.notify_title'), {
      body: table ? tableLine(table) : t('turns.notify_body'),
      tag: `turn-${game}`,
    });
    n.onclick = () => {
      window.focus();
      location.hash = `#/game/${game}`;
      n.close();
    };
  }
  if (soundOn()) beep();
}

// Called once the socket exists: reads the list, then follows the pushes.
export function initTurns(socket) {
  socket.onMessage(async (msg) => {
    if (msg.type === 'hello') return reload();
    if (msg.type !== 'turn') return;
    const had = mine.has(msg.game);
    if (!msg.your_turn) {
      if (had) {
        mine.delete(msg.game);
        changed();
      }
      return;
    }
    if (had) return;
    await reload();
    if (mine.has(msg.game) && !mine.get(msg.game).paused_until) notify(msg.game);
  });
  // Read again after a change no `turn` message tells: a vacation started or ended pauses or
  // runs my games again without changing whose turn it is (vacation.js says so).
  window.addEventListener(TURNS_CHANGED, () => reload());
  renderCount();
  // A page that sets its title drops the count: put it back.
  const title = document.querySelector('title');
  if (title) new MutationObserver(titleWithCount).observe(title, { childList: true, characterData: true, subtree: true });
}

// Asked on a click (browsers only allow it on a user gesture).
async function askPermission(redraw) {
  try {
    // Where the browser can, also Web Push: told even with no Pyramidion page open.
    if (pushStatus.supported) await enablePush();
    else await Notification.requestPermission();
  } catch {
    /* an old browser without the promise form */
  }
  redraw();
}

function settings(redraw) {
  const supported = 'Notification' in window;
  const permission = supported ? Notification.permission : 'unsupported';
  return h(
    'section.card.turn-settings',
    {},
    h('h2', {}, t('turns.alerts')),
    h('p.hint', { 'data-testid': 'notify-status' }, t(`turns.permission_${permission}`)),
    pushStatus.subscribed ? h('p.hint', { 'data-testid': 'push-on' }, t('settings.push_on')) : null,
    supported && permission === 'default' ? h('button.primary', { 'data-testid': 'notify-enable', onclick: () => askPermission(redraw) }, t('turns.enable_notifications')) : null,
    h(
      'label.check',
      {},
      h('input', {
        type: 'checkbox',
        checked: soundOn(),
        'data-testid': 'turn-sound',
        onchange: (e) => setSound(e.target.checked),
      }),
      t('turns.sound'),
    ),
    h('p', {}, h('a', { href: '#/settings', 'data-testid': 'notify-settings-link' }, t('settings.link'))),
  );
}

// The "your move" page: every game waiting for me, with my time left there.
/**
 * @param {HTMLElement} root the page
 */
export function renderTurns(root) {
  const draw = () => {
    const games = [...mine.values()];
    mount(
      root,
      h(
        'div.turns-page',
        {},
        h(
          'section.card',
          { 'data-testid': 'turn-list' },
          h('h2', {}, t('turns.title')),
          games.length
            ? h(
                'ul.tables',
                {},
                games.map((g) =>
                  h(
                    'li',
                    {},
                    h('a', { href: `#/game/${g.id}`, 'data-testid': `turn-${g.id}` }, tableLine(g)),
                    ' ',
                    g.paused_until
                      ? h('span.status', { 'data-testid': `turn-paused-${g.id}` }, t('people2.turn_paused_until', { date: dateText(g.paused_until) }))
                      : g.remaining_ms !== null && g.remaining_ms !== undefined
                        ? h('span.status', {}, t('turns.time_left', { time: formatClock(g.remaining_ms - (performance.now() - readAt)) }))
                        : null,
                  ),
                ),
              )
            : h('p.hint', {}, t('turns.none')),
        ),
        settings(draw),
      ),
    );
    document.title = `${t('turns.title')} · Pyramidion`;
  };
  listeners.add(draw);
  app.leave = () => listeners.delete(draw);
  app.rerender = draw;
  draw();
  reload();
}

// The count again, in a new language.
export function relabelTurns() {
  renderCount();
}
