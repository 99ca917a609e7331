// The game page's views: small functions that draw one part of the page
// from the page's state (page-state.js) and its current view, into the
// page's markup (game.html) and its components (`parts`: board, log,
// clocks, replay, aid, notes, rematch, curtain). They decide nothing and
// change no state but the DOM and what they hand to a component; the
// controller (pages/game.js) changes the state and calls renderGame().
//
// Texts a screen reader hears (the news strip, the cursor's point) are
// rewritten only when their words change, so a redraw is not read again.

import { t, formatNumber } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { loadInviteLink, loadGameSummary } from '../lib/storage.js';
import { opponentOf, isPlayer, isMyTurn, computerToMove } from './game-state.js';
import { activeToken, seated } from './page-state.js';
import { TurnAlerts } from './turn-alerts.js';
import { newsOf, recentCaptures } from './news.js';
import {
  turnBanner, roleTitle, renderStats, renderTableInfo, resultText, renderScore, boardSummary, pointDescription,
} from './game-panels.js';

const $ = (id) => document.getElementById(id);

// What the board draws of a view during the game.
function boardModel(page, parts, view) {
  return {
    viewer: isPlayer(view) ? view.viewer : null,
    stones: view.stones,
    handicap: view.handicap,
    last: view.last_own,
    tried: view.tried,
    rejected: (view.rejected ?? []).map((entry) => entry.vertex),
    ghosts: parts.notes.list(),
    ghostColor: isPlayer(view) ? opponentOf(view.viewer) : 'white',
    preview: page.pendingVertex ?? page.sendingVertex,
    captured: recentCaptures(view).lost,
    taken: recentCaptures(view).taken,
    heat: parts.aid.heatFor(view),
  };
}

// The whole page from the state; nothing while a curtain hides it.
// onJump(seq): what a log line does once the game is over (the replay goes there).
export function renderGame(page, parts, { onJump }) {
  const view = page.views.view;
  if (!view || parts.curtain.up) return;
  const banner = turnBanner(view, { hotseat: page.hotseat });
  $('turn-banner').textContent = banner.text;
  $('turn-banner').dataset.kind = banner.kind;
  $('role-title').textContent = roleTitle(view, { hotseat: page.hotseat });
  renderNews(view);
  renderStats($('stats'), view);
  renderTableInfo($('table-info'), view.game);
  renderWaiting(page, view);
  renderControls(page, parts, view);
  parts.clocks.update(view, { perspective: seated(page) && !page.hotseat ? view.viewer : null });
  renderClaim(page, parts);
  renderResult(page, parts, view, onJump);
  parts.aid.update(view, activeToken(page));
  if (view.over) parts.replay.load(view);
  else parts.board.render(boardModel(page, parts, view));
  $('board-summary').textContent = boardSummary(view, parts.notes.list());
  // The point under the keyboard cursor is described anew when it changed
  // (a stone played there with Enter), not only when the cursor moves.
  if (document.activeElement === $('board')) describeCursor(page, parts, parts.board.cursorVertex());
  document.title = banner.kind === 'yours' && !page.hotseat ? t('game.titleYourTurn') : t('game.title');
}

// The strip under the banner: the referee's news of this viewer's round
// (news.js), each sentence marked with its kind. It is rewritten only when
// its words change, so a screen reader hears each news once.
function renderNews(view) {
  if (view.over) return; // the replay's step is told there (showReplayStep)
  const news = newsOf(view);
  const strip = $('news');
  if (strip.textContent !== news.text) {
    const parts = news.items.map((item) => {
      const span = document.createElement('span');
      span.className = 'news-item';
      span.dataset.kind = item.kind;
      span.textContent = item.text;
      return span;
    });
    strip.replaceChildren(...parts.flatMap((part, i) => (i === 0 ? [part] : [' ', part])));
  }
  strip.dataset.kind = news.kind;
  strip.title = news.text;
}

function renderControls(page, parts, view) {
  const isSeated = seated(page);
  const { busy, ghostMode, pendingVertex, hotseat } = page;
  const myTurn = isMyTurn(view) && isSeated;
  parts.board.setInteractive(isSeated && !view.over);
  $('board').setAttribute('aria-label', t('game.boardLabel', { size: view.game.settings.size }));
  $('board-help').textContent = isSeated && !view.over ? t('game.keyboardHelp') : '';
  $('pass').disabled = !myTurn || busy;
  $('resign').disabled = !isSeated || view.over || busy;
  $('play-buttons').hidden = !isSeated || view.over;
  $('notes-panel').hidden = !isSeated || view.over;
  $('ghost-mode').setAttribute('aria-pressed', String(ghostMode));
  $('board').classList.toggle('ghost-mode', ghostMode);
  $('board').classList.toggle('busy', busy || computerToMove(view));
  // Only a player alone at the device hears that their turn came.
  $('opt-sound-label').textContent = isSeated && !hotseat && !view.over ? t('options.sound') : t('options.soundWatching');
  $('opt-confirm-row').hidden = !isSeated || view.over;
  $('opt-notify-row').hidden = !isSeated || view.over || hotseat || !TurnAlerts.supported();
  const showConfirm = Boolean(pendingVertex) && myTurn;
  // The bar comes below Pass and Resign (game.html), so they never move
  // under a finger when it comes and goes, and no room is kept for it.
  $('confirm-move-bar').hidden = !showConfirm;
  if (showConfirm) $('confirm-move').textContent = t('game.confirmMove', { vertex: pendingVertex });
  $('torus-controls').hidden = !view.game.settings.torus;
}

