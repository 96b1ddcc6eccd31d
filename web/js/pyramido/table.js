// @ts-check
// The Pyramido table: the quarry between the four piles, the pyramid being built with its
// ghost placements, the marker, resurfacing, hole-covering and refill choices, every player's
// pyramid, the scoring pad and the end. It acts only on the structured legal moves and the
// view's facts: no rule is decided here.
import { h, stylesheet } from '../dom.js';
import { scoreLine as seatScoreLine } from '../score-line.js';
import { seatCard } from '../seat-card.js';
import { t } from '../i18n.js';
import { blockPicture, dominoSvg, orient, palette, pyramidSvg, pyramidTitle, quadrantMask } from '../pyramid-drawing/drawing.js';
import { ghostsNow, handRow, onRotateKey, pickGhost, placeHint, placements, usableDirs } from '../pyramid-drawing/placing.js';
import { eliminationText, scoringPad } from './scoring.js';
import { enlargeButton, enlargedDialog } from '../pyramid-drawing/enlarge.js';
import { bringIntoView, watchTableHead } from '../sticky-head.js';
import { focusNextDecision } from '../pyramid-drawing/focus.js';
import { statusBar } from '../status-bar.js';

/**
 * Pyramido's moves (crates/pyramido/src/descriptor.rs, `moves`; crates/pyramido/src/moves.rs,
 * `MoveForm`). Slots and piles are 0-based (texts number them from 1); cells are stage-local
 * block coordinates. `take` a quarry `slot`; `place` (the shared placement form, with
 * `eliminates`); `mark` block `side` A or B, at (`x`, `y`); `resurface` that block with a
 * card's side of `colour` and its jewel in `quadrant` (`card`: the card's two sides' colours);
 * `pass`; `refill` the empty quarry `slot` from `pile`; `cover` the hole `cell` (`c2`) at
 * (`x`, `y`) as for resurfacing.
 * @typedef {{ text: string } & import('../wire/pyramido').MoveForm} MoveForm a move as it travels: its text beside its form
 * @typedef {Extract<MoveForm, { kind: 'mark' }>} MarkMove
 * @typedef {Extract<MoveForm, { kind: 'resurface' }>} ResurfaceMove
 * @typedef {Extract<MoveForm, { kind: 'cover' }>} CoverMove
 */
/**
 * Pyramido's view (crates/pyramido/src/view.rs, declared in web/js/wire from the Rust types):
 * the envelope, the quarry's three slots, the four piles, the domino held, the holes to cover,
 * and per seat its pyramid and scores.
 * @import { View, SeatView, BlockView, DominoView } from '../wire/pyramido'
 */

/**
 * The context the shell hands this table: Pyramido's moves and view.
 * @typedef {import('../envelope.js').TableContext<MoveForm, View>} Ctx
 */

// The table's styles live next to it (loaded once).
stylesheet(new URL('./table.css', import.meta.url));

// The controls of a decision, for the focus after a move (the first one present wins).
const DECISIONS =
  '[data-testid=take], [data-testid=my-pyramid] [data-testid=ghost], [data-testid=mark], [data-testid=resurface-block], [data-testid=pass], [data-testid=refill], [data-testid=cover-colour]';

export const PALETTE = palette('pyo', [
  ['brown', 'dots'],
  ['blue', 'horizontal'],
  ['yellow', 'diagonal'],
  ['turquoise', 'vertical'],
  ['red', 'cross'],
  ['green', 'grid'],
]);

/** @param {string} c */
export const colourName = (c) => t(`pyo.colour.${c}`);
/**
 * @param {number} x
 * @param {number} y
 */
const cellName = (x, y) => `${String.fromCharCode(97 + x)}${y + 1}`;
/**
 * @param {BlockView} b
 * @returns {import('../pyramid-drawing/drawing.js').Block}
 */
const asBlock = (b) => ({ colour: b.colour, icons: quadrantMask(b.jewels) });
/** @param {BlockView} b */
const countJewels = (b) => b.jewels.length;

