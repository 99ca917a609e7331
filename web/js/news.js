// What the referee just said, for the strip next to the board, and the
// points a recent capture emptied, for the markers on it. Both are pure
// functions of one viewer's view: they read only the events that view
// carries (docs/API.md "Read my view"), so they can tell nothing the log
// does not, and after a reload they show the same as before it.

import { t } from './i18n.js';
import { isPlayer } from './game-state.js';
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

// {text, kind} of the latest announcement as this viewer should read it;
// kind is 'bad' (you lost stones, your try was illegal), 'end' (a pass that
// the next pass turns into the end) or 'plain'.
export function newsOf(view) {
  const event = latestEvent(view);
  if (!event) return { text: '', kind: 'plain' };
  const viewer = isPlayer(view) ? view.viewer : null;
  const theirs = viewer && event.color !== viewer;
  if (!view.over && event.type === 'pass' && view.passes === 1) {
    return { text: t('news.passEnds', { color: colorName(event.color) }), kind: 'end' };
  }
  if (theirs && event.type === 'move' && captureCount(event) > 0) return { text: capturedYours(event), kind: 'bad' };
  if (viewer && !theirs && event.type === 'illegal' && event.vertex) {
    const reason = event.reason ? t(`reason.${event.reason}`) : null;
    const text = reason ? t('news.yourIllegalReason', { vertex: event.vertex, reason }) : t('game.illegal', { vertex: event.vertex });
    return { text, kind: 'bad' };
  }
  return { text: describeEvent(event), kind: 'plain' };
}

// The points emptied by captures this viewer was told of since their own
// latest move (that move's captures included), so a capture stays marked
// until the viewer moves again; a spectator sees those of the last two moves.
export function recentlyCaptured(view) {
  if (view.over) return [];
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
  return events.slice(from).flatMap((event) => (event.type === 'move' ? event.captured ?? [] : []));
}
