// The rematch at the end of a game: one button creates a new game with the
// same settings and the colours swapped; the opponent's page then shows the
// offer as a banner with Accept and Decline (and a sound) as soon as the
// live feed brings the view that carries it, and a poll now and then
// catches it where no feed runs. A link leads to the new game for those who
// hold no seat in it (spectators) or already took theirs.
//
// The seats of the new game are stored on this device before the page goes
// there, with a note that it is a rematch this device offered (and of which
// game), so the new game's page says "rematch offered" rather than asking
// for an invite link, and offers to withdraw it; hot-seat takes both seats,
// which the first answer usually carries.
//
// Withdrawing and declining are the server's (POST rematch {action}): the
// rematch game is cancelled and the finished game's view says
// rematch.cancelled, so both pages learn it live. Which of the two ended
// it the server does not say; each page knows what it did itself.

import { t } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { errorMessage } from '../lib/page.js';
import { confirmAction } from '../lib/dialog.js';
import { loadSeats, saveSeat, saveGameSummary, loadGameSummary } from '../lib/storage.js';

const OFFER_POLL_MS = 4000;

// The rematch game this device offered, while it waits for the opponent:
// {of, token} (the finished game and this device's seat token there), or
// null for any other game.
export function offeredRematch(gameId) {
  const summary = loadGameSummary(gameId);
  if (!summary?.rematchOffered || !summary.rematchOf) return null;
  const seats = loadSeats(summary.rematchOf);
  const token = seats[summary.rematchColor] ?? Object.values(seats)[0];
  return token ? { of: summary.rematchOf, token } : null;
}

// Withdraws the offer that created rematch game gameId: true once done.
export async function withdrawRematch(gameId, onError) {
  const offer = offeredRematch(gameId);
  if (!offer || !(await confirmAction(t('rematch.withdrawConfirm'), t('rematch.withdraw')))) return false;
  // Noted first: the live feed may bring the cancellation before the answer.
  const summary = loadGameSummary(gameId);
  saveGameSummary(gameId, { ...summary, rematchWithdrawn: true });
  try {
    await api.rematch(offer.of, offer.token, 'withdraw');
  } catch (error) {
    if (error.code !== 'no_rematch') {
      saveGameSummary(gameId, summary);
      onError(errorMessage(error));
      return false;
    }
  }
  return true;
}

// What a cancelled rematch game shows on the offerer's device:
// {heading, text, back} or null (an ordinary cancelled game).
export function cancelledRematchWording(gameId) {
  const summary = loadGameSummary(gameId);
  if (!summary?.rematchOffered || !summary.rematchOf) return null;
  const withdrawn = Boolean(summary.rematchWithdrawn);
  return {
    heading: t(withdrawn ? 'rematch.withdrawnHeading' : 'rematch.declinedHeading'),
    text: t(withdrawn ? 'rematch.withdrawnText' : 'rematch.declinedText'),
    back: { href: `/g/${encodeURIComponent(summary.rematchOf)}`, text: t('rematch.backToGame') },
  };
}

export class Rematch {
  // playingSeats(): {color: token} of the seats this page plays in the
  // finished game; getView(): its newest view; refresh(): asks for a newer
  // one; onOffer(): the opponent's offer has just arrived.
  constructor(elements, { gameId, playingSeats, getView, refresh, onError, onOffer, hotseat }) {
    this.el = elements;
    Object.assign(this, { gameId, playingSeats, getView, refresh, onError, onOffer, hotseat });
    this.pollTimer = null;
    this.offerSeen = null;
    this.declinedHere = new Set();
    this.offerers = new Map();
    elements.button.addEventListener('click', () => this.take());
    elements.accept.addEventListener('click', () => this.take());
    elements.decline.addEventListener('click', () => this.decline());
  }