/** @param {DominoView} d */
export function dominoLabel(d) {
  return [d.a, d.b].map((b) => t('pyo.block', { colour: colourName(b.colour), count: countJewels(b) })).join(' | ');
}

/**
 * @param {SeatView} p
 * @returns {import('../pyramid-drawing/drawing.js').PlacedBlock[]}
 */
function pyramidBlocks(p) {
  return p.blocks.map((b) => ({
    stage: b.stage,
    x: b.x,
    y: b.y,
    block: asBlock(b),
    card: !!b.card,
    marker: !!b.marker,
    title: t('pyo.block_title', { stage: b.stage, colour: colourName(b.colour), count: countJewels(b) }) + (b.marker ? ` · ${t('pyo.marker')}` : '') + (b.card ? ` · ${t('pyo.card')}` : ''),
  }));
}

// The marked areas outlined with their jewel counts: those of the stage being built, or of a
// scored stage the player asked to see in the scoring pad.
/**
 * @param {SeatView} p
 * @param {Ctx['ui']} ui
 * @returns {import('../pyramid-drawing/drawing.js').Area[]}
 */
function liveAreas(p, ui) {
  const [ox, oy] = p.grid_origin;
  const shown = ui && ui.shownStage && ui.shownStage.seat === p.seat ? p.stage_breakdowns[ui.shownStage.stage - 1] : null;
  return (shown ? shown.areas : p.live_areas).map((a) => ({
    cells: a.cells.map((q) => [2 * ox + (q % 10), 2 * oy + Math.floor(q / 10)]),
    count: a.jewels,
    label: t('pyo.area', { colour: colourName(a.colour), count: a.jewels }),
    testid: shown ? 'scored-area' : 'live-area',
  }));
}

/** @param {Ctx} ctx */
export function render(ctx) {
  const { view, state } = ctx;
  const mine = state.seat !== null && state.seat !== undefined;
  const focus = mine ? state.seat : (view.to_move ?? 0);
  const phase = view.outcome ? 'over' : view.phase;
  // Local choices belong to one state: forget them when the state moves on.
  const placing = ctx.myTurn && phase === 'place';
  if (ctx.ui.stateId !== state.state_id) {
    ctx.ui.stateId = state.state_id;
    // A replay's flagged decision arrives with its best move selected (its domino drawn).
    if (!ctx.replay) ctx.ui.selected = null;
    ctx.ui.resurface = null;
    ctx.ui.cover = null;
    ctx.ui.confirm = null;
    if (placing && !ctx.replay) bringIntoView();
    if (ctx.myTurn && !ctx.replay) focusNextDecision(DECISIONS);
  }
  const own = h('section.card.own', { 'data-testid': 'own-area', onkeydown: placing ? onRotateKey(ctx) : null }, ownArea(ctx, focus));
  watchTableHead();
  // The status line sits outside the table's grid so that it can stick under the clocks.
  return [
    tableStatus(ctx),
    h(
      'div.ft-table.pyo-table',
      { 'data-testid': 'pyo-table', 'data-phase': phase, 'data-state-id': state.state_id, class: placing ? 'placing' : '' },
      // While placing, the pyramid comes first: the quarry is not needed then.
      h('div.ft-main', {}, placing ? [own, quarry(ctx)] : [quarry(ctx), own]),
      h(
        'aside.ft-side',
        {},
        view.seats.filter((p) => p.seat !== focus).map((p) => playerCard(ctx, p)),
        scoringPad(ctx),
        moveLog(ctx),
      ),
      enlargedDialog(ctx, (seat) => enlargedPlayer(ctx, seat)),
    ),
  ];
}

// The shell's status line, in Pyramido's words, with the first player of the stage.
/** @param {Ctx} ctx */
function tableStatus(ctx) {
  return statusBar(ctx, { ns: 'pyo.', first: 'pyo.first_player' });
}

