// @ts-check
// Interactive tutorials (issue 48): a game's lessons, step by step, on its own table drawn by
// its own renderer. The server builds each step's position and judges every tried move with
// the game's rules (`/api/tutorials/<game>`): a wrong move is answered in words, with the rule
// it breaks (the game's error code) or the points it misses (figures the engine computed);
// this page says them and never re-implements a rule. Progress is the server's (per guest or
// account), so a tutorial resumes; the last lesson is a real table against an easy bot.
import { api } from './api.js';
import { h, mount, stylesheet, unlessPressed } from './dom.js';
import { has, t } from './i18n.js';
import { app, showError } from './shell.js';
import { loadTable } from './game.js';
import { moveLog } from './move-log.js';

/** @import { Progress, StepRef, TryAnswer, TutorialList, TutorialPage } from './wire/tutorials' */

// The page's styles live next to it (loaded once).
stylesheet(new URL('./tutorial.css', import.meta.url));

const OFFERED = 'pyramidion.tutorial_offered';

/**
 * The words of a tried move's verdict.
 * @param {string} game
 * @param {TryAnswer} answer
 */
function verdictText(game, answer) {
  switch (answer.verdict) {
    case 'solved':
      return t('tutorial.solved');
    case 'illegal': {
      const key = [`reason.${answer.code}`, `error.${answer.code}`].find(has);
      return t('tutorial.illegal', { reason: key ? t(key) : answer.code });
    }
    case 'worse':
      return t(`tutorial.${game}.gain.${answer.gain}`, { best: answer.best, got: answer.got, missed: answer.missed, count: answer.missed });
    default:
      return t('tutorial.other');
  }
}

/** The first step not solved yet (its index in `steps`), or `steps.length` when all are. */
function firstUnsolved(steps, solved) {
  const done = new Set(solved.map((s) => `${s.lesson}/${s.step}`));
  const i = steps.findIndex((s) => !done.has(`${s.lesson}/${s.key}`));
  return i < 0 ? steps.length : i;
}

/**
 * @param {HTMLElement} root the page
 * @param {string} [key] the game's key
 */
