// "My games": every game this browser holds a seat in, from the seat tokens
// in its storage (storage.js), each read from the server with its own token:
// in progress with the player's turn first, then those waiting for the
// opponent, then finished ones. Each row offers its seat link
// (/g/{id}#seat=TOKEN), which is the only key to the seat: whoever keeps it
// can continue on any device, even after this browser's storage is gone.
// An entry can be removed (this browser forgets it; the game is untouched),
// and the finished ones hidden with one click (remembered). The device link
// (device-link.js) takes them all to another device, with its QR code drawn
// here (qr-code.js).

import { initPage, errorMessage, markReady, copyFrom } from './page.js';
import { t, onLanguageChange } from './i18n.js';
import { api } from './api.js';
import { listGames, loadSeats, forgetGame, getPref, setPref } from './storage.js';
import { confirmAction } from './dialog.js';
import { describeTimeControl } from './time-format.js';
import { resultText } from './game-panels.js';
import { versusText } from './names.js';
import { deviceLink, importDeviceLink } from './device-link.js';
import { loadQrLibrary, qrModules, qrSvg } from './qr-code.js';

const $ = (id) => document.getElementById(id);
const PARALLEL_READS = 4;
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
        out[index] = { ...game, seats, view: await api.view(game.id, token) };
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
  if (groupOf(entry) === 'turn') return `${t('myGames.yourMove', { color: t(`color.${view.to_move}`) })} · ${move}`;
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
    const rows = entries.filter((entry) => groupOf(entry) === group).map(row);
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
  onLanguageChange(() => {
    render();
    const status = $('transfer-qr-status');
    if (status.dataset.key) status.textContent = t(status.dataset.key);
  });
  markReady();
}

main();
