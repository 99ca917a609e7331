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
//
// This file is the orchestrator: the page's state is one object (`page`,
// its fields documented in game/page-state.js) that only the functions
// here change, and after each change renderGame() (game/game-views.js)
// draws the page from it. The components the page is made of are `parts`.

import { initPage, copyFrom, errorMessage, markReady, showNotice, clearNotice } from '../lib/page.js';
import { t, onLanguageChange } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { LiveFeed } from '../lib/live.js';
import { opponentOf, isPlayer, isMyTurn, computerToMove } from '../game/game-state.js';
import { createPageState, activeToken, seated, playingSeats } from '../game/page-state.js';
import {
  renderGame, renderClaim, keepResultActionsPlaced, showReplayStep, describeCursor, showConnection, clearSeatTexts, showFatal,
} from '../game/game-views.js';
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
import { setPref, saveSeat, saveInviteLink, saveGameSummary } from '../lib/storage.js';
import { nameForRequest } from '../lib/names.js';
import { GameTalk, showCancelled } from '../game/game-talk.js';
import { DeductionAid } from '../game/aid.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');
const NOTICE_MS = 6000;
const LIVE_POLL_MS = 2000;

// The page's state: one object, changed only here (game/page-state.js).
const page = createPageState(gameId);
// The page's components, made once by setupModules() (talk once the first
// view is in, live once the feed starts); each keeps its own state.
const parts = {
  board: null, log: null, notes: null, replay: null, alerts: null, clocks: null,
  curtain: null, rematch: null, talk: null, aid: null, live: null,
};
const folds = () => [...document.querySelectorAll('details.fold')];

// ---- small helpers -------------------------------------------------------

function notice(message) {
  showNotice(message, NOTICE_MS);
}

function fatal(message) {
  showFatal(message);
  markReady();
}

function render() {
  renderGame(page, parts, { onJump: jumpToSeq });
}

function visibleStone(view, vertex) {
  return (view.stones.black ?? []).includes(vertex) || (view.stones.white ?? []).includes(vertex);
}

// ---- who is looking --------------------------------------------------------

// The view of a seat (a spectator's when color is null); a seat link's view,
// read moments ago to learn its colour, is used once instead of asked again.
// A refused token leaves the seat (onProblem hears why) for a spectator's view.
async function fetchView(color, onProblem) {
  const token = color ? page.seats[color] : null;
  const known = token ? page.linkViews[token] : null;
  if (known) {
    delete page.linkViews[token];
    return known;
  }
  try {
    return await api.view(gameId, token);
  } catch (error) {
    if (color && (error.code === 'bad_token' || error.status === 403)) {
      onProblem(() => errorMessage(error));
      delete page.seats[color];
      return api.view(gameId, null);
    }
    throw error;
  }
}

// A log line was chosen: the replay goes there, and the board comes into
// view if the page was scrolled away from it (a phone's log is far below).
function jumpToSeq(seq) {
  parts.replay.go(parts.replay.indexOfSeq(seq));
  const box = $('board').getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) $('turn-banner').scrollIntoView({ block: 'start' });
}

// ---- news: log, flashes, sounds, notifications -----------------------------

function announce(events) {
  if (!events || events.length === 0) return;
  parts.log.add(events);
  const view = page.views.view;
  const captured = events.flatMap((event) => event.captured ?? []);
  if (captured.length > 0 && !parts.curtain.up) {
    parts.board.flash(captured);
  }
  if (events.some((event) => (event.capture_count ?? event.captured?.length ?? 0) > 0)) parts.alerts.captured();
  const becameMine = !page.hotseat && isMyTurn(view) && events.some((event) => event.color !== view.viewer && (event.type === 'move' || event.type === 'pass'));
  if (becameMine) parts.alerts.yourTurn();
}

function accept(view, events = []) {
  const previous = page.views.view;
  const fresh = page.views.accept(view, events);
  if (fresh === null) return;
  parts.talk?.onView(view);
  const wasOver = previous?.over ?? false;
  if (previous && (previous.turn !== view.turn || wasOver !== view.over)) clearNotice();
  // Your turn begins: a click places a stone again, not a ghost note.
  if (previous && !isMyTurn(previous) && isMyTurn(view)) page.ghostMode = false;
  render();
  announce(fresh);
  if (view.over && !wasOver) {
    // The end reveals every event in full: rewrite the log with it.
    parts.log.rebuild(view.events ?? []);
    finishGame();
  }
}

