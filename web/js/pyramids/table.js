// @ts-check
// The Pyramids table: round flow and God tiles, the quarry, your hand and the building of the
// chosen pair (ghost places on the Pyramid, Obelisk, Tomb), every player's necropolis, the
// move log and the final scoring. It acts only on the structured legal moves and the view.
import { h, clickable, stylesheet } from '../dom.js';
import { t } from '../i18n.js';
import { COLOURS, cardLabel, cardSvg, colourName, pyramidSvg, stoneChip } from './pieces.js';
import { moveText } from './moves.js';

// A move in words, for the shell's replay, notices and analysis.
export { moveText };

/**
 * Pyramids' view (crates/pyramids/src/view.rs, declared in web/js/wire from the Rust types): the envelope, the God tiles, the quarry's
 * pairs, the deck's size, the discard, the turn being played and per seat its necropolis.
 * Hidden parts are `null` (another seat's hand, a Tomb's cards); the final score and its
 * detail are `null` until the end. Colours travel by name, counts per colour keyed by colour
 * name.
 * @import { View, SeatView, CardView, Colour, Allowed } from '../wire/pyramids'
 * @import { MoveForm } from './moves.js'
 * @typedef {Extract<MoveForm, { kind: 'obelisk' | 'tomb' | 'discard' }>} HandMove
 */

/**
 * The context the shell hands this table: Pyramids' moves and view.
 * @typedef {import('../envelope.js').TableContext<MoveForm, View>} Ctx
 */

// Below the shell's ranking: every player's score edifice by edifice.
/**
 * @param {Ctx} ctx
 * @returns {import('../result.js').ResultDetails}
 */
export function resultDetails(ctx) {
  return { details: scoreBreakdown(ctx) };
}
import { scoreBreakdown } from './breakdown.js';
import { enlargeButton, enlargedDialog } from '../pyramid-drawing/enlarge.js';
import { watchTableHead } from '../sticky-head.js';
import { statusBar } from '../status-bar.js';
import { seatCard } from '../seat-card.js';

// The table's styles live next to it (loaded once).
stylesheet(new URL('./table.css', import.meta.url));

/** @param {Ctx} ctx */
export function render(ctx) {
  const { view, state } = ctx;
  const me = state.seat !== null && state.seat !== undefined ? state.seat : null;
  watchTableHead();
  // The status line sits outside the table's grid so that it can stick under the clocks.
  return [
    tableStatus(ctx),
    h(
      'div.py-table',
      { 'data-testid': 'py-table', 'data-phase': view.phase, 'data-state-id': state.state_id },
      h(
        'div.py-main',
        {},
        h('div.py-col', {}, godsPanel(ctx), quarryPanel(ctx), me !== null ? handPanel(ctx, me) : null, me !== null ? necropolis(ctx, view.seats[me], true) : null),
        h(
          'aside.py-col.py-side',
          {},
          view.seats.filter((p) => p.seat !== me).map((p) => necropolis(ctx, p, false)),
          moveLog(ctx),
        ),
      ),
      enlargedDialog(ctx, (seat) => enlargedNecropolis(ctx, seat)),
    ),
  ];
}

// The shell's status line, in Pyramids' words: the round, the first player, the deck's size.
/** @param {Ctx} ctx */
function tableStatus(ctx) {
  const { view } = ctx;
  return statusBar(ctx, {
    ns: 'py.',
    className: 'py-status',
    stage: h('span.round', { 'data-testid': 'round' }, t('py.round', { round: view.stage, rounds: view.stages })),
    first: 'py.first_player',
    info: [h('span.info', {}, t('py.deck', { count: view.deck_size }))],
  });
}

/** @param {Allowed} a */
function allowsText(a) {
  if (!a.tomb && !a.obelisk) return t('py.allows.pyramid_only');
  if (a.one_of) return t('py.allows.one_of');
  if (a.tomb && a.obelisk) return t('py.allows.both');
  return a.tomb ? t('py.allows.tomb') : t('py.allows.obelisk');
}

