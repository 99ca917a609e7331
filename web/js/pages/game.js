// The game page's wiring: which view is shown and what each click or key
// does. The seats this visit holds (game-seats.js) decide who is looking.
// One seat: a player. Both seats: hot-seat, where a curtain
// (hotseat-curtain.js) hides everything between turns and only the active
// seat's view is ever held in memory. No seat: a spectator.
//
// Views come from action answers and the live feed; GameState drops
// anything old, so each announcement is logged, flashed and sounded exactly
// once. A notice (an illegal point, a refused action) lasts until the turn
// changes at the latest: it never outlives the state it describes. The
// clocks tick from each view's snapshot (clock.js).

import { initPage, copyFrom, errorMessage, markReady, showNotice, clearNotice } from '../lib/page.js';
import { t, formatNumber, onLanguageChange } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { LiveFeed } from '../lib/live.js';
import { GameState, opponentOf, isPlayer, isMyTurn, computerToMove } from '../game/game-state.js';
import { readSeatLinks, likelySeatToken, findSeats } from '../game/game-seats.js';
import { Board } from '../game/board.js';
import { RefereeLog } from '../game/referee-log.js';
import { ReplayControls } from '../game/replay.js';
import { Notes } from '../game/notes.js';
import { TurnAlerts } from '../game/turn-alerts.js';
import { GamePush } from '../game/push.js';
import { GameClocks } from '../game/clock.js';
import { Curtain } from '../game/hotseat-curtain.js';
import { Rematch, offeredRematch, withdrawRematch, cancelledRematchWording } from '../game/rematch.js';
import { confirmAction, dialogOpen } from '../lib/dialog.js';
import { newsOf, recentCaptures } from '../game/news.js';
import {
  turnBanner, roleTitle, renderStats, renderTableInfo, resultText, renderScore, boardSummary, pointDescription,
} from '../game/game-panels.js';
import {
  loadInviteLink, loadGameSummary, getPref, setPref, saveSeat, saveInviteLink, saveGameSummary,
} from '../lib/storage.js';
import { nameForRequest } from '../lib/names.js';
import { GameTalk, showCancelled } from '../game/game-talk.js';
import { DeductionAid } from '../game/aid.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');
const NOTICE_MS = 6000;
const LIVE_POLL_MS = 2000;

const state = new GameState();
let seats = {};
// {token: view} of the seat links this visit opened (game-seats.js).
let linkViews = {};
let hotseat = false;
let activeColor = null;
let busy = false;
let ghostMode = false;
let pendingVertex = null;
// The point of an attempt on its way to the server (drawn as a preview
// stone, so a click made offline visibly waits to be sent).
let sendingVertex = null;
// Hot-seat: the keyboard cursor and the open folds (notes, options, table)
// of each seat, kept while the other plays.
const seatCursors = {};
const seatFolds = {};
const folds = () => [...document.querySelectorAll('details.fold')];
let confirmMode = Boolean(getPref('confirmMove', matchMedia('(pointer: coarse)').matches));
let live = null;
let board;
let log;
let notes;
let replay;
let alerts;
let clocks;
let curtain;
let rematch;
let talk;
let aid;

// ---- small helpers -------------------------------------------------------

function notice(message) {
  showNotice(message, NOTICE_MS);
}

// The page has no game to show (unknown id, refused): a heading, the
// reason, and a way on to a new game.
function fatal(message) {
  $('loading').hidden = true;
  $('game-area').hidden = true;
  $('fatal-text').textContent = message;
  $('fatal').hidden = false;
  markReady();
}

function activeToken() {
  return activeColor ? seats[activeColor] ?? null : null;
}

function seated() {
  const view = state.view;
  return Boolean(view && isPlayer(view) && activeToken());
}

// {color: token} of the seats this page plays: both in hot-seat.
function playingSeats() {
  if (!seated()) return {};
  return hotseat ? { ...seats } : { [activeColor]: activeToken() };
}

function visibleStone(view, vertex) {
  return (view.stones.black ?? []).includes(vertex) || (view.stones.white ?? []).includes(vertex);
}

