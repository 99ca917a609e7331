// The computer player through the real server: whole `computer` games on
// 9x9, 13x13, 25x25 and a torus, in each referee mode and with handicap, where
// the test plays the human seat over the HTTP API; a restart resumes a game
// where the computer was thinking. PHANTOMGO_BOT_PLAYOUTS gives every level
// a tiny budget so that a whole game takes a few seconds, even under ASan.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { call, rng, startServer, tempDir } from '../server/lib.mjs';

const FAST = { PHANTOMGO_BOT_PLAYOUTS: '30' };
let srv;

before(async () => { srv = await startServer({ env: FAST }); });
after(async () => { await srv?.stop(); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function vertices(size) {
  const letters = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.slice(0, size);
  const out = [];
  for (const l of letters) for (let r = 1; r <= size; r++) out.push(`${l}${r}`);
  return out;
}

async function view(base, id, token) {
  const res = await call(base, 'GET', `/api/v1/games/${id}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

// Waits until it is the human's turn or the game is over.
async function humanTurn(base, id, token, human, ms = 30000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await view(base, id, token);
    if (v.over || v.to_move === human) return v;
    if (Date.now() > deadline) throw new Error(`the computer did not answer in ${ms} ms (seq ${v.seq})`);
    await sleep(10);
  }
}

// The human seat attempts random points for `moves` turns, then passes
// every turn; returns the final view.
async function playGame(base, settings, { color = 'black', level = 'easy', moves = 12, seed = 1 } = {}) {
  const res = await call(base, 'POST', '/api/v1/games', { body: { mode: 'computer', color, level, settings } });
  assert.equal(res.status, 201, res.text);
  const id = res.json.game.id;
  const token = res.json.seats[0].token;
  const human = res.json.seats[0].color;
  const computer = human === 'black' ? 'white' : 'black';
  const points = vertices(settings.size ?? 9);
  const random = rng(seed);
  let turns = 0;
  for (;;) {
    const v = await humanTurn(base, id, token, human);
    if (v.over) return { v, id, computer };
    assert.equal(v.seats[computer].computer, true);
    let act;
    if (turns >= moves) act = { action: 'pass' };
    else {
      const own = new Set(v.stones[human]);
      const tried = new Set(v.tried);
      const free = points.filter((p) => !own.has(p) && !tried.has(p));
      act = free.length ? { action: 'attempt', vertex: free[Math.floor(random() * free.length)] } : { action: 'pass' };
    }
    const r = await call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body: { seq: v.seq + 1, ...act } });
    assert.equal(r.status, 200, r.text);
    if (r.json.event.type !== 'illegal') turns++;
  }
}

// Over the finished game's record (everything revealed): the computer's
// attempts never repeat a point within a turn, and the game ended by passes.
function checkFinished({ v, computer }) {
  assert.equal(v.over, true);
  assert.equal(v.result.reason, 'passes', JSON.stringify(v.result));
  const triedThisTurn = new Set();
  let moves = 0;
  for (const e of v.events) {
    if (e.color !== computer) continue;
    if (e.type === 'illegal') {
      assert.ok(!triedThisTurn.has(e.vertex), `the computer retried ${e.vertex} in turn ${e.turn}`);
      triedThisTurn.add(e.vertex);
    } else {
      triedThisTurn.clear();
      if (e.type === 'move') moves++;
    }
  }
  assert.ok(moves > 0, 'the computer played no move');
}

function checkNoRefusal() {
  assert.doesNotMatch(srv.output(), /computer chose a point it may not play|was not played/);
}

test('whole 9x9 game, olympiad rules, computer white', async () => {
  checkFinished(await playGame(srv.url, { size: 9 }, { color: 'black', level: 'easy', seed: 1 }));
  checkNoRefusal();
});

test('whole 9x9 game, common rules, computer black (moves first)', async () => {
  checkFinished(await playGame(srv.url, { size: 9, rules: 'common' }, { color: 'white', level: 'medium', seed: 2 }));
  checkNoRefusal();
});

test('whole 9x9 game, hamburg rules, strong level', async () => {
  checkFinished(await playGame(srv.url, { size: 9, rules: 'hamburg' }, { color: 'black', level: 'strong', seed: 3 }));
  checkNoRefusal();
});

test('whole 13x13 game', async () => {
  checkFinished(await playGame(srv.url, { size: 13 }, { color: 'black', level: 'medium', moves: 20, seed: 4 }));
  checkNoRefusal();
});

// The largest board, where the medium and strong levels (ISMCTS) once
// wrote past an array: a whole game at the medium level, plane and torus.
test('whole 25x25 game, medium level, plane and torus', async () => {
  checkFinished(await playGame(srv.url, { size: 25 }, { color: 'black', level: 'medium', moves: 10, seed: 8 }));
  checkFinished(await playGame(srv.url, { size: 25, torus: true }, { color: 'white', level: 'strong', moves: 10, seed: 9 }));
  checkNoRefusal();
});

test('whole game on a 9x9 torus, hamburg rules', async () => {
  checkFinished(await playGame(srv.url, { size: 9, torus: true, rules: 'hamburg' }, { color: 'white', seed: 5 }));
  checkNoRefusal();
});

test('whole game with a 4-stone handicap, computer taking it and giving it', async () => {
  checkFinished(await playGame(srv.url, { size: 9, handicap: 4 }, { color: 'white', level: 'medium', seed: 6 }));
  checkFinished(await playGame(srv.url, { size: 9, handicap: 4, rules: 'common' }, { color: 'black', seed: 7 }));
  checkNoRefusal();
});

test('several computer games think at once', async () => {
  const games = await Promise.all([11, 12, 13].map((seed) =>
    playGame(srv.url, { size: 7 }, { color: seed % 2 ? 'black' : 'white', seed, moves: 6 })));
  for (const g of games) checkFinished(g);
  checkNoRefusal();
});

test('a restart resumes a game where the computer is to move', async () => {
  const dir = tempDir();
  try {
    // A budget that keeps the computer thinking far longer than the test.
    const slow = await startServer({ dir, env: { PHANTOMGO_BOT_PLAYOUTS: '100000000' } });
    const res = await call(slow.url, 'POST', '/api/v1/games',
                           { body: { mode: 'computer', color: 'white', settings: { size: 9 } } });
    assert.equal(res.status, 201, res.text);
    const id = res.json.game.id;
    const token = res.json.seats[0].token;
    await sleep(200);
    assert.equal((await view(slow.url, id, token)).seq, 0, 'the slow computer already moved');
    await slow.kill();
    const fast = await startServer({ dir, env: FAST });
    try {
      const v = await humanTurn(fast.url, id, token, 'white', 20000);
      assert.equal(v.to_move, 'white');
      assert.ok(v.seq >= 1);
    } finally {
      await fast.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
