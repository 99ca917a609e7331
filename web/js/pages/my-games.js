// "My games": every game this browser holds a seat in, from the seat tokens
// in its storage (storage.js), each read from the server with its own token:
// in progress with the player's turn first, the least time left on the
// player's clock first (each with that time, ticking, read from the view's
// clock as the game page's clock.js does; games without a clock last),
// then those waiting for the opponent, then finished ones. Each row offers
// its seat link (/g/{id}#seat=TOKEN), which is the only key to the seat:
// whoever keeps it can continue on any device, even after this browser's
// storage is gone.
// An entry can be removed (this browser forgets it; the game is untouched),
// and the finished ones hidden with one click (remembered). The device link
// (device-link.js) takes them all to another device, with its QR code drawn
// here (qr-code.js).

import { initPage, errorMessage, markReady, copyFrom } from '../lib/page.js';
import { t, onLanguageChange } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { listGames, loadSeats, forgetGame, getPref, setPref } from '../lib/storage.js';
import { confirmAction } from '../lib/dialog.js';
import { describeTimeControl, formatClock } from '../lib/time-format.js';
import { sideAt } from '../game/clock.js';
import { resultText } from '../game/game-panels.js';
import { versusText } from '../lib/names.js';
import { deviceLink, importDeviceLink } from '../lib/device-link.js';
import { loadQrLibrary, qrModules, qrSvg } from '../lib/qr-code.js';

const $ = (id) => document.getElementById(id);
const PARALLEL_READS = 4;
const TICK_MS = 1000;
const GROUPS = ['turn', 'waiting', 'finished'];

let entries = [];
let hideFinished = Boolean(getPref('hideFinishedGames', false));

