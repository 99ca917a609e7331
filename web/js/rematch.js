// The rematch at the end of a game: one button creates a new game with the
// same settings and the colours swapped; the opponent's page then shows the
// offer as a banner with Accept and Decline (and a sound) as soon as the
// live feed brings the view that carries it, and a poll now and then
// catches it where no feed runs. A link leads to the new game for those who
// hold no seat in it (spectators) or already took theirs.
//
// The seats of the new game are stored on this device before the page goes
// there, with a note that it is a rematch this device offered, so the new
// game's page says "rematch offered" rather than asking for an invite link;
// hot-seat takes both seats, which the first answer usually carries.

import { t } from './i18n.js';
import { api } from './api.js';
import { errorMessage } from './page.js';
import { loadSeats, saveSeat, saveGameSummary } from './storage.js';

const OFFER_POLL_MS = 4000;
const declined = new Set();

export class Rematch {
  // playingSeats(): {color: token} of the seats this page plays in the
  // finished game; getView(): its newest view; refresh(): asks for a newer
  // one; onOffer(): the opponent's offer has just arrived.
  constructor(elements, { gameId, playingSeats, getView, refresh, onError, onOffer, hotseat }) {
    this.el = elements;
    Object.assign(this, { gameId, playingSeats, getView, refresh, onError, onOffer, hotseat });
    this.pollTimer = null;
    this.offerSeen = false;
    elements.button.addEventListener('click', () => this.take());
    elements.accept.addEventListener('click', () => this.take());
    elements.decline.addEventListener('click', () => {
      declined.add(this.getView().rematch?.id);
      this.render(this.getView());
      elements.button.focus();
    });
  }

  render(view) {
    const { button, link, offer, offerText } = this.el;
    const seated = Object.keys(this.playingSeats()).length > 0;
    const offered = view.rematch?.id ?? null;
    const joined = offered && Object.keys(loadSeats(offered)).length > 0;
    const fromOpponent = seated && offered && !joined && !this.hotseat();
    button.hidden = !seated || Boolean(joined) || Boolean(fromOpponent && !declined.has(offered));
    button.textContent = offered ? t('result.acceptRematch') : t('result.offerRematch');
    link.hidden = !offered || (seated && !joined);
    if (offered) {
      link.href = `/g/${encodeURIComponent(offered)}`;
      link.textContent = joined ? t('result.goRematch') : t('result.watchRematch');
    }
    offer.hidden = !fromOpponent || declined.has(offered);
    offerText.textContent = t('rematch.offered');
    if (fromOpponent && !this.offerSeen) {
      this.offerSeen = true;
      this.onOffer();
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
    this.el.button.disabled = true;
    this.el.accept.disabled = true;
    const seats = this.playingSeats();
    const colors = Object.keys(seats);
    const { game, rematch } = this.getView();
    const offeredHere = !rematch;
    try {
      let target = null;
      for (const color of colors) {
        if (target && colors.every((wanted) => loadSeats(target)[wanted])) break;
        const answer = await api.rematch(this.gameId, seats[color]);
        target = answer.game?.id ?? this.getView().rematch?.id ?? target;
        const granted = answer.seats ?? (answer.token ? [{ color: answer.color, token: answer.token }] : []);
        for (const seat of granted) saveSeat(target, seat.color, seat.token);
        saveGameSummary(target, { mode: game.mode, size: game.settings.size, rematchOffered: offeredHere && game.mode === 'online' });
      }
      location.assign(`/g/${encodeURIComponent(target)}`);
    } catch (error) {
      this.onError(errorMessage(error));
      this.el.button.disabled = false;
      this.el.accept.disabled = false;
    }
  }
}
