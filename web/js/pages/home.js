// The home page: three big buttons, each creating a 9x9 game with the usual
// table in one click (a friend by link, the computer, hot-seat); the
// "custom table" form folded below with every setting (the time control,
// publishing an online game in the lobby), which remembers the last table
// created with it; and, for an online game, the invite and spectator links
// with a QR code made by the server. Seat tokens from the answer are stored
// on this device before anything else, so the game page finds them. A
// mistake in the form is shown next to its field.

import { initPage, copyFrom, errorMessage, markReady } from '../lib/page.js';
import { t, onLanguageChange } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { saveSeat, saveInviteLink, saveGameSummary, getPref, setPref } from '../lib/storage.js';
import { addNameField } from '../lib/home-name.js';

const FIRST_SIZES = [9, 13, 19];
const $ = (id) => document.getElementById(id);
const form = $('new-game');
// The usual table: what the big buttons create (docs/PLAYING.md).
const USUAL_SETTINGS = { size: 9, komi: 7.5, handicap: 0, ko: 'simple', rules: 'olympiad', torus: false, capture_go: false };
const QUICK_EXTRAS = { online: { color: 'random' }, computer: { color: 'black', level: 'medium' }, hotseat: {} };
// The custom form's fields remembered between visits (by name).
const REMEMBERED_FIELDS = ['mode', 'level', 'color', 'size', 'handicap', 'komi', 'tc_type', 'days_per_move', 'main',
  'increment', 'periods', 'period', 'rules', 'ko', 'capture_go', 'capture_target', 'torus', 'public'];
let komiEdited = false;
// The deduction aid follows the mode (on against the computer) until the
// player ticks or unticks it.
let aidEdited = false;
let nameField = null;

function option(value, label) {
  const element = document.createElement('option');
  element.value = String(value);
  element.textContent = label;
  return element;
}

function fillSizes() {
  const select = $('size');
  const chosen = select.value || '9';
  const others = document.createElement('optgroup');
  others.label = t('form.otherSizes');
  for (let size = 5; size <= 25; size++) {
    if (!FIRST_SIZES.includes(size)) others.append(option(size, t('form.sizeValue', { size })));
  }
  select.replaceChildren(...FIRST_SIZES.map((size) => option(size, t('form.sizeValue', { size }))), others);
  select.value = chosen;
}

// Handicap stones need star points: none below 7x7, at most 4 on 7x7 and on
// even sizes (no centre point), up to 9 otherwise.
function maxHandicap(size) {
  if (size < 7) return 0;
  if (size === 7 || size % 2 === 0) return 4;
  return 9;
}

function fillHandicaps() {
  const select = $('handicap');
  const size = Number($('size').value);
  const max = maxHandicap(size);
  const chosen = Math.min(Number(select.value || 0), max);
  const options = [option(0, t('form.handicapNone'))];
  for (let stones = 2; stones <= max; stones++) options.push(option(stones, t('form.handicapStones', { count: stones })));
  select.replaceChildren(...options);
  select.value = String(chosen === 1 ? 0 : chosen);
  select.disabled = max === 0;
  updateKomiDefault();
}

function updateKomiDefault() {
  if (komiEdited) return;
  $('komi').value = Number($('handicap').value) > 0 ? '0.5' : '7.5';
}

function checkedValue(name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value;
}

function updateModeFields() {
  const mode = checkedValue('mode');
  $('color-field').hidden = mode === 'hotseat';
  $('level-field').hidden = mode !== 'computer';
  $('public-field').hidden = mode !== 'online';
  if (!aidEdited) $('deduction-aid').checked = mode === 'computer';
}

const DAY_CHOICES = [0, 1, 2, 3, 5, 7, 14];

function fillDays() {
  const select = $('tc-days');
  const chosen = select.value || '0';
  select.replaceChildren(...DAY_CHOICES.map((days) => option(days, days ? t('tc.days', { count: days }) : t('form.daysNone'))));
  select.value = chosen;
}

// Shows the fields of the chosen time control and its explanation.
function updateClockFields() {
  const type = $('tc-type').value;
  for (const field of document.querySelectorAll('[data-tc]')) field.hidden = !field.dataset.tc.split(' ').includes(type);
  $('tc-hint').textContent = t(`form.clockHint.${type}`);
}

// A whole number from the input within [lo, hi], or null.
function wholeNumber(id, lo, hi) {
  const value = Number($(id).value);
  return $(id).value.trim() !== '' && Number.isInteger(value) && value >= lo && value <= hi ? value : null;
}