// ---- who is looking --------------------------------------------------------

// The view of a seat (a spectator's when color is null); a seat link's view,
// read moments ago to learn its colour, is used once instead of asked again.
// A refused token leaves the seat (onProblem hears why) for a spectator's view.
async function fetchView(color, onProblem) {
  const token = color ? seats[color] : null;
  const known = token ? linkViews[token] : null;
  if (known) {
    delete linkViews[token];
    return known;
  }
  try {
    return await api.view(gameId, token);
  } catch (error) {
    if (color && (error.code === 'bad_token' || error.status === 403)) {
      onProblem(() => errorMessage(error));
      delete seats[color];
      return api.view(gameId, null);
    }
    throw error;
  }
}

// ---- rendering ------------------------------------------------------------

function boardModel(view) {
  return {
    viewer: isPlayer(view) ? view.viewer : null,
    stones: view.stones,
    handicap: view.handicap,
    last: view.last_own,
    tried: view.tried,
    rejected: (view.rejected ?? []).map((entry) => entry.vertex),
    ghosts: notes.list(),
    ghostColor: isPlayer(view) ? opponentOf(view.viewer) : 'white',
    preview: pendingVertex ?? sendingVertex,
    captured: recentCaptures(view).lost,
    taken: recentCaptures(view).taken,
    heat: aid.heatFor(view),
  };
}

function render() {
  const view = state.view;
  if (!view || curtain.up) return;
  const banner = turnBanner(view, { hotseat });
  $('turn-banner').textContent = banner.text;
  $('turn-banner').dataset.kind = banner.kind;
  $('role-title').textContent = roleTitle(view, { hotseat });
  renderNews(view);
  renderStats($('stats'), view);
  renderTableInfo($('table-info'), view.game);
  renderWaiting(view);
  renderControls(view);
  clocks.update(view, { perspective: seated() && !hotseat ? view.viewer : null });
  renderClaim();
  renderResult(view);
  aid.update(view, activeToken());
  if (view.over) replay.load(view);
  else board.render(boardModel(view));
  $('board-summary').textContent = boardSummary(view, notes.list());
  // The point under the keyboard cursor is described anew when it changed
  // (a stone played there with Enter), not only when the cursor moves.
  if (document.activeElement === $('board')) describeCursor(board.cursorVertex());
  document.title = banner.kind === 'yours' && !hotseat ? t('game.titleYourTurn') : t('game.title');
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

function renderControls(view) {
  const myTurn = isMyTurn(view) && seated();
  board.setInteractive(seated() && !view.over);
  $('board').setAttribute('aria-label', t('game.boardLabel', { size: view.game.settings.size }));
  $('board-help').textContent = seated() && !view.over ? t('game.keyboardHelp') : '';
  $('pass').disabled = !myTurn || busy;
  $('resign').disabled = !seated() || view.over || busy;
  $('play-buttons').hidden = !seated() || view.over;
  $('notes-panel').hidden = !seated() || view.over;
  $('ghost-mode').setAttribute('aria-pressed', String(ghostMode));
  $('board').classList.toggle('ghost-mode', ghostMode);
  $('board').classList.toggle('busy', busy || computerToMove(view));
  // Only a player alone at the device hears that their turn came.
  $('opt-sound-label').textContent = seated() && !hotseat && !view.over ? t('options.sound') : t('options.soundWatching');
  $('opt-confirm-row').hidden = !seated() || view.over;
  $('opt-notify-row').hidden = !seated() || view.over || hotseat || !TurnAlerts.supported();
  const showConfirm = Boolean(pendingVertex) && myTurn;
  // The bar comes below Pass and Resign (game.html), so they never move
  // under a finger when it comes and goes, and no room is kept for it.
  $('confirm-move-bar').hidden = !showConfirm;
  if (showConfirm) $('confirm-move').textContent = t('game.confirmMove', { vertex: pendingVertex });
  $('torus-controls').hidden = !view.game.settings.torus;
}

// The claim button appears once the silent opponent passed its limit;
// clocks.js calls this on every tick, since that moment comes with no event.
// Behind a curtain the page stays as it was when the curtain fell, whatever
// the ticks (a tick must not make the page depend on timing).
function renderClaim() {
  if (curtain.up) return;
  $('claim').hidden = !(seated() && !hotseat && clocks.claimable());
  $('claim').disabled = busy;
}

function renderWaiting(view) {
  const opponent = isPlayer(view) ? opponentOf(view.viewer) : null;
  const waiting = Boolean(opponent) && !hotseat && !view.over && !view.seats?.[opponent]?.taken;
  $('waiting').hidden = !waiting;
  $('waiting-text').textContent = loadGameSummary(gameId)?.rematchOffered ? t('rematch.waiting') : t('game.waiting');
  const invite = waiting ? loadInviteLink(gameId) : null;
  $('waiting-invite').hidden = !invite;
  if (invite) $('waiting-link').value = invite;
}

function renderResult(view) {
  $('result-panel').hidden = !view.over;
  $('result-actions').hidden = !view.over;
  placeResultActions();
  $('replay-panel').hidden = !view.over;
  $('log-jump-hint').hidden = !view.over;
  if (!view.over) return;
  const score = view.result?.score;
  $('result-score').textContent = score
    ? t('result.scoreLine', { black: formatNumber(score.black), white: formatNumber(score.white) }) : '';
  $('new-game').hidden = !seated();
  $('result-text').textContent = resultText(view.result);
  $('score-table').hidden = !renderScore($('score-body'), view.result);
  $('sgf-link').href = api.sgfUrl(gameId);
  $('sgf-link').setAttribute('download', `phantomgo-${gameId}.sgf`);
  rematch.render(view);
  replay.setSeat(seated() && !hotseat ? view.viewer : null);
  log.setJump(jumpToSeq);
  const legend = replay.perspective() !== 'full' || (seated() && !hotseat);
  $('unseen-legend').hidden = !legend;
  $('unseen-legend-text').textContent = t('replay.unseenLegend');
}

// After the end the strip above the board says which step the replay
// shows, where the eye is (the banner keeps the result).
function showReplayStep(caption) {
  const strip = $('news');
  if (strip.textContent !== caption) strip.textContent = caption;
  strip.dataset.kind = 'replay';
  strip.title = caption;
}

// A log line was chosen: the replay goes there, and the board comes into
// view if the page was scrolled away from it (a phone's log is far below).
function jumpToSeq(seq) {
  replay.go(replay.indexOfSeq(seq));
  const box = $('board').getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) $('turn-banner').scrollIntoView({ block: 'start' });
}

