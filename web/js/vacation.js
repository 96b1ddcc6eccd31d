// @ts-check
// Vacation mode (issue 46): on the settings page, the days left of the allowance and a way to
// start a vacation; the server pauses the clocks of the player's turn-based games and keeps
// the count (`/api/me/vacation`). Each table's clock says who is on vacation until when.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { dateText } from './history.js';
import { showError, toast } from './shell.js';

// Asks the header's "your move" count to read its list again (turns.js listens: imported
// from here it would make a circle through clocks.js).
const refreshTurns = () => window.dispatchEvent(new Event('pyr:turns-changed'));

/**
 * @typedef {{ active: { starts_at: number, ends_at: number } | null, days_left: number,
 *   allowance_days: number, window_days: number, paused?: number }} VacationStatus
 */

/** The settings card: it reads the vacation status itself and redraws in place. */
export function vacationCard() {
  const root = h('section.card', { 'data-testid': 'vacation' }, h('h2', {}, t('vacation.title')));
  /** @param {VacationStatus} st */
  const draw = (st) => {
    const days = h('input', { type: 'number', min: 1, max: st.days_left, value: Math.min(3, st.days_left), 'data-testid': 'vacation-days', 'aria-label': t('vacation.days') });
    const start = async () => {
      try {
        const after = await api('POST', '/api/me/vacation', { days: Number(/** @type {HTMLInputElement} */ (days).value) });
        toast(t('vacation.started', { count: after.paused || 0 }), 'info');
        draw(after);
        refreshTurns();
      } catch (e) {
        showError(e);
      }
    };
    const back = async () => {
      try {
        const after = await api('DELETE', '/api/me/vacation');
        toast(t('people2.vacation_back_done', { count: after.paused || 0 }), 'info');
        draw(after);
        refreshTurns();
      } catch (e) {
        showError(e);
      }
    };
    mount(
      root,
      h('h2', {}, t('vacation.title')),
      h('p.hint', {}, t('vacation.explain', { allowance: st.allowance_days, window: st.window_days })),
      st.active
        ? h(
            'p.row',
            {},
            h('span', { 'data-testid': 'vacation-active', role: 'status' }, t('vacation.active', { date: dateText(st.active.ends_at) })),
            h('button', { 'data-testid': 'vacation-back', onclick: back }, t('people2.vacation_back')),
          )
        : h('p.row', {}, h('label', {}, t('vacation.days'), ' ', days), h('button', { 'data-testid': 'vacation-start', disabled: st.days_left < 1, onclick: start }, t('vacation.start'))),
      h('p.hint', { 'data-testid': 'vacation-left' }, t('vacation.left', { count: st.days_left })),
    );
  };
  api('GET', '/api/me/vacation').then(draw, showError);
  return root;
}

/**
 * On a table's clock: until when `seat`'s player is on vacation (its clock is paused), if so.
 * @param {{ vacation_until?: (number | null)[] } | null} clock
 * @param {number} seat
 */
export function vacationMark(clock, seat) {
  const until = clock && clock.vacation_until ? clock.vacation_until[seat] : null;
  if (!until) return null;
  return h('span.vacation', { 'data-testid': `vacation-${seat}` }, t('vacation.on_clock', { date: dateText(until) }));
}