/** @param {Ctx} ctx */
function godsPanel(ctx) {
  const { view, legal, play } = ctx;
  const moves = new Map(legal.filter((m) => m.kind === 'god').map((m) => [m.number, m]));
  // The picking order this round: the owners of the tiles, by tile number.
  const order = view.gods.filter((g) => g.owner !== null && g.owner !== undefined).map((g) => ctx.seatName(g.owner));
  return h(
    'section.card.py-gods',
    { 'aria-label': t('py.gods') },
    h('h3', {}, t('py.gods')),
    h(
      'div.py-god-list',
      {},
      view.gods.map((g) => {
        const move = moves.get(g.number);
        const owner = g.owner !== null && g.owner !== undefined ? ctx.seatName(g.owner) : null;
        const tile = h(
          'div.py-god',
          { class: [move ? 'available' : '', g.set_aside ? 'set-aside' : '', owner ? 'taken' : ''].join(' '), 'data-god': g.god },
          h('strong', {}, `${g.number} · ${t(`py.god.${g.god}`)}`),
          h('span.allows', {}, allowsText(g.allows)),
          g.set_aside ? h('span.note', { 'data-testid': 'set-aside' }, t('py.set_aside')) : null,
          owner ? h('span.note', {}, t('py.chosen_by', { name: owner })) : null,
        );
        if (!move) return tile;
        tile.setAttribute('data-testid', 'god');
        tile.setAttribute('data-move', move.text);
        return clickable(tile, () => play(move.text), t('py.take_god', { god: t(`py.god.${g.god}`), number: g.number }));
      }),
    ),
    order.length ? h('p.hint', { 'data-testid': 'god-order' }, t('py.order', { names: order.join(' → ') })) : null,
  );
}

/** @param {Ctx} ctx */
function quarryPanel(ctx) {
  const { view, legal, play } = ctx;
  const moves = new Map(legal.filter((m) => m.kind === 'pair').map((m) => [m.pair, m]));
  return h(
    'section.card.py-quarry',
    { 'aria-label': t('py.quarry') },
    h('h3', {}, t('py.quarry')),
    h(
      'div.py-pairs',
      {},
      view.quarry.map((p) => {
        const move = moves.get(p.number - 1);
        const body = h(
          'div.py-pair',
          { class: move ? 'available' : '', 'data-pair': p.number },
          h('span.pair-number', {}, t('py.pair', { number: p.number })),
          p.cards
            ? h(
                'div.pair-cards',
                {},
                p.cards.map((c) => cardSvg(c, 12)),
              )
            : h('span.hint', {}, t('py.taken_by', { name: ctx.seatName(p.taken_by) })),
        );
        if (!move) return body;
        body.setAttribute('data-testid', 'pair');
        body.setAttribute('data-move', move.text);
        return clickable(body, () => play(move.text), t('py.take_pair', { number: p.number, cards: p.cards.map(cardLabel).join('; ') }));
      }),
    ),
  );
}

// The replay names the seat shown ("Anna's hand"); a live table speaks to its player.
const handTitle = (/** @type {Ctx} */ ctx) => (ctx.replay ? t('py.hand_of', { name: ctx.seatName(ctx.seat) }) : t('py.your_hand'));

/**
 * @param {Ctx} ctx
 * @param {number} me this page's seat
 */
