// A client that keeps one hotseat game going through the HTTP API and
// remembers every action the server acknowledged, for the tests that change
// the server under a load (a backup while serving, a rolling restart) and
// then check that nothing acknowledged was lost.
//
// It plays random attempts on a 9x9 board, avoiding its own stones and the
// points it tried this turn as the last answer showed them, and passes now
// and then. It resends an action only when the connection closed before
// any answer came (the request may or may not have arrived; actions are
// idempotent by seq, so the resend answers the first outcome or acts now),
// the one retry an honest client makes. Any answer but 200 is a failure,
// kept in `failures`: the tests require none.
import assert from 'node:assert/strict';
import { call } from './http.mjs';
import { newGame, rng } from './games.mjs';

const COLS = 'ABCDEFGHJ';

// A new hotseat 9x9 game on base: {id, tokens: {black, white}}.
export async function newHotseatGame(base) {
  const { id, tokens } = await newGame(base);
  return { id, tokens };
}

export class Player {
  // base: the server's URL, or a function returning it (a server that moves).
  constructor(base, game, seed) {
    this.base = typeof base === 'function' ? base : () => base;
    this.game = game;
    this.next = rng(seed);
    this.seq = 0;
    this.toMove = 'black';
    this.own = { black: [], white: [] };
    this.tried = [];
    this.acked = [];      // {seq, color, type, vertex, at}: at = Date.now() when the answer came
    this.resent = 0;      // requests sent again after a connection closed without an answer
    this.failures = [];   // answers other than 200, as text
  }

  nextBody() {
    const bad = new Set([...this.own[this.toMove], ...this.tried]);
    const free = [];
    for (let y = 1; y <= 9; y++) for (const c of COLS) if (!bad.has(c + y)) free.push(c + y);
    if (free.length === 0 || this.next() < 0.03) return { seq: this.seq + 1, action: 'pass' };
    return { seq: this.seq + 1, action: 'attempt', vertex: free[Math.floor(this.next() * free.length)] };
  }

  // One action, resent while its connection closes before any answer
  // (up to `tries` times). Resolves false once the game is over or an
  // answer other than 200 came.
  async step({ tries = 50 } = {}) {
    const color = this.toMove;
    const body = this.nextBody();
    for (let attempt = 0; ; attempt++) {
      let res;
      try {
        res = await call(this.base(), 'POST', `/api/v1/games/${this.game.id}/actions`,
                         { token: this.game.tokens[color], body });
      } catch (e) {
        if (attempt >= tries) throw new Error(`action ${JSON.stringify(body)}: no answer after ${tries} resends: ${e.message}`);
        this.resent++;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      if (res.status !== 200) {
        this.failures.push(`${this.game.id} ${JSON.stringify(body)}: ${res.status} ${res.text.slice(0, 200)}`);
        return false;
      }
      this.absorb(res.json, color);
      return !res.json.view.over;
    }
  }

  absorb({ event, view }, color) {
    this.acked.push({ seq: view.seq, color, type: event.type, vertex: event.vertex, at: Date.now() });
    this.seq = view.seq;
    this.toMove = view.to_move;
    this.own[color] = view.stones[color];
    this.tried = color === view.to_move ? view.tried : [];
  }

  // Takes the game's state from the server (after a restore that went back
  // in time): its seq, whose turn, that seat's stones and tried points.
  async resync() {
    const get = (color) => call(this.base(), 'GET', `/api/v1/games/${this.game.id}`, { token: this.game.tokens[color] });
    const first = await get('black');
    assert.equal(first.status, 200, first.text);
    this.toMove = first.json.to_move;
    const view = this.toMove ? (await get(this.toMove)).json : first.json;
    this.seq = view.seq;
    if (this.toMove) {
      this.own[this.toMove] = view.stones[this.toMove];
      this.tried = view.tried;
    }
  }

  // Plays until stopped() or the game ends (or an answer fails).
  async play(stopped) {
    while (!stopped() && this.toMove && await this.step()) { /* next action */ }
  }
}

// Every action in `acked` is in the game's log on base, as its actor sees
// it (its seq, kind and point).
export async function assertActionsKept(base, game, acked) {
  for (const color of ['black', 'white']) {
    const res = await call(base, 'GET', `/api/v1/games/${game.id}/events?since=0`, { token: game.tokens[color] });
    assert.equal(res.status, 200, res.text);
    const bySeq = new Map(res.json.events.map((e) => [e.seq, e]));
    for (const a of acked.filter((x) => x.color === color)) {
      const e = bySeq.get(a.seq);
      assert.ok(e, `game ${game.id}: acknowledged action ${a.seq} is lost`);
      assert.equal(e.type, a.type, `game ${game.id} seq ${a.seq}`);
      assert.equal(e.color, color);
      if (a.vertex) assert.equal(e.vertex, a.vertex);
    }
  }
}
