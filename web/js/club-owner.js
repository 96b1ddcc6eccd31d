// @ts-check
// What only a club's owner may do, on the club's page (issue 49): rename it, hand it to one of
// its members (the owner stays as a moderator), delete it. The server checks the owner and
// the name (like an account name); handing over and deleting ask once more before they act.
import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError, toast } from './shell.js';

/**
 * @param {{ id: string, name: string, members: { user: string, name: string, role: string }[] }} club
 * @param {() => void} reload
 */
export function ownerCard(club, reload) {
  const act = (fn) => async () => {
    try {
      await fn();
    } catch (e) {
      showError(e);
    }
  };
  const name = /** @type {HTMLInputElement} */ (h('input', { value: club.name, maxlength: 24, 'data-testid': 'club-rename-name', 'aria-label': t('club.name') }));
  const rename = act(async () => {
    await api('PATCH', `/api/clubs/${club.id}`, { name: name.value.trim() });
    toast(t('people2.club_renamed'), 'info');
    reload();
  });
  const heirs = club.members.filter((m) => m.role === 'member' || m.role === 'moderator');
  const heir = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { 'data-testid': 'club-heir', 'aria-label': t('people2.club_heir') },
      heirs.map((m) => h('option', { value: m.user }, m.name)),
    )
  );
  const transfer = act(async () => {
    await api('POST', `/api/clubs/${club.id}/owner`, { user: heir.value });
    toast(t('people2.club_handed'), 'info');
    reload();
  });
  const remove = act(async () => {
    await api('DELETE', `/api/clubs/${club.id}`);
    toast(t('people2.club_deleted'), 'info', { keep: true });
    location.hash = '#/clubs';
  });
  return h(
    'section.card.club-owner',
    { 'data-testid': 'club-owner' },
    h('h2', {}, t('people2.club_owner')),
    h('p.row', {}, h('label', {}, t('club.name'), ' ', name), h('button', { 'data-testid': 'club-rename', onclick: rename }, t('people2.club_rename'))),
    heirs.length
      ? h(
          'details',
          { 'data-testid': 'club-transfer' },
          h('summary', {}, t('people2.club_transfer')),
          h('p.hint', {}, t('people2.club_transfer_hint')),
          h('p.row', {}, h('label', {}, t('people2.club_heir'), ' ', heir), h('button', { 'data-testid': 'club-transfer-confirm', onclick: transfer }, t('people2.club_transfer_confirm'))),
        )
      : h('p.hint', {}, t('people2.club_no_heir')),
    h(
      'details',
      { 'data-testid': 'club-delete' },
      h('summary', {}, t('people2.club_delete')),
      h('p.hint', {}, t('people2.club_delete_hint')),
      h('button.danger', { 'data-testid': 'club-delete-confirm', onclick: remove }, t('people2.club_delete_confirm')),
    ),
  );
}
