// @ts-check
// Moves of the log as sentences, from their structured forms ({text, kind, fields…}).
import { t } from '../i18n.js';

const cellName = (x, y) => `${String.fromCharCode(97 + x)}${y + 1}`;

export function moveText(m) {
  switch (m.kind) {
    case 'take':
      return m.gem ? t('move.take_gem', { space: m.space + 1, gem: t(`gem.${m.gem}`) }) : t('move.take', { space: m.space + 1 });
    case 'flip':
      return t('move.flip', { space: m.pile + 1 });
    case 'place':
      return t('move.place', { cell: cellName(m.x, m.y), dir: t(`dir.${m.dir}`) });
    case 'activate':
      return t('move.activate', { area: m.area, payment: t(`pay_short.${m.payment}`) });
    case 'done':
      return t('move.done');
    case 'discard':
      return t('move.discard', { gem: t(`gem.${m.gem}`) });
    default:
      return m.text;
  }
}