export async function renderTutorial(root, key) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  /** @type {TutorialPage} */
  let tutorial;
  let render;
  let games;
  /** @type {StepRef[]} */
  let solved = [];
  try {
    [tutorial, render, { games }] = await Promise.all([api('GET', `/api/tutorials/${encodeURIComponent(key || '')}`), loadTable(key || ''), api('GET', '/api/games')]);
    // The progress is the server's: offline (the lessons from the service worker's copy) the
    // tutorial opens at its start.
    if (app.me) solved = /** @type {Progress} */ (await api('GET', `/api/tutorials/${encodeURIComponent(key || '')}/progress`).catch(() => ({ solved: [] }))).solved;
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', { 'data-testid': 'tutorial-error' }, t('shell.failed')));
  }
  // Whoever has opened a tutorial has been offered them.
  if (!localStorage.getItem(OFFERED)) localStorage.setItem(OFFERED, 'accepted');
  const descriptor = games.find((g) => g.key === key);
  const steps = tutorial.lessons.flatMap((l, li) => l.steps.map((s, si) => ({ ...s, lesson: l.key, title: l.title, state: tutorial.positions[li][si] })));
  const page = { at: firstUnsolved(steps, solved), ui: {}, answer: null, hint: false, pending: false };

  const tryMove = async (text) => {
    const step = steps[page.at];
    if (page.pending || (page.answer && page.answer.ok)) return;
    page.pending = true;
    try {
      page.answer = await api('POST', `/api/tutorials/${encodeURIComponent(tutorial.game)}/${step.lesson}/${step.key}/try`, { move: text });
      page.answer.tried = text;
    } catch (e) {
      showError(e);
    }
    page.pending = false;
    page.ui = page.answer && page.answer.ok ? page.ui : {};
    draw();
    // The answer is said above the board: brought into view wherever the move was clicked.
    root.querySelector('[data-testid=tutorial-feedback]')?.scrollIntoView({ block: 'nearest' });
  };
  const go = (at) => {
    page.at = at;
    page.ui = {};
    page.answer = null;
    page.hint = false;
    draw();
  };
  const restart = async () => {
    try {
      await api('PUT', `/api/tutorials/${encodeURIComponent(tutorial.game)}/progress`, { solved: [] });
    } catch (e) {
      showError(e);
    }
    go(0);
  };
  const playReal = async () => {
    const level = descriptor && descriptor.bot_levels.length ? descriptor.bot_levels[0].name : null;
    const players = Number(tutorial.final_table.players) || 2;
    const bots = tutorial.final_solo || !level ? [] : Array.from({ length: players - 1 }, () => ({ type: 'bot', level }));
    try {
      const table = await api('POST', '/api/tables', { game: tutorial.game, options: tutorial.final_table, seats: [{ type: 'me' }, ...bots], listed: false });
      location.hash = table.status === 'live' ? `#/game/${table.id}` : `#/table/${table.id}`;
    } catch (e) {
      showError(e);
    }
  };

  const lessonList = () =>
    h(
      'ol.tutorial-lessons',
      { 'data-testid': 'tutorial-lessons' },
      tutorial.lessons.map((l) => {
        const first = steps.findIndex((s) => s.lesson === l.key);
        const current = steps[page.at] && steps[page.at].lesson === l.key;
        const done = page.at > first + l.steps.length - 1;
        return h(
          'li',
          { class: current ? 'current' : done ? 'done' : '' },
          h('button.link', { type: 'button', 'data-testid': `tutorial-lesson-${l.key}`, onclick: () => go(first) }, `${done ? '✓ ' : ''}${t(l.title)}`),
        );
      }),
    );

  const finalPanel = () =>
    h(
      'section.card.tutorial-step',
      { 'data-testid': 'tutorial-done' },
      h('h3', {}, t('tutorial.done_title')),
      h('p', {}, t(tutorial.final_solo ? 'tutorial.done_solo' : 'tutorial.done_bot')),
      h(
        'div.row',
        {},
        h('button.primary', { type: 'button', 'data-testid': 'tutorial-play', onclick: playReal }, t('tutorial.play_real')),
        h('button', { type: 'button', 'data-testid': 'tutorial-restart', onclick: restart }, t('tutorial.restart')),
      ),
    );

  const draw = unlessPressed(() => {
    const step = steps[page.at];
    const header = h(
      'header.tutorial-head',
      {},
      h('p', {}, h('a', { href: '#/' }, `← ${t('rules.back')}`), ' · ', h('a', { href: `#/rules/${tutorial.game}` }, t('rules.link', { game: t(`game.${tutorial.game}`) }))),
      h('h2', {}, t('tutorial.of', { game: t(`game.${tutorial.game}`) })),
      lessonList(),
    );
    if (!step) return mount(root, h('div.tutorial', { 'data-testid': 'tutorial', 'data-game': tutorial.game }, header, finalPanel()));
    const answer = page.answer;
    const solvedNow = !!(answer && answer.ok);
    const st = step.state;
    const ctx = {
      id: 'tutorial',
      table: {
        id: 'tutorial',
        status: 'live',
        game: tutorial.game,
        seats: Array.from({ length: st.seats }, (_, i) => (i === st.seat ? { type: 'human', me: true, name: t('tutorial.you') } : { type: 'human', name: t('tutorial.opponent', { n: i + 1 }) })),
      },
      state: { state_id: page.at, seat: st.seat, to_move: st.to_move, legal: st.legal, finished: false, last_move: null },
      // The game's own view, whose type its table's renderer declares.
      view: /** @type {any} */ (st.view),
      seat: st.seat,
      legal: solvedNow ? [] : st.legal,
      myTurn: !solvedNow && !page.pending,
      ui: page.ui,
      log: [],
      seatName: (s) => (s === st.seat ? t('tutorial.you') : t('tutorial.opponent', { n: s + 1 })),
      play: (text) => void tryMove(text),
      redraw: draw,
      pending: page.pending,
    };
    ctx.moveLog = (describe, interludes) => moveLog(ctx, describe, interludes);
    let board;
    try {
      board = render(ctx);
    } catch (e) {
      console.error(e);
      board = h('p.hint', { 'data-testid': 'render-error' }, t('error.render'));
    }
    const feedback = answer
      ? h(`p.tutorial-feedback.${answer.ok ? 'ok' : 'wrong'}`, { 'data-testid': 'tutorial-feedback', 'data-verdict': answer.verdict, role: 'status' }, verdictText(tutorial.game, answer))
      : null;
    const next = () => go(page.at + 1);
    mount(
      root,
      h(
        'div.tutorial',
        { 'data-testid': 'tutorial', 'data-game': tutorial.game, 'data-step': `${step.lesson}/${step.key}` },
        header,
        h(
          'section.card.tutorial-step',
          { 'data-testid': 'tutorial-step' },
          h('h3', {}, `${t(step.title)} · ${t('tutorial.step_of', { n: page.at + 1, count: steps.length })}`),
          h('p.tutorial-text', { 'data-testid': 'tutorial-text' }, t(step.text)),
          feedback,
          page.hint && !solvedNow ? h('p.hint', { 'data-testid': 'tutorial-hint' }, t(step.hint)) : null,
          h(
            'div.row',
            {},
            solvedNow
              ? h('button.primary', { type: 'button', 'data-testid': 'tutorial-next', onclick: next }, t('tutorial.next'))
              : h('button', { type: 'button', 'data-testid': 'tutorial-hint-button', onclick: () => ((page.hint = true), draw()) }, t('tutorial.hint')),
          ),
        ),
        h('div.tutorial-board', { 'data-testid': 'tutorial-board' }, board),
      ),
    );
    document.title = `${t('tutorial.of', { game: t(`game.${tutorial.game}`) })} · Pyramidion`;
  });
  app.rerender = draw;
  draw();
}

