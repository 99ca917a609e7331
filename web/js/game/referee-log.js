// The referee's announcements as plain sentences, newest first ("White tried
// an illegal move.", "Black captured 3 stones: C3 C4 D4."). Screen readers
// hear each announcement from the news strip by the board (news.js), so the
// list itself is not a live region. After the game each line jumps the
// replay to that moment.

import { t } from '../lib/i18n.js';
import { opponentOf } from './game-state.js';

function colorName(color) {
  return t(`color.${color}`);
}

function describeMove(event) {
  const color = colorName(event.color);
  const sentences = [event.vertex ? t('log.move.known', { color, vertex: event.vertex }) : t('log.move.unknown', { color })];
  const count = event.capture_count ?? event.captured?.length ?? 0;
  if (event.captured && event.captured.length > 0) {
    sentences.push(t('log.capturedPoints', { color, count, points: event.captured.join(' ') }));
  } else if (count > 0) {
    sentences.push(t('log.capturedCount', { color, count }));
  }
  if (event.atari) sentences.push(t(`log.atari.${event.color}`, { color, opponent: colorName(opponentOf(event.color)) }));
  return sentences.join(' ');
}

function describeIllegal(event) {
  const color = colorName(event.color);
  if (!event.vertex) return t('log.illegal.unknown', { color });
  if (event.reason) return t('log.illegal.reason', { color, vertex: event.vertex, reason: t(`reason.${event.reason}`) });
  return t('log.illegal.known', { color, vertex: event.vertex });
}

// One event as sentences in the current language.
export function describeEvent(event) {
  switch (event.type) {
    case 'move': return describeMove(event);
    case 'illegal': return describeIllegal(event);
    case 'pass': return t('log.pass', { color: colorName(event.color) });
    case 'resign': return t('log.resign', { color: colorName(event.color) });
    case 'timeout': return t('log.timeout', { color: colorName(event.color) });
    case 'forfeit': return t('log.forfeit', { color: colorName(event.color) });
    default: return t('log.unknown', { color: colorName(event.color) });
  }
}

export class RefereeLog {
  constructor(listElement, emptyElement) {
    this.list = listElement;
    this.empty = emptyElement;
    this.shownSeq = 0;
    this.onJump = null;
    this.events = [];
  }

  // After the game each line is a button that jumps the replay to it
  // (onJump(seq)); null makes them plain text again.
  setJump(onJump) {
    if (this.onJump === onJump) return;
    this.onJump = onJump;
    this.rebuild(this.events);
  }

  // Highlights the line of the replay's current event.
  markCurrent(seq) {
    for (const item of this.list.querySelectorAll('.log-item.current')) {
      item.classList.remove('current');
      item.querySelector('.log-jump')?.removeAttribute('aria-current');
    }
    const item = this.list.querySelector(`.log-item[data-seq="${seq}"]`);
    if (!item) return;
    item.classList.add('current');
    item.querySelector('.log-jump')?.setAttribute('aria-current', 'step');
  }

  item(event) {
    const item = document.createElement('li');
    item.className = `log-item log-${event.type} log-${event.color}`;
    item.dataset.seq = String(event.seq);
    const turn = document.createElement('span');
    turn.className = 'log-turn';
    turn.textContent = t('log.turn', { turn: event.turn });
    const text = document.createElement(this.onJump ? 'button' : 'span');
    text.className = this.onJump ? 'log-text log-jump' : 'log-text';
    text.textContent = describeEvent(event);
    if (this.onJump) {
      text.type = 'button';
      text.addEventListener('click', () => this.onJump(event.seq));
    }
    item.append(turn, ' ', text);
    return item;
  }

  // Adds the events newer than those shown, newest at the top.
  add(events) {
    for (const event of events) {
      if (event.seq <= this.shownSeq) continue;
      this.list.prepend(this.item(event));
      this.shownSeq = event.seq;
      this.events.push(event);
    }
    this.empty.hidden = this.list.children.length > 0;
  }

  // Replaces the whole list without making the screen reader read it all.
  rebuild(events) {
    const all = [...events];
    this.clear();
    this.add(all);
  }

  clear() {
    this.list.replaceChildren();
    this.shownSeq = 0;
    this.events = [];
    this.empty.hidden = false;
  }
}
