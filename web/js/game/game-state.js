// The page's copy of one viewer's view (docs/API.md "Read my view") and the
// facts derived from it. Views arrive from three places (action answers, the
// WebSocket, polling) in any order; accept() keeps the newest by sequence
// number and hands back only the events not applied before, so a duplicate
// or late message can never replay a sound, a log line or an old board.

export function opponentOf(color) {
  return color === 'black' ? 'white' : 'black';
}

export class GameState {
  constructor() {
    this.view = null;
  }

  get seq() {
    return this.view ? this.view.seq : 0;
  }

  // Returns the events newer than the current view, or null when the view is
  // older than the one held (and so ignored). A view with the same seq is
  // taken: some facts (a rematch offer) change without a new event.
  accept(view, events = []) {
    if (!view || (this.view && view.seq < this.view.seq)) return null;
    const previousSeq = this.seq;
    const source = Array.isArray(view.events) ? view.events : events;
    const fresh = source.filter((event) => event.seq > previousSeq);
    this.view = view;
    return fresh;
  }

  // A new viewer (hot-seat handover): their view replaces the old one and
  // nothing counts as news.
  replace(view) {
    this.view = view;
  }
}

export function isPlayer(view) {
  return view.viewer === 'black' || view.viewer === 'white';
}

export function isMyTurn(view) {
  return isPlayer(view) && !view.over && view.to_move === view.viewer;
}

export function computerToMove(view) {
  return !view.over && Boolean(view.seats?.[view.to_move]?.computer);
}

// Failed attempts in the turn in progress: public (everybody hears "illegal").
export function attemptsThisTurn(view) {
  return (view.events ?? []).filter((event) => event.turn === view.turn && event.type === 'illegal').length;
}
