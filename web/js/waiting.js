// @ts-check
// A table waiting for players: its seats, the invite link to share, join / leave. Joining by
// invite link (#/join/{id}/{token}) takes the seat kept for the link. The page follows the
// table (pushed changes, and a slow poll) until it is full, then opens the game.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, showError, toast } from './shell.js';
import { tableLine } from './lobby.js';
import { profileLabel } from './clocks.js';
import { notifyOffer } from './push.js';

/**
 * @param {HTMLElement} root the page
 * @param {string} [id]
 * @param {string} [invite]
 */
export async function renderWaiting(root, id, invite) {
  let timer = null;
  let stopped = false;
  // The server tells seated players of every change of their table (`table` messages): the
  // page reads it again at once; the slower polling covers a lost connection and visitors.
  const off = app.socket.onMessage((msg) => {
    if (msg.type === 'table' && msg.table.id === id && !stopped) poll();
  });
  app.leave = () => {
    stopped = true;
    clearTimeout(timer);
    off();
  };

  const inviteLink = (token) => `${location.origin}/#/join/${id}/${token}`;

  const draw = (table) => {
    if (table.status === 'live' || table.status === 'finished') {
      // The invite link's holder follows an unlisted game with it.
      location.hash = invite ? `#/game/${id}/${invite}` : `#/game/${id}`;
      return;
    }
    const seated = table.seats.some((s) => s.me && s.type === 'human');
    const free = table.seats.some((s) => s.type === 'open' || (s.type === 'invite' && invite) || (s.type === 'reserved' && s.me));
    const link = table.invite ? inviteLink(table.invite) : null;
    mount(
      root,
      h(
        'section.card.waiting',
        { 'data-testid': 'waiting' },
        h('h2', {}, t(`game.${table.game}`)),
        h('p', {}, t(`status.${table.status}`)),
        table.clock ? h('p.hint', { 'data-testid': 'table-clock' }, profileLabel(table.clock)) : null,
        // Friends-only and club tables say who may sit there (the server checks it on joining).
        table.audience
          ? h(
              'p.hint',
              { 'data-testid': 'table-audience' },
              t(`social.audience_${table.audience.type}_table`),
              table.audience.type === 'club' ? [' ', h('a', { href: `#/club/${table.audience.club}` }, t('social.see_club'))] : null,
            )
          : null,
        h(
          'ol.seats',
          {},
          table.seats.map((s) =>
            h(
              'li',
              { 'data-seat-type': s.type },
              s.type === 'human' ? (s.me ? t('seat.you_named', { name: s.name }) : s.name) : s.type === 'bot' ? t(`bot.${s.level}`) : t(`seat.waiting_${s.type}`, { name: s.name }),
            ),
          ),
        ),
        link
          ? h(
              'div.invite',
              {},
              h('label', {}, t('waiting.invite_link'), h('input', { readonly: true, value: link, 'data-testid': 'invite-link', onfocus: (e) => e.target.select() })),
              h(
                'button',
                {
                  onclick: async () => {
                    try {
                      await navigator.clipboard.writeText(link);
                      toast(t('waiting.copied'), 'info');
                    } catch {
                      toast(t('waiting.copy_failed'), 'info');
                    }
                  },
                },
                t('waiting.copy'),
              ),
            )
          : null,
        table.status === 'open' && !seated && free ? h('button.primary', { 'data-testid': 'join', onclick: () => join() }, t('waiting.join')) : null,
        table.status === 'open' && seated ? h('button', { 'data-testid': 'leave', onclick: () => leave() }, t('waiting.leave')) : null,
        table.status === 'open' && seated ? h('p.hint', {}, t('waiting.starts_when_full')) : null,
        table.status === 'open' ? notifyOffer(table) : null,
        table.status === 'abandoned' ? h('a.button', { href: '#/' }, t('waiting.back')) : null,
      ),
    );
    document.title = `${tableLine(table)} · Pyramidion`;
  };

  // One read at a time: a push during a read asks for one more read after it.
  let reading = false;
  let again = false;
  const poll = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    clearTimeout(timer);
    try {
      draw(await api('GET', `/api/tables/${id}`));
    } catch (e) {
      showError(e);
      if (e.code === 'not_found') return mount(root, h('p.hint', {}, t('error.not_found')));
    } finally {
      reading = false;
    }
    if (stopped) return;
    if (again) {
      again = false;
      return poll();
    }
    timer = setTimeout(poll, 5000);
  };

  const join = async () => {
    try {
      draw(await api('POST', `/api/tables/${id}/join`, invite ? { invite } : undefined));
    } catch (e) {
      if (e.code !== 'already_seated') showError(e);
    }
  };

  const leave = async () => {
    try {
      await api('POST', `/api/tables/${id}/leave`);
      location.hash = '#/';
    } catch (e) {
      showError(e);
    }
  };

  mount(root, h('p.loading', {}, t('shell.loading')));
  // An invite link joins at once (the person followed it to play).
  if (invite) await join();
  poll();
}