// What the keyboard cursor is on, for screen readers (a live region: it is
// rewritten only when the words change, so a redraw is not read again).
function describeCursor(vertex) {
  const text = state.view ? pointDescription(state.view, notes.list(), vertex) : vertex;
  if ($('cursor-status').textContent !== text) $('cursor-status').textContent = text;
}

// ---- news: log, flashes, sounds, notifications -----------------------------

function announce(events) {
  if (!events || events.length === 0) return;
  log.add(events);
  const view = state.view;
  const captured = events.flatMap((event) => event.captured ?? []);
  if (captured.length > 0 && !curtain.up) {
    board.flash(captured);
  }
  if (events.some((event) => (event.capture_count ?? event.captured?.length ?? 0) > 0)) alerts.captured();
  const becameMine = !hotseat && isMyTurn(view) && events.some((event) => event.color !== view.viewer && (event.type === 'move' || event.type === 'pass'));
  if (becameMine) alerts.yourTurn();
}

function accept(view, events = []) {
  const previous = state.view;
  const fresh = state.accept(view, events);
  if (fresh === null) return;
  talk?.onView(view);
  const wasOver = previous?.over ?? false;
  if (previous && (previous.turn !== view.turn || wasOver !== view.over)) clearNotice();
  // Your turn begins: a click places a stone again, not a ghost note.
  if (previous && !isMyTurn(previous) && isMyTurn(view)) ghostMode = false;
  render();
  announce(fresh);
  if (view.over && !wasOver) {
    // The end reveals every event in full: rewrite the log with it.
    log.rebuild(view.events ?? []);
    finishGame();
  }
}

