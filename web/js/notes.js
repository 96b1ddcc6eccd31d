// @ts-check
// A player's private notes on a game (issue 46 item 10): kept by the server for that player
// alone (`/api/games/{id}/note`), saved a moment after typing stops and when the page is left.
import { api } from './api.js';
import { h } from './dom.js';
import { relabel, t } from './i18n.js';
import { errorText } from './shell.js';

// Typing pauses this long before the note is saved.
const SAVE_AFTER_MS = 800;

/** @param {string} gameId */
export function notesPanel(gameId) {
  const status = h('span.hint.notes-status', { 'data-testid': 'notes-status', 'aria-live': 'polite' });
  const area = /** @type {HTMLTextAreaElement} */ (h('textarea', { rows: 3, 'data-testid': 'notes-text', 'aria-label': t('notes.title'), 'data-i18n-label': 'notes.title' }));
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let saved = '';
  let loaded = false;
  const save = async () => {
    timer = null;
    const text = area.value;
    if (text.trimEnd() === saved) return;
    status.textContent = t('notes.saving');
    try {
      const kept = await api('PUT', `/api/games/${gameId}/note`, { text });
      saved = kept.text;
      status.textContent = t('notes.saved');
    } catch (e) {
      // Said where the note is; the text stays in the box to be saved again.
      status.textContent = errorText(e.code);
    }
  };
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    save();
  };
  area.addEventListener('input', () => {
    if (timer !== null) clearTimeout(timer);
    status.textContent = '';
    timer = setTimeout(save, SAVE_AFTER_MS);
  });
  area.addEventListener('blur', flush);
  const el = h(
    'details.card.notes',
    { 'data-testid': 'notes' },
    h('summary', { 'data-i18n': 'notes.title' }, t('notes.title')),
    h('p.hint', { 'data-i18n': 'notes.hint' }, t('notes.hint')),
    area,
    ' ',
    status,
  );
  return {
    el,
    // Kept across the game page's redraws: a change of language says it again.
    relabel: () => relabel(el),
    // Read once, when the page knows the reader holds a seat.
    async load() {
      if (loaded) return;
      loaded = true;
      try {
        const note = await api('GET', `/api/games/${gameId}/note`);
        saved = note.text;
        if (!area.value) area.value = note.text;
        if (note.text) /** @type {HTMLDetailsElement} */ (el).open = true;
      } catch (e) {
        status.textContent = errorText(e.code);
      }
    },
    flush,
  };
}
