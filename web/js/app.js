// @ts-check
// The shell's entry point: boot, identity, language, connection status and routes.
import { api } from './api.js';
import { h, mount } from './dom.js';
import { LANGUAGES, initI18n, language, onLanguageChange, setLanguage, t } from './i18n.js';
import { app, clearPageToasts, refreshMe, showError } from './shell.js';
import { Socket } from './socket.js';
import { renderLobby } from './lobby.js';
import { renderWaiting } from './waiting.js';
import { renderGame } from './game.js';
import { renderAccount } from './account.js';
import { renderRules } from './rules.js';
import { renderReplay } from './replay.js';
import { renderHistory } from './history.js';
import { renderProfile } from './profile.js';
import { renderLeaderboard } from './leaderboard.js';
import { renderDailyBoard } from './daily.js';
import { initTurns, relabelTurns, renderTurns } from './turns.js';
import { renderSettings, renderVerifyEmail, renderUnsubscribe } from './settings.js';
import { initPush } from './push.js';
import { renderPlayNow, renderWatch } from './meet.js';
import { renderFriends } from './friends.js';
import { renderClub, renderClubs } from './clubs.js';
import { initChallenges } from './challenge-notice.js';
import { renderOffline } from './offline.js';
import { registerOffline, uploadOfflineGames } from './offline-sync.js';
import { sendPuzzleAttempts } from './puzzle-offline.js';
import { renderTutorial } from './tutorial.js';
import { renderPuzzles } from './puzzles.js';
import { renderTournament, renderTournaments } from './tournaments.js';

// The page's state and the shared helpers live in shell.js, which every page imports; this
// module is the entry point only (index.html), the one that imports every page to route to it,
// so that no page imports it back (no import circle, scripts/web-imports).
app.identityChanged = renderIdentity;

function renderIdentity() {
  const me = app.me;
  const el = document.getElementById('identity');
  if (!me) return mount(el);
  mount(
    el,
    h('span.who', { 'data-testid': 'me' }, me.guest ? t('identity.guest', { name: me.name }) : me.name),
    // Notification settings from every page (they were only behind the "Your move" pill).
    h('a.button.small.settings-link', { href: '#/settings', 'data-testid': 'topbar-settings', title: t('settings.link'), 'aria-label': t('settings.link') }, t('settings.title')),
    me.guest ? h('a.button.small', { href: '#/account', 'data-testid': 'sign-in' }, t('identity.sign_in')) : h('button.small', { 'data-testid': 'sign-out', onclick: signOut }, t('identity.sign_out')),
  );
}

async function signOut() {
  try {
    await api('POST', '/api/logout');
  } catch (e) {
    showError(e);
  }
  // A fresh guest identity, and a socket that carries it; this browser's pushes go to it
  // (no longer to the account that signed out).
  await refreshMe();
  initPush();
  app.socket.reconnect();
  location.hash = '#/';
}

function renderLanguagePicker() {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
  mount(
    select,
    LANGUAGES.map((l) => h('option', { value: l.code, selected: l.code === language() }, l.name)),
  );
  select.onchange = () => setLanguage(select.value);
  document.getElementById('lang-label').textContent = t('shell.language');
}

function renderConnection(status) {
  const el = document.getElementById('conn');
  el.dataset.status = status;
  el.textContent = t(`connection.${status}`);
}

function route() {
  if (app.leave) {
    app.leave();
    app.leave = null;
  }
  app.rerender = null;
  clearPageToasts();
  // Each route draws into a fresh #app: a page still loading for the previous route (the lobby
  // waiting for its lists when the player opens the settings, or redrawn in a new language)
  // then finishes into the detached element and cannot cover the page now shown.
  const old = /** @type {HTMLElement} */ (document.getElementById('app'));
  const root = /** @type {HTMLElement} */ (old.cloneNode(false));
  old.replaceWith(root);
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  document.title = 'Pyramidion';
  switch (parts[0]) {
    case 'table':
      return renderWaiting(root, parts[1]);
    case 'join':
      return renderWaiting(root, parts[1], parts[2]);
    case 'game':
      return renderGame(root, parts[1], parts[2]);
    case 'account':
      return renderAccount(root);
    case 'rules':
      return renderRules(root, parts[1]);
    case 'replay':
      return renderReplay(root, parts[1]);
    case 'history':
      return renderHistory(root);
    case 'player':
      return renderProfile(root, decodeURIComponent(parts[1] || ''));
    case 'leaderboard':
      return renderLeaderboard(root, parts[1]);
    case 'daily':
      return renderDailyBoard(root, parts[1]);
    case 'turns':
      return renderTurns(root);
    case 'settings':
      return renderSettings(root);
    case 'verify-email':
      return renderVerifyEmail(root, parts[1]);
    case 'unsubscribe':
      return renderUnsubscribe(root, parts[1]);
    case 'play-now':
      return renderPlayNow(root);
    case 'watch':
      return renderWatch(root);
    case 'friends':
      return renderFriends(root);
    case 'clubs':
      return renderClubs(root);
    case 'club':
      return renderClub(root, parts[1], parts[2]);
    case 'offline':
      return renderOffline(root, parts[1]);
    case 'learn':
      return renderTutorial(root, parts[1]);
    case 'puzzles':
      return renderPuzzles(root, parts[1] || '', parts[2]);
    case 'tournaments':
      return renderTournaments(root);
    case 'tournament':
      return renderTournament(root, (parts[1] || '').split('?')[0]);
    default:
      return renderLobby(root);
  }
}

async function boot() {
  await initI18n();
  renderLanguagePicker();
  try {
    await refreshMe();
  } catch (e) {
    showError(e);
  }
  app.socket = new Socket();
  app.socket.onStatus(renderConnection);
  initTurns(app.socket);
  initChallenges(app.socket);
  initPush();
  // Offline play: the site kept by the service worker, and the games finished offline sent
  // each time the server can be reached again.
  registerOffline();
  app.socket.onStatus((status) => status === 'connected' && uploadOfflineGames());
  // Puzzle moves tried offline are judged and rated once the server is back.
  app.socket.onStatus((status) => status === 'connected' && sendPuzzleAttempts());
  onLanguageChange(() => {
    renderLanguagePicker();
    renderIdentity();
    renderConnection(app.socket.status);
    relabelTurns();
    // The game page re-labels itself in place (no resubscription); others are rebuilt.
    if (app.rerender) app.rerender();
    else route();
  });
  window.addEventListener('hashchange', route);
  route();
}

boot();
