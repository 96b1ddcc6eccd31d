// @ts-check
// Sign in, or register (a guest who registers keeps its games).
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, refreshMe, showError } from './shell.js';
import { initPush } from './push.js';

/**
 * @param {HTMLElement} root the page
 */
export function renderAccount(root) {
  const form = (kind) => {
    const name = /** @type {HTMLInputElement} */ (h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 24, 'data-testid': `${kind}-name` }));
    const password = /** @type {HTMLInputElement} */ (
      h('input', {
        name: 'password',
        type: 'password',
        required: true,
        minlength: 8,
        autocomplete: kind === 'login' ? 'current-password' : 'new-password',
        'data-testid': `${kind}-password`,
      })
    );
    return h(
      'form.card',
      {
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await api('POST', kind === 'login' ? '/api/login' : '/api/register', { name: name.value, password: password.value });
            await refreshMe();
            // This browser's push subscription now belongs to the signed-in account.
            initPush();
            app.socket.reconnect(); // the socket carries the new session
            location.hash = '#/';
          } catch (err) {
            showError(err);
          }
        },
      },
      h('h2', {}, t(`account.${kind}`)),
      h('label', {}, t('account.name'), name),
      h('label', {}, t('account.password'), password),
      kind === 'register' ? h('p.hint', {}, t('account.register_hint')) : null,
      h('button.primary', { type: 'submit', 'data-testid': `${kind}-submit` }, t(`account.${kind}`)),
    );
  };
  mount(root, h('section.account', {}, form('login'), form('register')));
}