// ---- acting ------------------------------------------------------------------

async function act(body) {
  if (page.busy || !seated(page)) return;
  page.busy = true;
  page.pendingVertex = null;
  page.sendingVertex = body.vertex ?? null;
  render();
  const mover = page.activeColor;
  try {
    const answer = await api.act(gameId, activeToken(page), { seq: page.views.seq + 1, ...body }, {
      onRetry: () => showConnection(navigator.onLine ? 'reconnecting' : 'offline'),
    });
    showConnection(parts.live ? parts.live.status : 'live');
    page.sendingVertex = null;
    afterAction(answer, mover, body);
  } catch (error) {
    if (error.code === 'stale_seq') await refresh();
    notice(errorMessage(error));
  } finally {
    page.busy = false;
    page.sendingVertex = null;
    render();
  }
}

function afterAction(answer, mover, body) {
  const event = answer.event;
  if (event?.type === 'move' && body.vertex) parts.notes.remove(body.vertex);
  accept(answer.view, event ? [event] : []);
  const turnOver = event && (event.type === 'move' || event.type === 'pass');
  if (page.hotseat && turnOver && !answer.view.over) parts.curtain.raise(opponentOf(mover));
  // An illegal try is told once, by the board: its mark and the news
  // strip (no notice over the header: tries come in bursts).
  if (event?.type === 'illegal') {
    parts.alerts.illegal();
  } else if (event?.type === 'move') {
    parts.alerts.stonePlaced();
  }
}

async function refresh() {
  try {
    accept(await api.view(gameId, activeToken(page)));
  } catch (error) {
    notice(errorMessage(error));
  }
}