// ---- acting ------------------------------------------------------------------

async function act(body) {
  if (busy || !seated()) return;
  busy = true;
  pendingVertex = null;
  sendingVertex = body.vertex ?? null;
  render();
  const mover = activeColor;
  try {
    const answer = await api.act(gameId, activeToken(), { seq: state.seq + 1, ...body }, {
      onRetry: () => showConnection(navigator.onLine ? 'reconnecting' : 'offline'),
    });
    showConnection(live ? live.status : 'live');
    sendingVertex = null;
    afterAction(answer, mover, body);
  } catch (error) {
    if (error.code === 'stale_seq') await refresh();
    notice(errorMessage(error));
  } finally {
    busy = false;
    sendingVertex = null;
    render();
  }
}

function afterAction(answer, mover, body) {
  const event = answer.event;
  if (event?.type === 'move' && body.vertex) notes.remove(body.vertex);
  accept(answer.view, event ? [event] : []);
  const turnOver = event && (event.type === 'move' || event.type === 'pass');
  if (hotseat && turnOver && !answer.view.over) curtain.raise(opponentOf(mover));
  // An illegal try is told once, by the board: its mark and the news
  // strip (no notice over the header: tries come in bursts).
  if (event?.type === 'illegal') {
    alerts.illegal();
  } else if (event?.type === 'move') {
    alerts.stonePlaced();
  }
}

async function refresh() {
  try {
    accept(await api.view(gameId, activeToken()));
  } catch (error) {
    notice(errorMessage(error));
  }
}

function tryPoint(vertex) {
  const view = state.view;
  if (!view || !seated() || view.over) return;
  if (ghostMode) {
    notes.toggle(vertex);
    return;
  }
  if (!isMyTurn(view)) {
    notice(computerToMove(view) ? t('turn.computer', { color: t(`color.${view.to_move}`) }) : t('game.notYourTurn'));
    return;
  }
  if (visibleStone(view, vertex)) {
    notice(t('game.stoneThere', { vertex }));
    return;
  }
  if ((view.tried ?? []).includes(vertex)) {
    notice(t('game.alreadyTried', { vertex }));
    return;
  }
  if (confirmMode && pendingVertex !== vertex) {
    pendingVertex = vertex;
    render();
    return;
  }
  act({ action: 'attempt', vertex });
}

// The question says whether this pass ends the game (the opponent passed
// just before) and that every stone then counts as alive.
async function pass() {
  if (!state.view || !isMyTurn(state.view) || !seated() || busy) return;
  const question = state.view.passes > 0 ? t('game.confirmPassEnds') : t('game.confirmPass');
  if (await confirmAction(question, t('game.pass'))) act({ action: 'pass' });
}

// Destructive: red, with the focus on Cancel, so Enter pressed twice by
// mistake cancels and never resigns.
async function resign() {
  if (!state.view || !seated() || state.view.over || busy) return;
  if (await confirmAction(t('game.confirmResign'), t('game.resign'), { destructive: true })) act({ action: 'resign' });
}

async function claim() {
  if (!state.view || !seated() || !clocks.claimable() || busy) return;
  if (await confirmAction(t('game.confirmClaim'), t('game.claim'))) act({ action: 'claim' });
}

// The end's score and next actions go where they are on the first screen:
// under the board on a narrow screen (the side column falls far below it),
// in the result panel at the top of the side column on a wide one (where
// the board keeps its height).
const WIDE = matchMedia('(min-width: 900px)');
function placeResultActions() {
  const actions = $('result-actions');
  const home = WIDE.matches ? $('result-text') : $('board-summary');
  if (actions.previousElementSibling !== home) home.after(actions);
}