// The claim button appears once the silent opponent passed its limit;
// clock.js calls this on every tick, since that moment comes with no event.
// Behind a curtain the page stays as it was when the curtain fell, whatever
// the ticks (a tick must not make the page depend on timing).
export function renderClaim(page, parts) {
  if (parts.curtain.up) return;
  $('claim').hidden = !(seated(page) && !page.hotseat && parts.clocks.claimable());
  $('claim').disabled = page.busy;
}

function renderWaiting(page, view) {
  const opponent = isPlayer(view) ? opponentOf(view.viewer) : null;
  const waiting = Boolean(opponent) && !page.hotseat && !view.over && !view.seats?.[opponent]?.taken;
  $('waiting').hidden = !waiting;
  $('waiting-text').textContent = loadGameSummary(page.gameId)?.rematchOffered ? t('rematch.waiting') : t('game.waiting');
  const invite = waiting ? loadInviteLink(page.gameId) : null;
  $('waiting-invite').hidden = !invite;
  if (invite) $('waiting-link').value = invite;
}

function renderResult(page, parts, view, onJump) {
  $('result-panel').hidden = !view.over;
  $('result-actions').hidden = !view.over;
  placeResultActions();
  $('replay-panel').hidden = !view.over;
  $('log-jump-hint').hidden = !view.over;
  if (!view.over) return;
  const isSeated = seated(page);
  const score = view.result?.score;
  $('result-score').textContent = score
    ? t('result.scoreLine', { black: formatNumber(score.black), white: formatNumber(score.white) }) : '';
  $('new-game').hidden = !isSeated;
  $('result-text').textContent = resultText(view.result);
  $('score-table').hidden = !renderScore($('score-body'), view.result);
  $('sgf-link').href = api.sgfUrl(page.gameId);
  $('sgf-link').setAttribute('download', `phantomgo-${page.gameId}.sgf`);
  parts.rematch.render(view);
  parts.replay.setSeat(isSeated && !page.hotseat ? view.viewer : null);
  parts.log.setJump(onJump);
  const legend = parts.replay.perspective() !== 'full' || (isSeated && !page.hotseat);
  $('unseen-legend').hidden = !legend;
  $('unseen-legend-text').textContent = t('replay.unseenLegend');
}

// The end's score and next actions go where they are on the first screen:
// under the board on a narrow screen (the side column falls far below it),
// in the result panel at the top of the side column on a wide one (where
// the board keeps its height). keepResultActionsPlaced() follows the width.
const WIDE = matchMedia('(min-width: 900px)');
function placeResultActions() {
  const actions = $('result-actions');
  const home = WIDE.matches ? $('result-text') : $('board-summary');
  if (actions.previousElementSibling !== home) home.after(actions);
}

export function keepResultActionsPlaced() {
  WIDE.addEventListener('change', placeResultActions);
}

// After the end the strip above the board says which step the replay
// shows, where the eye is (the banner keeps the result).
export function showReplayStep(caption) {
  const strip = $('news');
  if (strip.textContent !== caption) strip.textContent = caption;
  strip.dataset.kind = 'replay';
  strip.title = caption;
}

// What the keyboard cursor is on, for screen readers (a live region: it is
// rewritten only when the words change, so a redraw is not read again).
export function describeCursor(page, parts, vertex) {
  const view = page.views.view;
  const text = view ? pointDescription(view, parts.notes.list(), vertex) : vertex;
  if ($('cursor-status').textContent !== text) $('cursor-status').textContent = text;
}

// The line over the board while the live feed is not live.
export function showConnection(status) {
  const box = $('connection');
  const messages = {
    reconnecting: t('connection.reconnecting'), polling: t('connection.polling'), offline: t('connection.offline'),
  };
  box.hidden = !messages[status];
  box.textContent = messages[status] ?? '';
  box.dataset.status = status;
}

// Behind the hot-seat curtain the texts about the seat that just played go.
export function clearSeatTexts() {
  $('board-summary').textContent = '';
  $('cursor-status').textContent = '';
  $('news').textContent = '';
  $('news').removeAttribute('title');
  $('news').dataset.kind = 'plain';
}

// The page has no game to show (unknown id, refused): a heading, the
// reason, and a way on to a new game.
export function showFatal(message) {
  $('loading').hidden = true;
  $('game-area').hidden = true;
  $('fatal-text').textContent = message;
  $('fatal').hidden = false;
}
