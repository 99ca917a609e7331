// Many computer games at once (issue 16), through the real server: a dozen
// humans move at the same moment, each in their own game against the
// computer, and watch for its answers on the game's WebSocket. With one
// computer worker (PHANTOMGO_COMPUTER_THREADS=1) the queue is long, so:
//  - every game gets every answer;
//  - the order is fair: while a game waits for the computer, no other game
//    is answered twice (first come, first served; a turn with illegal
//    attempts is not sent back to the end of the queue). A game waits from
//    the answer to its move (the server queued the computer's turn before
//    answering) to the computer's move, dated by the server: each game has
//    a clock, and the human's turn starts when the computer's move was
//    accepted (wall-clock milliseconds, the test's own clock on this
//    machine). The order in which frames reach the test is no evidence:
//    every socket has its own writer thread, so two games' frames may pass
//    each other on the way;
//  - the view's public "computer" object says when a turn thought with a
//    share of its budget (busy), the same for the player and a spectator,
//    and a turn on an idle server says it is not busy.
// Counts, order and fields only: speed belongs to bench/computer.sh. The
// budget (PHANTOMGO_BOT_PLAYOUTS) keeps each turn a few milliseconds even
// at its smallest share, so the answers of two games cannot pass each other
// on their way to the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, openSocket, startServer } from './lib.mjs';

const GAMES = 12;
const MOVES = 2;
let srv;

before(async () => {
  srv = await startServer({ env: { PHANTOMGO_COMPUTER_THREADS: '1', PHANTOMGO_BOT_PLAYOUTS: '20000' } });
});
after(async () => { await srv?.stop(); });

const POINTS = [...'ABCDEFGHJ'].flatMap((c) => Array.from({ length: 9 }, (_, r) => `${c}${r + 1}`));

async function newComputerGame(i) {
  const res = await call(srv.url, 'POST', '/api/v1/games',
                         { body: { mode: 'computer', color: 'black', level: 'easy', settings: { size: 9 },
                                   time_control: { type: 'absolute', main: 3600 } } });
  assert.equal(res.status, 201, res.text);
  const game = { i, id: res.json.game.id, token: res.json.seats[0].token, answers: [] };
  game.socket = openSocket(srv.url, game.id, { token: game.token });
  await game.socket.waitFor((frames) => frames.some((f) => f.json.type === 'update'));
  return game;
}

const latestView = (game) => game.socket.frames.filter((f) => f.json.type === 'update').at(-1).json.view;

// The human's move (a point neither its stone nor tried this turn; on an
// illegal answer another), resolving the view that answered it.
async function humanMoves(game, nth) {
  let view = latestView(game);
  for (let k = 0; ; k++) {
    const own = new Set(view.stones.black), tried = new Set(view.tried);
    const free = POINTS.filter((p) => !own.has(p) && !tried.has(p));
    const vertex = free[(game.i * 7 + nth * 13 + k) % free.length];
    const r = await call(srv.url, 'POST', `/api/v1/games/${game.id}/actions`,
                         { token: game.token, body: { seq: view.seq + 1, action: 'attempt', vertex } });
    assert.equal(r.status, 200, r.text);
    if (r.json.event.type !== 'illegal') return r.json.view;
    view = r.json.view;
  }
}

// Waits for the computer's answer to the move of seq: the first update
// after it where the human is to move (or the game is over).
async function computerAnswer(game, seq) {
  const answered = (f) => f.json.type === 'update' && f.json.view.seq > seq &&
                          (f.json.view.over || f.json.view.to_move === 'black');
  const frames = await game.socket.waitFor((fs) => fs.some(answered), 60000);
  return frames.find(answered).json.view;
}

test('a dozen computer games at once: every answer, fair order, the busy notice', async () => {
  const games = await Promise.all(Array.from({ length: GAMES }, (_, i) => newComputerGame(i)));
  const log = []; // [wall-clock ms, game, 'asked' | 'answered']
  const busySeen = new Set();
  await Promise.all(games.map(async (game) => {
    for (let n = 0; n < MOVES; n++) {
      const asked = await humanMoves(game, n);
      log.push([Date.now(), game.i, 'asked']);
      const view = await computerAnswer(game, asked.seq);
      log.push([view.clock.turn_started_ms, game.i, 'answered']);
      assert.equal(view.over, false);
      assert.equal(typeof view.computer?.think_percent, 'number', JSON.stringify(view.computer));
      assert.ok(view.computer.think_percent >= 10 && view.computer.think_percent <= 100);
      assert.equal(view.computer.busy, view.computer.think_percent < 100);
      if (view.computer.busy) busySeen.add(game.i);
      game.answers.push(view.seq);
    }
  }));

  for (const game of games) assert.equal(game.answers.length, MOVES, `game ${game.i} got ${game.answers.length} answers`);

  // While a game waits, no other game is answered twice.
  for (const [at, [start, who, kind]] of log.entries()) {
    if (kind !== 'asked') continue;
    const end = log.slice(at + 1).find(([, g, k]) => g === who && k === 'answered')[0];
    const others = new Map();
    for (const [t, g, k] of log)
      if (t > start && t < end && k === 'answered' && g !== who) others.set(g, (others.get(g) ?? 0) + 1);
    for (const [g, count] of others)
      assert.ok(count <= 1, `game ${g} was answered ${count} times while game ${who} waited`);
  }

  assert.ok(busySeen.size > 0, 'no computer turn was shared while twelve games waited');

  // Public: a spectator of a shared game reads the same "computer" object.
  const shared = games.find((g) => busySeen.has(g.i) && latestView(g).computer.busy) ?? games[0];
  const asPlayer = await call(srv.url, 'GET', `/api/v1/games/${shared.id}`, { token: shared.token });
  const asSpectator = await call(srv.url, 'GET', `/api/v1/games/${shared.id}`);
  assert.deepEqual(asSpectator.json.computer, asPlayer.json.computer);

  // Idle again: one more move in a game that was shared; the computer's
  // turn gets its whole budget and the notice is gone.
  const again = games.find((g) => busySeen.has(g.i));
  const asked = await humanMoves(again, MOVES);
  const view = await computerAnswer(again, asked.seq);
  assert.deepEqual(view.computer, { think_percent: 100, busy: false });

  for (const game of games) await game.socket.close();
  assert.doesNotMatch(srv.output(), /computer chose a point it may not play|was not played/);
});