// A new game at the same table: the same mode, settings, clock, level and
// aid, this seat's colour again (both seats in hot-seat). Its seats are
// kept on this device like any game made on the home page.
async function newGameSameTable() {
  const { game, viewer } = state.view ?? {};
  if (!game || !seated()) return;
  const body = {
    mode: game.mode, settings: game.settings, time_control: game.time_control, deduction_aid: game.deduction_aid,
  };
  if (game.mode !== 'hotseat') Object.assign(body, { color: viewer, name: nameForRequest() });
  if (game.mode === 'computer') body.level = game.level;
  if (game.mode === 'online') body.public = game.public;
  $('new-game').disabled = true;
  try {
    const created = await api.createGame(body);
    const id = created.game.id;
    for (const seat of created.seats ?? []) saveSeat(id, seat.color, seat.token);
    saveGameSummary(id, { mode: game.mode, size: game.settings.size });
    if (created.links?.invite) saveInviteLink(id, created.links.invite);
    location.assign(`/g/${encodeURIComponent(id)}`);
  } catch (error) {
    notice(errorMessage(error));
    $('new-game').disabled = false;
  }
}

// ---- hot-seat handover ------------------------------------------------------

// Forgets what was shown: behind the curtain the DOM keeps nothing, and
// nothing of the seat that just played (cursor, hover, ghost mode, a move
// waiting for confirmation, the log's scroll) is left for the next seat.
function emptyBehindCurtain() {
  if (activeColor) {
    seatCursors[activeColor] = board.getCursor();
    seatFolds[activeColor] = folds().map((fold) => fold.open);
  }
  for (const fold of folds()) fold.open = false;
  pendingVertex = null;
  ghostMode = false;
  aid.forget();
  board.clear();
  $('log').scrollTop = 0;
  log.clear();
  clearNotice();
  $('board-summary').textContent = '';
  $('cursor-status').textContent = '';
  $('news').textContent = '';
  $('news').removeAttribute('title');
  $('news').dataset.kind = 'plain';
}

// The next seat's own view, asked for when its player lifts the curtain.
async function loadSeatView(color) {
  try {
    const view = await api.view(gameId, seats[color]);
    activeColor = color;
    state.replace(view);
    talk?.onView(view);
    await notes.load(seats[color]).catch(() => {});
    return true;
  } catch (error) {
    notice(errorMessage(error));
    return false;
  }
}

function showSeatView() {
  board.resetPointer(seatCursors[activeColor]);
  folds().forEach((fold, i) => { fold.open = seatFolds[activeColor]?.[i] ?? false; });
  log.rebuild(state.view.events ?? []);
  render();
  $('board').focus();
}

// ---- live updates, game over ---------------------------------------------

function showConnection(status) {
  const box = $('connection');
  const messages = {
    reconnecting: t('connection.reconnecting'), polling: t('connection.polling'), offline: t('connection.offline'),
  };
  box.hidden = !messages[status];
  box.textContent = messages[status] ?? '';
  box.dataset.status = status;
}

// Asks from the last sequence number applied, so nothing is missed after a
// reconnect; GameState drops what was seen already.
function startLive() {
  const token = activeToken();
  let socketWasDown = false;
  live = new LiveFeed({
    path: api.gameSocketPath(gameId),
    hello: () => ({ type: 'hello', token, since: state.seq }),
    dataType: 'update',
    poll: () => api.events(gameId, token, state.seq),
    pollMs: LIVE_POLL_MS,
    onData: ({ events, view }) => accept(view, events ?? []),
    onOther: (message) => talk.onFrame(message),
    onStatus: (status) => {
      if (status === 'live' && socketWasDown) talk.resync();
      // Up, or trying another way: the chat's first read is due.
      if (status !== 'connecting') talk.feedStarted();
      socketWasDown = status !== 'live';
      showConnection(status);
    },
    onError: (error) => notice(errorMessage(error)),
  });
  live.start();
}

// After the end: no curtain, and (for players) a watch for the opponent's
// rematch offer.
function finishGame() {
  if (curtain.up) {
    curtain.uncover();
    render();
  }
  rematch.watchForOffer();
}

// ---- wiring --------------------------------------------------------------

