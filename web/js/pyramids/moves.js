// @ts-check
// Moves of the log as sentences, from their structured forms ({text, kind, fields…}). A move
// that hides its card reaches the other seats redacted (hand and card null): it stays hidden.
import { t } from '../i18n.js';

export function moveText(m) {
  switch (m.kind) {
    case 'god':
      return t('py.move.god', { god: t(`py.god.${m.god}`), number: m.number });
    case 'pair':
      return t('py.move.pair', { number: m.pair + 1 });
    case 'pyramid':
      return t('py.move.pyramid', { place: m.place });
    case 'obelisk':
      return t('py.move.obelisk');
    case 'tomb':
      return m.card === null || m.card === undefined ? t('py.move.tomb_hidden') : t('py.move.tomb', { number: m.hand + 1 });
    case 'done':
      return t('py.move.done');
    case 'discard':
      return m.card === null || m.card === undefined ? t('py.move.discard_hidden') : t('py.move.discard', { number: m.hand + 1 });
    default:
      return m.text;
  }
}
