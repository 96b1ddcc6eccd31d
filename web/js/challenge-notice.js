// @ts-check
// A friend's challenge on whatever page is open: the server pushes `challenge` to every
// connection of the player a seat is kept for (`crate::social::friends`); this shows who
// offers which game, with a link to the table (joining it there accepts). It stays until
// answered or closed.
import { h } from './dom.js';
import { t } from './i18n.js';

// Called once the socket exists.
export function initChallenges(socket) {
  socket.onMessage((msg) => {
    if (msg.type !== 'challenge') return;
    const box = document.getElementById('toasts');
    const close = () => el.remove();
    const el = h(
      'div.toast.info.challenge-notice',
      { 'data-testid': 'challenge-notice', 'data-table': msg.table },
      t('social.challenged', { name: msg.by, game: t(`game.${msg.game}`) }),
      ' ',
      h('a.button.small.primary', { href: `#/table/${msg.table}`, 'data-testid': 'challenge-open', onclick: close }, t('social.challenge_open')),
      ' ',
      h('button.small', { 'aria-label': t('social.close'), onclick: close }, '×'),
    );
    box.append(el);
  });
}
