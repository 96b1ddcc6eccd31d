// Move texts ("take 2 red", "place c4 E"…) as sentences for the move list.
import { t } from '../i18n.js';

export function moveText(m) {
  const w = m.split(' ');
  switch (w[0]) {
    case 'take':
      return w[2] ? t('move.take_gem', { space: w[1], gem: t(`gem.${w[2]}`) }) : t('move.take', { space: w[1] });
    case 'flip':
      return t('move.flip', { space: w[1] });
    case 'place':
      return t('move.place', { cell: w[1], dir: t(`dir.${w[2]}`) });
    case 'activate':
      return t('move.activate', { area: w[1], payment: t(`pay_short.${w[2]}`) });
    case 'done':
      return t('move.done');
    case 'discard':
      return t('move.discard', { gem: t(`gem.${w[1]}`) });
    default:
      return m;
  }
}
