// Helpers of the server suite: start the real binary (`phantomgo serve
// --port 0`) on a temporary database, call its HTTP API (tests/lib/http.mjs), open
// WebSockets with the `ws` package, and check that what one viewer receives
// holds nothing that viewer may not know.
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { call } from '../lib/http.mjs';
import * as serverProcess from '../lib/server.mjs';

export { BIN, ROOT } from '../lib/server.mjs';
export { call };
export { newGame, rng } from '../lib/games.mjs';

export function tempDir() {
  return serverProcess.tempDir('pg-server-');
}

// Starts a server with no rate limits (tests/lib/server.mjs: its options,
// its handle, and stop(), which asserts a clean exit). `dir` keeps the
// database across restarts (the caller removes it); otherwise a fresh
// directory is made and removed by stop().
export function startServer({ args = [], ...options } = {}) {
  return serverProcess.startServer({ ...options, args: ['--rate-limit', '0', '--create-limit', '0', ...args] });
}

// Polls probe() until it returns something truthy, and returns that;
// fails with "timed out waiting for <what>" after ms milliseconds.
export async function until(what, probe, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function expectError(res, status, code) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${res.text}`);
  assert.equal(res.json?.error?.code, code, res.text);
  assert.equal(typeof res.json.error.message, 'string');
}

// ---- WebSocket ------------------------------------------------------------

// Opens a game's socket and says hello; collects every frame. Resolves
// {frames, closed (promise of {code, reason}), waitFor(pred), close()}.
export function openSocket(base, id, { token = null, since = 0, hello = true } = {}) {
  const u = new URL(`/api/v1/games/${id}/ws`, base);
  u.protocol = 'ws:';
  const ws = new WebSocket(u);
  const frames = [];
  const waiters = [];
  const closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('message', (data) => {
    frames.push({ text: String(data), json: JSON.parse(String(data)) });
    for (const w of [...waiters]) if (w.pred(frames)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(frames); }
  });
  ws.on('error', () => {});
  const opened = new Promise((resolve, reject) => {
    ws.on('open', () => {
      if (hello) ws.send(JSON.stringify({ type: 'hello', token, since }));
      resolve();
    });
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
    closed.then(resolve);
  });
  return {
    ws, frames, closed, opened,
    waitFor(pred, ms = 10000) {
      if (pred(frames)) return Promise.resolve(frames);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`timed out waiting for a frame; got ${frames.map((f) => f.text.slice(0, 80)).join('\n')}`));
        }, ms);
        const w = { pred, resolve: (v) => { clearTimeout(timer); resolve(v); } };
        waiters.push(w);
      });
    },
    // The frames' events, in order, must be 1..n exactly once.
    lastSeq() { return frames.length ? frames.at(-1).json.view?.seq ?? 0 : 0; },
    close() { ws.close(); return closed; },
  };
}

// ---- the no-leak checks ----------------------------------------------------

const VERTEX = /"([A-HJ-Z](?:[1-9]|1\d|2[0-5]))"/g;

// The GTP vertices named anywhere in a JSON text.
export function vertexTokens(text) {
  return new Set([...text.matchAll(VERTEX)].map((m) => m[1]));
}

// A record of what happened, kept by the test from the answers each seat got
// (only the actor's answer names its point), used to judge every text a
// viewer receives: what each viewer may know so far.
export class Knowledge {
  constructor(settings, handicap = []) {
    this.rules = settings.rules ?? 'olympiad';
    this.handicap = new Set(handicap);
    this.own = { black: new Set(), white: new Set() };        // points each seat tried
    this.publicPoints = new Set(handicap);                      // captures announced to all
    this.privatePoints = { black: new Set(), white: new Set() }; // captures told to one
    this.secret = new Set();                                    // every point either seat tried
  }

  // event: the actor's own view of its event (with vertex).
  recordAttempt(color, event) {
    if (event.vertex) { this.own[color].add(event.vertex); this.secret.add(event.vertex); }
  }

  recordCaptures(event) {
    // Captured points as told to the owner of the captured stones.
    const owner = event.color === 'black' ? 'white' : 'black';
    for (const p of event.captured ?? []) {
      if (this.rules === 'hamburg') this.privatePoints[owner].add(p);
      else this.publicPoints.add(p);
    }
  }

  known(viewer) {
    const k = new Set(this.publicPoints);
    if (viewer === 'black' || viewer === 'white') {
      for (const p of this.own[viewer]) k.add(p);
      for (const p of this.privatePoints[viewer]) k.add(p);
    }
    return k;
  }

  // Every vertex a viewer's text names must be one it may know.
  checkText(viewer, text, where) {
    const known = this.known(viewer);
    for (const v of vertexTokens(text))
      if (this.secret.has(v)) assert.ok(known.has(v), `${where}: ${viewer} was told ${v}: ${text.slice(0, 400)}`);
  }
}

// Structural checks of one view for its viewer while the game is on.
export function checkViewHidesOpponent(view, knowledge, where) {
  const me = view.viewer;
  for (const color of ['black', 'white']) {
    if (color === me) continue;
    for (const p of view.stones[color])
      assert.ok(knowledge.handicap.has(p), `${where}: ${me} sees a ${color} stone at ${p}`);
  }
  for (const e of view.events) {
    if (e.color !== me) {
      assert.equal(e.vertex, undefined, `${where}: ${me} sees where ${e.color} played: ${JSON.stringify(e)}`);
      assert.equal(e.reason, undefined, `${where}: ${me} sees why ${e.color} failed`);
    }
    if (e.captured && knowledge.rules === 'hamburg')
      assert.ok(me !== 'spectator' && e.color !== me, `${where}: ${me} was told hamburg capture points`);
    if (e.reason) assert.equal(knowledge.rules, 'hamburg', `${where}: a reason outside hamburg rules`);
  }
  if (me === 'spectator') {
    assert.deepEqual(view.tried, []);
    assert.deepEqual(view.rejected, []);
    assert.equal(view.last_own, null);
  }
}

const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
export function allVertices(size) {
  const out = [];
  for (let y = 1; y <= size; y++) for (let x = 0; x < size; x++) out.push(`${COLUMNS[x]}${y}`);
  return out;
}

// Picks an attempt for the seat to move from its own view: a point neither
// its own stone nor tried this turn, from a seeded generator (rng).
export function pickAttempt(view, random) {
  const mine = new Set(view.stones[view.viewer]);
  const tried = new Set(view.tried);
  const free = allVertices(view.game.settings.size).filter((v) => !mine.has(v) && !tried.has(v));
  return free.length ? free[Math.floor(random() * free.length)] : null;
}