// What the stage would score with the domino placed on the selected slot, computed in the
// page from this seat's view (the shell's `ctx.preview`) before the move is sent; nothing
// until it is known.
/**
 * @param {Ctx} ctx
 * @param {number} seat
 * @param {string} move
 */
function placementPreview(ctx, seat, move) {
  const after = ctx.preview ? ctx.preview([move]) : null;
  if (!after) return null;
  const value = after.seats[seat].stage_value;
  return h(
    'p.hint.pyo-preview',
    { 'data-testid': 'preview', 'data-move': move, 'data-seat': seat, 'data-stage-value': value, role: 'status' },
    t('preview.stage_value', { count: value, now: ctx.view.seats[seat].stage_value }),
  );
}

/** @param {Ctx} ctx */
function quarry(ctx) {
  const { view, legal, play } = ctx;
  const takes = legal.filter((m) => m.kind === 'take');
  const refills = legal.filter((m) => m.kind === 'refill');
  const items = [];
  view.piles.forEach((pile, i) => {
    const refill = refills.find((m) => m.pile === i);
    const size = t('table.pile_size', { count: pile.size });
    const pic = pile.top ? dominoSvg(PALETTE, [asBlock(pile.top.a), asBlock(pile.top.b)], 60, dominoLabel(pile.top)) : h('span.hint', {}, t('table.empty_pile'));
    const label = refill ? t('pyo.refill_from', { pile: i + 1, slot: (refill.slot ?? 0) + 1 }) : t('pyo.pile', { pile: i + 1 });
    const content = [h('span.pile-head', {}, `${t('pyo.pile', { pile: i + 1 })} · ▤ ${pile.size}`), pic];
    items.push(
      refill
        ? h(
            'button.pyo-pile.choice',
            { 'data-testid': 'refill', 'data-move': refill.text, 'data-pile': i + 1, title: size, 'aria-label': `${label} (${size})`, onclick: () => play(refill.text) },
            content,
          )
        : h('div.pyo-pile', { 'data-pile': i + 1, title: size }, content),
    );
    if (i < 3) {
      const d = view.quarry[i];
      const take = takes.find((m) => m.slot === i);
      const head = h('span.pile-head', {}, t('pyo.slot', { slot: i + 1 }));
      if (!d) items.push(h('div.pyo-slot.empty', { 'data-slot': i + 1 }, head, h('span.hint', {}, t('pyo.slot_empty'))));
      else {
        const pic2 = dominoSvg(PALETTE, [asBlock(d.a), asBlock(d.b)], 84, dominoLabel(d));
        items.push(
          take
            ? h(
                'button.pyo-slot.choice',
                { 'data-testid': 'take', 'data-slot': i + 1, 'data-move': take.text, 'aria-label': t('pyo.take', { slot: i + 1, domino: dominoLabel(d) }), onclick: () => play(take.text) },
                head,
                pic2,
              )
            : h('div.pyo-slot', { 'data-slot': i + 1 }, head, pic2),
        );
      }
    }
  });
  return h('section.card.pyo-quarry', { 'aria-label': t('pyo.quarry') }, h('h3', {}, t('pyo.quarry')), h('div.pyo-row', {}, items));
}

/**
 * @param {Ctx} ctx
 * @param {number} focus the seat whose pyramid is drawn big
 */
