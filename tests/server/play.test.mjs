// Whole games over HTTP and WebSocket, in online and hot-seat mode and in
// every table variant: each seat reads its view and acts like a client,
// sockets for both seats and a spectator collect every pushed frame, and
// every answer and frame is checked to hold nothing of the other seat's
// hidden stones; at the end everyone sees everything.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, call, newGame, openSocket, Knowledge, checkViewHidesOpponent, rng, pickAttempt,
} from './lib.mjs';

let server;
before(async () => { server = await startServer(); });
after(async () => {
  const r = await server.stop();
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

const other = (c) => (c === 'black' ? 'white' : 'black');

function recordCapturesFrom(view, knowledge) {
  for (const e of view.events) if (e.captured) knowledge.recordCaptures(e);
}

// Plays one game to its end; returns what the test needs to check the end.
async function playGame({ mode, settings, seed, resignAfter = Infinity }) {
  const base = server.url;
  const { id, tokens } = await newGame(base, { mode, settings });
  const start = (await call(base, 'GET', `/api/v1/games/${id}`)).json;
  const knowledge = new Knowledge(settings, start.handicap);
  const sockets = {
    black: openSocket(base, id, { token: tokens.black }),
    white: openSocket(base, id, { token: tokens.white }),
    spectator: openSocket(base, id),
  };
  await Promise.all(Object.values(sockets).map((s) => s.opened));
  const random = rng(seed);
  const legal = { black: 0, white: 0 };
  let toMove = start.to_move, over = false, seq = 0, turnAttempts = 0, actions = 0;
  while (!over) {
    const token = tokens[toMove];
    const mine = await call(base, 'GET', `/api/v1/games/${id}`, { token });
    assert.equal(mine.status, 200, mine.text);
    const view = mine.json;
    recordCapturesFrom(view, knowledge);
    knowledge.checkText(toMove, mine.text, `view ${seq}`);
    checkViewHidesOpponent(view, knowledge, `view ${seq}`);
    assert.equal(view.seq, seq);
    let body;
    const vertex = pickAttempt(view, random);
    if (actions >= resignAfter) body = { seq: seq + 1, action: 'resign' };
    else if (!vertex || turnAttempts > 15 || (legal[toMove] > 14 && random() < 0.2))
      body = { seq: seq + 1, action: 'pass' };
    else body = { seq: seq + 1, action: 'attempt', vertex };
    const res = await call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body });
    assert.equal(res.status, 200, `${JSON.stringify(body)} -> ${res.text}`);
    actions++;
    const { event, view: after } = res.json;
    assert.equal(event.seq, seq + 1);
    assert.equal(after.seq, seq + 1);
    knowledge.recordAttempt(toMove, event);
    recordCapturesFrom(after, knowledge);
    if (event.captured) knowledge.recordCaptures(event);
    seq = after.seq;
    over = after.over;
    if (!over) {
      knowledge.checkText(toMove, res.text, `answer ${seq}`);
      checkViewHidesOpponent(after, knowledge, `answer ${seq}`);
    }
    if (event.type === 'move') legal[toMove]++;
    turnAttempts = event.type === 'illegal' ? turnAttempts + 1 : 0;
    if (!over) toMove = after.to_move;
  }
  // Every socket got every event once, in order, and ends on the final view.
  for (const [who, s] of Object.entries(sockets)) {
    await s.waitFor((frames) => frames.some((f) => f.json.view?.seq === seq && f.json.view.over));
    const seqs = s.frames.flatMap((f) => f.json.events.map((e) => e.seq));
    assert.deepEqual(seqs, Array.from({ length: seq }, (_, i) => i + 1), `${who}'s frames`);
    for (const f of s.frames) {
      assert.equal(f.json.type, 'update');
      assert.equal(f.json.view.viewer, who);
      if (f.json.view.over) continue;
      knowledge.checkText(who, f.text, `${who} frame ${f.json.view.seq}`);
      checkViewHidesOpponent(f.json.view, knowledge, `${who} frame ${f.json.view.seq}`);
    }
    await s.close();
  }
  return { id, tokens, seq, knowledge, start };
}

// After the end the record is public: every view shows the whole board.
async function checkRevealed({ id, tokens, seq }) {
  const views = {};
  for (const who of ['black', 'white', 'spectator'])
    views[who] = (await call(server.url, 'GET', `/api/v1/games/${id}`, { token: tokens[who] })).json;
  for (const who of ['white', 'spectator']) assert.deepEqual(views[who].stones, views.black.stones);
  for (const v of Object.values(views)) {
    assert.equal(v.over, true);
    assert.equal(v.seq, seq);
    for (const e of v.events)
      if (e.type === 'move' || e.type === 'illegal') assert.ok(e.vertex, `revealed ${JSON.stringify(e)}`);
  }
  const r = views.spectator.result;
  if (r.score) {
    assert.equal(r.breakdown.black.stones + r.breakdown.black.territory, r.score.black);
    assert.equal(r.breakdown.white.stones + r.breakdown.white.territory + r.breakdown.white.komi, r.score.white);
    assert.equal(r.territory.black.length, r.breakdown.black.territory);
  }
  const sgf = await call(server.url, 'GET', `/api/v1/games/${id}/sgf`);
  assert.equal(sgf.status, 200);
  assert.match(sgf.headers.get('content-type'), /application\/x-go-sgf/);
  assert.match(sgf.text, /^\(;/);
  return views;
}

const variants = [
  ['plain olympiad', { size: 7 }],
  ['torus', { size: 7, torus: true }],
  ['handicap', { size: 9, handicap: 3 }],
  ['capture go', { size: 7, capture_go: true }],
  ['hamburg rules', { size: 7, rules: 'hamburg' }],
  ['common rules', { size: 7, rules: 'common' }],
  ['superko', { size: 7, ko: 'superko' }],
];

for (const mode of ['online', 'hotseat']) {
  variants.forEach(([name, settings], i) => {
    test(`${mode}: a whole ${name} game hides each seat's stones until the end`, async () => {
      const game = await playGame({ mode, settings, seed: 1000 * i + (mode === 'online' ? 1 : 2) });
      const views = await checkRevealed(game);
      if (settings.capture_go && views.black.result.reason === 'capture')
        assert.ok(views.black.result.winner);
    });
  });
}

test('spectators see the handicap stones until the end, then every stone', async () => {
  const settings = { size: 9, handicap: 4 };
  const game = await playGame({ mode: 'online', settings, seed: 77 });
  assert.equal(game.start.stones.black.length, 4);
  assert.deepEqual(game.start.stones.black, game.start.handicap);
  assert.equal(game.start.to_move, 'white');
  const views = await checkRevealed(game);
  const all = views.spectator.stones.black.length + views.spectator.stones.white.length;
  assert.equal(all, views.spectator.on_board.black + views.spectator.on_board.white);
});

test('a resignation ends the game at once and reveals the board', async () => {
  const game = await playGame({ mode: 'online', settings: { size: 7 }, seed: 5, resignAfter: 9 });
  const views = await checkRevealed(game);
  assert.equal(views.spectator.result.reason, 'resign');
  assert.equal(views.spectator.result.score, undefined);
});
