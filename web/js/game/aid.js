// The deduction aid on the game page: a faint heat map of where the
// opponent's stones probably are, from the server's estimate for this seat
// (GET .../aid, made from the seat's own observations only), and a toggle.
//
// While the game is on it is the active seat's own map for the position
// shown, and only when the table has the aid on. Each map names its seat
// and seq, and heatFor() hands the board a map only for the very view being
// drawn, so a map never outlives its position or reaches another seat:
// forget() (the hot-seat curtain) drops it and makes any answer still on
// its way land nowhere. After a computer game the replay can show what the
// computer believed: at a frame of the computer's move, the map of the
// position it chose from; at any other frame, the map of that position.
//
// The toggle is a button (aria-pressed), so the keyboard reaches it like
// any other; H also toggles from anywhere on the page. Under it a line
// names the likeliest points, for those who do not see the tints, and says
// what the tints mean: only points of AID_THRESHOLD percent or more are
// tinted, darker the likelier. The live
// map's switch is remembered; the computer's belief after the end starts
// off on every visit, so the final position and its territory are seen
// plain first.

import { t, formatNumber } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { getPref, setPref } from '../lib/storage.js';

const SHOWN_PREF = 'aidShown';
const TOP_POINTS = 3;
// Points below this chance are not tinted: early in a game every point has
// a few percent, and a board tinted all over tells nothing.
export const AID_THRESHOLD = 10;

// The points worth a tint: {vertex: percent} at or above the threshold.
function worthShowing(points) {
  return Object.fromEntries(Object.entries(points).filter(([, percent]) => percent >= AID_THRESHOLD));
}

function isSeat(view) {
  return view && (view.viewer === 'black' || view.viewer === 'white');
}

function computerColor(view) {
  for (const color of ['black', 'white']) if (view?.seats?.[color]?.computer) return color;
  return null;
}

export class DeductionAid {
  constructor({ bar, toggle, hint }, { gameId, onChange }) {
    this.el = { bar, toggle, hint };
    this.gameId = gameId;
    this.onChange = onChange;
    this.liveShown = Boolean(getPref(SHOWN_PREF, true));
    this.replayShown = false;
    this.map = null;       // {color, seq, points}
    this.wanted = null;    // the key of the map asked for last
    this.generation = 0;   // bumped by forget(): older answers are dropped
    this.failed = false;
    this.mode = 'none';    // 'live', 'replay' or 'none'
    this.replaySeq = null;
    toggle.addEventListener('click', () => this.toggle());
    document.addEventListener('keydown', (event) => {
      const typing = event.target.closest?.('input, select, textarea, [contenteditable]');
      if (event.code !== 'KeyH' || typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (this.mode === 'none' || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      this.toggle();
    });
  }

  // Whether the map of the current mode is switched on.
  get shown() {
    return this.mode === 'replay' ? this.replayShown : this.liveShown;
  }

  toggle() {
    if (this.mode === 'replay') {
      this.replayShown = !this.replayShown;
    } else {
      this.liveShown = !this.liveShown;
      setPref(SHOWN_PREF, this.liveShown);
    }
    this.reflectSwitch();
    this.onChange();
  }

  // The button and the line under it follow the switch at once, whichever
  // way the page redraws (the replay redraws only the board).
  reflectSwitch() {
    this.el.toggle.setAttribute('aria-pressed', String(this.shown));
    if (!this.shown) this.el.hint.textContent = '';
  }

  // Drops the map and anything still being fetched (the curtain falls).
  forget() {
    this.generation++;
    this.map = null;
    this.wanted = null;
    this.mode = 'none';
    this.el.hint.textContent = '';
    this.el.bar.hidden = true;
  }

  // The points to tint for `view` as the live board shows it, or null.
  heatFor(view) {
    if (this.mode !== 'live' || !this.shown || !this.map) return null;
    return this.map.color === view.viewer && this.map.seq === view.seq ? worthShowing(this.map.points) : null;
  }

  // The points to tint on replay frame `seq` (0: before the first event),
  // or null; asks for the map when it is not there yet.
  heatForReplay(view, seq) {
    const computer = computerColor(view);
    if (this.mode !== 'replay' || !this.shown || !computer) return null;
    const event = (view.events ?? []).find((e) => e.seq === seq);
    const at = Math.max(0, Math.min(event && event.color === computer && event.type === 'move' ? seq - 1 : seq, view.seq - 1));
    this.replaySeq = at;
    this.fetch(computer, at, null, `?color=${computer}&seq=${at}`);
    this.describe(computer, at);
    return this.map && this.map.color === computer && this.map.seq === at ? worthShowing(this.map.points) : null;
  }

  // Decides what the page offers for `view` (token: the active seat's)
  // and asks for the live map when it is missing. Call on every render.
  update(view, token) {
    const live = Boolean(view && !view.over && view.game.deduction_aid && isSeat(view) && token);
    const replay = Boolean(view && view.over && computerColor(view));
    this.mode = live ? 'live' : replay ? 'replay' : 'none';
    this.el.bar.hidden = this.mode === 'none';
    if (this.mode === 'none') return;
    this.el.toggle.textContent = t(live ? 'aid.toggle' : 'aid.replayToggle');
    this.reflectSwitch();
    if (live && this.shown) this.fetch(view.viewer, view.seq, token, '');
    this.describe(live ? view.viewer : computerColor(view), live ? view.seq : this.replaySeq);
  }

  fetch(color, seq, token, query) {
    const key = `${color}:${seq}`;
    if (this.wanted === key) return;
    this.wanted = key;
    this.failed = false;
    const generation = this.generation;
    api.aid(this.gameId, token, query).then((answer) => {
      if (generation !== this.generation || this.wanted !== key) return;
      this.map = { color: answer.color, seq: answer.seq, points: answer.points ?? {} };
      this.onChange();
    }, () => {
      if (generation !== this.generation || this.wanted !== key) return;
      this.failed = true;
      this.onChange();
    });
  }

  // The line under the toggle: the likeliest points, or why there is none.
  describe(color, seq) {
    const hint = this.el.hint;
    const map = this.map && this.map.color === color && this.map.seq === seq ? this.map : null;
    let text = '';
    if (!this.shown) text = '';
    else if (this.failed) text = t('aid.error');
    else if (!map) text = t('aid.loading');
    else {
      const top = Object.entries(map.points).sort((a, b) => b[1] - a[1]).slice(0, TOP_POINTS);
      const list = top.map(([vertex, percent]) => t('aid.point', { vertex, percent: formatNumber(percent) }));
      text = top.length ? t(this.mode === 'replay' ? 'aid.replayTop' : 'aid.top', { points: list.join(', ') }) : t('aid.none');
      if (top.length) text += ` ${t('aid.legend', { percent: formatNumber(AID_THRESHOLD) })}`;
    }
    if (hint.textContent !== text) hint.textContent = text;
  }
}
