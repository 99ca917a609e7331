// The replay of a finished game. Once a game is over the server sends every
// event with its vertex, so the positions are rebuilt here by playing the
// events in order: a move adds a stone, its `captured` points are removed.
// Handicap stones are the ones the final view lists plus any black stone
// captured before Black ever played there (found in a first pass).
//
// Each step can be seen as the full board, Black's view or White's view; the
// views show what that player knew then (their stones, public handicap
// stones, their failed attempts in the turn in progress).

import { t } from '../lib/i18n.js';
import { describeEvent } from './referee-log.js';
import { opponentOf } from './game-state.js';

// `found[color]` are the opponent stones that color ran into: an attempt of
// theirs refused because that stone stood there. Every other opponent stone
// was never learned of (until its capture, which removes it anyway).
function simulate(events, initialHandicap, onStep) {
  const stones = { black: new Set(initialHandicap), white: new Set() };
  const handicap = new Set(initialHandicap);
  const missingHandicap = new Set();
  const found = { black: new Set(), white: new Set() };
  let tried = { black: [], white: [] };
  for (const event of events) {
    if (event.type === 'move' && event.vertex) {
      stones[event.color].add(event.vertex);
      const victim = opponentOf(event.color);
      for (const point of event.captured ?? []) {
        if (!stones[victim].has(point) && victim === 'black') missingHandicap.add(point);
        stones[victim].delete(point);
        handicap.delete(point);
        found[event.color].delete(point);
      }
    }
    if (event.type === 'illegal') {
      tried[event.color] = event.vertex ? [...tried[event.color], event.vertex] : tried[event.color];
      if (event.vertex && stones[opponentOf(event.color)].has(event.vertex)) found[event.color].add(event.vertex);
    } else {
      tried = { black: [], white: [] };
    }
    onStep({ stones, handicap, tried, found, event });
  }
  return missingHandicap;
}

function snapshot({ stones, handicap, tried, found, event }) {
  return {
    black: [...stones.black],
    white: [...stones.white],
    handicap: [...handicap],
    tried: { black: [...tried.black], white: [...tried.white] },
    found: { black: [...found.black], white: [...found.white] },
    event,
  };
}

// The opponent stones of frame that `seat` never learned of (handicap
// stones are public, so never among them).
export function unseenIn(frame, seat) {
  const opponent = opponentOf(seat);
  const known = new Set([...frame.found[seat], ...frame.handicap]);
  return frame[opponent].filter((vertex) => !known.has(vertex));
}

// frames[0] is the position before the first event; frames[k] the position
// after the k-th event.
export function buildFrames(view) {
  const events = [...(view.events ?? [])].sort((a, b) => a.seq - b.seq);
  const finalHandicap = view.handicap ?? [];
  const missing = simulate(events, finalHandicap, () => {});
  const initial = [...new Set([...finalHandicap, ...missing])];
  const frames = [snapshot({
    stones: { black: new Set(initial), white: new Set() },
    handicap: new Set(initial),
    tried: { black: [], white: [] },
    found: { black: new Set(), white: new Set() },
    event: null,
  })];
  simulate(events, initial, (state) => frames.push(snapshot(state)));
  return frames;
}

// The board model of one frame seen from `perspective` ('full', 'black' or
// 'white'); `final` adds the territory of the scored end. A seat's view
// shows its own stones, and faintly, marked "unseen", the opponent stones
// it never ran into; the full board marks those that `seat` (the player
// looking, if any) never learned of.
export function frameModel(frame, perspective, { rules, territory, final, seat = null }) {
  const event = frame.event;
  const seesColor = (color) => perspective === 'full' || perspective === color;
  const stones = {
    black: seesColor('black') ? frame.black : frame.handicap,
    white: seesColor('white') ? frame.white : [],
  };
  const unseenFor = perspective === 'full' ? seat : perspective;
  const tried = [...(seesColor('black') ? frame.tried.black : []), ...(seesColor('white') ? frame.tried.white : [])];
  const highlight = [];
  if (event && event.vertex && seesColor(event.color)) highlight.push(event.vertex);
  if (event && event.captured) {
    const victim = opponentOf(event.color);
    const announced = rules !== 'hamburg' || perspective === 'full' || perspective === victim;
    if (announced) highlight.push(...event.captured);
  }
  return {
    viewer: perspective === 'full' ? null : perspective,
    stones,
    unseen: unseenFor ? { color: opponentOf(unseenFor), vertices: unseenIn(frame, unseenFor) } : null,
    handicap: frame.handicap,
    tried,
    highlight,
    territory: final && perspective === 'full' ? territory : null,
  };
}

// Wires the replay controls: perspective radios, slider, step buttons.
export class ReplayControls {
  constructor(elements, onShow) {
    this.el = elements;
    this.onShow = onShow;
    this.frames = [];
    this.context = null;
    this.seat = null;
    this.el.slider.addEventListener('input', () => this.show());
    this.el.first.addEventListener('click', () => this.go(0));
    this.el.previous.addEventListener('click', () => this.go(this.index() - 1));
    this.el.next.addEventListener('click', () => this.go(this.index() + 1));
    this.el.last.addEventListener('click', () => this.go(this.frames.length - 1));
    for (const radio of this.el.perspectives) radio.addEventListener('change', () => this.show());
  }

  load(view) {
    const atEnd = this.frames.length === 0 || this.index() === this.frames.length - 1;
    this.frames = buildFrames(view);
    this.context = { rules: view.game.settings.rules, territory: view.result?.territory ?? null, seat: this.seat };
    this.el.slider.max = String(this.frames.length - 1);
    if (atEnd) this.el.slider.value = String(this.frames.length - 1);
    this.show();
  }

  index() {
    return Number(this.el.slider.value);
  }

  perspective() {
    return this.el.perspectives.find((radio) => radio.checked)?.value ?? 'full';
  }

  // The seat of the player looking (null for a spectator): the full board
  // marks the opponent stones that seat never learned of.
  setSeat(seat) {
    this.seat = seat;
  }

  // The frame index just after the event with this sequence number.
  indexOfSeq(seq) {
    return this.frames.findIndex((frame) => frame.event?.seq === seq);
  }

  go(index) {
    const clamped = Math.max(0, Math.min(this.frames.length - 1, index));
    this.el.slider.value = String(clamped);
    this.show();
  }

  show() {
    if (this.frames.length === 0) return;
    const index = this.index();
    const frame = this.frames[index];
    const total = this.frames.length - 1;
    const final = index === total;
    // Counted like the log ("Move 12"), with the announcement's place among
    // all of them, since illegal tries are steps of the replay too.
    const turn = frame.event?.turn;
    this.el.caption.textContent = frame.event
      ? t('replay.step', { turn, step: index, total, text: describeEvent(frame.event) })
      : t('replay.start', { count: total });
    this.el.slider.setAttribute('aria-valuetext', frame.event ? t('replay.position', { turn, step: index, total }) : this.el.caption.textContent);
    this.el.first.disabled = this.el.previous.disabled = index === 0;
    this.el.next.disabled = this.el.last.disabled = final;
    const model = frameModel(frame, this.perspective(), { ...this.context, final });
    this.onShow(model, { final, index, seq: frame.event?.seq ?? 0, caption: this.el.caption.textContent });
  }

  refresh() {
    if (this.frames.length > 0) this.show();
  }
}