function ownArea(ctx, focus) {
  const { view, legal, ui, play } = ctx;
  const player = view.seats[focus];
  const parts = [h('h3', {}, pyramidTitle(ctx, focus), statusNote(player))];
  const placing = ctx.myTurn && view.phase === 'place' && placements(legal).length > 0;
  let ghosts = [];
  const targets = [];
  if (view.held && view.to_move === focus) {
    const held = [asBlock(view.held.a), asBlock(view.held.b)];
    const cards = player.cards_in_hand.length;
    const warning = t('pyo.eliminates_confirm', { stage: view.stage, count: cards });
    parts.push(handRow(ctx, dominoSvg(PALETTE, held, 76, dominoLabel(view.held)), placing, warning));
    if (placing) {
      parts.push(placeHint(ctx));
      if (ui.selected) parts.push(placementPreview(ctx, focus, ui.selected));
      ghosts = ghostsNow(ctx).map((p) => ({
        key: p.text,
        cells: p.cells,
        blocks: orient(held, p.dir),
        selected: ui.selected === p.text,
        dooms: !!p.eliminates,
        label: t('pyo.ghost', { cell: cellName(p.x, p.y), dir: t(`dir.${p.dir}`) }) + (p.eliminates ? ` · ${t('place.eliminates_short')}` : ''),
        onPick: () => pickGhost(ctx, p.text),
      }));
    }
  }
  const marks = ctx.myTurn ? legal.filter((m) => m.kind === 'mark') : [];
  for (const m of marks) {
    targets.push({ key: m.text, stage: view.stage, x: m.x, y: m.y, testid: 'mark-target', label: t('pyo.mark_block', { side: m.side }), onPick: () => play(m.text) });
  }
  const covers = ctx.myTurn ? legal.filter((m) => m.kind === 'cover') : [];
  const holeSet = new Map(covers.map((m) => [m.cell, m]));
  for (const [cell, m] of holeSet) targets.push({ key: cell, stage: view.stage, x: m.x, y: m.y, testid: 'hole', label: t('pyo.hole', { cell }) });
  const resurf = ctx.myTurn ? legal.filter((m) => m.kind === 'resurface') : [];
  if (ui.resurface && ui.resurface.side) {
    const m = resurf.find((r) => r.side === ui.resurface.side);
    if (m) targets.push({ key: m.side, stage: view.stage, x: m.x, y: m.y, testid: 'resurface-target', selected: true, label: t('pyo.block_side', { side: m.side }) });
  }
  const svg = pyramidSvg(PALETTE, pyramidBlocks(player), {
    frame: player.frame,
    stage: view.stage,
    label: pyramidTitle(ctx, focus),
    testid: 'my-pyramid',
    last: player.last_domino,
    areas: liveAreas(player, ui),
    ghosts,
    targets,
  });
  if (ghosts.length) {
    svg.setAttribute('data-orientations', String(usableDirs(legal).length));
    svg.setAttribute('data-eliminating', String(placements(legal).filter((p) => p.eliminates).length));
  }
  // The choices sit beside the pyramid they are about (below it on a narrow screen).
  const choices = [];
  if (marks.length) choices.push(markPanel(ctx, marks, player));
  if (resurf.length || legal.some((m) => m.kind === 'pass')) choices.push(resurfacePanel(ctx, resurf, player));
  if (covers.length) choices.push(coverPanel(ctx, covers));
  if (ctx.myTurn && legal.some((m) => m.kind === 'refill')) choices.push(h('p.hint', { 'data-testid': 'refill-hint' }, t('pyo.refill_hint')));
  parts.push(h('div.pyo-work', {}, h('div.pyramid-box.big', {}, svg), choices.length ? h('div.pyo-choices', {}, choices) : null));
  if (player.status === 'eliminated') parts.push(h('p.elimination', { 'data-testid': 'elimination-reason' }, eliminationText(player)));
  parts.push(scoreLine(ctx, player));
  return parts;
}

/** @param {SeatView} p */
function statusNote(p) {
  if (p.status === 'eliminated') return h('span.hint', { 'data-testid': 'eliminated', title: eliminationText(p) }, ` · ${t('pyo.eliminated')}`);
  if (p.status === 'done') return h('span.hint', {}, ` · ${t('table.stage_complete')}`);
  return null;
}

/**
 * @param {SeatView} player
 * @param {number} stage
 * @param {number} x
 * @param {number} y
 */