function handPanel(ctx, me) {
  const { view, legal, ui, play } = ctx;
  const mine = view.seats[me];
  const hand = mine.hand || [];
  /**
   * The moves of `kind` by the hand position they play.
   * @param {HandMove['kind']} kind
   * @returns {Map<number, HandMove>}
   */
  const byHand = (kind) => new Map(/** @type {HandMove[]} */ (legal.filter((m) => m.kind === kind)).map((m) => [m.hand, m]));
  const obelisk = byHand('obelisk');
  const tomb = byHand('tomb');
  const discard = byHand('discard');
  const pyramid = legal.filter((m) => m.kind === 'pyramid');
  const done = legal.find((m) => m.kind === 'done');
  if (pyramid.length && !pyramid.some((m) => m.hand === ui.hand)) ui.hand = pyramid[0].hand;
  const cards = hand.map((c, i) => {
    const buttons = [];
    if (pyramid.some((m) => m.hand === i)) {
      buttons.push(
        h(
          'button',
          { 'data-testid': 'choose-card', class: ui.hand === i ? 'chosen' : '', 'aria-pressed': ui.hand === i ? 'true' : 'false', onclick: () => ((ui.hand = i), (ui.selected = null), ctx.redraw()) },
          t('py.for_pyramid'),
        ),
      );
    }
    if (obelisk.has(i)) buttons.push(h('button', { 'data-testid': 'obelisk', 'data-move': obelisk.get(i).text, onclick: () => play(obelisk.get(i).text) }, t('py.to_obelisk')));
    if (tomb.has(i)) buttons.push(h('button', { 'data-testid': 'tomb', 'data-move': tomb.get(i).text, onclick: () => play(tomb.get(i).text) }, t('py.to_tomb')));
    if (discard.has(i)) buttons.push(h('button', { 'data-testid': 'discard', 'data-move': discard.get(i).text, onclick: () => play(discard.get(i).text) }, t('py.discard')));
    return h('div.py-hand-card', { class: ui.hand === i && pyramid.length ? 'chosen' : '', 'data-hand': i }, cardSvg(c, 14), h('div.buttons', {}, buttons));
  });
  const selected = pyramid.find((m) => m.text === ui.selected);
  return h(
    'section.card.py-hand',
    { 'data-testid': 'hand', 'aria-label': handTitle(ctx) },
    h('h3', {}, handTitle(ctx), ' ', h('span.hint', {}, t('py.hand_count', { count: hand.length }))),
    hand.length ? h('div.py-hand-cards', {}, cards) : h('p.hint', {}, t('py.hand_empty')),
    pyramid.length ? h('p.hint', {}, selected ? t('py.confirm_hint', { place: selected.place }) : t('py.ghost_hint', { count: pyramid.filter((m) => m.hand === ui.hand).length })) : null,
    selected && !ctx.replay ? placementPreview(ctx, me, selected.text) : null,
    h(
      'div.buttons',
      {},
      selected ? h('button.primary', { 'data-testid': 'confirm-pyramid', onclick: () => play(selected.text) }, t('py.confirm_pyramid', { place: selected.place })) : null,
      done ? h('button.primary', { 'data-testid': 'done', 'data-move': done.text, onclick: () => play(done.text) }, t('py.done')) : null,
    ),
  );
}

// What the Pyramid and the visible points would be with the chosen card on the selected place,
// computed in the page from this seat's view (the shell's `ctx.preview`) before the move is
// sent; nothing until it is known.
/**
 * @param {Ctx} ctx
 * @param {number} seat
 * @param {string} move
 */
function placementPreview(ctx, seat, move) {
  const after = ctx.preview ? ctx.preview([move]) : null;
  if (!after) return null;
  const then = after.seats[seat].public_score;
  return h(
    'p.hint.py-preview',
    { 'data-testid': 'preview', 'data-move': move, 'data-seat': seat, 'data-total': then.total, role: 'status' },
    t('py.preview.placement', { pyramid: then.pyramid.total, total: then.total, now: ctx.view.seats[seat].public_score.total }),
  );
}