// Reads the view of each game with the first of this device's seats; a game
// the server no longer knows (or whose token it refuses) is kept, marked.
async function readViews(games) {
  const out = new Array(games.length);
  let next = 0;
  const worker = async () => {
    while (next < games.length) {
      const index = next++;
      const game = games[index];
      const seats = loadSeats(game.id);
      const token = seats[game.colors[0]];
      try {
        const view = await api.view(game.id, token);
        out[index] = { ...game, seats, view, readAt: performance.now() };
      } catch (error) {
        out[index] = { ...game, seats, view: null, error };
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  return out;
}

const opponentMissing = (entry) => entry.view.game.mode === 'online'
  && !entry.view.seats[entry.colors.includes('black') ? 'white' : 'black']?.taken;

// A game whose opponent has not come yet waits, even when this seat moves first.
function groupOf(entry) {
  const view = entry.view;
  if (!view || view.over || view.cancelled) return 'finished';
  return entry.colors.includes(view.to_move) && !opponentMissing(entry) ? 'turn' : 'waiting';
}

// This player's clock in a game where it is their turn, as of now: sideAt's
// {main, periods, period, total} (ms), or null when the game has no clock.
function myClock(entry) {
  const clock = entry.view?.clock;
  const side = clock?.running ? clock[clock.running] : null;
  if (!side || groupOf(entry) !== 'turn' || !entry.colors.includes(clock.running)) return null;
  return sideAt(side, entry.view.game.time_control, performance.now() - entry.readAt);
}

// "2 d 5 h left", "4:59 left (then 5 × 0:30)", "0:25 left (3 periods left)".
function timeLeftText(now, tc) {
  const inByoyomi = now.periods !== null && now.main === 0;
  const text = t('myGames.timeLeft', { time: formatClock(inByoyomi ? now.period : now.main) });
  if (now.periods === null) return text;
  const detail = inByoyomi ? t('clock.periodsLeft', { count: now.periods })
    : t('clock.byoyomiAfter', { periods: now.periods, period: formatClock(tc.period * 1000) });
  return `${text} (${detail})`;
}

// The games where it is my turn, least time left first, those without a
// clock last; the others as listed (newest first).
function byUrgency(a, b) {
  const left = (entry) => myClock(entry)?.total ?? Infinity;
  const [x, y] = [left(a), left(b)];
  return x === y ? 0 : x < y ? -1 : 1;
}

function seatLink(entry) {
  const fragment = entry.colors.map((color) => `seat=${encodeURIComponent(entry.seats[color])}`).join('&');
  return `${location.origin}/g/${encodeURIComponent(entry.id)}#${fragment}`;
}

function describe(entry) {
  const view = entry.view;
  const parts = [];
  const size = view?.game.settings.size ?? entry.summary?.size;
  const mode = view?.game.mode ?? entry.summary?.mode;
  if (size) parts.push(t('form.sizeValue', { size }));
  if (mode) parts.push(t(`mode.${mode}`));
  if (view) parts.push(describeTimeControl(view.game.time_control));
  const names = { black: view?.seats?.black?.name, white: view?.seats?.white?.name };
  if (names.black || names.white) {
    parts.push(versusText(names, (color) => view.game.mode === 'online' && !view.seats?.[color]?.taken));
  }
  parts.push(mode === 'hotseat' ? t('myGames.bothSeats') : t('role.player', { color: t(`color.${entry.colors[0]}`) }));
  return parts.join(' · ');
}

function statusText(entry) {
  const view = entry.view;
  if (!view) return entry.error?.status === 404 || entry.error?.status === 403 ? t('myGames.missing') : errorMessage(entry.error);
  if (view.cancelled) return t('tidy.cancelled');
  if (view.over) return resultText(view.result);
  if (opponentMissing(entry)) return t('myGames.noOpponent');
  const move = t('myGames.move', { turn: view.turn });
  if (groupOf(entry) === 'turn') {
    const clock = myClock(entry);
    const time = clock ? ` · ${timeLeftText(clock, view.game.time_control)}` : '';
    return `${t('myGames.yourMove', { color: t(`color.${view.to_move}`) })} · ${move}${time}`;
  }
  return `${t('myGames.toPlay', { color: t(`color.${view.to_move}`) })} · ${move}`;
}

// Copies the seat link; where the clipboard is refused the link is shown,
// selected, for copying by hand.
async function copySeatLink(entry, field) {
  field.value = seatLink(entry);
  await copyFrom(field, $('copy-status'), t('myGames.copied'));
}

function row(entry) {
  const item = document.createElement('li');
  item.className = 'game-row';
  item.dataset.gameId = entry.id;
  item.dataset.group = groupOf(entry);
  const text = document.createElement('span');
  text.className = 'game-row-text';
  const open = document.createElement('a');
  open.href = `/g/${encodeURIComponent(entry.id)}`;
  open.textContent = describe(entry);
  const status = document.createElement('span');
  status.className = 'hint game-status';
  status.textContent = statusText(entry);
  text.append(open, ' ', status);
  const field = document.createElement('input');
  field.readOnly = true;
  field.hidden = true;
  field.className = 'seat-link';
  field.setAttribute('aria-label', t('myGames.seatLink'));
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'copy-seat';
  copy.textContent = t('myGames.copy');
  copy.addEventListener('click', () => copySeatLink(entry, field));
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'row-remove';
  remove.textContent = t('tidy.remove');
  remove.setAttribute('aria-label', `${t('tidy.removeLabel')}: ${describe(entry)}`);
  remove.addEventListener('click', () => removeEntry(entry));
  item.append(text, copy, remove, field);
  return item;
}

// The times left count down in place (the rows, and the focus, stay).
function tickTimesLeft() {
  for (const item of document.querySelectorAll('#turn-list li[data-game-id]')) {
    const entry = entries.find((other) => other.id === item.dataset.gameId);
    const status = item.querySelector('.game-status');
    if (entry && myClock(entry) && status) status.textContent = statusText(entry);
  }
}

// A game still in play loses its seat here with it, so that one asks first.
async function removeEntry(entry) {
  if (groupOf(entry) !== 'finished' && !(await confirmAction(t('tidy.removeConfirm'), t('tidy.remove')))) return;
  forgetGame(entry.id);
  entries = entries.filter((other) => other.id !== entry.id);
  render();
  $('copy-status').textContent = t('tidy.removed');
}

function render() {
  for (const group of GROUPS) {
    const members = entries.filter((entry) => groupOf(entry) === group);
    if (group === 'turn') members.sort(byUrgency);
    const rows = members.map(row);
    $(`${group}-list`).replaceChildren(...rows);
    $(`${group}-section`).hidden = rows.length === 0 || (group === 'finished' && hideFinished);
  }
  const finished = entries.filter((entry) => groupOf(entry) === 'finished').length;
  const toggle = $('hide-finished');
  toggle.hidden = finished === 0;
  toggle.textContent = hideFinished ? t('tidy.showFinished', { count: finished }) : t('tidy.hideFinished');
  toggle.setAttribute('aria-pressed', String(hideFinished));
  $('my-games-empty').hidden = entries.length > 0;
  $('transfer-section').hidden = entries.length === 0;
}

// The device-transfer link, made when asked for (it holds the seats of
// now), with its QR code for the other device's camera.
function wireTransfer() {
  $('transfer-show').addEventListener('click', () => {
    const box = $('transfer-box');
    box.hidden = !box.hidden;
    $('transfer-show').setAttribute('aria-expanded', String(!box.hidden));
    const link = box.hidden ? '' : deviceLink() ?? '';
    $('transfer-link').value = link;
    showTransferQr(link);
  });
  $('transfer-copy').addEventListener('click', () => copyFrom($('transfer-link'), $('copy-status')));
}

// Draws link's QR code (none for ''); says so where there can be none: the
// library is missing on the server, or the link is too long for a QR code.
async function showTransferQr(link) {
  const figure = $('transfer-qr-figure');
  const status = $('transfer-qr-status');
  figure.hidden = true;
  $('transfer-qr').replaceChildren();
  delete status.dataset.key;
  status.textContent = '';
  if (!link) return;
  let modules;
  try {
    modules = qrModules(await loadQrLibrary(), link);
  } catch {
    modules = undefined;
  }
  if ($('transfer-link').value !== link) return; // hidden or redrawn meanwhile
  if (!modules) {
    status.dataset.key = modules === null ? 'transfer.qrTooLong' : 'transfer.qrUnavailable';
    status.textContent = t(status.dataset.key);
    return;
  }
  $('transfer-qr').replaceChildren(qrSvg(modules));
  figure.hidden = false;
}

async function main() {
  const imported = importDeviceLink();
  await initPage();
  if (imported > 0) $('copy-status').textContent = t('transfer.imported', { count: imported });
  wireTransfer();
  entries = await readViews(listGames());
  $('hide-finished').addEventListener('click', () => {
    hideFinished = !hideFinished;
    setPref('hideFinishedGames', hideFinished);
    render();
  });
  render();
  setInterval(tickTimesLeft, TICK_MS);
  onLanguageChange(() => {
    render();
    const status = $('transfer-qr-status');
    if (status.dataset.key) status.textContent = t(status.dataset.key);
  });
  markReady();
}

main();
