// @ts-check
// The game page: follows one game over the socket and hands each state to the game's table.
// The server is the authority: the page shows the view and offers the legal moves it is sent,
// sends a move with the state id it saw, and waits for the next state.
import { api } from './api.js';
import { h, mount, remount, unlessPressed } from './dom.js';
import { t } from './i18n.js';
import { app, errorText, showError, toast } from './shell.js';
import { renderGeneric } from './generic.js';
import { rulesLink } from './rules.js';
import { exportLinks, dateText } from './history.js';
import { clockBar, tickClocks } from './clocks.js';
import { moveLog } from './move-log.js';
import { resultPanel } from './result.js';
import { notifyOffer } from './push.js';
import { absenceAlert, playActions, endingText } from './people.js';
import { chatPanel } from './chat.js';
import { notesPanel } from './notes.js';
import { undoBar, undoKey } from './undo.js';
import { previewer } from './preview.js';
import { watchTableHead } from './sticky-head.js';
import { positionAnalysis } from './position-analysis.js';

// Each game's table lives in its own folder, named by the game's key: `js/<key>/table.js`
// exports `render(ctx)`. A game without a table folder is played from its legal moves.
// It may also export `moveText(move)`, the move in words (the shell's replay, notices and
// analysis say moves with it); without it a move reads as its text. The shell draws the frame
// from the view's envelope (the result panel here); a table may add its own breakdown to the
// result with `resultDetails(ctx)` → `{details, seatNote(seat)}`.
const tables = new Map();
function tableModule(key) {
  if (!tables.has(key)) {
    tables.set(
      key,
      import(`./${key}/table.js`).then(
        (m) => m,
        () => ({ render: renderGeneric }),
      ),
    );
  }
  return tables.get(key);
}
export function loadTable(key) {
  return tableModule(key).then((m) => m.render);
}
export function loadMoveText(key) {
  return tableModule(key).then((m) => m.moveText || ((move) => move.text));
}
export function loadResultDetails(key) {
  return tableModule(key).then((m) => m.resultDetails || (() => ({})));
}

// The result of a finished game (its rules' end), above its table, for every game.
export function gameResult(ctx, details) {
  if (ctx.view && ctx.view.outcome) return resultPanel(ctx, details(ctx));
  // A daily challenge's end before its day is over for everyone: the view is the position
  // before the last move (the end may show what the deal hid), but the server's result is
  // final (the state's outcome). It is shown at once, without the table's own breakdown
  // (which reads the end position), with when the end and the day's ranking open.
  const sealed = ctx.state && ctx.state.sealed;
  if (!sealed || !ctx.state.outcome || !ctx.view) return null;
  return h(
    'div.sealed-end',
    {},
    resultPanel(ctx, {}),
    h(
      'p.hint',
      { 'data-testid': 'daily-sealed' },
      t('daily.sealed', { time: dateText(sealed.public_at) }),
      ' ',
      h('a', { href: `#/daily/${encodeURIComponent(sealed.challenge)}`, 'data-testid': 'daily-sealed-board' }, t('daily.leaderboard')),
    ),
  );
}

/**
 * @param {HTMLElement} root the page
 * @param {string} [id]
 * @param {string} [invite]
 */
