// @ts-check
// Clubs: the list (#/clubs: search, my clubs, a new club) and a club's page (#/club/{id},
// or #/club/{id}/{invite} from an invite link): members and roles, moderation for its
// moderators, recent games and standings of its members, and its tables, which only its
// members see and join (the server checks; this page only offers).
import { api } from './api.js';
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { app, showError, toast } from './shell.js';
import { historyItem } from './history.js';
import { createTable, tableLine } from './lobby.js';
import { ownerCard } from './club-owner.js';

const ADMISSIONS = ['open', 'approval', 'invite'];

function clubItem(c) {
  return h(
    'li',
    { 'data-testid': `club-${c.name}` },
    h('a', { href: `#/club/${c.id}` }, c.name),
    ` · ${t(`club.admission_${c.admission}`)}`,
    c.role ? ` · ${t(`club.role_${c.role}`)}` : '',
    c.description ? h('p.hint', {}, c.description) : null,
  );
}

function newClub() {
  const name = /** @type {HTMLInputElement} */ (h('input', { 'data-testid': 'club-name', maxlength: 24, 'aria-label': t('club.name') }));
  const description = /** @type {HTMLTextAreaElement} */ (h('textarea', { 'data-testid': 'club-description', maxlength: 500, rows: 2, 'aria-label': t('club.description') }));
  const admission = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { 'data-testid': 'club-admission', 'aria-label': t('club.admission') },
      ADMISSIONS.map((a) => h('option', { value: a }, t(`club.admission_${a}`))),
    )
  );
  const create = async () => {
    try {
      const club = await api('POST', '/api/clubs', { name: name.value.trim(), description: description.value, admission: admission.value });
      location.hash = `#/club/${club.id}`;
    } catch (e) {
      showError(e);
    }
  };
  return h(
    'section.card',
    {},
    h('h2', {}, t('club.new')),
    h('label', {}, t('club.name'), name),
    h('label', {}, t('club.description'), description),
    h('label', {}, t('club.admission'), admission),
    h('button.primary', { 'data-testid': 'club-create', onclick: create }, t('club.create')),
  );
}

/**
 * @param {HTMLElement} root the page
 */
export async function renderClubs(root) {
  document.title = `${t('club.title')} · Pyramidion`;
  const results = h('ul.club-list', { 'data-testid': 'club-results' });
  const find = async (q) => {
    try {
      const list = await api('GET', `/api/clubs?q=${encodeURIComponent(q)}`);
      mount(results, list.clubs.length ? list.clubs.map(clubItem) : h('li.hint', {}, t('club.none_found')));
      return list;
    } catch (e) {
      showError(e);
      return null;
    }
  };
  const input = h('input', { type: 'search', 'data-testid': 'club-search', placeholder: t('club.search'), 'aria-label': t('club.search'), oninput: (e) => find(e.target.value.trim()) });
  const list = await find('');
  const account = app.me && !app.me.guest;
  mount(
    root,
    h(
      'div.clubs',
      { 'data-testid': 'clubs' },
      h('h1', {}, t('club.title')),
      account && list && list.mine.length ? h('section.card', {}, h('h2', {}, t('club.mine')), h('ul.club-list', { 'data-testid': 'my-clubs' }, list.mine.map(clubItem))) : null,
      h('section.card', {}, h('h2', {}, t('club.all')), input, results),
      account ? newClub() : h('p.hint', {}, t('social.guest_hint')),
    ),
  );
}

// A table kept for the club's members: the game's first two-seat setting, with its options'
// defaults, the other seats open.
function clubTable(club, games) {
  const duel = games.filter((g) => g.seats.min <= 2 && g.seats.max >= 2);
  if (!duel.length) return null;
  const select = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { 'data-testid': 'club-table-game', 'aria-label': t('lobby.game') },
      duel.map((g) => h('option', { value: g.key }, t(`game.${g.key}`))),
    )
  );
  const create = () => createTable({ game: select.value, options: { players: 2 }, seats: [{ type: 'me' }, { type: 'open' }], club: club.id }).catch(showError);
  return h('div.row', {}, select, h('button.primary', { 'data-testid': 'club-table-create', onclick: create }, t('club.new_table')));
}