/** @param {SeatView} p */
function obeliskColumns(p) {
  return h(
    'div.py-obelisk',
    { 'data-testid': 'obelisk-columns', 'aria-label': t('py.obelisk_label', { count: p.obelisk.length }) },
    h('span.label', {}, t('py.obelisk_label', { count: p.obelisk.length })),
    h(
      'div.columns',
      {},
      COLOURS.map((c) =>
        h(
          'div.column',
          { title: `${colourName(c)}: ${p.obelisk_stages[c]}`, 'aria-label': `${colourName(c)}: ${p.obelisk_stages[c]}` },
          h('div.bar', { style: `height:${4 + p.obelisk_stages[c] * 8}px`, 'data-colour': c }),
          stoneChip(c, 16),
          h('span.count', {}, `${p.obelisk_stages[c]}`),
        ),
      ),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 * @param {boolean} own
 */
function necropolis(ctx, p, own) {
  const { legal, ui, play } = ctx;
  const name = ctx.seatName(p.seat);
  let ghosts = [];
  let preview = null;
  if (own && ctx.myTurn) {
    // The replay's analysis shows its two moves whichever card each places.
    ghosts = legal.filter((m) => m.kind === 'pyramid' && (ctx.replay || m.hand === ui.hand));
    preview = p.hand ? p.hand[ui.hand] : null;
  }
  return seatCard(ctx, p.seat, {
    kind: 'py-necropolis',
    attrs: { 'data-testid': own ? 'my-necropolis' : 'necropolis', 'aria-label': t('py.necropolis_of', { name }) },
    title: own && !ctx.replay ? t('py.your_necropolis') : t('py.necropolis_of', { name }),
    notes: [p.god ? h('span.hint', {}, ` · ${t(`py.god.${p.god}`)}`) : null],
    action: own ? null : enlargeButton(ctx, p.seat, t('py.necropolis_of', { name })),
    body: [
      pyramidSvg(p.pyramid, {
        testid: own ? 'my-pyramid' : null,
        unit: own ? 14 : 9,
        label: t('py.pyramid_of', { name }),
        ghosts,
        preview,
        selected: ui.selected,
        onGhost: (g) => {
          if (ui.selected === g.text) play(g.text);
          else {
            ui.selected = g.text;
            ctx.redraw();
            requestAnimationFrame(() => /** @type {HTMLElement | null} */ (document.querySelector(`[data-testid=my-pyramid] [data-move="${g.text}"]`))?.focus());
          }
        },
      }),
      edifices(p, own),
      own ? null : takes(ctx, p),
      h('div.score-line', { 'data-testid': 'public-score', 'data-seat': p.seat, 'data-total': p.public_score.total }, t('py.public_score', { total: p.public_score.total })),
    ],
  });
}

// What a player took from the quarry this round and discarded at the last round end: seen
// by everyone at the table, so kept in sight here (the view carries exactly that).
/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 */
function takes(ctx, p) {
  const row = (/** @type {string} */ testid, /** @type {string} */ label, /** @type {CardView[]} */ cards) =>
    cards.length
      ? h(
          `div.py-took`,
          { 'data-testid': testid },
          h('span.label', {}, label),
          h(
            'div.pair-cards',
            {},
            cards.map((c) => cardSvg(c, 9)),
          ),
        )
      : null;
  if (!p.took.length && !p.discarded.length) return null;
  return h(
    'div.py-takes',
    { 'data-testid': 'takes', 'aria-label': t('py.takes_of', { name: ctx.seatName(p.seat) }) },
    row('took', t('py.took_this_round'), p.took),
    row('discarded', t('py.discarded_last_round'), p.discarded),
  );
}

// The Obelisk and the Tomb beside a Pyramid (the Tomb's cards only to whoever may see them).
/**
 * @param {SeatView} p
 * @param {boolean} own
 */
function edifices(p, own) {
  const tomb = p.tomb
    ? h(
        'div.py-tomb-cards',
        { 'data-testid': own ? 'my-tomb' : 'tomb-cards' },
        p.tomb.map((c) => cardSvg(c, 8)),
      )
    : null;
  return h(
    'div.py-edifices',
    {},
    obeliskColumns(p),
    h(
      'div.py-tomb',
      { 'data-testid': 'tomb-count' },
      h('span.label', {}, t('py.tomb_count', { count: p.tomb_size })),
      tomb,
      own || p.hand === null ? h('span.hint', {}, t('py.hand_size', { count: p.hand_size })) : null,
    ),
  );
}

// An opponent's necropolis enlarged: the Pyramid at the size of the own one, the Obelisk,
// the Tomb and the public score.
/**
 * @param {Ctx} ctx
 * @param {number} seat
 * @returns {import('../pyramid-drawing/enlarge.js').Enlarged | null}
 */
function enlargedNecropolis(ctx, seat) {
  const p = ctx.view.seats.find((x) => x.seat === seat);
  if (!p) return null;
  const name = ctx.seatName(seat);
  return {
    wide: true,
    title: [t('py.necropolis_of', { name }), p.god ? h('span.hint', {}, ` · ${t(`py.god.${p.god}`)}`) : null],
    body: [
      h(
        'div.py-enlarged',
        {},
        h('div.py-enlarged-pyramid', { 'data-scroll-key': 'pyramid' }, pyramidSvg(p.pyramid, { testid: 'enlarged-pyramid', unit: 14, label: t('py.pyramid_of', { name }) })),
        edifices(p, false),
        takes(ctx, p),
      ),
      h('div.score-line', { 'data-testid': 'public-score', 'data-seat': p.seat, 'data-total': p.public_score.total }, t('py.public_score', { total: p.public_score.total })),
    ],
  };
}

/** @param {Ctx} ctx */
function moveLog(ctx) {
  // The shell's log (complete, by turn, with names); this table says how a move reads.
  return ctx.moveLog(moveText);
}
