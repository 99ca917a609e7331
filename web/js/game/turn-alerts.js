// How the game page calls a player back: a sound when it becomes their turn
// and when stones are captured (the mute switch is remembered), and a
// browser notification when it becomes their turn while the tab is hidden.
// Notification permission is asked for only when the player ticks the box.
// Ticking it also subscribes this seat to Web Push (push.js), so the
// notices come when no tab of the game is open; unticking unsubscribes.

import { t } from '../lib/i18n.js';
import { getPref, setPref } from '../lib/storage.js';
import { Sounds } from '../lib/sound.js';

const canNotify = () => 'Notification' in window;

export class TurnAlerts {
  constructor({ soundBox, notifyBox, tag, onDenied, push = null, onPushFailed = () => {} }) {
    this.sounds = new Sounds();
    this.tag = tag;
    this.push = push;
    this.onPushFailed = onPushFailed;
    soundBox.checked = !this.sounds.muted;
    soundBox.addEventListener('change', () => this.sounds.setMuted(!soundBox.checked));
    notifyBox.checked = Boolean(getPref('notify', false)) && canNotify() && Notification.permission === 'granted';
    notifyBox.addEventListener('change', async () => {
      if (notifyBox.checked && Notification.permission !== 'granted') {
        const permission = await Notification.requestPermission();
        if (permission !== 'granted') {
          notifyBox.checked = false;
          onDenied();
        }
      }
      setPref('notify', notifyBox.checked);
      this.setPush(notifyBox.checked);
    });
  }

  // Hands this seat's push subscription to the server (on) or takes it
  // back; the page calls it again once its seat is known, to renew.
  setPush(on) {
    if (!this.push) return;
    this.push.set(on && Notification.permission === 'granted').catch(() => this.onPushFailed());
  }

  renewPush() {
    if (getPref('notify', false) && canNotify() && Notification.permission === 'granted') this.setPush(true);
  }

  static supported() {
    return canNotify();
  }

  rematchOffered() {
    this.sounds.play('turn');
  }

  stonePlaced() {
    this.sounds.play('stone');
  }

  illegal() {
    this.sounds.play('illegal');
  }

  captured() {
    this.sounds.play('capture');
  }

  yourTurn() {
    this.sounds.play('turn');
    if (!document.hidden || !getPref('notify', false) || !canNotify() || Notification.permission !== 'granted') return;
    const note = new Notification(t('notify.title'), { body: t('notify.body'), icon: '/static/favicon.svg', tag: this.tag });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}
