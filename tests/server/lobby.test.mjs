// The open-games lobby through the real server: a public online game is
// listed with its free seat, anyone takes that seat with /join (no invite),
// the game then moves to the games in progress, and leaves the lobby when
// it ends; lobby sockets get the whole lobby at once and after each change;
// private games never appear and cannot be joined; the lobby survives a
// restart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import WebSocket from 'ws';
import { startServer, call, expectError, tempDir } from './lib.mjs';

let server;
let dir;

before(async () => {
  dir = tempDir();
  server = await startServer({ dir });
});
after(async () => {
  const r = await server.stop();
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

async function create(body) {
  const res = await call(server.url, 'POST', '/api/v1/games', { body });
  assert.equal(res.status, 201, res.text);
  return res.json;
}

const lobby = async () => {
  const res = await call(server.url, 'GET', '/api/v1/lobby');
  assert.equal(res.status, 200, res.text);
  return res.json;
};

// A lobby socket that collects every frame.
function lobbySocket(base) {
  const u = new URL('/api/v1/lobby/ws', base);
  u.protocol = 'ws:';
  const ws = new WebSocket(u);
  const frames = [];
  const waiters = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    for (const w of [...waiters]) if (w.pred(frames.at(-1))) { waiters.splice(waiters.indexOf(w), 1); w.resolve(frames.at(-1)); }
  });
  const opened = new Promise((resolve) => ws.on('open', () => { ws.send(JSON.stringify({ type: 'hello' })); resolve(); }));
  const closed = new Promise((resolve) => ws.on('close', resolve));
  return {
    frames, opened,
    // The first frame from index `from` on that satisfies pred.
    next(pred, from = 0, ms = 5000) {
      const seen = frames.slice(from).find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such lobby frame; got ${JSON.stringify(frames).slice(0, 400)}`)), ms);
        waiters.push({ pred, resolve: (v) => { clearTimeout(timer); resolve(v); } });
      });
    },
    close() { ws.close(); return closed; },
  };
}

const ids = (list) => list.map((entry) => entry.id);

test('a public game is listed, joined without invite, watched, and leaves the lobby when over', async () => {
  const socket = lobbySocket(server.url);
  await socket.opened;
  const first = await socket.next((f) => f.type === 'lobby');
  assert.deepEqual(first.open, []);

  const hidden = await create({ mode: 'online', color: 'black' });
  const pub = await create({
    mode: 'online', color: 'white', public: true, settings: { size: 13 }, time_control: { type: 'fischer', main: 300, increment: 5 },
  });
  assert.equal(pub.game.public, true);
  const id = pub.game.id;
  const listed = await socket.next((f) => ids(f.open).includes(id));
  const entry = listed.open.find((e) => e.id === id);
  assert.equal(entry.free, 'black');
  assert.equal(entry.settings.size, 13);
  assert.deepEqual(entry.time_control, { type: 'fischer', main: 300, increment: 5 });
  assert.equal(entry.started_ms, null);
  assert.ok(entry.created_ms > 0);
  assert.ok(!JSON.stringify(listed).includes(pub.seats[0].token), 'no secret in the lobby');
  assert.ok(!JSON.stringify(listed).includes(pub.invite), 'no invite in the lobby');
  assert.ok(!ids((await lobby()).open).includes(hidden.game.id), 'private games are not listed');

  expectError(await call(server.url, 'POST', `/api/v1/games/${hidden.game.id}/join`), 403, 'not_public');
  const joined = await call(server.url, 'POST', `/api/v1/games/${id}/join`);
  assert.equal(joined.status, 200, joined.text);
  assert.equal(joined.json.color, 'black');
  expectError(await call(server.url, 'POST', `/api/v1/games/${id}/join`), 409, 'seat_taken');
  expectError(await call(server.url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: pub.invite } }), 409, 'seat_taken');

  const playing = await socket.next((f) => ids(f.playing).includes(id));
  assert.ok(!ids(playing.open).includes(id));
  assert.ok(playing.playing.find((e) => e.id === id).started_ms > 0);
  const view = (await call(server.url, 'GET', `/api/v1/games/${id}`, { token: joined.json.token })).json;
  assert.equal(view.viewer, 'black');
  assert.equal(view.clock.running, 'black', 'the clock started with the second player');
  const framesBefore = socket.frames.length;
  const move = await call(server.url, 'POST', `/api/v1/games/${id}/actions`,
    { token: joined.json.token, body: { seq: 1, action: 'attempt', vertex: 'D4' } });
  assert.equal(move.status, 200, move.text);

  const resign = await call(server.url, 'POST', `/api/v1/games/${id}/actions`,
    { token: pub.seats[0].token, body: { seq: 2, action: 'resign' } });
  assert.equal(resign.status, 200, resign.text);
  await socket.next((f) => !ids(f.playing).includes(id) && !ids(f.open).includes(id), framesBefore);
  assert.equal(socket.frames.length, framesBefore + 1, 'a move does not change the lobby; the end does');
  await socket.close();
  expectError(await call(server.url, 'POST', `/api/v1/games/${id}/join`), 409, 'seat_taken');
});

test('the lobby lists newest first and survives a restart', async () => {
  const older = await create({ mode: 'online', public: true });
  const newer = await create({ mode: 'online', public: true });
  const before = await lobby();
  const order = ids(before.open);
  assert.ok(order.indexOf(newer.game.id) < order.indexOf(older.game.id), 'newest first');
  expectError(await call(server.url, 'DELETE', '/api/v1/lobby'), 405, 'method_not_allowed');
  // Like a game's socket: a plain GET of the lobby's socket asks for the upgrade.
  expectError(await call(server.url, 'GET', '/api/v1/lobby/ws'), 400, 'bad_request');
  await server.stop();
  server = await startServer({ dir });
  const after = await lobby();
  assert.deepEqual(ids(after.open), order);
});