function wireControls() {
  $('pass').addEventListener('click', pass);
  $('resign').addEventListener('click', resign);
  $('claim').addEventListener('click', claim);
  $('new-game').addEventListener('click', newGameSameTable);
  // The second skip link: straight to the board, its cursor described.
  $('skip-board').addEventListener('click', (event) => {
    event.preventDefault();
    $('board').focus();
  });
  WIDE.addEventListener('change', placeResultActions);
  $('confirm-move').addEventListener('click', () => pendingVertex && tryPoint(pendingVertex));
  $('cancel-move').addEventListener('click', () => { pendingVertex = null; render(); });
  $('ghost-mode').addEventListener('click', () => { ghostMode = !ghostMode; pendingVertex = null; render(); });
  $('clear-notes').addEventListener('click', () => notes.clear());
  $('torus-reset').addEventListener('click', () => board.resetShift());
  for (const button of document.querySelectorAll('[data-shift]')) {
    const [dx, dy] = button.dataset.shift.split(',').map(Number);
    button.addEventListener('click', () => board.shift(dx, dy));
  }
  $('waiting-copy').addEventListener('click', () => copyFrom($('waiting-link'), $('copy-status')));
  $('watch-copy').addEventListener('click', () => copyFrom($('watch-link'), $('copy-status')));
  wireOptions();
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest?.('input, select, textarea');
    if (typing || dialogOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (state.view?.over) {
      stepReplayByKey(event);
    } else if (event.code === 'KeyP') {
      event.preventDefault();
      pass();
    }
  });
}

// After the game the arrow keys (and Home, End) step the replay from
// anywhere on the page; the slider and radios handle their own.
function stepReplayByKey(event) {
  const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
  const index = replay.index();
  let target = null;
  if (event.key in steps) target = index + steps[event.key];
  else if (event.key === 'Home') target = 0;
  else if (event.key === 'End') target = replay.frames.length - 1;
  if (target === null) return;
  event.preventDefault();
  replay.go(target);
}

function wireOptions() {
  alerts = new TurnAlerts({
    soundBox: $('opt-sound'),
    notifyBox: $('opt-notify'),
    tag: `phantomgo-${gameId}`,
    onDenied: () => notice(t('options.notifyDenied')),
    push: new GamePush(gameId, () => (seated() && !hotseat ? activeToken() : null)),
    onPushFailed: () => notice(t('options.pushFailed')),
  });
  $('opt-notify-nopush').hidden = GamePush.supported();
  const confirm = $('opt-confirm');
  confirm.checked = confirmMode;
  confirm.addEventListener('change', () => {
    confirmMode = confirm.checked;
    setPref('confirmMove', confirmMode);
    pendingVertex = null;
    render();
  });
}

function setupModules() {
  board = new Board($('board'), {
    onPoint: tryPoint,
    onGhost: (vertex) => seated() && !state.view.over && notes.toggle(vertex),
    onCursor: describeCursor,
  });
  log = new RefereeLog($('log'), $('log-empty'));
  clocks = new GameClocks($('clocks'), { onTick: renderClaim });
  replay = new ReplayControls({
    slider: $('replay-slider'),
    first: $('replay-first'),
    previous: $('replay-previous'),
    next: $('replay-next'),
    last: $('replay-last'),
    caption: $('replay-caption'),
    perspectives: [...document.querySelectorAll('input[name="perspective"]')],
  }, (model, { seq, caption }) => {
    board.render({ ...model, heat: aid.heatForReplay(state.view, seq) });
    log.markCurrent(seq);
    showReplayStep(caption);
  });
  curtain = new Curtain(
    { curtain: $('curtain'), text: $('curtain-text'), button: $('curtain-show'), gameArea: $('game-area') },
    { onRaise: emptyBehindCurtain, load: loadSeatView, onShown: showSeatView },
  );
  aid = new DeductionAid({ bar: $('aid-bar'), toggle: $('aid-toggle'), hint: $('aid-hint') }, {
    gameId,
    onChange: () => {
      if (curtain.up) return;
      if (state.view?.over) replay.refresh();
      else render();
    },
  });
  rematch = new Rematch({
    button: $('rematch'), link: $('rematch-link'), status: $('rematch-status'),
    offer: $('rematch-offer'), offerText: $('rematch-offer-text'), accept: $('rematch-accept'), decline: $('rematch-decline'),
  }, {
    gameId, playingSeats, getView: () => state.view, refresh, onError: notice, onOffer: () => alerts.rematchOffered(),
    hotseat: () => hotseat,
  });
}

