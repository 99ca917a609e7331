// Who is looking at the game page: the seats this visit holds, {color:
// token}. They come from the URL fragment (#seat=TOKEN, repeated for both
// hot-seat seats, or #invite=SECRET, claimed once) and from this device's
// storage. The fragment is read once and removed from the address bar, so a
// secret does not linger in the history or a shared screenshot.
//
// Tokens read from the fragment are returned (kept in the page's memory) as
// well as stored, so a browser whose storage is cleared or refuses writes
// still plays from the seat link.

import { t } from './i18n.js';
import { api } from './api.js';
import { isPlayer } from './game-state.js';
import { errorMessage } from './page.js';
import { loadSeats, saveSeat, saveGameSummary } from './storage.js';
import { nameForRequest } from './names.js';

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const found = { seats: params.getAll('seat').filter(Boolean), invite: params.get('invite') };
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  return found;
}

// The seats of seat-link tokens, each checked with the server.
async function adoptSeatTokens(gameId, tokens, onProblem) {
  const adopted = {};
  for (const token of tokens) {
    try {
      const view = await api.view(gameId, token);
      if (!isPlayer(view)) continue;
      adopted[view.viewer] = token;
      saveSeat(gameId, view.viewer, token);
      saveGameSummary(gameId, { mode: view.game.mode, size: view.game.settings.size });
    } catch (error) {
      onProblem(errorMessage(error));
    }
  }
  return adopted;
}

// The seat an invite gives (empty when this device already plays the game,
// or the invite was used).
async function claimInvite(gameId, invite, onProblem) {
  if (Object.keys(loadSeats(gameId)).length > 0) {
    onProblem(t('game.ownInvite'));
    return {};
  }
  try {
    // A finished game's invite gives no seat: it is shown as it ended.
    if ((await api.view(gameId, null)).over) {
      onProblem(t('game.inviteTooLate'));
      return {};
    }
    const seat = await api.claim(gameId, invite, nameForRequest());
    saveSeat(gameId, seat.color, seat.token);
    saveGameSummary(gameId, { mode: 'online', size: null });
    return { [seat.color]: seat.token };
  } catch (error) {
    onProblem(error.code === 'seat_taken' ? t('game.inviteUsed') : errorMessage(error));
    return {};
  }
}

// Every seat this visit holds; onProblem(message) hears why a link gave none.
export async function findSeats(gameId, onProblem) {
  const fragment = readFragment();
  const adopted = await adoptSeatTokens(gameId, fragment.seats, onProblem);
  const invited = fragment.invite ? await claimInvite(gameId, fragment.invite, onProblem) : {};
  return { ...loadSeats(gameId), ...adopted, ...invited };
}
