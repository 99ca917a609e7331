// Time controls through the real server, each run to its end on a clock the
// test moves (`serve --test-clock`, POST /api/v1/test/clock) instead of
// sleeping: absolute time, Fischer increments, byo-yomi periods kept, lost
// and exhausted, correspondence days per move, illegal attempts charged to
// the same turn, a restart in the middle that neither stops nor resets a
// clock, the deadline thread ending a game nobody touches, claims of an
// abandoned untimed game, seat presence from WebSockets, the computer
// keeping to its clock, strict validation, and a version-1 database file
// upgraded in place.
//
// The virtual clock is the wall clock plus the advances, so real time still
// flows between two requests: remaining times are compared with a tolerance
// (TOL, wider under a sanitizer: PHANTOMGO_SLOW) and deadlines are approached
// with margins far larger than it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { BIN, ROOT, startServer, call, newGame, openSocket, expectError, tempDir, until } from './lib.mjs';

const S = 1000;
const H = 3600 * S;
const TOL = (process.env.PHANTOMGO_SLOW ? 6 : 3) * S;
let server;

before(async () => { server = await startServer({ args: ['--test-clock'] }); });
after(async () => {
  const r = await server.stop();
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

const advance = async (ms, base = server.url) => {
  const res = await call(base, 'POST', '/api/v1/test/clock', { body: { advance_ms: ms } });
  assert.equal(res.status, 200, res.text);
  return res.json.now_ms;
};

async function viewOf(id, token = null, base = server.url) {
  const res = await call(base, 'GET', `/api/v1/games/${id}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

// One action with the next seq; resolves the raw response.
async function actRaw(id, token, body, base = server.url) {
  const view = await viewOf(id, token, base);
  return call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body: { seq: view.seq + 1, ...body } });
}

async function act(id, token, body, base = server.url) {
  const res = await actRaw(id, token, body, base);
  assert.equal(res.status, 200, `${JSON.stringify(body)} -> ${res.text}`);
  return res.json;
}

function near(actual, expected, what) {
  assert.ok(Math.abs(actual - expected) <= TOL, `${what}: ${actual} ms, expected about ${expected} ms`);
}

// newGame in lib.mjs knows no time control: create directly.
async function createGame(body) {
  const res = await call(server.url, 'POST', '/api/v1/games', { body });
  assert.equal(res.status, 201, res.text);
  const tokens = Object.fromEntries(res.json.seats.map((s) => [s.color, s.token]));
  return { id: res.json.game.id, tokens, created: res.json };
}

const hotseat = (time_control) => createGame({ mode: 'hotseat', time_control });

function timeoutOf(view, loser) {
  assert.equal(view.over, true);
  assert.equal(view.result.reason, 'timeout');
  assert.equal(view.result.winner, loser === 'black' ? 'white' : 'black');
  const last = view.events.at(-1);
  assert.equal(last.type, 'timeout');
  assert.equal(last.color, loser);
}

test('absolute time: the deadline thread ends the game and tells both seats and spectators', async () => {
  const { id, tokens, created } = await hotseat({ type: 'absolute', main: 600 });
  assert.deepEqual(created.game.time_control, { type: 'absolute', main: 600 });
  let view = await viewOf(id);
  assert.equal(view.clock.running, 'black');
  near(view.clock.black.main_ms, 600 * S, 'fresh');
  assert.equal(view.clock.claim_at_ms, null, 'a timed game is never claimed: its clock decides');
  await advance(100 * S);
  await act(id, tokens.black, { action: 'attempt', vertex: 'C3' });
  await advance(50 * S);
  await act(id, tokens.white, { action: 'attempt', vertex: 'G7' });
  view = await viewOf(id);
  assert.equal(view.clock.running, 'black');
  near(view.clock.black.main_ms, 500 * S, 'black after 100 s');
  near(view.clock.white.main_ms, 550 * S, 'white after 50 s');
  assert.ok(Math.abs(view.clock.now_ms - Date.now()) > 140 * S, 'the snapshot time is the server clock');

  const sockets = [openSocket(server.url, id, { token: tokens.black }), openSocket(server.url, id, { token: tokens.white }),
    openSocket(server.url, id)];
  await Promise.all(sockets.map((s) => s.opened));
  await advance(490 * S);
  assert.equal((await viewOf(id)).over, false, 'ten seconds left');
  await advance(15 * S);
  for (const s of sockets) {
    await s.waitFor((frames) => frames.some((f) => f.json.events?.some((e) => e.type === 'timeout')));
    const event = s.frames.flatMap((f) => f.json.events).find((e) => e.type === 'timeout');
    assert.equal(event.color, 'black');
    timeoutOf(s.frames.at(-1).json.view, 'black');
  }
  await Promise.all(sockets.map((s) => s.close()));
  view = await viewOf(id);
  timeoutOf(view, 'black');
  assert.equal(view.clock.running, null);
  assert.equal(view.clock.black.main_ms, 0);
  expectError(await actRaw(id, tokens.black, { action: 'pass' }), 409, 'game_over');
});

test('thinking after an illegal attempt counts against the same turn', async () => {
  const { id, tokens } = await hotseat({ type: 'absolute', main: 600 });
  await act(id, tokens.black, { action: 'attempt', vertex: 'C3' });
  await act(id, tokens.white, { action: 'attempt', vertex: 'E5' });
  await advance(30 * S);
  const illegal = await act(id, tokens.black, { action: 'attempt', vertex: 'E5' });
  assert.equal(illegal.event.type, 'illegal');
  assert.equal(illegal.view.clock.running, 'black', 'the turn goes on');
  near(illegal.view.clock.black.main_ms, 570 * S, 'charged so far');
  await advance(30 * S);
  const moved = await act(id, tokens.black, { action: 'attempt', vertex: 'D4' });
  assert.equal(moved.event.type, 'move');
  near(moved.view.clock.black.main_ms, 540 * S, 'one turn of 60 s');
  assert.equal(moved.view.clock.running, 'white');
});

test('fischer: each turn adds the increment, then the clock runs out', async () => {
  const { id, tokens } = await hotseat({ type: 'fischer', main: 60, increment: 10 });
  for (const vertex of ['A1', 'B1', 'C1']) {
    await advance(20 * S);
    await act(id, tokens.black, { action: 'attempt', vertex });
    await act(id, tokens.white, { action: 'attempt', vertex: vertex.replace('1', '9') });
  }
  const view = await viewOf(id);
  near(view.clock.black.main_ms, 60 * S - 3 * 20 * S + 3 * 10 * S, 'black: 60 - 3x20 + 3x10');
  near(view.clock.white.main_ms, 60 * S + 3 * 10 * S, 'white: three increments');
  await advance(20 * S);
  assert.equal((await viewOf(id)).over, false);
  await advance(15 * S);
  timeoutOf(await until('the fischer timeout', async () => { const v = await viewOf(id); return v.over && v; }), 'black');
});

test('byo-yomi: main time, a period kept and reset, a period lost, then the last one', async () => {
  const { id, tokens } = await hotseat({ type: 'byoyomi', main: 10, periods: 3, period: 30 });
  await advance(25 * S);                       // main gone, 15 s into the first period
  let view = await viewOf(id);
  assert.equal(view.clock.black.main_ms, 0);
  assert.equal(view.clock.black.periods, 3);
  near(view.clock.black.period_ms, 15 * S, 'in the first period');
  let answer = await act(id, tokens.black, { action: 'attempt', vertex: 'C3' });
  assert.equal(answer.view.clock.black.periods, 3, 'a period used within its time is kept');
  assert.equal(answer.view.clock.black.period_ms, 30 * S, 'and starts afresh');
  await act(id, tokens.white, { action: 'pass' });
  await advance(45 * S);                       // one period overrun, 15 s into the next
  answer = await act(id, tokens.black, { action: 'attempt', vertex: 'D4' });
  assert.equal(answer.view.clock.black.periods, 2);
  assert.equal(answer.view.clock.black.period_ms, 30 * S);
  await act(id, tokens.white, { action: 'attempt', vertex: 'G7' });
  await advance(40 * S);
  view = await viewOf(id);
  assert.equal(view.clock.black.periods, 1, 'mid-turn: one period gone');
  near(view.clock.black.period_ms, 20 * S, 'mid-turn period');
  await advance(15 * S);
  assert.equal((await viewOf(id)).over, false);
  await advance(10 * S);
  timeoutOf(await until('the byo-yomi timeout', async () => { const v = await viewOf(id); return v.over && v; }), 'black');
  near((await viewOf(id)).clock.white.main_ms, 10 * S, 'white answered at once');
});

test('correspondence: days per move, renewed each move; untimed games never time out', async () => {
  const { id, tokens, created } = await hotseat({ type: 'none', days_per_move: 1 });
  assert.deepEqual(created.game.time_control, { type: 'none', days_per_move: 1 });
  await advance(20 * H);
  await act(id, tokens.black, { action: 'attempt', vertex: 'C3' });
  await advance(23 * H);
  let view = await viewOf(id);
  near(view.clock.white.main_ms, 1 * H, 'white: an hour of its day left');
  await act(id, tokens.white, { action: 'attempt', vertex: 'G7' });
  view = await viewOf(id);
  assert.equal(view.clock.white.main_ms, 24 * H, 'a full day for the next move');
  await advance(25 * H);
  timeoutOf(await until('the correspondence timeout', async () => { const v = await viewOf(id); return v.over && v; }), 'black');

  const untimed = await hotseat(undefined);
  assert.deepEqual(untimed.created.game.time_control, { type: 'none' });
  await advance(100 * 24 * H);
  view = await viewOf(untimed.id);
  assert.equal(view.over, false);
  assert.equal(view.clock.running, 'black');
  assert.equal(view.clock.black, null, 'an untimed side has no numbers');
});

test('a restart in the middle neither stops nor resets the clock; the timer is armed at start-up', async () => {
  const dir = tempDir();
  try {
    let s1 = await startServer({ dir, args: ['--test-clock'] });
    const base1 = s1.url;
    const res = await call(base1, 'POST', '/api/v1/games', { body: { mode: 'hotseat', time_control: { type: 'absolute', main: 600 } } });
    const id = res.json.game.id;
    const tokens = Object.fromEntries(res.json.seats.map((s) => [s.color, s.token]));
    await advance(100 * S, base1);
    await act(id, tokens.black, { action: 'attempt', vertex: 'C3' }, base1);
    await advance(50 * S, base1);                // white has thought 50 s
    const thinking = Date.now();                 // and goes on thinking in real time
    await s1.kill();                             // kill -9 in the middle of white's turn

    // The test clock lives in memory: the new process starts from the wall
    // clock, and the test moves it to where the old one was (150 s ahead).
    let s2 = await startServer({ dir, args: ['--test-clock'] });
    await advance(150 * S, s2.url);
    const view = await viewOf(id, null, s2.url);
    assert.equal(view.clock.running, 'white');
    near(view.clock.white.main_ms, 550 * S - (Date.now() - thinking), 'white kept its time and keeps losing it');
    near(view.clock.black.main_ms, 500 * S, 'black');
    await s2.stop();

    // Untouched after this start: only the deadline armed at start-up can end it.
    const s3 = await startServer({ dir, args: ['--test-clock'] });
    await advance(150 * S + 560 * S, s3.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    timeoutOf(await viewOf(id, null, s3.url), 'white');
    await s3.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('abandonment: a claim is too early until the silent side passes the limit, then forfeits it', async () => {
  const { id, tokens } = await newGame(server.url, { mode: 'online', color: 'black' });
  let view = await viewOf(id, tokens.white);
  assert.ok(view.clock.claim_at_ms >= view.clock.turn_started_ms + 600 * S - 5, 'the default limit is 10 minutes');
  expectError(await actRaw(id, tokens.black, { action: 'claim' }), 409, 'too_early');   // own turn
  await act(id, tokens.black, { action: 'attempt', vertex: 'C3' });
  expectError(await actRaw(id, tokens.black, { action: 'claim' }), 409, 'too_early');
  await advance(590 * S);
  expectError(await actRaw(id, tokens.black, { action: 'claim' }), 409, 'too_early');
  await advance(15 * S);
  view = await viewOf(id, tokens.black);
  assert.ok(view.clock.now_ms >= view.clock.claim_at_ms);
  const claim = { seq: view.seq + 1, action: 'claim' };
  const res = await call(server.url, 'POST', `/api/v1/games/${id}/actions`, { token: tokens.black, body: claim });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.event.type, 'forfeit');
  assert.equal(res.json.event.color, 'white', 'the absent side forfeits');
  assert.equal(res.json.view.result.reason, 'forfeit');
  assert.equal(res.json.view.result.winner, 'black');
  const again = await call(server.url, 'POST', `/api/v1/games/${id}/actions`, { token: tokens.black, body: claim });
  assert.equal(again.text, res.text, 'a retried claim gets the same answer');
  forfeitSeenBy(await viewOf(id, tokens.white));

  const timed = await createGame({ mode: 'online', color: 'black', time_control: { type: 'absolute', main: 3000 } });
  const claimed = await call(server.url, 'POST', `/api/v1/games/${timed.id}/claim`, { body: { invite: timed.created.invite } });
  await advance(2000 * S);
  expectError(await actRaw(timed.id, claimed.json.token, { action: 'claim' }), 409, 'too_early');
});

function forfeitSeenBy(view) {
  assert.equal(view.events.at(-1).type, 'forfeit');
  assert.equal(view.result.reason, 'forfeit');
}

test('a seat is shown connected while it has a live socket', async () => {
  const { id, tokens } = await newGame(server.url, { mode: 'online', color: 'black' });
  const spectator = openSocket(server.url, id);
  await spectator.opened;
  let view = await viewOf(id);
  assert.equal(view.seats.black.connected, false);
  const black = openSocket(server.url, id, { token: tokens.black });
  await black.opened;
  await spectator.waitFor((frames) => frames.some((f) => f.json.view?.seats.black.connected));
  view = await viewOf(id, tokens.white);
  assert.equal(view.seats.black.connected, true);
  assert.equal(view.seats.white.connected, false);
  await black.close();
  await spectator.waitFor((frames) => frames.at(-1).json.view?.seats.black.connected === false);
  await spectator.close();
});

test('the computer keeps to its clock', async () => {
  const res = await call(server.url, 'POST', '/api/v1/games', {
    body: { mode: 'computer', color: 'black', level: 'strong', time_control: { type: 'absolute', main: 10 } },
  });
  assert.equal(res.status, 201, res.text);
  const id = res.json.game.id;
  const token = res.json.seats[0].token;
  const myTurn = () => until('the computer to move', async () => {
    const v = await viewOf(id, token);
    return (v.to_move === 'black' || v.over) && v;
  }, 15000);
  for (const vertex of ['C3', 'G7', 'C7', 'G3', 'E5', 'D6']) {
    if ((await myTurn()).over) break;
    const answer = await act(id, token, { action: 'attempt', vertex });
    if (answer.event.type === 'illegal') await act(id, token, { action: 'pass' });
  }
  const view = await myTurn();
  assert.ok(!view.over || view.result.reason !== 'timeout', `the computer lost on time: ${JSON.stringify(view.result)}`);
  // Its level thinks a second a move; ten seconds for the game make it think
  // a fraction of that.
  assert.ok(view.clock.white.main_ms > 6 * S, `the computer used ${10 * S - view.clock.white.main_ms} ms`);
});

test('time controls and the test clock are validated strictly', async () => {
  const bad = [
    [{ type: 'blitz' }, /type/],
    [{ type: 'absolute' }, /needs 'main'/],
    [{ type: 'absolute', main: 0 }, /main/],
    [{ type: 'absolute', main: 60.5 }, /main/],
    [{ type: 'absolute', main: 60, increment: 5 }, /increment/],
    [{ type: 'fischer', main: 60 }, /increment/],
    [{ type: 'byoyomi', main: 60, periods: 0, period: 30 }, /periods/],
    [{ type: 'byoyomi', main: 60, periods: 3 }, /period/],
    [{ type: 'none', days_per_move: 0 }, /days_per_move/],
    [{ type: 'none', days_per_move: 61 }, /days_per_move/],
    ['absolute', /object/],
  ];
  for (const [tc, message] of bad) {
    const res = await call(server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', time_control: tc } });
    expectError(res, 400, 'bad_request');
    assert.match(res.json.error.message, message, JSON.stringify(tc));
  }
  expectError(await call(server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', public: true } }), 400, 'bad_request');
  expectError(await call(server.url, 'POST', '/api/v1/games', { body: { mode: 'online', public: 'yes' } }), 400, 'bad_request');
  expectError(await call(server.url, 'POST', '/api/v1/test/clock', { body: { advance_ms: -1 } }), 400, 'bad_request');
  expectError(await call(server.url, 'POST', '/api/v1/test/clock', { body: { advance: 1 } }), 400, 'bad_request');

  const refusedDir = tempDir();
  const refused = spawnSync(BIN, ['serve', '--test-clock', '--listen', '0.0.0.0', '--port', '0', '--root', ROOT,
    '--db', path.join(refusedDir, 'x.db')], { encoding: 'utf8', timeout: 10000 });
  rmSync(refusedDir, { recursive: true, force: true });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--test-clock is for tests only/);
});

test('without --test-clock the clock endpoint does not exist', async () => {
  const plain = await startServer();
  try {
    expectError(await call(plain.url, 'POST', '/api/v1/test/clock', { body: { advance_ms: 1000 } }), 404, 'not_found');
  } finally {
    await plain.stop();
  }
});

test('a version-1 database file is upgraded in place and its games play on', async () => {
  const dir = tempDir();
  try {
    const db = path.join(dir, 'pg.db');
    const token = () => randomBytes(32).toString('base64url');
    const black = token();
    const white = token();
    const hex = (t) => createHash('sha256').update(t).digest('hex');
    const sql = [
      `INSERT INTO games (id, created_at_ms, mode, settings_json, options_json, black_hash, white_hash, invite_color)`,
      ` VALUES ('oldgame00001', 1700000000000, 'online', '{"size":9}', '{}', X'${hex(black)}', X'${hex(white)}', 0);`,
      `INSERT INTO actions (game_id, seq, kind, color, vertex, at_ms) VALUES ('oldgame00001', 1, 'attempt', 1, 'C3', 1700000001000);`,
    ].join('\n');
    execFileSync('sqlite3', [db], { input: `.read ${path.join(ROOT, 'tests/server/fixtures/schema-v1.sql')}\n${sql}\n` });
    assert.equal(execFileSync('sqlite3', [db, 'PRAGMA user_version']).toString().trim(), '1');

    const old = await startServer({ dir, db, args: ['--test-clock'] });
    try {
      const view = await viewOf('oldgame00001', white, old.url);
      assert.equal(view.seq, 1);
      assert.deepEqual(view.game.time_control, { type: 'none' });
      assert.equal(view.game.public, false);
      assert.equal(view.clock.running, 'white');
      assert.equal(view.clock.turn_started_ms, 1700000001000, 'the turn began with the stored move');
      // Long abandoned: its creation counts as the clock's start, so Black may claim it.
      const claimed = await act('oldgame00001', black, { action: 'claim' }, old.url);
      assert.equal(claimed.event.type, 'forfeit');
    } finally {
      await old.stop();
    }
    // Upgraded through every version since (3: table talk, 4: idempotency keys, 5: moderation, 6: Web Push).
    assert.equal(execFileSync('sqlite3', [db, 'PRAGMA user_version']).toString().trim(), '6');
    assert.equal(execFileSync('sqlite3', [db, "SELECT time_control_json, public, started_at_ms FROM games"]).toString().trim(),
      '{"type":"none"}|0|1700000000000');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