// {time_control} or {error, field} (docs/API.md, "Time controls").
function readTimeControl() {
  const type = $('tc-type').value;
  if (type === 'none') {
    const days = Number($('tc-days').value);
    return { time_control: days ? { type, days_per_move: days } : { type } };
  }
  const minutes = wholeNumber('tc-main', type === 'byoyomi' ? 0 : 1, 10080);
  if (minutes === null) return { error: t('form.mainInvalid'), field: $('tc-main') };
  const time_control = { type, main: minutes * 60 };
  if (type === 'fischer') {
    time_control.increment = wholeNumber('tc-increment', 1, 3600);
    if (time_control.increment === null) return { error: t('form.secondsInvalid'), field: $('tc-increment') };
  }
  if (type === 'byoyomi') {
    time_control.periods = wholeNumber('tc-periods', 1, 100);
    if (time_control.periods === null) return { error: t('form.periodsInvalid'), field: $('tc-periods') };
    time_control.period = wholeNumber('tc-period', 1, 3600);
    if (time_control.period === null) return { error: t('form.secondsInvalid'), field: $('tc-period') };
  }
  return { time_control };
}

function captureSetting() {
  const kind = $('capture-go').value;
  if (kind === 'first') return true;
  if (kind === 'target') return Number($('capture-target').value);
  return false;
}

// Reads the form; returns {body} or {error: message}.
function readForm() {
  const komi = Number($('komi').value);
  if ($('komi').value.trim() === '' || !Number.isFinite(komi) || Math.round(komi * 2) !== komi * 2) {
    return { error: t('form.komiInvalid'), field: $('komi') };
  }
  const capture = captureSetting();
  if (typeof capture === 'number' && (!Number.isInteger(capture) || capture < 2 || capture > 99)) {
    return { error: t('form.captureInvalid'), field: $('capture-target') };
  }
  const { time_control, error, field } = readTimeControl();
  if (error) return { error, field };
  const mode = checkedValue('mode');
  const body = {
    mode,
    settings: {
      size: Number($('size').value),
      komi,
      handicap: Number($('handicap').value),
      ko: checkedValue('ko'),
      rules: checkedValue('rules'),
      torus: $('torus').checked,
      capture_go: capture,
    },
    time_control,
    deduction_aid: $('deduction-aid').checked,
  };
  if (mode === 'online') body.public = $('public').checked;
  if (mode !== 'hotseat') body.color = checkedValue('color');
  if (mode === 'computer') body.level = checkedValue('level');
  return { body };
}

// A mistake in a field is said right under it (and tied to it for screen
// readers); other failures under the form.
function showError(message, field = null) {
  if (!field) {
    $('form-error').textContent = message;
    $('form-error').hidden = false;
    return;
  }
  const box = document.createElement('p');
  box.className = 'error field-error';
  box.id = `${field.id}-error`;
  box.setAttribute('role', 'alert');
  box.textContent = message;
  field.closest('.field')?.append(box);
  field.setAttribute('aria-invalid', 'true');
  field.setAttribute('aria-errormessage', box.id);
  field.focus();
}

function clearErrors() {
  $('form-error').hidden = true;
  $('quick-error').hidden = true;
  for (const box of form.querySelectorAll('.field-error')) box.remove();
  for (const field of form.querySelectorAll('[aria-invalid]')) {
    field.removeAttribute('aria-invalid');
    field.removeAttribute('aria-errormessage');
  }
}

function rememberForm() {
  const values = {};
  for (const name of REMEMBERED_FIELDS) {
    const inputs = [...form.querySelectorAll(`[name="${name}"]`)];
    if (inputs.length === 0) continue;
    const first = inputs[0];
    if (first.type === 'radio') values[name] = inputs.find((input) => input.checked)?.value;
    else if (first.type === 'checkbox') values[name] = first.checked;
    else values[name] = first.value;
  }
  values.komiEdited = komiEdited;
  setPref('customTable', values);
}

function restoreForm() {
  const values = getPref('customTable', null);
  if (!values || typeof values !== 'object') return;
  for (const name of REMEMBERED_FIELDS) {
    if (!(name in values)) continue;
    for (const input of form.querySelectorAll(`[name="${name}"]`)) {
      if (input.type === 'radio') input.checked = input.value === values[name];
      else if (input.type === 'checkbox') input.checked = Boolean(values[name]);
      else input.value = String(values[name]);
    }
  }
  komiEdited = Boolean(values.komiEdited);
}