function blockAt(player, stage, x, y) {
  return player.blocks.find((b) => b.stage === stage && b.x === x && b.y === y);
}

/**
 * @param {Ctx} ctx
 * @param {MarkMove[]} marks
 * @param {SeatView} player
 */
function markPanel(ctx, marks, player) {
  return h(
    'div.stage-end',
    { 'data-testid': 'mark-panel' },
    h('p', {}, t('pyo.mark_hint')),
    h(
      'div.moves',
      {},
      marks.map((m) => {
        const b = blockAt(player, ctx.view.stage, m.x, m.y);
        return h(
          'button',
          { 'data-testid': 'mark', 'data-move': m.text, onclick: () => ctx.play(m.text) },
          b ? blockPicture(PALETTE, asBlock(b), 28, colourName(b.colour)) : null,
          ` ${t('pyo.mark_on', { side: m.side, colour: b ? colourName(b.colour) : '' })}`,
        );
      }),
    ),
  );
}

// Resurfacing: block (A or B), then card side (colour), then the jewel's quadrant, each
// choice previewed as the block it would become.
/**
 * @param {Ctx} ctx
 * @param {ResurfaceMove[]} moves
 * @param {SeatView} player
 */
function resurfacePanel(ctx, moves, player) {
  const { ui, play, legal } = ctx;
  ui.resurface = ui.resurface || {};
  // A replay's analysis lists its best move first: its block and side are chosen, so that
  // its last button (drawn and marked) shows.
  if (ctx.replay && moves.length && !ui.resurface.side) ui.resurface = { side: moves[0].side, colour: moves[0].colour };
  const pass = legal.find((m) => m.kind === 'pass');
  const sides = [...new Set(moves.map((m) => m.side))];
  if (sides.length === 1) ui.resurface.side = sides[0];
  const side = ui.resurface.side;
  const ofSide = moves.filter((m) => m.side === side);
  const colours = [...new Set(ofSide.map((m) => m.colour))];
  const colour = colours.includes(ui.resurface.colour) ? ui.resurface.colour : null;
  const rows = [h('p', {}, t('pyo.resurface_hint'))];
  rows.push(
    h(
      'div.moves',
      {},
      sides.map((sd) => {
        const m = moves.find((x) => x.side === sd);
        const b = blockAt(player, ctx.view.stage, m.x, m.y);
        return h(
          'button',
          { 'data-testid': 'resurface-block', class: sd === side ? 'selected' : '', 'aria-pressed': sd === side ? 'true' : 'false', onclick: () => ((ui.resurface = { side: sd }), ctx.redraw()) },
          b ? blockPicture(PALETTE, asBlock(b), 28, colourName(b.colour)) : null,
          ` ${t('pyo.block_side', { side: sd })}`,
        );
      }),
      pass ? h('button', { 'data-testid': 'pass', 'data-move': pass.text, onclick: () => play(pass.text) }, t('pyo.pass')) : null,
    ),
  );
  if (side) {
    rows.push(cardSides(ofSide, colour, 'resurface-colour', (c) => ((ui.resurface.colour = c), ctx.redraw())));
  }
  if (side && colour)
    rows.push(
      quadrantChoices(
        ofSide.filter((m) => m.colour === colour),
        'resurface',
        ctx,
      ),
    );
  return h('div.stage-end', { 'data-testid': 'resurface-panel' }, rows);
}

// The card sides the moves offer, grouped by card: each button shows the side's colour.
/**
 * @param {(ResurfaceMove | CoverMove)[]} moves
 * @param {string | null} chosen
 * @param {string} testid
 * @param {(colour: string) => void} choose
 */