function memberItem(club, m, reload) {
  const act = (action) => async () => {
    try {
      await api('POST', `/api/clubs/${club.id}/members/${m.user}`, { action });
      reload();
    } catch (e) {
      showError(e);
    }
  };
  const buttons = [];
  const mine = club.role;
  const below = mine === 'owner' ? m.role !== 'owner' : mine === 'moderator' && ['member', 'pending', 'banned'].includes(m.role);
  if (below) {
    if (m.role === 'pending') buttons.push(h('button.small.primary', { 'data-testid': `approve-${m.name}`, onclick: act('approve') }, t('club.approve')));
    if (m.role === 'banned') buttons.push(h('button.small', { onclick: act('unban') }, t('club.unban')));
    else
      buttons.push(
        h('button.small', { 'data-testid': `remove-${m.name}`, onclick: act('remove') }, t('club.remove')),
        h('button.small', { 'data-testid': `ban-${m.name}`, onclick: act('ban') }, t('club.ban')),
      );
    if (mine === 'owner' && m.role === 'member') buttons.push(h('button.small', { onclick: act('promote') }, t('club.promote')));
    if (mine === 'owner' && m.role === 'moderator') buttons.push(h('button.small', { onclick: act('demote') }, t('club.demote')));
  }
  return h('li', { 'data-testid': `member-${m.name}`, 'data-role': m.role }, h('a', { href: `#/player/${encodeURIComponent(m.name)}` }, m.name), ` · ${t(`club.role_${m.role}`)} `, buttons);
}

/**
 * @param {HTMLElement} root the page
 * @param {string} id the club
 * @param {string} [invite] the invite token of an invite link
 */
export async function renderClub(root, id, invite) {
  mount(root, h('p.loading', {}, t('shell.loading')));
  let club;
  let games;
  try {
    [club, games] = await Promise.all([api('GET', `/api/clubs/${encodeURIComponent(id)}`), api('GET', '/api/games')]);
  } catch (e) {
    showError(e);
    return mount(root, h('p.hint', {}, t('shell.failed')));
  }
  const reload = () => renderClub(root, id, invite);
  const member = ['owner', 'moderator', 'member'].includes(club.role);
  const join = async () => {
    try {
      const r = await api('POST', `/api/clubs/${club.id}/join`, invite ? { invite } : {});
      toast(t(r.role === 'pending' ? 'club.requested' : 'club.joined'), 'info');
      reload();
    } catch (e) {
      showError(e);
    }
  };
  const leave = async () => {
    try {
      await api('POST', `/api/clubs/${club.id}/leave`, {});
      reload();
    } catch (e) {
      showError(e);
    }
  };
  const account = app.me && !app.me.guest;
  const inviteLink = club.invite ? `${location.origin}${location.pathname}#/club/${club.id}/${club.invite}` : null;
  mount(
    root,
    h(
      'div.club',
      { 'data-testid': 'club' },
      h(
        'section.card',
        {},
        h('h1', { 'data-testid': 'club-title' }, club.name),
        club.description ? h('p', {}, club.description) : null,
        h('p.hint', {}, t(`club.admission_${club.admission}`), club.role ? ` · ${t(`club.role_${club.role}`)}` : ''),
        account && !member && club.role !== 'banned' && club.role !== 'pending' ? h('button.primary', { 'data-testid': 'club-join', onclick: join }, t('club.join')) : null,
        account && (club.role === 'member' || club.role === 'moderator' || club.role === 'pending') ? h('button', { 'data-testid': 'club-leave', onclick: leave }, t('club.leave')) : null,
        inviteLink ? h('p.hint', {}, t('club.invite_link'), ' ', h('code', { 'data-testid': 'club-invite' }, inviteLink)) : null,
      ),
      member
        ? h(
            'section.card',
            { 'data-testid': 'club-tables' },
            h('h2', {}, t('club.tables')),
            club.tables.length
              ? h(
                  'ul',
                  {},
                  club.tables.map((tb) => h('li', {}, h('a', { href: `#/table/${tb.id}`, 'data-testid': `club-table-${tb.id}` }, tableLine(tb)))),
                )
              : h('p.hint', {}, t('club.no_tables')),
            clubTable(club, games.games),
          )
        : null,
      h(
        'section.card',
        {},
        h('h2', {}, t('club.members')),
        h(
          'ul',
          { 'data-testid': 'club-members' },
          club.members.map((m) => memberItem(club, m, reload)),
        ),
      ),
      club.role === 'owner' ? ownerCard(club, reload) : null,
      club.standings.length
        ? h(
            'section.card',
            { 'data-testid': 'club-standings' },
            h('h2', {}, t('club.standings')),
            club.standings.map((g) =>
              h(
                'div',
                {},
                h('h3', {}, t(`game.${g.game}`)),
                h(
                  'ol',
                  {},
                  g.players.map((p) =>
                    h('li', {}, h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, p.name), ` · ${p.rating}${p.provisional ? '?' : ''} (${t('club.games', { count: p.games })})`),
                  ),
                ),
              ),
            ),
          )
        : null,
      h('section.card', {}, h('h2', {}, t('club.recent')), club.recent.length ? h('ul.history-list', {}, club.recent.map(historyItem)) : h('p.hint', {}, t('club.no_games'))),
    ),
  );
  document.title = `${club.name} · Pyramidion`;
}
