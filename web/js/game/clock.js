// The game page's players' bar: each seat's name (its colour when it has
// none; as text, cut with an ellipsis when long, the whole name in its
// title), both sides' remaining time, ticking, with a visual and audible
// warning in the last seconds and in byo-yomi, and, while the game is on,
// each player's "disconnected" badge.
//
// The server's clock is the only authority (docs/API.md, "clock"): every
// view carries a snapshot taken at the server's now_ms. The page never keeps
// time itself; it shows that snapshot minus the time elapsed on this device
// since the view arrived (performance.now(), which system clock changes do
// not move), and replaces it with each new view. When a side reaches zero
// the page only shows 0:00: the timeout comes from the server.
//
// The warning beeps are synthesised with Web Audio (no sound file), only for
// the viewer's own clock, once per second in the last ten seconds of its
// main time or of each byo-yomi period, and never when sounds are muted.

import { t } from '../lib/i18n.js';
import { formatClock } from '../lib/time-format.js';
import { getPref } from '../lib/storage.js';
import { seatName, seatNamed } from '../lib/names.js';

const TICK_MS = 200;
const WARN_MS = 10000;
const COLORS = ['black', 'white'];

// One side as of `elapsed` ms after the snapshot (only the running side
// moves): {main, periods, period, total} in ms, periods null unless byo-yomi;
// total is the time until that side loses on time. (My games reads it too.)
export function sideAt(side, tc, elapsed) {
  const main = side.main_ms - elapsed;
  if (tc.type !== 'byoyomi') return { main: Math.max(0, main), periods: null, period: null, total: Math.max(0, main) };
  const length = tc.period * 1000;
  if (main > 0) return { main, periods: side.periods, period: side.period_ms, total: main + side.periods * length };
  let periods = side.periods;
  let period = side.period_ms + main;
  while (period <= 0 && periods > 0) {
    periods -= 1;
    period += length;
  }
  if (periods <= 0) return { main: 0, periods: 0, period: 0, total: 0 };
  return { main: 0, periods, period, total: period + (periods - 1) * length };
}

let audio = null;

function beep(high) {
  if (getPref('muted', false)) return;
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = high ? 1320 : 880;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.09);
  } catch {
    // No audio on this device: the visual warning remains.
  }
}

export class GameClocks {
  // onTick(): called on every tick (the page re-checks what depends on time,
  // such as whether a claim is allowed yet).
  constructor(container, { onTick = () => {} } = {}) {
    this.container = container;
    this.onTick = onTick;
    this.view = null;
    this.receivedAt = 0;
    this.perspective = null;
    this.timer = null;
    this.lastBeep = null;
    this.rows = {};
    this.announcer = document.createElement('p');
    this.announcer.className = 'visually-hidden';
    this.announcer.setAttribute('aria-live', 'polite');
    for (const color of COLORS) this.rows[color] = this.buildRow(color);
    container.replaceChildren(this.rows.black.row, this.rows.white.row, this.announcer);
  }

  buildRow(color) {
    const row = document.createElement('div');
    row.className = 'clock';
    row.dataset.color = color;
    const stone = document.createElement('span');
    stone.className = 'clock-stone';
    stone.setAttribute('aria-hidden', 'true');
    const name = document.createElement('span');
    name.className = 'clock-name';
    // The colour of a named seat, for screen readers (the stone shows it).
    const colorText = document.createElement('span');
    colorText.className = 'visually-hidden';
    const badge = document.createElement('span');
    badge.className = 'badge offline';
    const time = document.createElement('span');
    time.className = 'clock-time';
    time.setAttribute('role', 'timer');
    const detail = document.createElement('span');
    detail.className = 'clock-detail';
    row.append(stone, name, colorText, badge, time, detail);
    return { row, name, colorText, badge, time, detail };
  }