function cardSides(moves, chosen, testid, choose) {
  // A card is named by its two sides' colours; its first side tells it apart.
  const cards = [...new Map(moves.map((m) => [m.card[0], m.card])).values()];
  return h(
    'div.moves.card-sides',
    {},
    cards.map((card) =>
      h(
        'div.card-group',
        { role: 'group', 'aria-label': t('pyo.card_name', { card: cardName(card) }) },
        h('span.label', {}, t('pyo.card_name', { card: cardName(card) })),
        [...new Set(moves.filter((m) => m.card[0] === card[0]).map((m) => m.colour))].map((c) => {
          const full = t('pyo.card_side', { colour: colourName(c), card: cardName(card) });
          return h(
            'button',
            { 'data-testid': testid, class: c === chosen ? 'selected' : '', 'aria-pressed': c === chosen ? 'true' : 'false', 'aria-label': full, title: full, onclick: () => choose(c) },
            blockPicture(PALETTE, { colour: c, icons: 0 }, 24, ''),
            ` ${colourName(c)}`,
          );
        }),
      ),
    ),
  );
}

/** @param {[string, string]} card */
function cardName(card) {
  return card.map((c) => colourName(c)).join('/');
}

/**
 * @param {(ResurfaceMove | CoverMove)[]} moves
 * @param {string} testid
 * @param {Ctx} ctx
 */
