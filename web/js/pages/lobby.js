// The lobby page: public games with a free seat (take it in one click, no
// invite needed) and public games in progress (watch them).
//
// The lists arrive live on the lobby WebSocket (docs/API.md, "Lobby"): the
// server sends the whole lobby after the hello and after every change. When
// the socket keeps failing the page also polls GET /api/v1/lobby while it
// keeps retrying the socket (live.js), so the lists never go stale for long.

import { initPage, errorMessage, markReady, showNotice } from '../lib/page.js';
import { t, onLanguageChange, currentLanguage } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { LiveFeed } from '../lib/live.js';
import { loadSeats, saveSeat, saveGameSummary } from '../lib/storage.js';
import { describeTimeControl } from '../lib/time-format.js';
import { nameForRequest, versusText } from '../lib/names.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 5000;
const STATUS_KEYS = {
  connecting: 'lobby.connecting', live: 'lobby.live', polling: 'lobby.polling', reconnecting: 'connection.reconnecting',
};

let lobby = null;
let joining = false;

// ---- rendering ------------------------------------------------------------

function ago(ms) {
  const minutes = Math.max(0, Math.round((Date.now() - ms) / 60000));
  const format = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: 'auto' });
  return minutes < 60 ? format.format(-minutes, 'minute') : format.format(-Math.round(minutes / 60), 'hour');
}

function describe(entry) {
  const settings = entry.settings;
  const parts = [t('form.sizeValue', { size: settings.size }), t(`rulesets.${settings.rules}.name`),
    describeTimeControl(entry.time_control)];
  if (settings.handicap > 0) parts.push(t('form.handicapStones', { count: settings.handicap }));
  if (settings.torus) parts.push(t('form.torus'));
  if (settings.capture_go) parts.push(t('table.captureGo'));
  return parts.join(' · ');
}

function row(entry, action) {
  const item = document.createElement('li');
  item.className = 'game-row';
  item.dataset.gameId = entry.id;
  const text = document.createElement('span');
  text.className = 'game-row-text';
  const what = document.createElement('strong');
  what.textContent = describe(entry);
  const when = document.createElement('span');
  when.className = 'hint';
  when.textContent = entry.started_ms ? t('lobby.started', { when: ago(entry.started_ms) }) : t('lobby.created', { when: ago(entry.created_ms) });
  text.append(what, ' ', when);
  const names = entry.names ?? {};
  if (names.black || names.white) {
    const who = document.createElement('span');
    who.className = 'lobby-names';
    who.textContent = versusText(names, (color) => entry.free === color);
    text.append(' ', who);
  }
  item.append(text, action);
  return item;
}

function link(href, label, className = 'button') {
  const a = document.createElement('a');
  a.href = href;
  a.className = className;
  a.textContent = label;
  return a;
}

function openAction(entry) {
  const gamePath = `/g/${encodeURIComponent(entry.id)}`;
  if (Object.keys(loadSeats(entry.id)).length > 0) return link(gamePath, t('lobby.yours'));
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'primary';
  button.textContent = t('lobby.take', { color: t(`color.${entry.free}`) });
  button.addEventListener('click', () => join(entry, button));
  return button;
}

function render() {
  if (!lobby) return;
  $('open-list').replaceChildren(...lobby.open.map((entry) => row(entry, openAction(entry))));
  $('playing-list').replaceChildren(...lobby.playing.map((entry) =>
    row(entry, link(`/g/${encodeURIComponent(entry.id)}`, t('lobby.watch')))));
  $('open-empty').hidden = lobby.open.length > 0;
  $('playing-empty').hidden = lobby.playing.length > 0;
}

// ---- taking a seat ----------------------------------------------------------

async function join(entry, button) {
  if (joining) return;
  joining = true;
  button.disabled = true;
  try {
    const seat = await api.join(entry.id, nameForRequest());
    saveSeat(entry.id, seat.color, seat.token);
    saveGameSummary(entry.id, { mode: 'online', size: entry.settings.size });
    location.assign(`/g/${encodeURIComponent(entry.id)}#seat=${encodeURIComponent(seat.token)}`);
  } catch (error) {
    showNotice(error.code === 'seat_taken' ? t('lobby.taken') : errorMessage(error));
    button.disabled = false;
    joining = false;
  }
}

// ---- live lists ---------------------------------------------------------------

function showStatus(key) {
  $('lobby-status').textContent = t(key);
  $('lobby-status').dataset.status = key;
}

function accept(next) {
  lobby = { open: next.open ?? [], playing: next.playing ?? [] };
  render();
  if (!document.documentElement.dataset.ready) markReady();
}

async function main() {
  await initPage();
  onLanguageChange(() => {
    render();
    showStatus($('lobby-status').dataset.status);
  });
  new LiveFeed({
    path: api.lobbySocketPath,
    hello: () => ({ type: 'hello' }),
    dataType: 'lobby',
    poll: () => api.lobby(),
    pollMs: POLL_MS,
    onData: accept,
    onStatus: (status) => showStatus(STATUS_KEYS[status]),
    onError: (error) => showNotice(errorMessage(error)),
  }).start();
}

main();
