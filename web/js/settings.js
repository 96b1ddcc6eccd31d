// @ts-check
// Notification settings (#/settings): push on this browser, an e-mail address (verified by a
// link), and which events reach me by each while I am away. Also the pages the mails link
// to: #/verify-email/{token} and the one-click #/unsubscribe/{token}.
import { vacationCard } from './vacation.js';
import { puzzleOptOutCard } from './puzzle-opt-out.js';
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t, language } from './i18n.js';
import { app, errorText, showError, toast } from './shell.js';
import { status, enablePush, disablePush, onPushChange } from './push.js';
import { soundOn, setSound } from './turns.js';

const EVENTS = ['your_move', 'rematch', 'table_full', 'vacation', 'challenge'];

/**
 * Why push could not be turned on, in words: the browser's error, or the server's refusal
 * (its code's text, and the code).
 * @param {{ browser?: string, server?: string }} error
 */
export function pushError(error) {
  if (error.server) return t('settings.push_error_server', { reason: `${errorText(error.server)} (${error.server})` });
  return t('settings.push_error_browser', { reason: error.browser || t('settings.push_error_unknown') });
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderSettings(root) {
  let settings = null;
  const load = async () => {
    try {
      settings = await api('GET', '/api/notify');
    } catch (e) {
      showError(e);
    }
    draw();
  };

  const save = async (prefs) => {
    try {
      settings = await api('PUT', '/api/notify', prefs);
      toast(t('settings.saved'), 'info');
    } catch (e) {
      showError(e);
    }
    draw();
  };

  const pushCard = () => {
    const state = !status.supported ? 'unsupported' : status.permission === 'denied' ? 'denied' : status.subscribed ? 'on' : 'off';
    return h(
      'section.card',
      { 'data-testid': 'push-settings' },
      h('h2', {}, t('settings.push_title')),
      h('p.hint', { 'data-testid': 'push-status', 'data-state': state }, t(`settings.push_${state}`)),
      status.error ? h('p.push-error', { 'data-testid': 'push-error', role: 'alert' }, pushError(status.error)) : null,
      state === 'off' ? h('button.primary', { 'data-testid': 'push-enable', onclick: async () => (await enablePush()) && load() }, t('settings.push_enable')) : null,
      state === 'on' ? h('button', { 'data-testid': 'push-disable', onclick: async () => (await disablePush(), load()) }, t('settings.push_disable')) : null,
      settings ? h('p.hint', {}, t('settings.devices', { count: settings.push_devices })) : null,
    );
  };

  const emailCard = () => {
    if (!settings) return null;
    const body = [];
    if (!settings.email_available) {
      body.push(h('p.hint', { 'data-testid': 'email-off' }, t('settings.email_off_server')));
    } else if (settings.guest) {
      body.push(h('p.hint', {}, t('settings.email_guest')));
    } else {
      const e = settings.email;
      if (e) {
        body.push(
          h('p', { 'data-testid': 'email-status' }, t(e.verified ? 'settings.email_verified' : 'settings.email_unverified', { address: e.address })),
          h(
            'button.small',
            {
              'data-testid': 'email-remove',
              onclick: async () => {
                try {
                  await api('DELETE', '/api/me/email');
                } catch (err) {
                  showError(err);
                }
                load();
              },
            },
            t('settings.email_remove'),
          ),
        );
      }
      const input = /** @type {HTMLInputElement} */ (h('input', { type: 'email', 'data-testid': 'email-address', autocomplete: 'email', required: true }));
      body.push(
        h(
          'form.row',
          {
            onsubmit: async (ev) => {
              ev.preventDefault();
              try {
                settings = await api('POST', '/api/me/email', { address: input.value.trim(), lang: language() });
                toast(t('settings.email_sent', { address: input.value.trim() }), 'info');
              } catch (err) {
                showError(err);
              }
              draw();
            },
          },
          h('label', {}, t('settings.email_address'), ' ', input),
          h('button', { type: 'submit', 'data-testid': 'email-save' }, t('settings.email_save')),
        ),
      );
    }
    return h('section.card', { 'data-testid': 'email-settings' }, h('h2', {}, t('settings.email_title')), body);
  };

  const eventsCard = () => {
    if (!settings) return null;
    const prefs = settings.prefs;
    const box = (way, kind) =>
      h('input', {
        type: 'checkbox',
        checked: prefs[way][kind] !== false,
        'data-testid': `pref-${way}-${kind}`,
        'aria-label': `${t(`settings.event_${kind}`)}: ${t(`settings.by_${way}`)}`,
        onchange: (ev) => save({ ...prefs, [way]: { ...prefs[way], [kind]: ev.target.checked } }),
      });
    return h(
      'section.card',
      { 'data-testid': 'event-settings' },
      h('h2', {}, t('settings.events_title')),
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, t('settings.event')), h('th', {}, t('settings.by_push')), h('th', {}, t('settings.by_email')))),
        h(
          'tbody',
          {},
          EVENTS.map((kind) => h('tr', {}, h('td', {}, t(`settings.event_${kind}`)), h('td', {}, box('push', kind)), h('td', {}, box('email', kind)))),
        ),
      ),
    );
  };

  const soundCard = () =>
    h(
      'section.card',
      {},
      h('h2', {}, t('settings.sound_title')),
      h('label.check', {}, h('input', { type: 'checkbox', checked: soundOn(), 'data-testid': 'settings-sound', onchange: (e) => setSound(e.target.checked) }), t('turns.sound')),
    );

  const draw = () => {
    mount(
      root,
      h('div.settings-page', { 'data-testid': 'settings' }, h('h1', {}, t('settings.title')), pushCard(), eventsCard(), emailCard(), soundCard(), vacationCard(), app.me ? puzzleOptOutCard() : null),
    );
    document.title = `${t('settings.title')} · Pyramidion`;
  };
  const off = onPushChange(draw);
  app.leave = off;
  app.rerender = draw;
  draw();
  load();
}

// The link of a verification mail.
/**
 * @param {HTMLElement} root the page
 * @param {string} [token]
 */
export async function renderVerifyEmail(root, token) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    await api('POST', '/api/me/email/verify', { token });
    mount(root, h('section.card', { 'data-testid': 'email-verified' }, h('p', {}, t('settings.verify_done')), h('a.button', { href: '#/settings' }, t('settings.link'))));
  } catch (e) {
    showError(e);
    mount(root, h('p.hint', {}, errorText(e.code)));
  }
}

// The one-click unsubscribe link of every mail: opening it is the click.
/**
 * @param {HTMLElement} root the page
 * @param {string} [token]
 */
export async function renderUnsubscribe(root, token) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  try {
    await api('POST', `/api/notify/unsubscribe/${encodeURIComponent(token)}`);
    mount(root, h('section.card', { 'data-testid': 'unsubscribed' }, h('p', {}, t('settings.unsubscribed')), h('a.button', { href: '#/settings' }, t('settings.link'))));
  } catch (e) {
    showError(e);
    mount(root, h('p.hint', {}, errorText(e.code)));
  }
}
