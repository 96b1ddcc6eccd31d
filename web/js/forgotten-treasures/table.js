// @ts-check
// The Forgotten Treasures table: exploration area, the pyramid being built with its ghost
// placements, stage-end scoring, every player's pyramid and score, THE Legend in solo and the
// scoring pad (the shell draws the end of the game).
import { h, clickable, stylesheet } from '../dom.js';
import { t } from '../i18n.js';
import { GEMS, PALETTE, backSvg, colourName, dominoLabel, dominoSvg, gemName, gemSvg } from './pieces.js';
import { orient, pyramidSvg as sharedPyramidSvg, pyramidTitle } from '../pyramid-drawing/drawing.js';
import { stageEndPanel, scoringPad, plannedAreas } from './stage-end.js';
import { ghostsNow, handRow, onRotateKey, pickGhost, placeHint } from '../pyramid-drawing/placing.js';
import { moveText } from './moves.js';
import { statusBar } from '../status-bar.js';
import { scoreLine } from '../score-line.js';
import { seatCard } from '../seat-card.js';

// A move in words, for the shell's replay, notices and analysis.
export { moveText };
import { enlargeButton, enlargedDialog } from '../pyramid-drawing/enlarge.js';
import { bringIntoView, watchTableHead } from '../sticky-head.js';
import { focusNextDecision } from '../pyramid-drawing/focus.js';

/**
 * Forgotten Treasures' view (crates/treasures/src/view.rs, declared in web/js/wire from the
 * Rust types): the envelope, the exploration area's spaces, the bag, the domino in hand, per
 * seat its gems and pyramid, the stage end being scored (`scoring`) and THE Legend in solo
 * (`legend`). Colours travel by name, gems as counts keyed by gem name.
 * @import { View, SeatView, Colour, Gem, Gems, ColouredBlock, BackBlock, DominoView, SpaceView, BlockView, ScoredAreaView, ScoringView, AreaView, PaymentOption, LegendView, LegendTurnView } from '../wire/forgotten-treasures'
 * @import { MoveForm } from './moves.js'
 */

/**
 * The context the shell hands this table: Forgotten Treasures' moves and view.
 * @typedef {import('../envelope.js').TableContext<MoveForm, View>} Ctx
 */

// The table's styles live next to it (loaded once).
stylesheet(new URL('./table.css', import.meta.url));

// The controls of a decision, for the focus after a move (the first one present wins).
const DECISIONS = '[data-testid=take], [data-testid=flip], [data-testid=my-pyramid] [data-testid=ghost], [data-testid=scoring-panel] button:not([disabled]), [data-testid=discard]';

/** @param {Ctx} ctx */
export function render(ctx) {
  const { view, state } = ctx;
  const mine = state.seat !== null && state.seat !== undefined;
  const focus = mine ? state.seat : (view.to_move ?? 0);
  const placing = ctx.myTurn && view.phase === 'place';
  // While placing or scoring a stage, the own pyramid comes first (the exploration area is
  // not needed then).
  const ownFirst = placing || (view.scoring && view.scoring.seat === focus) || (ctx.myTurn && view.phase === 'discard');
  // Local choices belong to one state: a new state forgets the selected slot.
  if (ctx.ui.stateId !== state.state_id) {
    ctx.ui.stateId = state.state_id;
    // A replay's flagged decision arrives with its best move selected (its domino drawn).
    if (!ctx.replay) ctx.ui.selected = null;
    ctx.ui.confirm = null;
    if (ownFirst && !ctx.replay) bringIntoView();
    if (ctx.myTurn && !ctx.replay) focusNextDecision(DECISIONS);
  }
  const own = h('section.card.own', { 'aria-label': pyramidTitle(ctx, focus), 'data-testid': 'own-area', onkeydown: placing ? onRotateKey(ctx) : null }, ownArea(ctx, focus));
  watchTableHead();
  // The status line sits outside the table's grid so that it can stick under the clocks.
  return [
    tableStatus(ctx),
    h(
      'div.ft-table',
      { 'data-testid': 'ft-table', 'data-phase': view.phase, 'data-state-id': state.state_id, class: placing ? 'placing' : '' },
      // While placing, the pyramid comes first: the exploration area is not needed then.
      h('div.ft-main', {}, ownFirst ? [own, exploration(ctx)] : [exploration(ctx), own]),
      h(
        'aside.ft-side',
        {},
        view.legend ? legendPanel(ctx) : null,
        view.seats.filter((p) => p.seat !== focus).map((p) => playerCard(ctx, p)),
        scoringPad(ctx),
        moveLog(ctx),
      ),
      enlargedDialog(ctx, (seat) => enlargedPlayer(ctx, seat)),
    ),
  ];
}

