// @ts-check
// Moves of the log as sentences, from their structured forms ({text, kind, fields…}). A move
// that hides its card reaches the other seats redacted (hand and card null): it stays hidden.
import { t } from '../i18n.js';

/**
 * Pyramids' moves (crates/pyramids/src/descriptor.rs, `moves`; crates/pyramids/src/moves.rs,
 * `MoveForm`): `hand` is the 0-based position in the hand and `card` the card it names (an
 * index in the game's card data); both are `null` in the redacted form other seats get of a
 * card put in a Tomb or discarded. `god`: the God tile's name (`horus`…), `number` its number
 * (1–5); `pair`: the 0-based pair; `place`: the pyramid place's name (`a1`…), on `row` at `slot`.
 * @typedef {{ text: string } & import('../wire/pyramids').MoveForm} MoveForm a move as it travels: its text beside its form
 * @typedef {Extract<MoveForm, { kind: 'pyramid' }>} PyramidMove
 */

/**
 * A move in words (the log, the replay, notices, the analysis); a kind this client does not
 * know reads as its text.
 * `as`: `'advice'` words the move as one to make (the judge's best move), not as one made.
 * @param {MoveForm} m
 * @param {'log' | 'advice'} [as]
 * @returns {string}
 */
export function moveText(m, as = 'log') {
  const k = (/** @type {string} */ name) => (as === 'advice' ? `py.advice.${name}` : `py.move.${name}`);
  switch (m.kind) {
    case 'god':
      return t(k('god'), { god: t(`py.god.${m.god}`), number: m.number });
    case 'pair':
      return t(k('pair'), { number: m.pair + 1 });
    case 'pyramid':
      return t(k('pyramid'), { place: m.place });
    case 'obelisk':
      return t(k('obelisk'));
    case 'tomb':
      return m.card === null || m.card === undefined ? t('py.move.tomb_hidden') : t(k('tomb'), { number: m.hand + 1 });
    case 'done':
      return t(k('done'));
    case 'discard':
      return m.card === null || m.card === undefined ? t('py.move.discard_hidden') : t(k('discard'), { number: m.hand + 1 });
    default:
      return /** @type {import('../envelope.js').MoveBase} */ (m).text;
  }
}
