// @ts-check
// The end of a game, drawn once by the shell for every game from the view's envelope: the
// headline, the ranking (every seat, and an automa beside them in solo) with the engine's
// tie-break keys, why each place was decided, and the record. The server ranks (the engine's
// ranking, absent and resigned seats last); this only reads `outcome` (`scores`, `ranks`,
// `keys`, `decided_by`, `automa`) and `seats`. A game's table may add its own breakdown below
// the ranking and a note under a seat's name (its `resultDetails(ctx)` export).
import { h } from './dom.js';
import { t, has } from './i18n.js';

/**
 * @typedef {import('./wire/core').Outcome} Outcome
 * @typedef {import('./envelope.js').Envelope} Envelope
 * @typedef {import('./envelope.js').TableContext} TableContext
 * @typedef {Pick<Envelope, 'seats' | 'outcome' | 'automa'>} Ranked the fields a ranking reads
 * @typedef {{ seat: number | null, name: string, score: number, rank: number, ties: (number | null)[] }} RankingRow
 * @typedef {{ seatNote?: (seat: number) => any, details?: any }} ResultDetails
 */

/**
 * A ranking key's value for one seat, as the engine reported it.
 * @param {Outcome} outcome
 * @param {string} name
 * @param {number} seat
 * @returns {number | null}
 */
export function keyValue(outcome, name, seat) {
  const key = outcome.keys.find((k) => k.name === name);
  return key ? key.values[seat] : null;
}

/**
 * The ranking, best first (seat order within a shared place): one row per seat and, in solo,
 * the automa, which takes whichever of the two places the player did not. `columns` are the
 * tie-break keys shown beside the score; `automaName` names the automa.
 * @param {Ranked} view
 * @param {(seat: number) => string} seatName
 * @param {string[]} columns
 * @param {string} [automaName]
 * @returns {RankingRow[]}
 */
export function rankingRows(view, seatName, columns, automaName = '') {
  const outcome = /** @type {Outcome} */ (view.outcome);
  /** @type {RankingRow[]} */
  const rows = view.seats.map((p) => ({
    seat: p.seat,
    name: seatName(p.seat),
    score: outcome.scores[p.seat],
    rank: outcome.ranks[p.seat] + 1,
    ties: columns.map((key) => keyValue(outcome, key, p.seat)),
  }));
  if (isSolo(outcome)) {
    rows.push({ seat: null, name: automaName, score: /** @type {number} */ (outcome.automa), rank: outcome.ranks[0] === 0 ? 2 : 1, ties: columns.map(() => null) });
  }
  return rows.sort((a, b) => a.rank - b.rank || (a.seat ?? -1) - (b.seat ?? -1));
}

/** @param {Outcome} outcome */
const isSolo = (outcome) => outcome.automa !== null && outcome.automa !== undefined;

/**
 * Why each seat ranks where it does against the seat just above it, as the engine decided
 * (nothing where the score alone decided); in solo, the rule that settled the duel.
 * @param {Outcome} outcome
 * @param {RankingRow[]} rows
 * @returns {string[]}
 */
export function tieNotes(outcome, rows) {
  if (isSolo(outcome)) {
    const by = outcome.decided_by[0];
    return by && by !== 'score' ? [t(`tie.${by}`)] : [];
  }
  const notes = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    if (a.seat === null || b.seat === null) continue;
    const by = outcome.decided_by[b.seat];
    if (by && by !== 'score') notes.push(`${a.name} / ${b.name}: ${t(`tie.${by}`, { a: keyValue(outcome, by, a.seat), b: keyValue(outcome, by, b.seat) })}`);
  }
  return notes;
}

/**
 * The headline: the winner, a shared victory, or (solo) the duel with the automa.
 * @param {Outcome} outcome
 * @param {RankingRow[]} rows
 * @param {number | null} me the seat of this page, if any
 * @param {string} automaName
 * @returns {string}
 */
export function headline(outcome, rows, me, automaName) {
  if (isSolo(outcome)) {
    const params = { score: outcome.scores[0], automa: automaName, theirs: outcome.automa };
    return outcome.ranks[0] === 0 ? t('result.automa_beaten', params) : t('result.automa_won', params);
  }
  const winners = rows.filter((r) => r.rank === 1);
  if (winners.length > 1) return t('result.shared_win', { names: winners.map((r) => r.name).join(', ') });
  return winners[0].seat === me ? t('result.you_win') : t('result.winner', { name: winners[0].name });
}

/**
 * The outcome a finished game's page draws: the server's (the `state`'s, absent and resigned
 * seats last), which the view's repeats; the view's only where a state has none.
 * @param {{ outcome?: Outcome | null }} state
 * @param {{ outcome?: Outcome | null }} view
 * @returns {Outcome | null | undefined}
 */
export const shownOutcome = (state, view) => state.outcome || view.outcome;

/**
 * The result panel of a finished game.
 * @param {TableContext} ctx
 * @param {ResultDetails} [details]
 */
export function resultPanel(ctx, details = {}) {
  const { view, state } = ctx;
  const outcome = shownOutcome(state, view);
  if (!outcome || !Array.isArray(view.seats)) return null;
  const envelope = { ...view, outcome };
  // A tie-break key is a column when the catalog names it (`result.<key>`).
  const columns = outcome.keys.map((k) => k.name).filter((name) => name !== 'score' && has(`result.${name}`));
  const automaName = view.automa ? t(`automa.${view.automa.name}`) : '';
  const rows = rankingRows(envelope, ctx.seatName, columns, automaName);
  const notes = tieNotes(outcome, rows);
  return h(
    'section.card.result',
    { 'data-testid': 'result' },
    h('h2', {}, t('result.title')),
    h('p.headline', { 'data-testid': 'result-headline' }, headline(outcome, rows, state.seat, automaName)),
    h(
      'table.ranking',
      { 'data-testid': 'ranking' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, t('result.rank')),
          h('th', {}, t('result.player')),
          h('th', {}, t('pad.total')),
          columns.map((name) => h('th', {}, t(`result.${name}`))),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            { 'data-seat': r.seat ?? 'automa' },
            h('td', {}, `${r.rank}`),
            h('td', {}, r.name, r.seat !== null && details.seatNote ? details.seatNote(r.seat) : null),
            h('td', {}, h('strong', {}, `${r.score}`)),
            r.ties.map((v) => h('td', {}, v === null ? '–' : `${v}`)),
          ),
        ),
      ),
    ),
    notes.length
      ? h(
          'ul.tie-notes',
          { 'data-testid': 'tie-notes' },
          notes.map((n) => h('li', {}, n)),
        )
      : h('p.hint', {}, t('result.no_ties')),
    details.details || null,
    h(
      'p',
      {},
      h('a', { href: `/api/games/${ctx.id}/record?format=text`, target: '_blank', rel: 'noopener', 'data-testid': 'record-link' }, t('result.record')),
      ' · ',
      h('a', { href: '#/' }, t('result.back')),
    ),
  );
}