  // view: the newest view; perspective: the viewer's colour when the page is
  // a single player's (the warnings are theirs), else null.
  update(view, { perspective = null } = {}) {
    if (view !== this.view) {
      this.view = view;
      this.receivedAt = performance.now();
    }
    this.perspective = perspective;
    const clock = view.clock;
    const timed = Boolean(clock?.black);
    this.container.classList.toggle('untimed', !timed);
    this.render();
    // An untimed online game shows the bar for the players' names and
    // presence, all game long: a bar that came and went with a badge would
    // move the board under the player's pointer. A computer game shows it
    // too: the computer, with its level, is the player's opponent.
    // After the end of an untimed game the result says who played and the
    // bar gives its room to the replay.
    const presence = view.game.mode !== 'hotseat' && !view.over;
    this.container.hidden = !clock || (!timed && !presence);
    const ticking = Boolean(clock?.running) && !view.over;
    if (ticking && !this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
    if (!ticking && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  elapsed() {
    return performance.now() - this.receivedAt;
  }

  // The server's time now, as well as this page can tell.
  serverNow() {
    return this.view?.clock ? this.view.clock.now_ms + this.elapsed() : null;
  }

  // May the viewer claim the game now (docs/API.md, "Abandoned games")?
  claimable() {
    const clock = this.view?.clock;
    if (!clock || clock.claim_at_ms === null || this.view.over || !this.perspective) return false;
    return clock.running !== this.perspective && this.serverNow() >= clock.claim_at_ms;
  }

  tick() {
    this.render();
    this.onTick();
  }

  render() {
    const view = this.view;
    if (!view?.clock) return;
    for (const color of COLORS) this.renderSide(color);
  }

  renderSide(color) {
    const { clock, game, seats } = this.view;
    const parts = this.rows[color];
    const running = clock.running === color && !this.view.over;
    const name = seatName(this.view, color);
    const named = seatNamed(this.view, color);
    parts.name.textContent = name;
    parts.name.title = named ? t('names.seat', { name, color: t(`color.${color}`) }) : '';
    parts.colorText.textContent = named ? ` (${t(`color.${color}`)})` : '';
    parts.row.dataset.running = String(running);
    const seat = seats?.[color];
    const away = !this.view.over && game.mode === 'online' && seat?.taken && !seat.computer && !seat.connected
      && color !== this.perspective;
    parts.badge.textContent = t('clock.disconnected');
    parts.badge.hidden = !away;
    if (!clock[color]) {
      parts.time.textContent = '';
      parts.detail.textContent = '';
      parts.row.dataset.warning = 'false';
      return;
    }
    const now = sideAt(clock[color], game.time_control, running ? this.elapsed() : 0);
    const inByoyomi = now.periods !== null && now.main === 0 && now.periods > 0;
    const left = inByoyomi ? now.period : now.total;
    const warning = running && left <= WARN_MS;
    parts.time.textContent = formatClock(inByoyomi ? now.period : now.main);
    parts.detail.textContent = this.detailText(now, inByoyomi);
    parts.row.dataset.byoyomi = String(inByoyomi);
    parts.row.dataset.warning = String(warning);
    if (running && color === this.perspective) this.warn(warning, left, inByoyomi);
  }

  detailText(now, inByoyomi) {
    if (now.periods === null) return '';
    const period = formatClock(this.view.game.time_control.period * 1000);
    if (inByoyomi) return t('clock.periodsLeft', { count: now.periods });
    return t('clock.byoyomiAfter', { periods: now.periods, period });
  }

  // Own clock only: one beep a second in the warning window (higher for the
  // last three), and one spoken notice when the window opens.
  warn(warning, left, inByoyomi) {
    if (!warning) {
      this.lastBeep = null;
      return;
    }
    const second = Math.ceil(left / 1000);
    if (this.lastBeep === null) {
      this.announcer.textContent = inByoyomi ? t('clock.byoyomiWarning', { count: second }) : t('clock.lowWarning', { count: second });
    }
    if (second !== this.lastBeep && second > 0) beep(second <= 3);
    this.lastBeep = second;
  }
}