/**
 * The lobby's card: one tutorial link per game that has one.
 * @param {TutorialList['tutorials']} tutorials
 */
export function tutorialCard(tutorials) {
  if (!tutorials.length) return null;
  return h(
    'section.card.tutorials',
    { 'data-testid': 'tutorials' },
    h('h2', {}, t('tutorial.title')),
    h(
      'ul',
      {},
      tutorials.map((x) => h('li', {}, h('a', { href: `#/learn/${x.game}`, 'data-testid': `learn-${x.game}` }, t('tutorial.of', { game: t(`game.${x.game}`) })))),
    ),
  );
}

/**
 * The lobby's way to the tutorials (to their card), among the ways to play: a plain button,
 * always (the first visit's offer is the dialog below).
 */
/** @param {TutorialList['tutorials']} tutorials */
export function learnButton(tutorials) {
  if (!tutorials.length) return null;
  return h('button', { type: 'button', 'data-testid': 'way-learn', onclick: toTutorials }, t('tutorial.title'));
}

/** Brings the lobby's tutorials card into view. */
function toTutorials() {
  document.querySelector('.lobby .tutorials')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/**
 * The first visit's offer: a dialog under the lobby's ways to play ("New here?"), answered once —
 * "Show me" leads to the tutorials' card, "Later" puts it away — and the answer remembered in
 * this browser (as is opening a tutorial), so it is not asked again. Not modal: the lobby
 * stays usable around it.
 * @param {TutorialList['tutorials']} tutorials
 */
export function tutorialOffer(tutorials) {
  if (!tutorials.length || localStorage.getItem(OFFERED)) return null;
  const answer = (/** @type {'accepted' | 'later'} */ choice) => {
    localStorage.setItem(OFFERED, choice);
    dialog.remove();
    if (choice === 'accepted') toTutorials();
  };
  const dialog = h(
    'dialog.card.tutorial-offer-dialog',
    { open: true, 'aria-labelledby': 'tutorial-offer-title', 'data-testid': 'tutorial-offer-dialog' },
    h('h2', { id: 'tutorial-offer-title' }, t('tutorial.offer')),
    h('p', {}, t('learn2.offer_text')),
    h(
      'p.row',
      {},
      h('button.primary', { type: 'button', 'data-testid': 'tutorial-offer', onclick: () => answer('accepted') }, t('learn2.offer_accept')),
      h('button', { type: 'button', 'data-testid': 'tutorial-offer-later', onclick: () => answer('later') }, t('learn2.offer_later')),
    ),
  );
  return dialog;
}
