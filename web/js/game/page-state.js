// The game page's state, in one object: everything pages/game.js decides
// from and the views (game-views.js) draw. Who is looking, what is on its
// way to the server and what the hot-seat keeps of each seat are its
// documented fields, changed by the controller only; what follows from
// them is a function here, so the controller and the views agree on it.
// The page's components (board, log, clocks...) keep their own state and
// are not part of this object.

import { GameState, isPlayer } from './game-state.js';
import { getPref } from '../lib/storage.js';

export function createPageState(gameId) {
  return {
    // The game this page shows (from /g/{id}); '' when the URL names none.
    gameId,
    // The newest view of the seat acted for (views.view, views.seq):
    // GameState drops older ones and hands back only the events not seen.
    views: new GameState(),
    // {color: token} of the seats this visit holds (game-seats.js).
    seats: {},
    // {token: view} of the seat links this visit opened, read to learn
    // their colour and each used once instead of asked for again.
    linkViews: {},
    // Both seats on this device: a curtain (hotseat-curtain.js) between turns.
    hotseat: false,
    // The seat the page acts for now (null: a spectator). In hot-seat, the
    // seat whose turn it is; only its view is ever held.
    activeColor: null,
    // An action is on its way to the server: play buttons wait for it.
    busy: false,
    // A click on the board marks a ghost stone (notes.js) instead of trying the point.
    ghostMode: false,
    // The point waiting for the player's confirmation (confirmMode on).
    pendingVertex: null,
    // The point of an attempt on its way to the server (drawn as a preview
    // stone, so a click made offline visibly waits to be sent).
    sendingVertex: null,
    // A first tap only marks the point; the confirm bar sends it (remembered).
    confirmMode: Boolean(getPref('confirmMove', matchMedia('(pointer: coarse)').matches)),
    // Hot-seat: each seat's keyboard cursor and open folds (notes, options,
    // table), {color: ...}, kept while the other seat plays.
    seatCursors: {},
    seatFolds: {},
  };
}

// The token of the seat the page acts for, or null.
export function activeToken(page) {
  return page.activeColor ? page.seats[page.activeColor] ?? null : null;
}

// A player acting on this page (not a spectator, not a refused seat).
export function seated(page) {
  const view = page.views.view;
  return Boolean(view && isPlayer(view) && activeToken(page));
}

// {color: token} of the seats this page plays: both in hot-seat.
export function playingSeats(page) {
  if (!seated(page)) return {};
  return page.hotseat ? { ...page.seats } : { [page.activeColor]: activeToken(page) };
}
