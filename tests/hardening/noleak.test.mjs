// The no-leak proof over the real API: whatever the server sends a viewer
// (HTTP answers, polled events, WebSocket frames) is a function of that
// viewer's observations alone.
//
// Method: twin games. Two games are played in lockstep that differ ONLY in
// where one player (the "hider") put some of its stones, in a way the other
// player (the viewer) and a spectator cannot observe:
//   - the board is split into the hider's private rows (its home edge), a
//     buffer row nobody ever plays (two on a torus) and the shared rows;
//   - the viewer attempts only in the shared rows; the hider makes the SAME
//     attempts there in both games, and in its private rows plays a
//     DIFFERENT random sequence in each twin, at the same turns;
//   - private stones never touch anything else (the buffer keeps them apart,
//     handicap points and their neighbours are left out), so they are always
//     legal, never capture, are never captured and cause no atari: the
//     viewer's and the spectator's observations are identical in both twins.
// So every answer and frame to the viewer and to the spectator must be
// byte-identical between the twins (game id, tokens, invite and the public
// timing fields masked) until
// the game ends (a). And nothing sent to them before the end may name a point
// they do not know: their own attempts, handicap points, announced captures (b).
// After the end the full board (private stones included) must be revealed.
//
// The deduction aid rides along (the twins have it on): the viewer's aid,
// a heat map sampled from its own view, must be byte-identical between the
// twins at every position, and a spectator's request for it is refused
// identically until the end. (Its points are guesses, not facts, so the
// scan for hidden points (b) does not apply to it; the twin equality is
// the proof that it was made from the viewer's view alone.)
//
// Table talk rides along: both players chat the same words in both twins,
// and in twin A only a spectator keeps guessing the hider's hidden points
// in the spectators' room (online games; hot-seat games have none). The viewer's answers and frames (its chat
// frames included) must still be identical between the twins: a
// spectator's message reaches no player before the end, not even as a sign
// that something was written.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, newGame, request, rng, startServer, watch } from './lib.mjs';

const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
const vtx = (x, y) => LETTERS[x] + (y + 1);
const VERTEX = /^[A-HJ-Z](?:[1-9]|1\d|2[0-5])$/;

let srv;
before(async () => { srv = await startServer({ args: ['--rate-limit', '0', '--create-limit', '0', '--chat-limit', '0'] }); });
after(async () => { await srv?.stop(); });

// Rows (0-based) of the hider's private zone, the buffer and the shared zone.
function zones(size, torus, hider, handicapPoints) {
  const flip = (y) => (hider === 'white' ? y : size - 1 - y);   // white's home is the top
  const privRows = (torus ? [size - 4, size - 3, size - 2] : [size - 3, size - 2, size - 1]).map(flip);
  const bufferRows = (torus ? [size - 5, size - 1] : [size - 4]).map(flip);
  const near = new Set();
  for (const h of handicapPoints) {
    const x = LETTERS.indexOf(h[0]), y = Number(h.slice(1)) - 1;
    for (const [dx, dy] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) {
      near.add(vtx((x + dx + size) % size, (y + dy + size) % size));
    }
  }
  const priv = [], shared = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (privRows.includes(y)) { if (!near.has(vtx(x, y))) priv.push(vtx(x, y)); }
      else if (!bufferRows.includes(y)) shared.push(vtx(x, y));
    }
  }
  return { priv, shared };
}

// Every string in a JSON value that is a vertex of this board.
function vertices(value, size, out = []) {
  if (typeof value === 'string') {
    if (VERTEX.test(value) && LETTERS.indexOf(value[0]) < size && Number(value.slice(1)) <= size) out.push(value);
  } else if (Array.isArray(value)) value.forEach((v) => vertices(v, size, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => vertices(v, size, out));
  return out;
}

// Points announced as captured in any event inside a JSON value.
function capturedIn(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => capturedIn(v, out));
  else if (value && typeof value === 'object') {
    if (Array.isArray(value.captured)) value.captured.forEach((p) => out.add(p));
    Object.values(value).forEach((v) => capturedIn(v, out));
  }
  return out;
}

// Public facts that depend on when the test's requests land, not on the
// board: the clock's times, a chat message's time, whether a seat's socket
// is connected yet and how many spectators' sockets are.
const TIMING = /"(now_ms|turn_started_ms|claim_at_ms|main_ms|period_ms|at_ms|spectators)":\d+|"connected":(?:true|false)/g;

