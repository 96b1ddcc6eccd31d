// @ts-check
// A table's chat (issue 27): the players' channel, which everyone following reads, and the
// spectators' own, which only spectators read (the server decides who gets what). Every message
// is shown as text (textContent), never as markup; a quick phrase comes as a key and is said in
// the reader's language. Muting a player hides their messages on this browser; a report sends
// the message to the server's operator.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, showError, toast } from './shell.js';

export const PHRASES = ['hello', 'good_luck', 'good_game', 'well_played', 'thanks'];
const MAX_CHARS = 300;
const MUTED_KEY = 'pyramidion.muted';

function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || '[]'));
  } catch {
    return new Set();
  }
}

function setMuted(user, on) {
  const set = muted();
  if (on) set.add(user);
  else set.delete(user);
  localStorage.setItem(MUTED_KEY, JSON.stringify([...set]));
}

// What a message says, in the reader's language for a phrase.
export function chatText(m) {
  return m.phrase ? t(`chat.phrase.${m.phrase}`) : m.text;
}

// A panel kept across the game page's redraws (the draft and the focus stay): `el` is placed
// by the page, `receive(message)` adds one, `load()` reads the stored ones.
export function chatPanel(gameId, socket) {
  const messages = [];
  const list = h('ol.chat-log', { 'data-testid': 'chat-log', 'aria-live': 'polite' });
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'text', maxlength: MAX_CHARS, 'data-testid': 'chat-input', 'aria-label': t('chat.write') }));
  const send = (body) => socket.send({ type: 'chat', game: gameId, ...body });
  const form = h(
    'form.row',
    {
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if ([...text].length > MAX_CHARS) return toast(t('error.chat_too_long'));
        send({ text });
        input.value = '';
      },
    },
    input,
    h('button', { type: 'submit', 'data-testid': 'chat-send' }, t('chat.send')),
  );
  const phrases = h(
    'div.row.chat-phrases',
    {},
    PHRASES.map((p) => h('button', { type: 'button', 'data-phrase': p, 'data-testid': 'chat-phrase', onclick: () => send({ phrase: p }) }, t(`chat.phrase.${p}`))),
  );
  const el = h('section.card.chat', { 'data-testid': 'chat' }, h('h3', {}, t('chat.title')), list, form, phrases);

  const line = (m) => {
    const mine = app.me && m.user === app.me.id;
    const who = h('span.who', {}, m.name, m.channel === 'spectators' ? ` (${t('chat.spectator')})` : '', ': ');
    // Text only: what a player typed never becomes markup.
    const said = h('span.said', { 'data-testid': 'chat-text' });
    said.textContent = chatText(m);
    const tools = mine
      ? null
      : h(
          'span.chat-tools',
          {},
          h(
            'button.link',
            {
              type: 'button',
              'data-testid': 'chat-mute',
              onclick: () => {
                setMuted(m.user, true);
                draw();
              },
            },
            t('chat.mute', { name: m.name }),
          ),
          h('button.link', { type: 'button', 'data-testid': 'chat-report', onclick: () => report(m.id) }, t('chat.report')),
        );
    return h('li', { 'data-chat-id': m.id, 'data-channel': m.channel }, who, said, ' ', tools);
  };

  const draw = () => {
    const off = muted();
    const shown = messages.filter((m) => !off.has(m.user));
    const hiddenUsers = [...new Set(messages.filter((m) => off.has(m.user)).map((m) => m.user))];
    mount(
      list,
      shown.map(line),
      hiddenUsers.map((u) => {
        const name = messages.find((m) => m.user === u).name;
        return h(
          'li.hint',
          { 'data-testid': 'chat-muted' },
          t('chat.muted', { name }),
          ' ',
          h(
            'button.link',
            {
              type: 'button',
              'data-testid': 'chat-unmute',
              onclick: () => {
                setMuted(u, false);
                draw();
              },
            },
            t('chat.unmute'),
          ),
        );
      }),
    );
    list.scrollTop = list.scrollHeight;
  };

  async function report(id) {
    try {
      await api('POST', `/api/chat/${id}/report`);
      toast(t('chat.reported'), 'info');
    } catch (e) {
      showError(e);
    }
  }

  return {
    el,
    receive(m) {
      if (messages.some((x) => x.id === m.id)) return;
      messages.push(m);
      draw();
    },
    async load() {
      try {
        const got = await api('GET', `/api/games/${gameId}/chat`);
        for (const m of got.messages) if (!messages.some((x) => x.id === m.id)) messages.push(m);
        messages.sort((a, b) => a.at - b.at);
        draw();
      } catch (e) {
        showError(e);
      }
    },
    redraw: draw,
  };
}

// The replay's chat: every message, read only, placed by the move it came after.
export function chatReplay(chat, upToPly) {
  const shown = chat.filter((m) => upToPly === undefined || m.ply <= upToPly);
  if (!chat.length) return null;
  return h(
    'section.card.chat',
    { 'data-testid': 'replay-chat' },
    h('h3', {}, t('chat.title')),
    h(
      'ol.chat-log',
      {},
      shown.map((m) => {
        const said = h('span.said');
        said.textContent = chatText(m);
        return h('li', { 'data-channel': m.channel }, h('span.who', {}, m.name, m.channel === 'spectators' ? ` (${t('chat.spectator')})` : '', ': '), said);
      }),
    ),
  );
}
