// @ts-check
// A rating graph: one game's rating after each rated game (`GET /api/users/{id}/stats`,
// `rating_history`), drawn as an SVG line from the rating before the first game. The numbers
// are the server's; this only scales them to the box.
import { h, s } from './dom.js';
import { t, language } from './i18n.js';

const W = 320;
const H = 120;
const PAD = 24;

/**
 * @param {{ game: string, start: number, points: { at: number, rating: number }[] }} history
 */
export function ratingGraph(history) {
  const values = [history.start, ...history.points.map((p) => p.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 20);
  const x = (i) => PAD + (i * (W - 2 * PAD)) / Math.max(values.length - 1, 1);
  const y = (v) => H - PAD / 2 - ((v - low) * (H - PAD)) / span;
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = values[values.length - 1];
  const when = history.points.length ? new Date(history.points[history.points.length - 1].at).toLocaleDateString(language()) : '';
  const label = t('profile.graph_label', { game: t(`game.${history.game}`), start: history.start, rating: last, count: history.points.length });
  return h(
    'figure.rating-graph',
    { 'data-testid': `rating-graph-${history.game}` },
    s(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label },
      s('line', { x1: PAD, x2: W - PAD, y1: y(history.start), y2: y(history.start), class: 'base' }),
      s('polyline', { points: line, class: 'rating-line' }),
      values.map((v, i) => s('circle', { cx: x(i), cy: y(v), r: 2.5, class: 'rating-dot' }, s('title', {}, String(v)))),
      s('text', { x: 2, y: y(high) + 4, class: 'axis' }, String(high)),
      s('text', { x: 2, y: y(low) + 4, class: 'axis' }, String(low)),
    ),
    h('figcaption', {}, label, when ? ` · ${when}` : ''),
  );
}
