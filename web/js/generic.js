// Until their own tables exist, the other games are played from the list of legal moves,
// with the scores and the result.
import { h } from './dom.js';
import { t } from './i18n.js';

export function renderGeneric(ctx) {
  const { state, view, legal, play } = ctx;
  const players = Array.isArray(view.players) ? view.players : [];
  return h(
    'div.generic',
    {},
    h('h2', {}, t(`game.${ctx.table.game}`)),
    h('p.prompt', { 'data-testid': 'prompt' }, state.finished ? t('result.title') : ctx.myTurn ? t('prompt.your_turn') : t('prompt.waiting_for', { name: ctx.seatName(state.to_move ?? 0) })),
    players.length
      ? h('ul', {}, players.map((p, i) => h('li', {}, `${ctx.seatName(i)}: ${p.score ?? p.total ?? ''}`)))
      : null,
    legal.length
      ? h('div.moves', {}, legal.map((m) => h('button', { 'data-move': m.text, onclick: () => play(m.text) }, m.text)))
      : null,
    state.outcome
      ? h('ol.ranking', {}, state.outcome.scores.map((sc, i) => h('li', {}, t('result.line', { name: ctx.seatName(i), score: sc, rank: state.outcome.ranks[i] + 1 }))))
      : null,
  );
}
