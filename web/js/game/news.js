// What the referee just said, for the strip next to the board, and the
// points a recent capture emptied, for the markers on it. Both are pure
// functions of one viewer's view: they read only the events that view
// carries (docs/API.md "Read my view"), so they can tell nothing the log
// does not, and after a reload they show the same as before it.

import { t } from '../lib/i18n.js';
import { isPlayer, opponentOf } from './game-state.js';
import { describeEvent } from './referee-log.js';

const colorName = (color) => t(`color.${color}`);

function latestEvent(view) {
  const events = view.events ?? [];
  return events.length ? events[events.length - 1] : null;
}

function captureCount(event) {
  return event.capture_count ?? event.captured?.length ?? 0;
}

// A move told to its victim: "Black captured your stone at D5".
function capturedYours(event) {
  const count = captureCount(event);
  const color = colorName(event.color);
  const sentence = event.captured?.length
    ? t('news.capturedYours', { color, count, points: event.captured.join(' ') })
    : t('news.capturedYoursCount', { color, count });
  return event.atari ? `${sentence} ${t(`log.atari.${event.color}`)}` : sentence;
}

// A move of the viewer's own that captured: "You captured 2 stones: D5 E5."
function capturedTheirs(event) {
  const count = captureCount(event);
  return event.captured?.length
    ? t('news.youCaptured', { count, points: event.captured.join(' ') })
    : t('news.youCapturedCount', { count });
}

// The opponent's illegal tries: each bumped into one of the viewer's
// stones or a forbidden point, the most telling news of the game.
function theirIllegal(viewer, count) {
  return { text: t('news.theirIllegal', { color: colorName(opponentOf(viewer)), count }), kind: 'info' };
}

// The index of the viewer's latest move or pass, or -1.
function lastOwnTurnEnd(events, viewer) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.color === viewer && (event.type === 'move' || event.type === 'pass')) return i;
  }
  return -1;
}

// The sentences of one player's round: their own latest move when it
// captured, then everything since (the opponent's illegal tries counted in
// one sentence, since a computer makes them in a burst; the opponent's move
// or pass; the viewer's own latest illegal try of this turn). The opponent
// answers within a blink, so a news line of the latest event alone would
// never show what happened in between.
function roundNews(view, viewer) {
  const events = view.events ?? [];
  const from = lastOwnTurnEnd(events, viewer);
  const items = [];
  const own = events[from];
  if (own && own.type === 'move' && captureCount(own) > 0) items.push({ text: capturedTheirs(own), kind: 'good' });
  let tries = 0;
  let ownIllegal = null;
  for (const event of events.slice(from + 1)) {
    if (event.type === 'illegal') {
      if (event.color === viewer) ownIllegal = event;
      else tries += 1;
      continue;
    }
    if (tries > 0) items.push(theirIllegal(viewer, tries));
    tries = 0;
    if (event.color !== viewer && event.type === 'move' && captureCount(event) > 0) {
      items.push({ text: capturedYours(event), kind: 'bad' });
    } else if (!view.over && event.type === 'pass' && view.passes === 1) {
      items.push({ text: t('news.passEnds', { color: colorName(event.color) }), kind: 'end' });
    } else {
      items.push({ text: describeEvent(event), kind: 'plain' });
    }
  }
  if (tries > 0) items.push(theirIllegal(viewer, tries));
  if (ownIllegal?.vertex) {
    const reason = ownIllegal.reason ? t(`reason.${ownIllegal.reason}`) : null;
    const text = reason ? t('news.yourIllegalReason', { vertex: ownIllegal.vertex, reason }) : t('game.illegal', { vertex: ownIllegal.vertex });
    items.push({ text, kind: 'bad' });
  }
  return items;
}

const KIND_ORDER = ['bad', 'end', 'good', 'info', 'plain'];

// {text, kind, items} of the news as this viewer should read it: for a
// player the whole round since their own latest move or pass (items, each
// {text, kind}), for a spectator the latest announcement. kind is the most
// urgent of the items': 'bad' (you lost stones, your try was illegal),
// 'end' (a pass that the next pass turns into the end), 'good' (your move
// captured), 'info' (the opponent's illegal tries) or 'plain'.
export function newsOf(view) {
  const event = latestEvent(view);
  if (!event) return { text: '', kind: 'plain', items: [] };
  const viewer = isPlayer(view) ? view.viewer : null;
  let items = viewer ? roundNews(view, viewer) : [];
  if (items.length === 0) {
    const ends = !view.over && event.type === 'pass' && view.passes === 1;
    items = [ends ? { text: t('news.passEnds', { color: colorName(event.color) }), kind: 'end' } : { text: describeEvent(event), kind: 'plain' }];
  }
  const kind = KIND_ORDER.find((candidate) => items.some((item) => item.kind === candidate));
  return { text: items.map((item) => item.text).join(' '), kind, items };
}

// The points emptied by captures this viewer was told of since their own
// latest move (that move's captures included), so a capture stays marked
// until the viewer moves again; a spectator sees those of the last two moves.
// {lost: points where the viewer's stones were taken (or any, for a
// spectator), taken: points the viewer's own move emptied}.
export function recentCaptures(view) {
  if (view.over) return { lost: [], taken: [] };
  const events = view.events ?? [];
  const viewer = isPlayer(view) ? view.viewer : null;
  let from = 0;
  let movesBack = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.type !== 'move') continue;
    movesBack += 1;
    if ((viewer && event.color === viewer) || (!viewer && movesBack === 2)) {
      from = i;
      break;
    }
  }
  const lost = [];
  const taken = [];
  for (const event of events.slice(from)) {
    if (event.type !== 'move') continue;
    (viewer && event.color === viewer ? taken : lost).push(...(event.captured ?? []));
  }
  return { lost, taken };
}