function remember(created, mode) {
  const id = created.game.id;
  for (const seat of created.seats ?? []) saveSeat(id, seat.color, seat.token);
  saveGameSummary(id, { mode, size: created.game.settings?.size ?? null });
  if (created.links?.invite) saveInviteLink(id, created.links.invite);
}

async function showShare(created) {
  const { links } = created;
  $('invite-link').value = links.invite;
  $('watch-link').value = links.watch;
  $('play-link').href = links.play;
  $('share-native').hidden = typeof navigator.share !== 'function';
  for (const section of document.querySelectorAll('.quick, .custom, .about')) section.hidden = true;
  $('share').hidden = false;
  $('share-title').focus();
  try {
    const svgText = await api.qrSvg(links.invite);
    const image = $('invite-qr');
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText);
    image.hidden = false;
  } catch (error) {
    $('copy-status').textContent = errorMessage(error);
  }
}

// The device's own share sheet (navigator.share, where it exists) with the
// invite link; closing the sheet is no error.
async function shareInvite() {
  try {
    await navigator.share({ title: t('share.nativeTitle'), text: t('share.nativeText'), url: $('invite-link').value });
  } catch (error) {
    if (error?.name !== "AbortError") $("copy-status").textContent = t("share.nativeFailed");
  }
}

// Creates the game; an online game shows its links, any other opens.
async function create(body, buttons, onFailure) {
  if (!nameField.apply(body)) return;
  for (const button of buttons) button.disabled = true;
  try {
    const created = await api.createGame(body);
    remember(created, body.mode);
    if (body.mode === 'online') await showShare(created);
    else location.assign(created.links?.play ?? `/g/${created.game.id}`);
  } catch (failure) {
    onFailure(errorMessage(failure));
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

function quickStart(mode) {
  clearErrors();
  const body = { mode, settings: { ...USUAL_SETTINGS }, time_control: { type: 'none' }, ...QUICK_EXTRAS[mode] };
  create(body, document.querySelectorAll('.way'), (message) => {
    $('quick-error').textContent = message;
    $('quick-error').hidden = false;
  });
}

async function submit(event) {
  event.preventDefault();
  clearErrors();
  const { body, error, field } = readForm();
  if (error) {
    showError(error, field);
    return;
  }
  rememberForm();
  await create(body, [$('create-button')], (message) => showError(message));
}

function wire() {
  $('size').addEventListener('change', fillHandicaps);
  $('tc-type').addEventListener('change', updateClockFields);
  $('handicap').addEventListener('change', updateKomiDefault);
  $('komi').addEventListener('input', () => { komiEdited = true; });
  $('deduction-aid').addEventListener('change', () => { aidEdited = true; });
  $('capture-go').addEventListener('change', () => {
    $('capture-target-field').hidden = $('capture-go').value !== 'target';
  });
  for (const radio of form.querySelectorAll('input[name="mode"]')) radio.addEventListener('change', updateModeFields);
  form.addEventListener('submit', submit);
  for (const button of document.querySelectorAll('.way')) button.addEventListener('click', () => quickStart(button.dataset.mode));
  $('custom').addEventListener('toggle', () => setPref('customOpen', $('custom').open));
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', () => copyFrom($(button.dataset.copy), $('copy-status')));
  }
  $('share-native').addEventListener('click', shareInvite);
  $('another').addEventListener('click', () => {
    $('share').hidden = true;
    for (const section of document.querySelectorAll('.quick, .custom, .about')) section.hidden = false;
    $('copy-status').textContent = '';
    document.querySelector('.way')?.focus();
  });
}

async function main() {
  await initPage();
  nameField = addNameField(document.querySelector('.quick') ?? form, document.querySelector('.ways'));
  fillSizes();
  fillDays();
  restoreForm();
  fillSizes();
  fillHandicaps();
  fillDays();
  if (getPref('customTable', null)?.handicap) $('handicap').value = String(getPref('customTable', null).handicap);
  $('capture-target-field').hidden = $('capture-go').value !== 'target';
  $('custom').open = Boolean(getPref('customOpen', false));
  updateModeFields();
  updateClockFields();
  wire();
  onLanguageChange(() => {
    fillSizes();
    fillHandicaps();
    fillDays();
    updateClockFields();
  });
  markReady();
}

main();
