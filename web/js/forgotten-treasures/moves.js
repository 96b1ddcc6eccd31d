// @ts-check
// Moves of the log as sentences, from their structured forms ({text, kind, fields…}).
import { t } from '../i18n.js';

/**
 * Forgotten Treasures' moves (crates/treasures/src/descriptor.rs, `moves`;
 * crates/treasures/src/moves.rs, `MoveForm`): `space` and `pile` are 0-based (texts number
 * them from 1); `take`'s `gem` is the gem taken from a space that offers a choice (else
 * `null`); `place` is the shared placement form (x, y, dir, cells); `activate` names its
 * `area` (`c4`), its `payment` (`1c`, `2m`, `3c`, `2c2m`, `1c4m`, `6m`) and the `points` it
 * adds to the stage score.
 * A move as it travels: its text beside its form (the forms are generated from Rust).
 * @typedef {{ text: string } & import('../wire/forgotten-treasures').MoveForm} MoveForm
 */

/**
 * @param {number} x
 * @param {number} y
 */
const cellName = (x, y) => `${String.fromCharCode(97 + x)}${y + 1}`;

/**
 * A move in words (the log, the replay, notices, the analysis); a kind this client does not
 * know reads as its text.
 * `as`: `'advice'` words the move as one to make (the judge's best move), not as one made.
 * @param {MoveForm} m
 * @param {'log' | 'advice'} [as]
 * @returns {string}
 */
export function moveText(m, as = 'log') {
  const k = (/** @type {string} */ name) => (as === 'advice' ? `ft.advice.${name}` : `move.${name}`);
  switch (m.kind) {
    case 'take':
      return m.gem ? t(k('take_gem'), { space: m.space + 1, gem: t(`gem.${m.gem}`) }) : t(k('take'), { space: m.space + 1 });
    case 'flip':
      return t(k('flip'), { space: m.pile + 1 });
    case 'place':
      return t(k('place'), { cell: cellName(m.x, m.y), dir: t(`dir.${m.dir}`) });
    case 'activate':
      return t(k('activate'), { area: m.area, payment: t(`pay_short.${m.payment}`) });
    case 'done':
      return t(k('done'));
    case 'discard':
      return t(k('discard'), { gem: t(`gem.${m.gem}`) });
    default:
      return /** @type {import('../envelope.js').MoveBase} */ (m).text;
  }
}