function tryPoint(vertex) {
  const view = page.views.view;
  if (!view || !seated(page) || view.over) return;
  if (page.ghostMode) {
    parts.notes.toggle(vertex);
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
  if (page.confirmMode && page.pendingVertex !== vertex) {
    page.pendingVertex = vertex;
    render();
    return;
  }
  act({ action: 'attempt', vertex });
}

// The question says whether this pass ends the game (the opponent passed
// just before) and that every stone then counts as alive.
async function pass() {
  const view = page.views.view;
  if (!view || !isMyTurn(view) || !seated(page) || page.busy) return;
  const question = view.passes > 0 ? t('game.confirmPassEnds') : t('game.confirmPass');
  if (await confirmAction(question, t('game.pass'))) act({ action: 'pass' });
}

// Destructive: red, with the focus on Cancel, so Enter pressed twice by
// mistake cancels and never resigns.
async function resign() {
  const view = page.views.view;
  if (!view || !seated(page) || view.over || page.busy) return;
  if (await confirmAction(t('game.confirmResign'), t('game.resign'), { destructive: true })) act({ action: 'resign' });
}

async function claim() {
  if (!page.views.view || !seated(page) || !parts.clocks.claimable() || page.busy) return;
  if (await confirmAction(t('game.confirmClaim'), t('game.claim'))) act({ action: 'claim' });
}

// A new game at the same table: the same mode, settings, clock, level and
// aid, this seat's colour again (both seats in hot-seat). Its seats are
// kept on this device like any game made on the home page.
async function newGameSameTable() {
  const { game, viewer } = page.views.view ?? {};
  if (!game || !seated(page)) return;
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
  if (page.activeColor) {
    page.seatCursors[page.activeColor] = parts.board.getCursor();
    page.seatFolds[page.activeColor] = folds().map((fold) => fold.open);
  }
  for (const fold of folds()) fold.open = false;
  page.pendingVertex = null;
  page.ghostMode = false;
  parts.aid.forget();
  parts.board.clear();
  $('log').scrollTop = 0;
  parts.log.clear();
  clearNotice();
  clearSeatTexts();
}

// The next seat's own view, asked for when its player lifts the curtain.
async function loadSeatView(color) {
  try {
    const view = await api.view(gameId, page.seats[color]);
    page.activeColor = color;
    page.views.replace(view);
    parts.talk?.onView(view);
    await parts.notes.load(page.seats[color]).catch(() => {});
    return true;
  } catch (error) {
    notice(errorMessage(error));
    return false;
  }
}

function showSeatView() {
  parts.board.resetPointer(page.seatCursors[page.activeColor]);
  folds().forEach((fold, i) => { fold.open = page.seatFolds[page.activeColor]?.[i] ?? false; });
  parts.log.rebuild(page.views.view.events ?? []);
  render();
  $('board').focus();
}

// ---- live updates, game over ---------------------------------------------

// Asks from the last sequence number applied, so nothing is missed after a
// reconnect; GameState drops what was seen already.
function startLive() {
  const token = activeToken(page);
  let socketWasDown = false;
  parts.live = new LiveFeed({
    path: api.gameSocketPath(gameId),
    hello: () => ({ type: 'hello', token, since: page.views.seq }),
    dataType: 'update',
    poll: () => api.events(gameId, token, page.views.seq),
    pollMs: LIVE_POLL_MS,
    onData: ({ events, view }) => accept(view, events ?? []),
    onOther: (message) => parts.talk.onFrame(message),
    onStatus: (status) => {
      if (status === 'live' && socketWasDown) parts.talk.resync();
      // Up, or trying another way: the chat's first read is due.
      if (status !== 'connecting') parts.talk.feedStarted();
      socketWasDown = status !== 'live';
      showConnection(status);
    },
    onError: (error) => notice(errorMessage(error)),
  });
  parts.live.start();
}

// After the end: no curtain, and (for players) a watch for the opponent's
// rematch offer.
function finishGame() {
  if (parts.curtain.up) {
    parts.curtain.uncover();
    render();
  }
  parts.rematch.watchForOffer();
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
  keepResultActionsPlaced();
  $('confirm-move').addEventListener('click', () => page.pendingVertex && tryPoint(page.pendingVertex));
  $('cancel-move').addEventListener('click', () => { page.pendingVertex = null; render(); });
  $('ghost-mode').addEventListener('click', () => { page.ghostMode = !page.ghostMode; page.pendingVertex = null; render(); });
  $('clear-notes').addEventListener('click', () => parts.notes.clear());
  $('torus-reset').addEventListener('click', () => parts.board.resetShift());
  for (const button of document.querySelectorAll('[data-shift]')) {
    const [dx, dy] = button.dataset.shift.split(',').map(Number);
    button.addEventListener('click', () => parts.board.shift(dx, dy));
  }
  $('waiting-copy').addEventListener('click', () => copyFrom($('waiting-link'), $('copy-status')));
  $('watch-copy').addEventListener('click', () => copyFrom($('watch-link'), $('copy-status')));
  wireOptions();
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest?.('input, select, textarea');
    if (typing || dialogOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (page.views.view?.over) {
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
  const index = parts.replay.index();
  let target = null;
  if (event.key in steps) target = index + steps[event.key];
  else if (event.key === 'Home') target = 0;
  else if (event.key === 'End') target = parts.replay.frames.length - 1;
  if (target === null) return;
  event.preventDefault();
  parts.replay.go(target);
}

function wireOptions() {
  parts.alerts = new TurnAlerts({
    soundBox: $('opt-sound'),
    notifyBox: $('opt-notify'),
    tag: `phantomgo-${gameId}`,
    onDenied: () => notice(t('options.notifyDenied')),
    push: new GamePush(gameId, () => (seated(page) && !page.hotseat ? activeToken(page) : null)),
    onPushFailed: () => notice(t('options.pushFailed')),
  });
  $('opt-notify-nopush').hidden = GamePush.supported();
  const confirm = $('opt-confirm');
  confirm.checked = page.confirmMode;
  confirm.addEventListener('change', () => {
    page.confirmMode = confirm.checked;
    setPref('confirmMove', page.confirmMode);
    page.pendingVertex = null;
    render();
  });
}

function setupModules() {
  parts.board = new Board($('board'), {
    onPoint: tryPoint,
    onGhost: (vertex) => seated(page) && !page.views.view.over && parts.notes.toggle(vertex),
    onCursor: (vertex) => describeCursor(page, parts, vertex),
  });
  parts.log = new RefereeLog($('log'), $('log-empty'));
  parts.clocks = new GameClocks($('clocks'), { onTick: () => renderClaim(page, parts) });
  parts.replay = new ReplayControls({
    slider: $('replay-slider'),
    first: $('replay-first'),
    previous: $('replay-previous'),
    next: $('replay-next'),
    last: $('replay-last'),
    caption: $('replay-caption'),
    perspectives: [...document.querySelectorAll('input[name="perspective"]')],
  }, (model, { seq, caption }) => {
    parts.board.render({ ...model, heat: parts.aid.heatForReplay(page.views.view, seq) });
    parts.log.markCurrent(seq);
    showReplayStep(caption);
  });
  parts.curtain = new Curtain(
    { curtain: $('curtain'), text: $('curtain-text'), button: $('curtain-show'), gameArea: $('game-area') },
    { onRaise: emptyBehindCurtain, load: loadSeatView, onShown: showSeatView },
  );
  parts.aid = new DeductionAid({ bar: $('aid-bar'), toggle: $('aid-toggle'), hint: $('aid-hint') }, {
    gameId,
    onChange: () => {
      if (parts.curtain.up) return;
      if (page.views.view?.over) parts.replay.refresh();
      else render();
    },
  });
  parts.rematch = new Rematch({
    button: $('rematch'), link: $('rematch-link'), status: $('rematch-status'),
    offer: $('rematch-offer'), offerText: $('rematch-offer-text'), accept: $('rematch-accept'), decline: $('rematch-decline'),
  }, {
    gameId, playingSeats: () => playingSeats(page), getView: () => page.views.view, refresh, onError: notice,
    onOffer: () => parts.alerts.rematchOffered(), hotseat: () => page.hotseat,
  });
}

// The seat the page first asks the view of: the one seat, Black in
// hot-seat, none for a spectator.
function firstColor() {
  const colors = Object.keys(page.seats);
  if (colors.length === 2) return 'black';
  return colors.length === 1 ? colors[0] : null;
}

async function loadInitialView(onProblem) {
  page.hotseat = Object.keys(page.seats).length === 2;
  page.activeColor = firstColor();
  let view = await fetchView(page.activeColor, onProblem);
  if (page.hotseat && !view.over && view.to_move !== page.activeColor) {
    page.activeColor = view.to_move;
    view = await fetchView(page.activeColor, onProblem);
  }
  if (!isPlayer(view)) page.activeColor = null;
  return view;
}

// Who is looking and what they see: the seats this visit holds, then the
// view of the one the page acts for, as {view} or {error}. It runs while
// the words load, so each problem comes as a wording for onProblem, to be
// shown once they are there.
async function openGame(links, onProblem) {
  try {
    ({ seats: page.seats, views: page.linkViews } = await findSeats(gameId, links, onProblem));
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
  parts.notes = new Notes(gameId, render);
  const notesToken = gameId ? likelySeatToken(gameId, links) : null;
  const notesRead = notesToken ? parts.notes.load(notesToken).catch(() => {}) : null;
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
  parts.board.configure(view.game.settings);
  $('watch-link').value = `${location.origin}/g/${encodeURIComponent(gameId)}`;
  if (activeToken(page) === notesToken) await notesRead;
  else await parts.notes.load(activeToken(page)).catch(() => {});
  page.views.accept(view);
  parts.talk = new GameTalk({
    gameId, hotseat: page.hotseat, quiet: page.hotseat || view.game.mode === 'computer', onNotice: notice,
    waitForFeed: !page.hotseat,
    withdraw: offeredRematch(gameId) ? () => withdrawRematch(gameId, notice) : null,
    cancelledWording: () => cancelledRematchWording(gameId),
    seat: () => (seated(page) ? { color: page.activeColor, token: activeToken(page) } : null),
  });
  parts.talk.onView(view);
  parts.log.rebuild(view.events ?? []);
  $('loading').hidden = true;
  wireControls();
  onLanguageChange(() => {
    if (parts.curtain.up) {
      parts.curtain.retranslate();
      return;
    }
    parts.log.rebuild(page.views.view.events ?? []);
    parts.replay.refresh();
    render();
  });
  if (page.hotseat && !view.over) {
    parts.curtain.raise(view.to_move);
  } else {
    $('game-area').hidden = false;
    render();
    if (view.over) finishGame();
    if (!page.hotseat) startLive();
    if (!view.over) parts.alerts.renewPush();
  }
  markReady();
}

main();