function quadrantChoices(moves, testid, ctx) {
  return h(
    'div.moves.quadrants',
    {},
    moves.map((m) => {
      const label = t('pyo.jewel_in', { colour: colourName(m.colour), quadrant: t(`pyo.quadrant.${m.quadrant}`) });
      return h(
        'button',
        { 'data-testid': testid, 'data-move': m.text, 'aria-label': label, title: label, onclick: () => ctx.play(m.text) },
        blockPicture(PALETTE, { colour: m.colour, icons: quadrantMask(m.quadrant) }, 40, label),
        h('span.q', {}, t(`pyo.quadrant.${m.quadrant}`)),
      );
    }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {CoverMove[]} moves
 */
function coverPanel(ctx, moves) {
  const { ui } = ctx;
  ui.cover = ui.cover || {};
  // As for resurfacing: a replay shows its best move's card side chosen.
  if (ctx.replay && !ui.cover.colour) ui.cover.colour = moves[0].colour;
  const cell = moves[0].cell;
  const colours = [...new Set(moves.map((m) => m.colour))];
  const colour = colours.includes(ui.cover.colour) ? ui.cover.colour : null;
  return h(
    'div.stage-end',
    { 'data-testid': 'cover-panel' },
    h('p', {}, t('pyo.cover_hint', { cell, count: ctx.view.holes.length })),
    cardSides(moves, colour, 'cover-colour', (c) => ((ui.cover.colour = c), ctx.redraw())),
    colour
      ? quadrantChoices(
          moves.filter((m) => m.colour === colour),
          'cover',
          ctx,
        )
      : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 */
function scoreLine(ctx, p) {
  const live = p.status === 'eliminated' ? null : h('span', { 'data-testid': 'stage-value', 'data-seat': p.seat, 'data-points': p.stage_value }, t('pyo.stage_value', { points: p.stage_value }));
  // The stages and the total are the shell's (from the envelope); the live value of the stage
  // being built, the cards left and the markers in hand are Pyramido's.
  return seatScoreLine(ctx, p.seat, { middle: [live, h('span', {}, t('pyo.cards_left', { count: p.cards_in_hand.length }))], after: markersInHand(p) });
}

// The jewel markers a player has not placed yet, each in its colour and pattern.
/** @param {SeatView} p */
function markersInHand(p) {
  return h(
    'span.pyo-markers',
    { 'data-testid': 'markers-in-hand' },
    h('span.label', {}, t('pyo.markers_in_hand')),
    p.markers_in_hand.length
      ? p.markers_in_hand.map((c) =>
          h(
            'span.marker-chip',
            { title: t('pyo.marker_of', { colour: colourName(c) }), 'data-colour': c },
            blockPicture(PALETTE, { colour: c, icons: 0 }, 18, t('pyo.marker_of', { colour: colourName(c) }), { marker: true }),
          ),
        )
      : h('span.hint', {}, t('pyo.markers_none')),
  );
}

/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 */
function playerCard(ctx, p) {
  return seatCard(ctx, p.seat, {
    notes: [statusNote(p)],
    action: enlargeButton(ctx, p.seat, pyramidTitle(ctx, p.seat)),
    body: [h('div.pyramid-box', {}, opponentPyramid(ctx, p)), scoreLine(ctx, p)],
  });
}

// An opponent's pyramid as the table draws it (on its card, and enlarged).
/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 * @param {string} [testid]
 */
function opponentPyramid(ctx, p, testid) {
  if (!p.blocks.length) return h('p.hint', {}, t('pyramid.empty'));
  return pyramidSvg(PALETTE, pyramidBlocks(p), {
    frame: p.frame,
    stage: ctx.view.stage,
    label: pyramidTitle(ctx, p.seat),
    testid,
    last: p.last_domino,
    areas: liveAreas(p, ctx.ui),
  });
}

// The enlarged card: the same drawing at the size of the own pyramid, with the scores.
/**
 * @param {Ctx} ctx
 * @param {number} seat
 * @returns {import('../pyramid-drawing/enlarge.js').Enlarged | null}
 */
function enlargedPlayer(ctx, seat) {
  const p = ctx.view.seats[seat];
  if (!p) return null;
  return {
    title: [pyramidTitle(ctx, seat), statusNote(p)],
    body: [h('div.pyramid-box.big', {}, opponentPyramid(ctx, p, 'enlarged-pyramid')), scoreLine(ctx, p)],
  };
}

// Under an eliminated player's name in the shell's result: why.
/**
 * @param {Ctx} ctx
 * @returns {import('../result.js').ResultDetails}
 */
export function resultDetails(ctx) {
  return {
    seatNote: (seat) => {
      const p = ctx.view.seats[seat];
      return p && p.status === 'eliminated' ? h('div.elimination', { 'data-testid': 'result-elimination' }, eliminationText(p)) : null;
    },
  };
}

// A move in words (the log, the replay, notices, the analysis): exported for the shell.
// `as`: `'advice'` words the move as one to make (the judge's best move), not as one made.
/**
 * @param {MoveForm} m
 * @param {'log' | 'advice'} [as]
 * @returns {string}
 */
export function moveText(m, as = 'log') {
  const advice = as === 'advice';
  const k = (/** @type {string} */ name) => (advice ? `pyo.advice.${name}` : `pyo.move.${name}`);
  switch (m.kind) {
    case 'take':
      return t(k('take'), { slot: m.slot + 1 });
    case 'place':
      return t(advice ? 'pyo.advice.place' : 'move.place', { cell: cellName(m.x, m.y), dir: t(`dir.${m.dir}`) });
    case 'mark':
      return t(k('mark'), { side: m.side });
    case 'resurface':
      return t(k('resurface'), { side: m.side, colour: colourName(m.colour), quadrant: t(`pyo.quadrant.${m.quadrant}`) });
    case 'pass':
      return t(k('pass'));
    case 'refill':
      return t(k('refill'), { pile: m.pile + 1 });
    case 'cover':
      return t(k('cover'), { cell: m.cell, colour: colourName(m.colour), quadrant: t(`pyo.quadrant.${m.quadrant}`) });
    default:
      // A kind this client does not know reads as its text.
      return /** @type {import('../envelope.js').MoveBase} */ (m).text;
  }
}

/** @param {Ctx} ctx */
function moveLog(ctx) {
  // The shell's log (complete, by turn, with names); this table says how a move reads, and
  // ends with who was eliminated and why.
  const log = ctx.moveLog(moveText);
  const out = ctx.view.seats.filter((p) => p.status === 'eliminated');
  for (const p of out) log.append(h('p.elimination', { 'data-testid': 'log-elimination' }, t('pyo.log_eliminated', { name: ctx.seatName(p.seat), why: eliminationText(p) })));
  return log;
}
