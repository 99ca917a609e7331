// How the game page calls a player back: a sound when it becomes their turn
// and when stones are captured (the mute switch is remembered), and a
// browser notification when it becomes their turn while the tab is hidden.
// Notification permission is asked for only when the player ticks the box.

import { t } from './i18n.js';
import { getPref, setPref } from './storage.js';
import { Sounds } from './sound.js';

const canNotify = () => 'Notification' in window;

export class TurnAlerts {
  constructor({ soundBox, notifyBox, tag, onDenied }) {
    this.sounds = new Sounds();
    this.tag = tag;
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
    });
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
