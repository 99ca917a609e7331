// The rematch at the end of a game: one button creates a new game with the
// same settings and the colours swapped, or accepts the opponent's offer of
// one; a link leads to it for those who hold no seat in it (spectators) or
// already took theirs. An offer changes the view without an event, so a
// player's page asks for the view now and then until one is there.
//
// The seats of the new game are stored on this device before the page goes
// there; hot-seat takes both, which the first answer usually carries.

import { t } from './i18n.js';
import { api } from './api.js';
import { errorMessage } from './page.js';
import { loadSeats, saveSeat, saveGameSummary } from './storage.js';

const OFFER_POLL_MS = 4000;

export class Rematch {
  // playingSeats(): {color: token} of the seats this page plays in the
  // finished game; getView(): its newest view; refresh(): asks for a newer one.
  constructor({ button, link }, { gameId, playingSeats, getView, refresh, onError }) {
    this.button = button;
    this.link = link;
    this.gameId = gameId;
    this.playingSeats = playingSeats;
    this.getView = getView;
    this.refresh = refresh;
    this.onError = onError;
    this.pollTimer = null;
    button.addEventListener('click', () => this.take());
  }

  render(view) {
    const seated = Object.keys(this.playingSeats()).length > 0;
    const offered = view.rematch?.id ?? null;
    const joined = offered && Object.keys(loadSeats(offered)).length > 0;
    this.button.hidden = !seated || Boolean(joined);
    this.button.textContent = offered ? t('result.acceptRematch') : t('result.offerRematch');
    this.link.hidden = !offered || (seated && !joined);
    if (offered) {
      this.link.href = `/g/${encodeURIComponent(offered)}`;
      this.link.textContent = joined ? t('result.goRematch') : t('result.watchRematch');
    }
  }

  // Starts looking out for the opponent's offer (players only).
  watchForOffer() {
    const seated = Object.keys(this.playingSeats()).length > 0;
    if (this.pollTimer || !seated || this.getView().rematch) return;
    this.pollTimer = setInterval(async () => {
      if (this.getView().rematch) {
        clearInterval(this.pollTimer);
        return;
      }
      if (!document.hidden) await this.refresh();
    }, OFFER_POLL_MS);
  }

  async take() {
    this.button.disabled = true;
    const seats = this.playingSeats();
    const colors = Object.keys(seats);
    const { game } = this.getView();
    try {
      let target = null;
      for (const color of colors) {
        if (target && colors.every((wanted) => loadSeats(target)[wanted])) break;
        const answer = await api.rematch(this.gameId, seats[color]);
        target = answer.game?.id ?? this.getView().rematch?.id ?? target;
        const granted = answer.seats ?? (answer.token ? [{ color: answer.color, token: answer.token }] : []);
        for (const seat of granted) saveSeat(target, seat.color, seat.token);
        saveGameSummary(target, { mode: game.mode, size: game.settings.size });
      }
      location.assign(`/g/${encodeURIComponent(target)}`);
    } catch (error) {
      this.onError(errorMessage(error));
      this.button.disabled = false;
    }
  }
}
