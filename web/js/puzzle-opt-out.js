// @ts-check
// The puzzles' opt-out on the settings page (issue 48): whether the server's miner may make
// puzzles of my finished public games. The same setting as the puzzle page's checkbox
// (`/api/puzzles/opt-out`), where a player who never opens the puzzles can find it too.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { showError, toast } from './shell.js';

/** The card; it loads the setting itself. */
export function puzzleOptOutCard() {
  const root = h('section.card', { 'data-testid': 'settings-puzzles' }, h('h2', {}, t('learn2.settings_title')));
  /** @param {boolean} optOut */
  const draw = (optOut) =>
    mount(
      root,
      h('h2', {}, t('learn2.settings_title')),
      h(
        'label.check',
        {},
        h('input', {
          type: 'checkbox',
          checked: optOut,
          'data-testid': 'settings-puzzle-opt-out',
          onchange: async (/** @type {Event} */ e) => {
            const wanted = /** @type {HTMLInputElement} */ (e.target).checked;
            try {
              draw((await api('PUT', '/api/puzzles/opt-out', { opt_out: wanted })).opt_out);
              toast(t('settings.saved'), 'info');
            } catch (err) {
              showError(err);
            }
          },
        }),
        t('puzzle.opt_out'),
      ),
      h('p.hint', {}, t('puzzle.opt_out_hint')),
    );
  api('GET', '/api/puzzles/opt-out').then((x) => draw(x.opt_out), showError);
  return root;
}