export async function renderGame(root, id, invite) {
  const socket = app.socket;
  const page = {
    id,
    table: null,
    state: null,
    pending: false,
    // Local choices that survive re-renders (selected slot, rotation, selected area…).
    ui: {},
    log: [],
    // The event whose whole move list was last asked for (`loadLog`): once per event.
    logAsked: -1,
    // When the last state arrived (clocks count down from it) and the last time-out said.
    receivedAt: performance.now(),
    notice: null,
    // The socket's refusal of this game before its first state, shown in place of the board.
    refused: null,
  };
  mount(root, h('p.loading', {}, t('shell.loading')));
  let render = renderGeneric;
  let moveText = (mv) => mv.text;
  let resultDetails = () => ({});
  try {
    page.table = await api('GET', `/api/tables/${id}`);
    render = await loadTable(page.table.game);
    moveText = await loadMoveText(page.table.game);
    resultDetails = await loadResultDetails(page.table.game);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, errorText(e.code)));
  }
  if (page.table.status === 'open') {
    location.hash = `#/table/${id}`;
    return;
  }
  // What a choice would give, computed in the page from this seat's view (web/js/preview.js).
  const previews = previewer(page.table.game);

  const seatName = (seat) => {
    const s = page.table.seats[seat];
    if (!s) return t('seat.number', { n: seat + 1 });
    if (s.type === 'human') return s.me ? t('seat.you') : s.name;
    if (s.type === 'bot') return t('seat.bot_named', { n: seat + 1, level: t(`bot.${s.level}`) });
    return t('seat.number', { n: seat + 1 });
  };

  // A time-out notice in the current language (it is kept as the server sent it, so that a
  // change of language says it again).
  // The move is said in words, as the move log says it (never the engine's notation).
  const noticeText = (n) => n && t(`notice.${n.kind}`, { seat: seatName(n.seat), move: moveText(n.move), count: n.timeouts, max: n.bot_after });

  // Asks again for a game refused before its first state.
  const retry = () => {
    page.refused = null;
    mount(root, h('p.loading', {}, t('shell.loading')));
    socket.resubscribe(id);
  };

  // A move goes out on a live connection or not at all: never queued to be played after a
  // reconnect without its player seeing it (the board is inert meanwhile, and says why).
  const play = (move) => {
    if (!page.state || page.pending || page.state.finished) return;
    if (!socket.sendMove({ type: 'move', game: id, state_id: page.state.state_id, move })) {
      toast(t('game.offline_move'));
      draw();
      return;
    }
    page.pending = true;
    root.classList.add('pending');
  };

  const finishedOrSpectator = (st) => st.finished || st.seat === null || st.seat === undefined;
  const draw = unlessPressed(() => {
    const st = page.state;
    if (!st) {
      // Drawn here rather than once, so that a change of language says it again.
      if (page.refused) mount(root, unreachable(page.refused, retry));
      return;
    }
    // This page's seat is to move (the server only lists legal moves for the seat to move).
    // Disconnected, the board is inert: no move offered, none sent (see `play`).
    const online = socket.status === 'connected';
    const myTurn = online && st.seat !== null && st.to_move === st.seat && st.legal.length > 0;
    const ctx = {
      id,
      table: page.table,
      state: st,
      view: st.view,
      seat: st.seat,
      legal: online ? st.legal : [],
      myTurn,
      ui: page.ui,
      log: page.log,
      seatName,
      play,
      redraw: draw,
      pending: page.pending,
      receivedAt: page.receivedAt,
      notice: noticeText(page.notice),
      // The shell's move log; a table places it and says how a move reads.
      moveLog: (describe, interludes) => moveLog(ctx, describe, interludes),
      // A generic hint a table may highlight: the last move, when another seat played it.
      freshMove: st.last_move && st.last_move.seat !== st.seat ? st.last_move : null,
      // The seat's view after `moves`, computed in the page (null until known, or where the
      // game offers no preview).
      preview: (moves) => (finishedOrSpectator(st) ? null : previews.after(st, moves, draw)),
    };
    chat.setReaders({
      spectator: st.seat === null,
      othersPresent: page.table.seats.some((s, i) => s.type === 'human' && !s.me && i !== st.seat),
    });
    try {
      remount(
        root,
        h(
          'p.table-links',
          {},
          // Whether the result moves ratings, said on every table of two or more seats.
          page.table.seats.length > 1
            ? [h('span.table-kind', { 'data-testid': 'table-kind', 'data-rated': String(page.table.rated) }, t(page.table.rated ? 'table.kind_rated' : 'table.kind_casual')), ' · ']
            : null,
          rulesLink(page.table.game, true),
        ),
        st.finished ? null : notifyOffer(page.table),
        clockBar(ctx),
        absenceAlert(ctx, page),
        online || st.finished ? null : h('p.card.offline', { 'data-testid': 'offline-board', role: 'status' }, t('game.offline')),
        st.finished ? endBar(page.table, st.seat !== null, [endingText(ctx), rematchOffer(page, draw)]) : null,
        gameResult(ctx, resultDetails),
        undoBar(ctx, online),
        render(ctx),
        // Resign and abandon under the board (as lichess and BGA place them): above it they
        // would push the board down on a phone. "I'm back" and "Claim" are at the top
        // (`absenceAlert`): they cannot wait.
        st.finished ? null : playActions(ctx, page),
        // The open decision judged in the page, on request (web/js/position-analysis.js).
        positionAnalysis(ctx, moveText),
        chat.el,
        // A player's own notes (nobody else reads them); not for spectators.
        st.seat !== null ? notes.el : null,
      );
      if (st.seat !== null) notes.load();
      watchTableHead();
    } catch (e) {
      // A drawing bug must not look like a frozen game: say so, and keep the state. The
      // player reads a translated message and a stable code to report; the trace is for the
      // console only (a page never shows a player its own stack).
      console.error(e);
      mount(root, h('p.hint', { 'data-testid': 'render-error', 'data-code': 'render_failed' }, t('error.render'), ' ', h('code', {}, '(render_failed)')));
    }
    root.classList.toggle('pending', page.pending);
  });

  // States can come faster than a screen shows them (bots that answer at once, a run of
  // missed events): a state is drawn at the next frame, and of several only the last, so the
  // page does not lay out and paint states nobody sees. A hidden tab has no frames: there the
  // timer draws it (browsers slow it to once a second), so the tab's title still follows.
  let soon = null;
  const cancelSoon = () => {
    if (!soon) return;
    cancelAnimationFrame(soon.frame);
    clearTimeout(soon.timer);
    soon = null;
  };
  const drawSoon = () => {
    if (soon) return;
    const now = () => {
      cancelSoon();
      draw();
    };
    soon = { frame: requestAnimationFrame(now), timer: setTimeout(now, 100) };
  };

  const chat = chatPanel(id, socket);
  chat.load();
  const notes = notesPanel(id);
  const onMessage = (msg) => {
    if (msg.game !== id) return;
    if (msg.type === 'chat') return chat.receive(msg.message);
    if (msg.type === 'rematch_offer') {
      page.offer = msg;
      return draw();
    }
    if (msg.type === 'state') {
      const previous = page.state;
      if (previous && msg.event > previous.event + 1 && !msg.missed.length) {
        // A gap in the numbering: ask for what was missed.
        socket.resubscribe(id);
      }
      // The move list follows the numbered events; when it cannot (first load, a gap), it is
      // read again from the game's record.
      // An undo takes the last step back: the list drops it.
      if (page.log.length > msg.event && !msg.missed.length) page.log.length = msg.event;
      if (msg.missed.length && page.log.length + msg.missed.length === msg.event) page.log.push(...msg.missed);
      else if (msg.last_move && page.log.length === msg.event - 1) page.log.push(msg.last_move);
      // Asked once per event: a daily's sealed end hands no moves until its day is over (the
      // server's embargo), and asking again would loop.
      else if (page.log.length !== msg.event && !msg.sealed && page.logAsked !== msg.event) {
        page.logAsked = msg.event;
        loadLog();
      }
      // Log entries are moves as this page may see them: {ply, seat, text, kind, fields…}.
      if (!previous || msg.state_id !== previous.state_id) page.ui.selected = null;
      page.state = msg;
      page.receivedAt = performance.now();
      page.pending = false;
      drawSoon();
    } else if (msg.type === 'error') {
      // A chat message refused keeps its text (see `chatPanel`).
      chat.refused(msg.code);
      page.pending = false;
      root.classList.remove('pending');
      // Refused before its first state (the room cannot be opened: the server is at its
      // live-games cap, or failed): there is no board to keep, so the page says so in place of
      // "Loading…" and offers to ask again, instead of a toast over a page that never loads.
      if (!page.state) {
        page.refused = msg;
        return draw();
      }
      toast(errorText(msg.code, msg.reason));
      if (msg.code === 'stale_state' || msg.code === 'lagging') socket.resubscribe(id);
      draw();
    } else if (msg.type === 'notice') {
      // Said on the table for everyone (it stays until the next one), and as a toast.
      page.notice = msg;
      // One toast per time-out, not one per move the bot plays in that turn.
      const which = `${msg.seat}:${msg.timeouts}:${msg.kind}`;
      if (page.toasted !== which) toast(noticeText(msg), 'info');
      page.toasted = which;
      draw();
    }
  };
  const ticking = setInterval(() => tickClocks(root, page.state, page.receivedAt), 1000);

  const off = socket.onMessage(onMessage);
  const offUndo = undoKey(
    id,
    () => page.state,
    () => socket.status === 'connected',
    () => drawSoon(),
  );
  // The board turns inert when the connection drops and live again when it is back.
  const offStatus = socket.onStatus(() => page.state && drawSoon());
  socket.subscribe(id, invite);
  // The whole move list, as this seat may see it: subscribing from event 0 sends every move
  // as `missed`.
  function loadLog() {
    page.log = [];
    socket.send({ type: 'subscribe', game: id, last_event: 0, invite });
  }
  app.leave = () => {
    notes.flush();
    // A state still waiting for its frame must not draw this table over the next page.
    cancelSoon();
    clearInterval(ticking);
    off();
    offUndo();
    offStatus();
    socket.unsubscribe(id);
  };
  // A change of language: the table is drawn again, and the panels it keeps are relabelled.
  app.rerender = () => {
    chat.relabel();
    notes.relabel();
    draw();
  };
}

