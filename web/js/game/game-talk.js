// The game page's table talk and cancelling, kept apart from game.js so the
// page's layout can change without touching them: game.js hands over each
// view and each WebSocket message that is not an update, and this module
// owns the chat panel (talk.js, a <details id="talk-panel"> it puts in the
// page's side column under the referee's log; folded at the column's end
// in hot-seat and computer games, whose canned phrases nobody answers), the
// "Cancel the game" button shown while nobody has taken the other seat,
// and the page a cancelled game shows instead of a board.

import { t } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { errorMessage } from '../lib/page.js';
import { confirmAction } from '../lib/dialog.js';
import { TablePanel } from './talk.js';

const $ = (id) => document.getElementById(id);

// What a cancelled game's link shows (the seat, invite and watch links
// alike): a heading, why, and a way to start another game. wording
// ({heading, text, back: {href, text}}) replaces the words, for a rematch
// whose offer was withdrawn or declined.
export function showCancelled(wording = null) {
  if ($('cancelled-page')) return;
  const heading = document.createElement('h1');
  heading.textContent = wording?.heading ?? t('cancel.heading');
  const text = document.createElement('p');
  text.textContent = wording?.text ?? t('cancel.text');
  const link = document.createElement('a');
  link.className = 'button primary';
  link.href = '/';
  link.textContent = t('cancel.startNew');
  const actions = document.createElement('p');
  actions.className = 'actions';
  if (wording?.back) {
    const back = document.createElement('a');
    back.className = 'button';
    back.id = 'cancelled-back';
    back.href = wording.back.href;
    back.textContent = wording.back.text;
    actions.append(back);
  }
  actions.append(link);
  const section = document.createElement('section');
  section.id = 'cancelled-page';
  section.className = 'card cancelled';
  section.append(heading, text, actions);
  $('loading').hidden = true;
  $('game-area').hidden = true;
  $('main').append(section);
}

export class GameTalk {
  // seat(): {color, token} of the seat the page acts for, or null.
  // For a rematch this device offered, withdraw() (true once done) takes
  // the place of cancelling, and cancelledWording() words the end.
  // waitForFeed: the page opens a live feed and calls feedStarted() once
  // it is up (talk.js reads the chat then). quiet: nobody answers at this
  // table (hot-seat, the computer), so the panel starts folded at the end.
  constructor({ gameId, seat, hotseat, quiet = false, onNotice, withdraw = null, cancelledWording = () => null, waitForFeed = false }) {
    Object.assign(this, { gameId, seat, onNotice, withdraw, cancelledWording });
    const details = document.createElement('details');
    details.id = 'talk-panel';
    details.className = 'panel fold';
    if (quiet) document.querySelector('.side-column')?.append(details);
    else $('log-panel')?.after(details);
    this.panel = new TablePanel(details, { gameId, seat, hotseat, waitForFeed });
    if (quiet) details.open = false;
    this.cancelButton = document.createElement('button');
    this.cancelButton.type = 'button';
    this.cancelButton.id = 'cancel-game';
    this.cancelButton.className = 'danger';
    this.cancelButton.addEventListener('click', () => this.cancel());
    $('waiting')?.append(this.cancelButton);
    this.view = null;
  }

  onView(view) {
    this.view = view;
    if (view.cancelled) {
      showCancelled(this.cancelledWording());
      return;
    }
    this.panel.onView(view);
    this.cancelButton.textContent = t(this.withdraw ? 'rematch.withdraw' : 'cancel.button');
    this.cancelButton.hidden = !this.cancellable(view);
  }

  onFrame(message) {
    this.panel.onFrame(message);
  }

  // After a reconnect: what was said meanwhile.
  resync() {
    this.panel.refresh();
  }

  feedStarted() {
    this.panel.feedStarted();
  }

  cancellable(view) {
    const player = view.viewer === 'black' || view.viewer === 'white';
    const other = view.viewer === 'black' ? 'white' : 'black';
    return player && 'cancelled' in view && view.game.mode === 'online' && !view.over && !view.seats?.[other]?.taken;
  }

  async cancel() {
    const seat = this.seat();
    if (!seat?.token || !this.view || !this.cancellable(this.view)) return;
    if (this.withdraw) {
      if (await this.withdraw()) showCancelled(this.cancelledWording());
      return;
    }
    if (!(await confirmAction(t('cancel.confirm'), t('cancel.button')))) return;
    try {
      await api.cancel(this.gameId, seat.token);
      showCancelled();
    } catch (error) {
      this.onNotice(errorMessage(error));
    }
  }
}
