// @ts-check
// Playing with people (issue 27): resign, abandon, claim and "I'm back" under a running game,
// and how a game that ended early (or with resigned seats) reads. The server decides and ranks;
// this page only asks and says what the state tells it.
import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError } from './shell.js';

const names = (ctx, seats) => seats.map((s) => ctx.seatName(s)).join(', ');

// Asks the server; the new state comes over the socket to every follower.
async function act(id, action) {
  try {
    await api('POST', `/api/games/${id}/${action}`);
  } catch (e) {
    showError(e);
  }
}

// A button that asks once more before an action that cannot be undone.
function confirmed(page, ctx, key, action, testid) {
  if (page.ui.confirming === action) {
    return [
      h('span.hint', {}, t(`play.${key}_confirm`)),
      h(
        'button.danger',
        {
          'data-testid': `confirm-${testid}`,
          onclick: () => {
            page.ui.confirming = null;
            act(ctx.id, action);
          },
        },
        t(`play.${key}_yes`),
      ),
      h(
        'button',
        {
          onclick: () => {
            page.ui.confirming = null;
            ctx.redraw();
          },
        },
        t('play.cancel'),
      ),
    ];
  }
  return h(
    'button',
    {
      'data-testid': testid,
      onclick: () => {
        page.ui.confirming = action;
        ctx.redraw();
      },
    },
    t(`play.${key}`),
  );
}

// The seats of this page's user, and those of them still in the game.
function mySeats(ctx) {
  const mine = ctx.table.seats.map((s, i) => (s.type === 'human' && s.me ? i : -1)).filter((i) => i >= 0);
  const resigned = ctx.state.resigned || [];
  return { mine, inGame: mine.filter((i) => !resigned.includes(i)) };
}

// What cannot wait, at the top of the table under the clocks (issue 46): a bot plays your
// seat ("I'm back"), or another player is away and the game may be claimed (with a question
// first: a claim ends the game). Below the board a returning player on a phone saw only a
// small "played by a bot"; here it is the first thing in view, and only while it applies.
export function absenceAlert(ctx, page) {
  const st = ctx.state;
  if (st.finished) return null;
  const { mine, inGame } = mySeats(ctx);
  if (!inGame.length) return null;
  // The server says which seats a bot plays (`bots`): for a seat of mine still in the game,
  // that is the time-out policy's stand-in, read rather than worked out again here.
  const standIn = (i) => !!(st.bots && st.bots[i]);
  const parts = [];
  if (inGame.some(standIn)) {
    parts.push(h('span', {}, t('play.bot_has_your_seat')), h('button.primary', { 'data-testid': 'im-back', onclick: () => act(ctx.id, 'back') }, t('play.back')));
  }
  // The server says who may be claimed against (turn-based or real time): `away`.
  const awayOthers = (st.away || []).filter((i) => !mine.includes(i));
  if (awayOthers.length) {
    parts.push(h('span', {}, t('play.away', { names: names(ctx, awayOthers) })), confirmed(page, ctx, 'claim', 'claim', 'claim'));
  }
  if (!parts.length) return null;
  return h('div.card.absence-alert.row', { 'data-testid': 'absence-alert', role: 'alert' }, parts.flat());
}

// Under a running game, for its players: resign or abandon (the urgent actions are in
// `absenceAlert`, at the top).
export function playActions(ctx, page) {
  const { mine, inGame } = mySeats(ctx);
  if (!mine.length) return null;
  const parts = [];
  if (!inGame.length) {
    parts.push(h('span.hint', { 'data-testid': 'you-resigned' }, t('play.you_resigned')));
  } else {
    const botsOnly = ctx.table.seats.every((s, i) => s.type === 'bot' || mine.includes(i));
    parts.push(botsOnly ? confirmed(page, ctx, 'abandon', 'abandon', 'abandon') : confirmed(page, ctx, 'resign', 'resign', 'resign'));
  }
  return h('nav.card.play-actions.row', { 'data-testid': 'play-actions', 'aria-label': t('play.actions') }, parts.flat());
}

// The sentence for an early ending: a claim against the reader says "you were away", not
// "You was away" (the names are in the third person), and several names take the plural.
function endingKey(ctx, ending, seats) {
  if (ending !== 'claimed') return `ending.${ending}`;
  const mine = ctx.table.seats.some((s, i) => s.type === 'human' && s.me && seats.includes(i));
  if (mine) return 'ending.claimed_you';
  return seats.length > 1 ? 'ending.claimed_many' : 'ending.claimed';
}

// How a finished game ended, when resignations played a part: who resigned, and for a game
// that ended early, the server's ranking.
export function endingText(ctx) {
  const st = ctx.state;
  const resigned = st.resigned || [];
  if (st.ending) {
    const ranks = st.ending.ranks;
    const order = ranks.map((r, i) => i).sort((a, b) => ranks[a] - ranks[b]);
    return h(
      'div.ending',
      { 'data-testid': 'ending' },
      h('p', {}, t(endingKey(ctx, st.ending.ending, resigned), { names: names(ctx, resigned) })),
      h(
        'ul.ranking',
        {},
        order.map((i) => h('li', {}, t('ending.rank_line', { rank: ranks[i] + 1, name: ctx.seatName(i) }))),
      ),
    );
  }
  if (resigned.length) return h('p.ending', { 'data-testid': 'ending' }, t('ending.resigned', { names: names(ctx, resigned) }));
  return null;
}
