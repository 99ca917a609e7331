// Who is looking at the game page: the seats this visit holds, {color:
// token}. They come from the URL fragment (#seat=TOKEN, repeated for both
// hot-seat seats, or #invite=SECRET, claimed once) and from this device's
// storage. The fragment is read once and removed from the address bar, so a
// secret does not linger in the history or a shared screenshot.
//
// Tokens read from the fragment are returned (kept in the page's memory) as
// well as stored, so a browser whose storage is cleared or refuses writes
// still plays from the seat link. The view each token was checked with is
// returned too, so the page draws it instead of asking for it again.

import { t } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { isPlayer } from './game-state.js';
import { errorMessage } from '../lib/page.js';
import { loadSeats, saveSeat, saveGameSummary } from '../lib/storage.js';
import { nameForRequest } from '../lib/names.js';

// The seat links of this visit, {seats: [token], invite}: read from the
// fragment, which is then removed.
export function readSeatLinks() {
  const params = new URLSearchParams(location.hash.slice(1));
  const found = { seats: params.getAll('seat').filter(Boolean), invite: params.get('invite') };
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  return found;
}

// The seats of seat-link tokens, each checked with the server (all at
// once): {seats: {color: token}, views: {token: view}}.
async function adoptSeatTokens(gameId, tokens, onProblem) {
  const adopted = {};
  const views = {};
  const answers = await Promise.allSettled(tokens.map((token) => api.view(gameId, token)));
  answers.forEach((answer, i) => {
    if (answer.status === 'rejected') {
      onProblem(() => errorMessage(answer.reason));
      return;
    }
    const view = answer.value;
    if (!isPlayer(view)) return;
    adopted[view.viewer] = tokens[i];
    views[tokens[i]] = view;
    saveSeat(gameId, view.viewer, tokens[i]);
    saveGameSummary(gameId, { mode: view.game.mode, size: view.game.settings.size });
  });
  return { seats: adopted, views };
}

// The seat an invite gives (empty when this device already plays the game,
// or the invite was used).
async function claimInvite(gameId, invite, onProblem) {
  if (Object.keys(loadSeats(gameId)).length > 0) {
    onProblem(() => t('game.ownInvite'));
    return {};
  }
  try {
    // A finished game's invite gives no seat: it is shown as it ended.
    if ((await api.view(gameId, null)).over) {
      onProblem(() => t('game.inviteTooLate'));
      return {};
    }
    const seat = await api.claim(gameId, invite, nameForRequest());
    saveSeat(gameId, seat.color, seat.token);
    saveGameSummary(gameId, { mode: 'online', size: null });
    return { [seat.color]: seat.token };
  } catch (error) {
    onProblem(() => (error.code === 'seat_taken' ? t('game.inviteUsed') : errorMessage(error)));
    return {};
  }
}

// The token the page will most likely play with, known before any request
// (so what belongs to it can be asked for at once): the one seat link's,
// else the one stored seat's (Black's of two); null with an invite or when
// nothing is known. A guess: the seats findSeats() settles on decide.
export function likelySeatToken(gameId, links) {
  if (links.invite || links.seats.length > 1) return null;
  if (links.seats.length === 1) return links.seats[0];
  const stored = loadSeats(gameId);
  return stored.black ?? stored.white ?? null;
}

// Every seat this visit holds, {seats: {color: token}, views: {token:
// view}} (the views the seat links were checked with), from the links
// (readSeatLinks()) and this device's storage. onProblem(wording) hears why
// a link gave none; wording() words it in the page's language, so it can be
// asked for before the words are loaded and shown once they are.
export async function findSeats(gameId, links, onProblem) {
  const adopted = await adoptSeatTokens(gameId, links.seats, onProblem);
  const invited = links.invite ? await claimInvite(gameId, links.invite, onProblem) : {};
  return { seats: { ...loadSeats(gameId), ...adopted.seats, ...invited }, views: adopted.views };
}
