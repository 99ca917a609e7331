// Short cues under one mute switch (remembered on this device): "your
// turn" and "captured" are files made by static/sounds/make-sounds.sh; the
// click of a stone placed and the dull buzz of an illegal try are two tones
// made with the Web Audio API, too short to be worth a file. Browsers refuse
// to play sound before the user has interacted with the page; that refusal
// is expected and ignored.

import { getPref, setPref } from './storage.js';

const FILES = { turn: '/static/sounds/turn.wav', capture: '/static/sounds/capture.wav' };
// [frequency Hz, duration s, wave] of the synthesised cues.
const TONES = { stone: [880, 0.06, 'triangle'], illegal: [150, 0.18, 'square'] };

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
    if (this.muted) return;
    if (TONES[name]) {
      this.tone(...TONES[name]);
      return;
    }
    if (!FILES[name]) return;
    this.audio[name] ??= new Audio(FILES[name]);
    const clip = this.audio[name];
    clip.currentTime = 0;
    clip.play().catch(() => {});
  }

  tone(frequency, seconds, wave) {
    try {
      this.context ??= new AudioContext();
      const oscillator = this.context.createOscillator();
      const gain = this.context.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      const now = this.context.currentTime;
      gain.gain.setValueAtTime(0.2, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + seconds);
      oscillator.connect(gain).connect(this.context.destination);
      oscillator.start(now);
      oscillator.stop(now + seconds);
    } catch {
      // No audio output: nothing to play on.
    }
  }
}
