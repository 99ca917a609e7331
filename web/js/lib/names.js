// Display names: the one this browser remembers (typed on the home page, at
// a join or in a game) and how a seat's name is shown. A name is optional;
// a seat without one is called by its colour. Names are always put on the
// page as text (textContent), never as markup.
//
// textProblem() mirrors the server's rules (src/wire/talk_text.h) closely
// enough to warn while typing; the server's answer (400 bad_text with a
// reason) is the one that counts.

import { t } from './i18n.js';
import { getPref, setPref } from './storage.js';

export const NAME_MAX = 32;
export const MESSAGE_MAX = 300;

export function rememberedName() {
  const name = getPref('name', '');
  return typeof name === 'string' ? name : '';
}

export function rememberName(name) {
  setPref('name', (name ?? '').trim());
}

// The name to send with a create, claim or join: the remembered one, or
// nothing (the seat then has no name).
export function nameForRequest() {
  const name = rememberedName();
  return name && !textProblem(name, 'name') ? name : undefined;
}

const CONTROL = /\p{Cc}/u;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u034F]/u;
const NOT_ALLOWED = /[\p{Co}\p{Cn}\u2028\u2029]/u;
const SYMBOL = /\p{S}/u;
const LETTER = /[\p{L}\p{N}]/u;
const EMOJI_JOINER = /\p{Extended_Pictographic}\uFE0F?\u200D(?=\p{Extended_Pictographic})/gu;

// The reason code the server would give ('empty', 'too_long', 'bidi', ...)
// for a name ('name') or a message ('message'), or null when it looks fine.
export function textProblem(text, kind) {
  const max = kind === 'name' ? NAME_MAX : MESSAGE_MAX;
  let trimmed = text.normalize('NFC').replace(/\p{Zs}/gu, ' ').trim();
  if (kind === 'name') trimmed = trimmed.replace(/ +/g, ' ');
  if (CONTROL.test(text)) return 'control';
  if (BIDI.test(text)) return 'bidi';
  const joinersKept = kind === 'name' ? text : text.replace(EMOJI_JOINER, '');
  if (INVISIBLE.test(joinersKept)) return 'invisible';
  if (NOT_ALLOWED.test(text)) return 'not_allowed';
  if (kind === 'name' && SYMBOL.test(text)) return 'symbol';
  if (trimmed === '') return 'empty';
  if ([...trimmed].length > max) return 'too_long';
  if (kind === 'name' && !LETTER.test(trimmed)) return 'no_letter';
  return null;
}

// A sentence for a refused text, in the page's language.
export function problemText(reason, kind) {
  return t(`talk.reason.${reason}`, { max: kind === 'name' ? NAME_MAX : MESSAGE_MAX });
}

// How a seat is called: its name, the computer with its level ("Computer
// (strong)"), else its colour ("Black").
export function seatName(view, color) {
  const seat = view?.seats?.[color];
  if (seat?.name) return seat.name;
  if (seat?.computer && view.game?.level) return t(`names.computer.${view.game.level}`);
  return t(`color.${color}`);
}

// Whether the seat is called something other than its colour.
export function seatNamed(view, color) {
  const seat = view?.seats?.[color];
  return Boolean(seat?.name || (seat?.computer && view.game?.level));
}

// "Carol vs White: seat free" for a list of games: each seat's name, else
// its colour, and a seat nobody took said to be free (a bare colour would
// read like a player called White). names: {black, white}; free(color):
// whether that seat is free.
export function versusText(names, free) {
  const label = (color) => names[color] || (free(color) ? t('names.freeSeat', { color: t(`color.${color}`) }) : t(`color.${color}`));
  return t('names.versus', { black: label('black'), white: label('white') });
}

// A name input (home page, join): filled with the remembered name, checked
// as it is typed (the message goes to `status`), remembered when valid.
export function attachNameInput(input, status) {
  input.maxLength = NAME_MAX * 2;
  input.value = rememberedName();
  const check = () => {
    const value = input.value;
    const reason = value.trim() === '' ? null : textProblem(value, 'name');
    input.setCustomValidity(reason ? problemText(reason, 'name') : '');
    if (status) status.textContent = reason ? problemText(reason, 'name') : '';
    if (!reason) rememberName(value);
    return !reason;
  };
  input.addEventListener('input', check);
  return { check, value: () => (input.value.trim() ? input.value.trim() : undefined) };
}