class Twin {
  constructor(game, mask) { Object.assign(this, game); this.mask = mask; }
  norm(text) {
    let t = text;
    for (const [secret, name] of this.mask) t = t.split(secret).join(name);
    return t.replace(TIMING, (field) => field.replace(/:.*/, ':<timing>'));
  }
}

async function makeTwin(mode, settings, viewer) {
  const g = await newGame(srv.url, { mode, settings, color: viewer, extra: { deduction_aid: true } });
  const mask = [[g.id, '<id>'], [g.tokens.black, '<black-token>'], [g.tokens.white, '<white-token>']];
  if (g.created.invite) mask.push([g.created.invite, '<invite>']);
  return new Twin(g, mask);
}

// Plays one pair of twin games; returns counts for the test's log.
async function playTwins({ settings, viewer, mode = 'hotseat', seed, turns = 60, end = 'passes', privateRate = 0.5 }) {
  const hider = viewer === 'black' ? 'white' : 'black';
  const size = settings.size ?? 9;
  const A = await makeTwin(mode, settings, viewer);
  const B = await makeTwin(mode, settings, viewer);
  const first = (await api.view(srv.url, A.id)).json;
  const handicap = first.handicap;
  const { priv, shared } = zones(size, !!settings.torus, hider, handicap);
  const r = rng(seed);
  const privA = [...priv].sort(() => r.next() - 0.5), privB = [...priv].sort(() => r.next() - 0.5);
  assert.notDeepEqual(privA.slice(0, 8), privB.slice(0, 8), 'the twins must differ in hidden stones');

  const watchers = {};
  for (const [name, g] of [['A', A], ['B', B]]) {
    watchers[name] = { viewer: await watch(srv.port, g.id, g.tokens[viewer], 0), spectator: await watch(srv.port, g.id, null, 0) };
  }
  const knownTo = { viewer: new Set(handicap), spectator: new Set(handicap) };
  const stats = { actions: 0, compared: 0, frames: 0, private: 0, chat: 0, aid: 0 };
  const chatFrames = { A: { viewer: [], spectator: [] }, B: { viewer: [], spectator: [] } };
  const same = (what, a, b) => {
    stats.compared++;
    assert.equal(A.norm(a), B.norm(b), `${what} differs between twins that differ only in hidden stones`);
  };
  const noHiddenPoint = (who, text) => {
    let json;
    try { json = JSON.parse(text); } catch { return; }
    for (const p of capturedIn(json)) knownTo[who].add(p);
    for (const p of vertices(json, size)) {
      assert.ok(knownTo[who].has(p), `LEAK: the ${who} was sent ${p}, a point it cannot know: ${text.slice(0, 400)}`);
    }
  };
  const sameFrame = async (role, seq) => {
    const take = async (ws, twin) => {
      for (;;) {
        const m = await ws.next(5000);
        assert.ok(m, `no WebSocket frame for seq ${seq} (${role})`);
        if (m.json?.type === 'chat') chatFrames[twin][role].push(m.text);
        if (m.json?.view?.seq >= seq) return m.text;
        stats.frames++;
      }
    };
    const a = await take(watchers.A[role], 'A'), b = await take(watchers.B[role], 'B');
    stats.frames += 2;
    same(`${role} WebSocket frame at seq ${seq}`, a, b);
    noHiddenPoint(role, a);
  };
  same('viewer first frame', watchers.A.viewer.first.text, watchers.B.viewer.first.text);
  same('spectator first frame', watchers.A.spectator.first.text, watchers.B.spectator.first.text);

  let seq = 0, toMove = first.to_move, over = false, turnCount = 0;
  // Points tried this turn, and each colour's stones as its last answer
  // showed them (stale only by captures, so never too small to avoid).
  const tried = new Set(), ownOf = { black: new Set(), white: new Set() };
  const act = async (g, color, body) => request(srv.url, 'POST', `/api/v1/games/${g.id}/actions`, { token: g.tokens[color], body });

  // Both players say the same in both twins; in twin A a spectator names
  // a hidden point of the hider. The viewer's reading of its room must be
  // the same in both twins.
  const talk = async (n) => {
    for (const color of [viewer, hider]) {
      const text = `${color} says hello ${n}`;
      const [ra, rb] = [await say(A, color, text), await say(B, color, text)];
      assert.equal(ra.status, 201, ra.text);
      same(`${color}'s chat answer`, ra.text, rb.text);
    }
    stats.chat += 2;
    if (mode === 'online') {            // hot-seat games have no spectators' room
      const guess = privA[Math.min(stats.private, privA.length - 1)];
      const spectatorSaid = await request(srv.url, 'POST', `/api/v1/games/${A.id}/chat`, { body: { text: `hider has ${guess}`, name: 'Kibitzer' } });
      assert.equal(spectatorSaid.status, 201, spectatorSaid.text);
      stats.chat++;
    }
    const [ca, cb] = [await readChat(A, A.tokens[viewer]), await readChat(B, B.tokens[viewer])];
    same('viewer\'s chat rooms', ca.text, cb.text);
    noHiddenPoint('viewer', ca.text);
    assert.ok(!('spectators' in ca.json), 'a player reads no spectators\' room before the end');
  };
  const say = (g, color, text) => request(srv.url, 'POST', `/api/v1/games/${g.id}/chat`, { token: g.tokens[color], body: { text } });
  const readChat = (g, token) => request(srv.url, 'GET', `/api/v1/games/${g.id}/chat`, { token });

  while (!over) {
    const actor = toMove;
    const ending = turnCount >= turns;
    let bodyA, bodyB;
    if (ending && end === 'resign' && actor === hider) {
      bodyA = bodyB = { seq: seq + 1, action: 'resign' };
    } else if (ending) {
      bodyA = bodyB = { seq: seq + 1, action: 'pass' };
    } else if (actor === hider && r.next() < privateRate && stats.private < privA.length && tried.size === 0) {
      bodyA = { seq: seq + 1, action: 'attempt', vertex: privA[stats.private] };
      bodyB = { seq: seq + 1, action: 'attempt', vertex: privB[stats.private] };
      stats.private++;
    } else {
      const options = shared.filter((p) => !tried.has(p) && !ownOf[actor].has(p));
      if (options.length === 0 || (actor === viewer ? r.next() < 0.04 : r.next() < 0.02)) {
        bodyA = bodyB = { seq: seq + 1, action: 'pass' };
      } else {
        bodyA = bodyB = { seq: seq + 1, action: 'attempt', vertex: r.pick(options) };
      }
    }
    if (actor === viewer && bodyA.vertex) knownTo.viewer.add(bodyA.vertex);
    const [ra, rb] = [await act(A, actor, bodyA), await act(B, actor, bodyB)];
    assert.equal(ra.status, 200, `action ${JSON.stringify(bodyA)}: ${ra.text}`);
    assert.equal(rb.status, 200, `action ${JSON.stringify(bodyB)}: ${rb.text}`);
    assert.equal(ra.json.event.type, rb.json.event.type, 'the twins must see the same kind of event');
    seq++;
    stats.actions++;
    over = ra.json.view.over;
    assert.equal(rb.json.view.over, over);
    if (actor === viewer && !over) {
      same(`viewer's answer to ${JSON.stringify(bodyA)}`, ra.text, rb.text);
      noHiddenPoint('viewer', ra.text);
      // Refusals are answers too: a point already tried, an own stone, a stale seq.
      const refusals = [];
      if (ra.json.view.tried.length) refusals.push({ seq: seq + 1, action: 'attempt', vertex: ra.json.view.tried[0] });
      const mine = ra.json.view.stones[viewer];
      if (mine.length && ra.json.view.to_move === viewer) refusals.push({ seq: seq + 1, action: 'attempt', vertex: mine[0] });
      refusals.push({ seq: seq + 5, action: 'pass' });
      for (const body of refusals) {
        if (r.next() < 0.3) same(`viewer's refusal ${JSON.stringify(body)}`, (await act(A, viewer, body)).text, (await act(B, viewer, body)).text);
      }
    }
    ownOf[actor] = new Set(ra.json.view.stones[actor]);
    if (ra.json.event.type === 'illegal') tried.add(bodyA.vertex);
    else { tried.clear(); turnCount++; }
    toMove = ra.json.view.to_move;
    if (over) break;
    if (seq % 4 === 0) await talk(seq);
    // What the viewer and a spectator can read now: views, polled events, frames.
    for (const who of ['viewer', 'spectator']) {
      const tokA = who === 'viewer' ? A.tokens[viewer] : undefined;
      const tokB = who === 'viewer' ? B.tokens[viewer] : undefined;
      const va = await api.view(srv.url, A.id, tokA);
      const vb = await api.view(srv.url, B.id, tokB);
      same(`${who} view at seq ${seq}`, va.text, vb.text);
      noHiddenPoint(who, va.text);
      const since = r.int(seq + 1);
      const ea = await api.events(srv.url, A.id, tokA, since);
      const eb = await api.events(srv.url, B.id, tokB, since);
      same(`${who} events since ${since} at seq ${seq}`, ea.text, eb.text);
      noHiddenPoint(who, ea.text);
      const [aa, ab] = [await api.aid(srv.url, A.id, tokA), await api.aid(srv.url, B.id, tokB)];
      assert.equal(aa.status, who === 'viewer' ? 200 : 401, aa.text);
      same(`${who} deduction aid at seq ${seq}`, aa.text, ab.text);
      if (who === 'viewer') stats.aid++;
      await sameFrame(who, seq);
    }
    // Before the end the record is refused to everyone, identically.
    if (r.next() < 0.1) {
      same('SGF before the end', (await api.sgf(srv.url, A.id)).text, (await api.sgf(srv.url, B.id)).text);
    }
  }
  // The viewer's chat frames were the same in both twins, and nothing of
  // the players' room reached the spectator before the end.
  assert.deepEqual(chatFrames.A.viewer.map((f) => A.norm(f)), chatFrames.B.viewer.map((f) => B.norm(f)),
    'the viewer\'s chat frames differ between twins that differ only in a spectator\'s messages');
  for (const twin of ['A', 'B']) {
    for (const f of chatFrames[twin].spectator) assert.doesNotMatch(f, /"room":"players"/, 'a spectator read the players before the end');
  }
  // After the end everything is revealed: the hidden private stones included.
  const final = await api.view(srv.url, A.id, A.tokens[viewer]);
  assert.equal(final.json.over, true);
  const shown = new Set([...final.json.stones.black, ...final.json.stones.white]);
  for (const p of privA.slice(0, stats.private)) assert.ok(shown.has(p), `private stone ${p} not revealed at the end`);
  assert.equal((await api.sgf(srv.url, A.id)).status, 200);
  for (const w of Object.values(watchers)) { w.viewer.close(); w.spectator.close(); }
  assert.ok(stats.private >= 3, 'the hider must have placed hidden stones');
  assert.ok(stats.aid >= 10, 'the viewer\'s aid must have been compared');
  return stats;
}

