// @ts-check
// Every seat's clock on every table, counting down between the server's states. The server is
// the authority: each `state` carries each seat's time left (`clock.remaining_ms`) and whose
// clock runs; the page only subtracts the time since that message arrived.
import { h } from './dom.js';
import { t } from './i18n.js';
import { vacationMark } from './vacation.js';

// "2 d 4 h", "5 h 03", "4:05": precise where it matters, short everywhere. Days only from two
// days on: a day's turn shows "24 h 00" beside a running "23 h 59", not "1 d 0 h" (issue 46).
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400);
  const hours = Math.floor(s / 3600);
  const min = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d >= 2) return t('clock.days_hours', { d, h: hours % 24 });
  if (hours > 0) return t('clock.hours_minutes', { h: hours, m: String(min).padStart(2, '0') });
  return `${min}:${String(sec).padStart(2, '0')}`;
}

// A duration as words for a profile's label: "3 min", "24 h", "3 days", "5 s".
export function formatSpan(ms) {
  const s = Math.round(ms / 1000);
  if (s >= 86400 && s % 86400 === 0 && s > 86400) return t('clock.span_days', { count: s / 86400 });
  if (s >= 3600 && s % 3600 === 0) return t('clock.span_hours', { count: s / 3600 });
  if (s >= 60 && s % 60 === 0) return t('clock.span_minutes', { count: s / 60 });
  return t('clock.span_seconds', { count: s });
}

// A profile as people read it: "Real time: 10 min + 5 s per turn", "Turn-based: 24 h per turn".
export function profileLabel(p) {
  return p.turn_ms > 0 ? t('clock.turn_based', { time: formatSpan(p.turn_ms) }) : t('clock.real_time', { bank: formatSpan(p.bank_ms), bonus: formatSpan(p.bonus_ms) });
}

// Time left to `seat` now, from the last state and when it arrived.
export function remainingNow(clock, seat, receivedAt) {
  const left = clock.remaining_ms[seat];
  return clock.running === seat ? left - (performance.now() - receivedAt) : left;
}

// A seat's time left; `data-ms` holds it exactly (the text is rounded for people).
function clockTime(seat, ms) {
  return h('span.time', { 'data-testid': `clock-${seat}`, 'data-ms': Math.max(0, Math.round(ms)) }, formatClock(ms));
}

// The bar above the table: one entry per seat (name, time left, whose clock runs, time-outs,
// "a bot plays"), and the last time-out announcement.
export function clockBar(ctx) {
  const st = ctx.state;
  const clock = st.clock;
  const seats = ctx.table.seats.map((_, i) => i);
  const last = st.last_move;
  return h(
    'section.clockbar',
    { 'data-testid': 'clocks', 'aria-label': t('clock.title') },
    h(
      'ul.clocks',
      {},
      seats.map((seat) => {
        const running = !st.finished && st.to_move === seat;
        // The seat that just played, when it is not this page's: drawn out briefly.
        const fresh = last && last.seat === seat && seat !== st.seat && !running;
        const timeouts = clock ? clock.timeouts[seat] : 0;
        // A finished game has no seat to move and nobody playing for anyone.
        const botPlays = !st.finished && st.bots && st.bots[seat] && ctx.table.seats[seat].type === 'human';
        return h(
          `li.clock${running ? '.running' : ''}${fresh ? '.fresh' : ''}`,
          { 'data-clock-seat': seat, 'aria-current': running ? 'true' : null },
          h('span.turn-mark', { 'aria-hidden': 'true' }, running ? '▶' : ''),
          h('span.name', {}, ctx.seatName(seat)),
          clock ? clockTime(seat, remainingNow(clock, seat, ctx.receivedAt)) : null,
          running ? h('span.sr', {}, t('clock.to_move')) : null,
          timeouts && !botPlays ? h('span.timeouts', {}, t('clock.timeouts', { count: timeouts, max: clock.bot_after })) : null,
          botPlays ? h('span.bot-plays', { 'data-testid': `bot-plays-${seat}` }, t('clock.bot_plays')) : null,
          st.finished ? null : vacationMark(clock, seat),
        );
      }),
    ),
    clock ? h('p.clock-profile.hint', {}, profileLabel(clock.profile), ' · ', t('clock.policy', { max: clock.bot_after })) : null,
    ctx.notice ? h('p.notice', { 'data-testid': 'timeout-notice', role: 'status' }, ctx.notice) : null,
  );
}

// Redraws the running clock's time every second, without redrawing the table.
export function tickClocks(root, state, receivedAt) {
  const clock = state && state.clock;
  if (!clock || clock.running === null || clock.running === undefined || state.finished) return;
  const el = root.querySelector(`[data-testid="clock-${clock.running}"]`);
  if (!el) return;
  const left = remainingNow(clock, clock.running, receivedAt);
  el.textContent = formatClock(left);
  el.dataset.ms = String(Math.max(0, Math.round(left)));
  el.closest('.clock').classList.toggle('low', clock.profile.turn_ms === 0 && left < 10000);
}