// The shell's status line, with the bag's size.
/** @param {Ctx} ctx */
function tableStatus(ctx) {
  return statusBar(ctx, { info: [h('span.info', {}, t('table.bag', { count: ctx.view.bag_size }))] });
}

/** @param {Ctx} ctx */
function exploration(ctx) {
  const { view, legal, play } = ctx;
  const takes = legal.filter((m) => m.kind === 'take');
  const flips = new Map(legal.filter((m) => m.kind === 'flip').map((m) => [m.pile, m.text]));
  const legendTurns = view.legend ? view.legend.turns : [];
  const legendSpace = legendTurns.length ? legendTurns[legendTurns.length - 1].space : null;
  return h(
    'section.card.exploration',
    { 'aria-label': t('table.exploration') },
    h('h3', {}, t('table.exploration')),
    h(
      'div.spaces',
      {},
      view.spaces.map((space, i) => {
        const bare = takes.find((m) => m.space === i && !m.gem);
        let pile;
        if (space.top.kind === 'face_up') {
          pile = dominoSvg(space.top.domino.blocks, 76);
          if (bare) pile = clickable(h('div.pick', { 'data-move': bare.text, 'data-testid': 'take' }, pile), () => play(bare.text), t('take.domino_only', { space: i + 1 }));
        } else if (space.top.kind === 'face_down') {
          pile = backSvg(space.top.back, 76);
          if (flips.has(i)) {
            const text = flips.get(i);
            pile = clickable(h('div.pick.flip', { 'data-move': text, 'data-testid': 'flip' }, pile, h('span.flip-label', {}, t('flip.action'))), () => play(text), t('flip.label', { space: i + 1 }));
          }
        } else {
          pile = h('div.empty-pile', {}, t('table.empty_pile'));
        }
        const gems = GEMS.map((gem) => {
          const count = space.gems[gem];
          if (!count) return null;
          const move = takes.find((m) => m.space === i && m.gem === gem);
          const label = t('take.gem', { count, gem: gemName(gem), space: i + 1 });
          const chip = h(`span.chip.g-${gem}`, { title: label }, gemSvg(gem), h('span.count', {}, `×${count}`));
          return move ? clickable(h('span.chip-button', { 'data-move': move.text, 'data-testid': 'take' }, chip), () => play(move.text), label) : h('span', { 'aria-label': label }, chip);
        });
        return h(
          'div.space',
          { 'data-space': i + 1, class: legendSpace === i ? 'legend-took' : '' },
          h(
            'div.space-head',
            {},
            h('span.space-number', {}, `${i + 1}`),
            h('span.pile-size', { title: t('table.pile_size', { count: space.pile_size }), 'aria-label': t('table.pile_size', { count: space.pile_size }) }, `▤ ${space.pile_size}`),
          ),
          pile,
          h('div.gem-area', { 'aria-label': t('table.gem_area', { space: i + 1 }) }, gems),
          legendSpace === i ? h('span.legend-mark', {}, t('legend.took_here')) : null,
        );
      }),
    ),
  );
}

