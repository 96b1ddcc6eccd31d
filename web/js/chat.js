// @ts-check
// A table's chat (issue 27): the players' channel, which everyone following reads, and the
// spectators' own, which only spectators read (the server decides who gets what). Every message
// is shown as text (textContent), never as markup; a quick phrase comes as a key and is said in
// the reader's language. Muting a player hides their messages on this browser; a report sends
// the message to the server's operator.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { relabel, t } from './i18n.js';
import { app, showError, toast } from './shell.js';

export const PHRASES = ['hello', 'good_luck', 'good_game', 'well_played', 'thanks'];
const MAX_CHARS = 300;
// The count of characters shows from here on (a long message is not cut: it is refused whole,
// with the count in sight, and stays in the input to be shortened).
const COUNT_FROM = 250;
// Refusals of a message just sent (issue 46): its text goes back into the input, never lost.
const REFUSALS = new Set(['chat_rate_limited', 'chat_daily_cap', 'chat_too_long', 'empty_chat', 'bad_request', 'storage_failing', 'unknown_phrase']);
// A refusal comes within this long of its message, or is about something else.
const REFUSAL_WINDOW_MS = 10000;
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
  // No `maxlength`: a pasted text longer than it would be cut without a word.
  const count = h('span.chat-count.hint', { 'data-testid': 'chat-count', 'aria-live': 'polite' });
  const showCount = () => {
    const n = [...input.value].length;
    count.textContent = n >= COUNT_FROM ? `${n} / ${MAX_CHARS}` : '';
    count.classList.toggle('over', n > MAX_CHARS);
  };
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'text', 'data-testid': 'chat-input', 'aria-label': t('chat.write'), 'data-i18n-label': 'chat.write', oninput: () => showCount() }));
  // The last text sent, until the server shows it or refuses it.
  let sent = null;
  const send = (body) => socket.send({ type: 'chat', game: gameId, ...body });
  const form = h(
    'form.row',
    {
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if ([...text].length > MAX_CHARS) return toast(t('error.chat_too_long'));
        if (!send({ text })) return;
        sent = { text, at: Date.now() };
        input.value = '';
        showCount();
      },
    },
    input,
    h('button', { type: 'submit', 'data-testid': 'chat-send', 'data-i18n': 'chat.send' }, t('chat.send')),
    count,
  );
  // Said to a spectator: the players do not read what spectators write (the server's rule).
  const spectatorNote = h('p.hint', { 'data-testid': 'chat-spectator-note', hidden: true, 'data-i18n': 'chat.spectator_note' }, t('chat.spectator_note'));
  const phrases = h(
    'div.row.chat-phrases',
    {},
    PHRASES.map((p) => h('button', { type: 'button', 'data-phrase': p, 'data-testid': 'chat-phrase', 'data-i18n': `chat.phrase.${p}`, onclick: () => send({ phrase: p }) }, t(`chat.phrase.${p}`))),
  );
  const el = h('section.card.chat', { 'data-testid': 'chat' }, h('h3', { 'data-i18n': 'chat.title' }, t('chat.title')), list, spectatorNote, form, phrases);

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
    // The panel is kept across the game page's redraws: a change of language says it again.
    relabel() {
      relabel(el);
      draw();
    },
    receive(m) {
      if (sent && app.me && m.user === app.me.id && m.text === sent.text) sent = null;
      if (messages.some((x) => x.id === m.id)) return;
      messages.push(m);
      draw();
    },
    // An error for this game: if it refuses the message just sent, the text goes back into
    // the input (unless something new was typed there meanwhile). Whether it did.
    refused(code) {
      if (!sent || !REFUSALS.has(code) || Date.now() - sent.at > REFUSAL_WINDOW_MS) return false;
      if (!input.value) input.value = sent.text;
      sent = null;
      showCount();
      return true;
    },
    // Who reads: a spectator is told the players do not read them; quick phrases are offered
    // only where another person sits (not in a solo game or against bots only).
    setReaders({ spectator, othersPresent }) {
      spectatorNote.hidden = !spectator;
      phrases.hidden = !othersPresent;
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