  render(view) {
    const { button, link, offer, offerText, status } = this.el;
    const seated = Object.keys(this.playingSeats()).length > 0;
    const offered = view.rematch?.id ?? null;
    const open = Boolean(offered) && !view.rematch.cancelled;
    const joined = open && Object.keys(loadSeats(offered)).length > 0;
    const unjoined = seated && open && !joined && !this.hotseat();
    const who = unjoined ? this.offerer(view, offered) : null;
    const fromOpponent = who === 'opponent';
    const mine = who === 'self';
    button.hidden = !seated || joined || unjoined;
    button.textContent = open ? t('result.acceptRematch') : t('result.offerRematch');
    link.hidden = !open || (seated && !joined && !mine);
    if (open) {
      link.href = `/g/${encodeURIComponent(offered)}`;
      link.textContent = joined ? t('result.goRematch') : t('result.watchRematch');
    }
    offer.hidden = !fromOpponent;
    offerText.textContent = t('rematch.offered');
    status.textContent = mine ? t('rematch.offeredByYou') : this.statusText(view, seated);
    if (fromOpponent && this.offerSeen !== offered) {
      this.offerSeen = offered;
      this.onOffer();
    }
  }

  // Who made the open offer of rematch game `offered`, which this device
  // holds no seat of: 'self' (from another device, or storage since
  // cleared), 'opponent', or 'pending' while its public view is read. The
  // offerer took a seat there, of the other colour (a rematch swaps them).
  offerer(view, offered) {
    const known = this.offerers.get(offered);
    if (known) return known;
    this.offerers.set(offered, 'pending');
    const other = view.viewer === 'black' ? 'white' : 'black';
    api.view(offered, null).then((rematch) => {
      const self = rematch.seats?.[other]?.taken && !rematch.seats?.[view.viewer]?.taken;
      this.offerers.set(offered, self ? 'self' : 'opponent');
    }, () => this.offerers.set(offered, 'opponent')).then(() => this.render(this.getView()));
    return 'pending';
  }

  // What became of an ended offer, said to the players of this page.
  statusText(view, seated) {
    const rematch = view.rematch;
    if (!seated || this.hotseat() || !rematch?.cancelled) return '';
    if (this.declinedHere.has(rematch.id)) return t('rematch.declinedHere');
    return this.offerSeen === rematch.id ? t('rematch.withdrawnByOpponent') : '';
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

  async decline() {
    const id = this.getView().rematch?.id;
    const token = Object.values(this.playingSeats())[0];
    if (!id || !token) return;
    this.el.decline.disabled = true;
    try {
      await api.rematch(this.gameId, token, 'decline');
      this.declinedHere.add(id);
    } catch (error) {
      if (error.code !== 'no_rematch') this.onError(errorMessage(error));
    }
    this.el.decline.disabled = false;
    await this.refresh();
    this.el.button.focus();
  }

  async take() {
    this.el.button.disabled = true;
    this.el.accept.disabled = true;
    const seats = this.playingSeats();
    const colors = Object.keys(seats);
    const { game, rematch } = this.getView();
    const offeredHere = !rematch || rematch.cancelled;
    try {
      let target = null;
      for (const color of colors) {
        if (target && colors.every((wanted) => loadSeats(target)[wanted])) break;
        const answer = await api.rematch(this.gameId, seats[color], offeredHere ? 'offer' : 'accept');
        target = answer.game?.id ?? target;
        const granted = answer.seats ?? (answer.token ? [{ color: answer.color, token: answer.token }] : []);
        for (const seat of granted) saveSeat(target, seat.color, seat.token);
        const offer = offeredHere && game.mode === 'online';
        saveGameSummary(target, {
          mode: game.mode, size: game.settings.size,
          ...(offer ? { rematchOffered: true, rematchOf: this.gameId, rematchColor: color } : {}),
        });
      }
      location.assign(`/g/${encodeURIComponent(target)}`);
    } catch (error) {
      this.onError(errorMessage(error));
      this.el.button.disabled = false;
      this.el.accept.disabled = false;
      await this.refresh();
    }
  }
}