// A game the server would not open for this page (yet): why, in words, and a way to ask again.
function unreachable(msg, retry) {
  return h(
    'div.card.unreachable',
    { 'data-testid': 'table-unreachable', role: 'alert', 'data-code': msg.code },
    h('p', {}, t('table.unreachable')),
    // "internal" reads as a refused move ("your move was not played"): here no move was made.
    msg.code === 'internal' ? null : h('p.hint', {}, errorText(msg.code, msg.reason)),
    h('p.row', {}, h('button.primary', { 'data-testid': 'table-retry', onclick: retry }, t('table.retry')), ' ', h('a.button', { href: '#/' }, t('table.to_lobby'))),
  );
}

// Under a finished game: its replay, its record, and a rematch for its players.
function endBar(table, seated, ending) {
  return h(
    'nav.card.end-bar.row',
    { 'data-testid': 'end-bar', 'aria-label': t('end.after') },
    ending,
    seated ? h('button.primary', { 'data-testid': 'rematch', onclick: () => rematch(table.id) }, t('end.rematch')) : null,
    h('a.button', { href: `#/replay/${table.id}`, 'data-testid': 'open-replay' }, t('end.replay')),
    exportLinks({ ...table, status: 'finished' }),
  );
}

// Another player's rematch offer, on this player's end screen as soon as it is made.
function rematchOffer(page, draw) {
  const offer = page.offer;
  if (!offer) return null;
  return h(
    'p.rematch-offer',
    { 'data-testid': 'rematch-offer', role: 'status' },
    t('end.rematch_offer', { name: offer.by }),
    ' ',
    h('button.primary', { 'data-testid': 'accept-rematch', onclick: () => joinRematch(offer.table) }, t('end.accept')),
    ' ',
    h(
      'button',
      {
        'data-testid': 'decline-rematch',
        onclick: () => {
          page.offer = null;
          draw();
        },
      },
      t('end.decline'),
    ),
  );
}

async function joinRematch(table) {
  try {
    const joined = await api('POST', `/api/tables/${table}/join`, {});
    location.hash = joined.status === 'live' ? `#/game/${joined.id}` : `#/table/${joined.id}`;
  } catch (e) {
    showError(e);
  }
}

// The first player to ask makes the rematch table; the others join it and take the seat kept
// for them (nobody else can).
async function rematch(id) {
  try {
    let table = await api('POST', `/api/games/${id}/rematch`);
    if (!table.seats.some((s) => s.me && s.type === 'human')) table = await api('POST', `/api/tables/${table.id}/join`, {});
    location.hash = table.status === 'live' ? `#/game/${table.id}` : `#/table/${table.id}`;
  } catch (e) {
    showError(e);
  }
}
