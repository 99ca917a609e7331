// Two short cues: "your turn" and "captured". The files are made by
// static/sounds/make-sounds.sh. Browsers refuse to play sound before the user
// has interacted with the page; that refusal is expected and ignored. The
// mute switch is remembered on this device.

import { getPref, setPref } from './storage.js';

const FILES = { turn: '/static/sounds/turn.wav', capture: '/static/sounds/capture.wav' };

export class Sounds {
  constructor() {
    this.muted = Boolean(getPref('muted', false));
    this.audio = {};
  }

  setMuted(muted) {
    this.muted = muted;
    setPref('muted', muted);
  }

  play(name) {
    if (this.muted || !FILES[name]) return;
    this.audio[name] ??= new Audio(FILES[name]);
    const clip = this.audio[name];
    clip.currentTime = 0;
    clip.play().catch(() => {});
  }
}