// The seat the page first asks the view of: the one seat, Black in
// hot-seat, none for a spectator.
function firstColor() {
  const colors = Object.keys(seats);
  if (colors.length === 2) return 'black';
  return colors.length === 1 ? colors[0] : null;
}

async function loadInitialView(onProblem) {
  hotseat = Object.keys(seats).length === 2;
  activeColor = firstColor();
  let view = await fetchView(activeColor, onProblem);
  if (hotseat && !view.over && view.to_move !== activeColor) {
    activeColor = view.to_move;
    view = await fetchView(activeColor, onProblem);
  }
  if (!isPlayer(view)) activeColor = null;
  return view;
}

// Who is looking and what they see: the seats this visit holds, then the
// view of the one the page acts for, as {view} or {error}. It runs while
// the words load, so each problem comes as a wording for onProblem, to be
// shown once they are there.
async function openGame(links, onProblem) {
  try {
    ({ seats, views: linkViews } = await findSeats(gameId, links, onProblem));
    return { view: await loadInitialView(onProblem) };
  } catch (error) {
    return { error };
  }
}

async function main() {
  // A seat or invite link opened over this very page changes only the
  // fragment; reload so that it is read like any fresh visit.
  addEventListener('hashchange', () => {
    if (/(^|[#&])(seat|invite)=/.test(location.hash)) location.reload();
  });
  // The game's own requests go out first and the words load meanwhile. The
  // likely seat's notes are asked for alongside its view (they are drawn
  // with it); should the page end up with another seat (a refused link,
  // hot-seat) or none, that one's are read below instead.
  const links = readSeatLinks();
  const problems = [];
  const opening = gameId ? openGame(links, (wording) => problems.push(wording)) : null;
  notes = new Notes(gameId, render);
  const notesToken = gameId ? likelySeatToken(gameId, links) : null;
  const notesRead = notesToken ? notes.load(notesToken).catch(() => {}) : null;
  await initPage();
  setupModules();
  if (!gameId) {
    fatal(t('error.not_found'));
    return;
  }
  const { view, error } = await opening;
  for (const wording of problems) notice(wording());
  if (error) {
    fatal(errorMessage(error));
    return;
  }
  if (view.cancelled) {
    showCancelled(cancelledRematchWording(gameId));
    markReady();
    return;
  }
  board.configure(view.game.settings);
  $('watch-link').value = `${location.origin}/g/${encodeURIComponent(gameId)}`;
  if (activeToken() === notesToken) await notesRead;
  else await notes.load(activeToken()).catch(() => {});
  state.accept(view);
  talk = new GameTalk({
    gameId, hotseat, quiet: hotseat || view.game.mode === 'computer', onNotice: notice, waitForFeed: !hotseat,
    withdraw: offeredRematch(gameId) ? () => withdrawRematch(gameId, notice) : null,
    cancelledWording: () => cancelledRematchWording(gameId),
    seat: () => (seated() ? { color: activeColor, token: activeToken() } : null),
  });
  talk.onView(view);
  log.rebuild(view.events ?? []);
  $('loading').hidden = true;
  wireControls();
  onLanguageChange(() => {
    if (curtain.up) {
      curtain.retranslate();
      return;
    }
    log.rebuild(state.view.events ?? []);
    replay.refresh();
    render();
  });
  if (hotseat && !view.over) {
    curtain.raise(view.to_move);
  } else {
    $('game-area').hidden = false;
    render();
    if (view.over) finishGame();
    if (!hotseat) startLive();
    if (!view.over) alerts.renewPush();
  }
  markReady();
}

main();