const cases = [
  { name: 'olympiad 9x9, black watches white hide', settings: { size: 9 }, viewer: 'black', seed: 1 },
  { name: 'olympiad 9x9, white watches black hide (online mode)', settings: { size: 9 }, viewer: 'white', mode: 'online', seed: 2 },
  { name: 'common rules, handicap 2, black watches', settings: { size: 9, rules: 'common', handicap: 2 }, viewer: 'black', seed: 3 },
  { name: 'hamburg rules, white watches', settings: { size: 9, rules: 'hamburg' }, viewer: 'white', seed: 4 },
  { name: 'hamburg rules, handicap 3, white watches, black resigns', settings: { size: 9, rules: 'hamburg', handicap: 3 }, viewer: 'white', seed: 5, end: 'resign' },
  { name: 'torus 9x9, black watches', settings: { size: 9, torus: true }, viewer: 'black', seed: 6 },
  { name: '11x11 superko-free common, white watches (online)', settings: { size: 11, rules: 'common' }, viewer: 'white', mode: 'online', seed: 7, turns: 36 },
  { name: 'capture Go, black watches', settings: { size: 9, capture_go: true }, viewer: 'black', seed: 8, privateRate: 0.85 },
];

for (const c of cases) {
  test(`twin games give identical answers: ${c.name}`, async (t) => {
    const s = await playTwins(c);
    t.diagnostic(`${s.actions} actions, ${s.private} hidden stones, ${s.compared} byte-compared answers, ${s.frames} frames, ${s.chat} chat messages, ${s.aid} aid maps`);
  });
}

test('the vertex scanner and the zones hold what the proof relies on', () => {
  const z = zones(9, false, 'white', ['C3', 'G7']);
  assert.ok(!z.priv.includes('G7') && !z.priv.includes('G8') && !z.priv.includes('F7'));
  assert.ok(z.priv.every((p) => Number(p.slice(1)) >= 7) && z.shared.every((p) => Number(p.slice(1)) <= 5));
  const zt = zones(9, true, 'black', []);
  assert.ok(zt.priv.every((p) => [2, 3, 4].includes(Number(p.slice(1)))));
  assert.ok(zt.shared.every((p) => [6, 7, 8, 9].includes(Number(p.slice(1)))));
  assert.deepEqual(vertices({ a: ['D4', 'pass', 'I3', 'Z9'], b: { c: 'J9' } }, 9), ['D4', 'J9']);
});