/** @param {Gems} gems */
function gemsInline(gems) {
  return h(
    'span.gems',
    {},
    GEMS.map((gem) =>
      gems[gem]
        ? h(
            `span.chip.g-${gem}`,
            { title: t(`gem_count.${gem}`, { count: gems[gem] }), 'aria-label': t(`gem_count.${gem}`, { count: gems[gem] }) },
            gemSvg(gem, 16),
            h('span.count', {}, `${gems[gem]}`),
          )
        : null,
    ),
    GEMS.every((gem) => !gems[gem]) ? h('span.hint', {}, t('table.no_gems')) : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {number} focus the seat whose pyramid is drawn big
 */
function ownArea(ctx, focus) {
  const { view, ui } = ctx;
  const player = view.seats[focus];
  const placing = ctx.myTurn && view.phase === 'place';
  const scoring = view.scoring && view.scoring.seat === focus ? view.scoring : null;
  const parts = [h('div.own-head', {}, h('h3', {}, pyramidTitle(ctx, focus)), h('div.inventory', {}, h('span.label', {}, t('table.inventory')), gemsInline(player.gems)))];

  // The domino in hand (taken this turn), turned as the rotate control says.
  if (view.hand && view.to_move === focus) parts.push(handRow(ctx, dominoSvg(view.hand.blocks, 76, dominoLabel(view.hand.blocks)), placing));
  const ghosts = placing ? ghostsNow(ctx) : [];
  if (placing) parts.push(placeHint(ctx));
  const best = scoring && ctx.state.seat === focus ? new Set(scoring.best.map((b) => b.area)) : null;
  const svg = pyramidSvg(player, {
    testid: 'my-pyramid',
    label: pyramidTitle(ctx, focus),
    ghosts,
    stage: player.pyramid_stage,
    hand: view.hand ? view.hand.blocks : null,
    selected: ui.selected,
    onGhost: (ghost) => pickGhost(ctx, ghost.text),
    areas: scoring ? scoring.areas : null,
    planned: scoring ? plannedAreas(ctx) : null,
    best: ui.showBest && !ctx.puzzle ? best : null,
    selectedArea: ui.area,
    onArea: scoring && ctx.myTurn ? (area) => ((ui.area = area.name), ctx.redraw()) : null,
  });
  // At a stage end the pyramid and the choices (the area buttons) sit side by side on a
  // wide screen, the pyramid just above them on a phone, so both are in view together.
  if (view.scoring || view.phase === 'discard') parts.push(h('div.ft-scoring-work', { 'data-testid': 'scoring-work' }, h('div.pyramid-box.big', {}, svg), stageEndPanel(ctx, focus)));
  else parts.push(h('div.pyramid-box.big', {}, svg));
  parts.push(scoreLine(ctx, player.seat));
  return parts;
}

/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 */
function playerCard(ctx, p) {
  const { view } = ctx;
  return seatCard(ctx, p.seat, {
    notes: [p.stage_complete && view.phase !== 'over' ? h('span.hint', {}, ` · ${t('table.stage_complete')}`) : null],
    action: enlargeButton(ctx, p.seat, pyramidTitle(ctx, p.seat)),
    body: [h('div.inventory', {}, gemsInline(p.gems)), h('div.pyramid-box', {}, opponentPyramid(ctx, p)), scoreLine(ctx, p.seat)],
  });
}

// An opponent's pyramid as the table draws it (on its card, and enlarged).
/**
 * @param {Ctx} ctx
 * @param {SeatView} p
 * @param {string} [testid]
 */
function opponentPyramid(ctx, p, testid) {
  const { view } = ctx;
  return pyramidSvg(p, {
    testid,
    label: pyramidTitle(ctx, p.seat),
    areas: view.scoring && view.scoring.seat === p.seat ? view.scoring.areas : null,
  });
}

// The enlarged card: the same drawing at the size of the own pyramid, gems and scores.
/**
 * @param {Ctx} ctx
 * @param {number} seat
 * @returns {import('../pyramid-drawing/enlarge.js').Enlarged | null}
 */
function enlargedPlayer(ctx, seat) {
  const p = ctx.view.seats[seat];
  if (!p) return null;
  return {
    title: pyramidTitle(ctx, seat),
    body: [h('div.inventory', {}, h('span.label', {}, t('table.inventory')), gemsInline(p.gems)), h('div.pyramid-box.big', {}, opponentPyramid(ctx, p, 'enlarged-pyramid')), scoreLine(ctx, p.seat)],
  };
}

/** @param {Ctx} ctx */
function legendPanel(ctx) {
  const l = ctx.view.legend;
  const top = l.pile[l.pile.length - 1];
  const last = l.turns.length ? l.turns[l.turns.length - 1] : null;
  return h(
    'section.card.legend',
    { 'data-testid': 'legend' },
    // The automa is THE Legend in both modes; only the mode is "Become A Legend".
    h('h3', {}, t('legend.name'), h('span.hint', { 'data-testid': 'legend-mode' }, ` · ${t(`legend.mode.${l.mode}`)}`)),
    h('div.legend-pile', {}, top ? dominoSvg(top.blocks, 76) : null, h('span', {}, t('legend.pile', { count: l.pile.length }))),
    h('p', {}, t('legend.wishes', { a: colourName(l.wishes[0]), b: colourName(l.wishes[1]) })),
    h('div.inventory', {}, h('span.label', {}, t('table.inventory')), gemsInline(l.gems)),
    last
      ? h(
          'div.hint',
          { 'data-testid': 'legend-last' },
          h('p', {}, t('legend.last_turn')),
          h(
            'ul.legend-why',
            {},
            legendTurnLines(last).map((line) => h('li', {}, line)),
          ),
        )
      : null,
    l.stage_draw ? h('p.hint', {}, t('legend.stage_draw', { gem: t(`gem.${l.stage_draw}`) })) : null,
    scoreLine(ctx, 'automa', { testid: null }),
  );
}

// One of THE Legend's turns in sentences: his wishes, then each gem and the domino with the
// rule of his turn that chose it (the engine names the rule; this only words it). Equal gems
// from one space for one reason make one sentence ("2 Mythical gems from space 1").
/**
 * @param {LegendTurnView} turn
 * @returns {string[]}
 */
function legendTurnLines(turn) {
  const [a, b] = turn.wishes;
  const lines = [a === b ? t('legend.why.wishes_same', { gems: t(`gem_count.${a}`, { count: 2 }) }) : t('legend.why.wishes', { a: colourName(a), b: colourName(b) })];
  const missed = [...new Set(turn.missed)].map(gemName).join(t('legend.why.or'));
  const groups = [];
  for (const g of turn.gems) {
    const same = groups.find((x) => x.gem === g.gem && x.space === g.space && x.reason === g.reason);
    if (same) same.count += 1;
    else groups.push({ ...g, count: 1 });
  }
  for (const g of groups) {
    const gems = t(`gem_count.${g.gem}`, { count: g.count });
    lines.push(t(`legend.why.${g.reason}`, { count: g.count, gems, space: g.space + 1, missed }));
  }
  if (!turn.gems.length) lines.push(t('legend.why.no_gem', { missed }));
  if (turn.domino_reason) lines.push(t(`legend.why.${turn.domino_reason}`, { space: turn.space + 1 }));
  if (turn.drew) lines.push(t('legend.why.drew', { gem: t(`gem.${turn.drew}`) }));
  return lines;
}

/** @param {Ctx} ctx */
function moveLog(ctx) {
  // The shell's log (complete, by turn, with names); this table says how a move reads. In
  // solo, each of THE Legend's turns (the view keeps them all) follows the player's move
  // he played it in, with why he took what he took.
  const legend = ctx.view.legend;
  const interludes = legend ? legend.turns.map((turn) => ({ after: turn.ply, name: t('legend.name'), testid: 'log-legend-turn', lines: legendTurnLines(turn) })) : [];
  return ctx.moveLog(moveText, interludes);
}

// A player's pyramid through the shared pyramid drawing, to scale, painted bottom-up so what
// shows is the top surface scoring looks at. Optional layers: ghost placements (the legal
// slots of the domino in hand), the areas of a stage end, and the last domino placed.
/**
 * @typedef {{
 *   testid?: string,
 *   label?: string,
 *   ghosts?: import('../pyramid-drawing/placing.js').PlaceForm[],
 *   stage?: number,
 *   hand?: ColouredBlock[] | null,
 *   selected?: string | null,
 *   onGhost?: (ghost: import('../pyramid-drawing/placing.js').PlaceForm) => void,
 *   areas?: AreaView[] | null,
 *   planned?: Set<string> | null,
 *   best?: Set<string> | null,
 *   selectedArea?: string | null,
 *   onArea?: ((area: AreaView) => void) | null,
 * }} PyramidOptions
 */
/**
 * @param {SeatView} player
 * @param {PyramidOptions} [opts]
 * @returns {HTMLElement | SVGElement}
 */
function pyramidSvg(player, opts = {}) {
  // Nothing to draw yet: say so instead of showing an empty board.
  if (!player.blocks.length && !(opts.ghosts && opts.ghosts.length)) {
    return h('p.hint.empty-pyramid', { 'data-testid': opts.testid }, t('pyramid.empty'));
  }
  const blocks = player.blocks.map((b) => ({
    stage: b.stage,
    x: b.x,
    y: b.y,
    block: b.block,
    title: t('pyramid.block', { stage: b.stage, colour: colourName(b.block.colour) }),
  }));
  const origin = gridOrigin(player);
  /** @type {import('../pyramid-drawing/drawing.js').Area[]} */
  const areas = (opts.areas || []).map((area) => {
    const classes = [];
    if (area.activation) classes.push('activated');
    if (opts.planned && opts.planned.has(area.name)) classes.push('planned');
    if (opts.best && opts.best.has(area.name)) classes.push('best');
    if (opts.selectedArea === area.name) classes.push('selected');
    return {
      cells: area.cells.map((q) => [2 * origin[0] + (q % 10), 2 * origin[1] + Math.floor(q / 10)]),
      count: area.icons,
      label: t('scoring.area_label', { name: area.name, colour: colourName(area.colour), count: area.icons }),
      testid: `area-${area.name}`,
      name: area.name,
      class: classes.join(' '),
      shaded: true,
      onPick: opts.onArea ? () => opts.onArea(area) : null,
    };
  });
  const ghosts = (opts.ghosts || []).map((ghost) => ({
    key: ghost.text,
    cells: ghost.cells,
    blocks: opts.hand ? orient(opts.hand, ghost.dir) : null,
    selected: opts.selected === ghost.text,
    label: t('place.ghost_label', { move: `${String.fromCharCode(97 + ghost.x)}${ghost.y + 1} ${ghost.dir}` }),
    onPick: () => opts.onGhost(ghost),
  }));
  return sharedPyramidSvg(PALETTE, blocks, {
    frame: player.frame,
    stage: player.pyramid_stage,
    label: opts.label || t('pyramid.label'),
    testid: opts.testid,
    lastCells: player.last_placement,
    areas,
    ghosts,
  });
}

// Top-left block of the scoring grid (its quadrants are numbered 10 to a row): the frame, or
// (while the engine has not fixed the frame yet) the origin it used for the blocks' quadrant
// numbers, read back from a stage-1 block.
/**
 * @param {SeatView} player
 * @returns {number[]}
 */
function gridOrigin(player) {
  if (player.frame) return [player.frame.x, player.frame.y];
  const b = player.blocks.find((x) => x.stage === 1);
  return b ? [b.x - (b.quadrant % 10) / 2, b.y - Math.floor(b.quadrant / 10) / 2] : [0, 0];
}
