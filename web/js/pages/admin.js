// The operator's page (/admin): the token, then the open reports with
// their message and what can be done about them (remove the message, mute
// its author's seat, hide the game), forms for the same by hand and for
// bans, the mutes and bans in force and the admin log (docs/API.md,
// "Admin"). The token is kept in this tab only (sessionStorage) and sent
// only to the admin API; a 401 forgets it. Everything is plain forms and
// buttons, so the keyboard reaches it all; results are said in the status
// line (role=status).

import { initPage, errorMessage, markReady } from '../lib/page.js';
import { t, onLanguageChange, formatNumber } from '../lib/i18n.js';
import { api } from '../lib/api.js';

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'phantomgo.adminToken';

let token = sessionStorage.getItem(TOKEN_KEY) || '';
let data = { reports: [], sanctions: [], log: [] };

function say(text) {
  $('admin-status').textContent = text;
}

function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang);

async function call(method, route, body) {
  try {
    return await api.admin(method, route, token, body);
  } catch (error) {
    if (error.status === 401 || error.status === 404) signOut();
    say(error.code === 'bad_admin_token' ? t('admin.badToken') : errorMessage(error));
    throw error;
  }
}

function signOut() {
  token = '';
  sessionStorage.removeItem(TOKEN_KEY);
  render();
}

async function load() {
  if (!token) return;
  try {
    const [reports, sanctions, log] = await Promise.all([
      call('GET', 'reports'), call('GET', 'sanctions'), call('GET', 'log')]);
    data = { reports: reports.reports, sanctions: sanctions.sanctions, log: log.log };
  } catch {
    return;
  }
  render();
}

// Runs an admin action, says how it went, and reads everything again.
async function act(method, route, body, done) {
  try {
    await call(method, route, body);
  } catch {
    return false;
  }
  say(done);
  await load();
  return true;
}

const roomName = (room) => t(room === 'players' ? 'admin.roomPlayers' : 'admin.roomSpectators');

function author(message) {
  const from = message.from === 'spectator' ? t('admin.spectator') : t(`color.${message.from}`);
  return message.name ? `${message.name} (${from})` : from;
}

function reportItem(report) {
  const where = element('a', { href: `/g/${encodeURIComponent(report.game)}`, textContent: report.game });
  const heading = element('p', {}, [
    where, ` · ${roomName(report.room)} #${formatNumber(report.n)} · `,
    t('admin.reportedBy', { who: report.reporter === 'spectator' ? t('admin.spectator') : t(`color.${report.reporter}`) }),
    ` · ${when(report.at_ms)}`]);
  const quote = element('blockquote', { className: 'admin-quote' }, [
    element('p', { className: 'talk-who', textContent: author(report.message) }),
    element('p', { textContent: report.message.text })]);
  const reason = element('p', { className: 'hint', textContent: report.reason ? t('admin.reason', { reason: report.reason }) : t('admin.noReason') });
  const buttons = element('p', { className: 'actions' });
  const remove = element('button', { type: 'button', className: 'danger', textContent: t('admin.remove') });
  remove.dataset.action = 'remove';
  remove.addEventListener('click', () => act('DELETE', `games/${report.game}/chat/${report.room}/${report.n}`, undefined,
    t('admin.removed', { game: report.game, n: report.n })));
  buttons.append(remove);
  if (report.message.from !== 'spectator') {
    const mute = element('button', { type: 'button', textContent: t('admin.muteAuthor') });
    mute.addEventListener('click', () => act('POST', 'mute', { game: report.game, seat: report.message.from, minutes: 60 },
      t('admin.muted')));
    buttons.append(' ', mute);
  }
  const hide = element('button', { type: 'button', textContent: t('admin.hide') });
  hide.addEventListener('click', () => act('POST', `games/${report.game}/hide`, undefined, t('admin.hidden', { game: report.game })));
  buttons.append(' ', hide);
  return element('li', { className: 'admin-report' }, [heading, quote, reason, buttons]);
}

function sanctionItem(s) {
  const who = s.game ? `${s.game} · ${t(`color.${s.seat}`)}` : s.address;
  const what = s.what.map((w) => t(`admin.what${w[0].toUpperCase()}${w.slice(1)}`)).join(', ');
  const kind = t(s.kind === 'ban' ? 'admin.kindBan' : 'admin.kindMute');
  return element('li', { textContent: `${kind}: ${who} — ${what} — ${t('admin.until', { time: when(s.until_ms) })}` });
}

function logItem(entry) {
  return element('li', { textContent: `${when(entry.at_ms)} · ${t(`admin.action.${entry.action}`)} · ${entry.target}` });
}

function fill(listId, emptyId, items, make) {
  $(listId).replaceChildren(...items.map(make));
  $(emptyId).hidden = items.length > 0;
}

function render() {
  const signedIn = Boolean(token);
  $('admin-work').hidden = !signedIn;
  $('sign-out').hidden = !signedIn;
  $('admin-token').value = '';
  $('admin-token').required = !signedIn;
  if (!signedIn) return;
  fill('reports', 'reports-empty', data.reports, reportItem);
  fill('sanctions', 'sanctions-empty', data.sanctions, sanctionItem);
  fill('log', 'log-empty', data.log, logItem);
}

function wireForms() {
  $('token-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const typed = $('admin-token').value.trim();
    if (!typed) return;
    token = typed;
    sessionStorage.setItem(TOKEN_KEY, token);
    await load();
    if (token) say(t('admin.signedIn'));
    render();
  });
  $('sign-out').addEventListener('click', () => { signOut(); say(t('admin.signedOut')); });
  $('refresh').addEventListener('click', async () => { await load(); say(t('admin.refreshed')); });
  $('remove-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const game = $('remove-game').value.trim();
    const n = Number($('remove-n').value);
    act('DELETE', `games/${game}/chat/${$('remove-room').value}/${n}`, undefined, t('admin.removed', { game, n }));
  });
  $('mute-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const minutes = Number($('mute-minutes').value);
    const bySeat = document.querySelector('input[name="mute-kind"]:checked').value === 'seat';
    const body = bySeat ? { game: $('mute-game').value.trim(), seat: $('mute-seat').value, minutes }
      : { address: $('mute-address').value.trim(), minutes };
    act('POST', 'mute', body, t('admin.muted'));
  });
  for (const radio of document.querySelectorAll('input[name="mute-kind"]')) {
    radio.addEventListener('change', () => {
      const bySeat = document.querySelector('input[name="mute-kind"]:checked').value === 'seat';
      document.querySelector('.mute-seat-fields').hidden = !bySeat;
      document.querySelector('.mute-address-fields').hidden = bySeat;
    });
  }
  $('ban-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const what = [...document.querySelectorAll('input[name="ban-what"]:checked')].map((box) => box.value);
    act('POST', 'ban', { address: $('ban-address').value.trim(), minutes: Number($('ban-minutes').value), what }, t('admin.banned'));
  });
  $('hide-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const game = $('hide-game').value.trim();
    act('POST', `games/${game}/hide`, undefined, t('admin.hidden', { game }));
  });
}

await initPage();
wireForms();
onLanguageChange(render);
render();
await load();
markReady();
