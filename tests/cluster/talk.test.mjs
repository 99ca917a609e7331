// Table talk and the lobby across servers: two `phantomgo serve` on one
// PostgreSQL, each client talking to the server it chose (no HAProxy: the
// point is that what one server stores reaches the sockets of the other,
// by the database's LISTEN/NOTIFY). A message posted on A reaches the
// sockets on B of the viewers who read its room, and only those: a
// spectator's message makes no frame at all for a player on B before the
// end; a rename and the end of the game on A reach B's views. A public
// game created on A, joined, renamed, finished or cancelled there, shows
// in the lobby socket of B within seconds. A rematch offered and cancelled
// on B is shown cancelled on A's sockets of the finished game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startPostgres } from '../pg/postgres.mjs';
import { startServer } from '../lib/server.mjs';
import { call, openSocket } from '../server/lib.mjs';

const NEWS_MS = 5000;   // "within a few seconds"
let pg, a, b;

before(async () => {
  pg = await startPostgres();
  const db = pg.createDatabase('talk');
  const args = ['--rate-limit', '0', '--create-limit', '0'];
  a = await startServer({ db, args });
  b = await startServer({ db, args });
});

after(async () => {
  await a?.stop();
  await b?.stop();
  await pg?.destroy();
});

const say = (base, id, token, body) => call(base, 'POST', `/api/v1/games/${id}/chat`, { token, body });
const chatFrames = (socket) => socket.frames.filter((f) => f.json.type === 'chat').map((f) => f.json.message);

async function onlineGame(base, { publicGame = false, name } = {}) {
  const body = { mode: 'online', color: 'black', public: publicGame, ...(name ? { name } : {}) };
  const res = await call(base, 'POST', '/api/v1/games', { body });
  assert.equal(res.status, 201, res.text);
  return { id: res.json.game.id, black: res.json.seats[0].token, invite: res.json.invite };
}

test('a message posted on one server reaches the other\'s sockets, each only in its room', async () => {
  const g = await onlineGame(a.url, { name: 'Ann' });
  const claim = await call(a.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite, name: 'Bo' } });
  assert.equal(claim.status, 200, claim.text);
  const white = claim.json.token;
  const black = openSocket(b.url, g.id, { token: g.black });
  const spectator = openSocket(b.url, g.id);
  await black.waitFor((f) => f.some((x) => x.json.type === 'update'));
  await spectator.waitFor((f) => f.some((x) => x.json.type === 'update'));

  assert.equal((await say(a.url, g.id, null, { text: 'a stone at D4, I bet', name: 'Fan' })).status, 201);
  assert.equal((await say(a.url, g.id, white, { text: 'hello from A' })).status, 201);
  await black.waitFor((f) => chatFrames({ frames: f }).some((m) => m.text === 'hello from A'), NEWS_MS);
  await spectator.waitFor((f) => chatFrames({ frames: f }).some((m) => m.text === 'a stone at D4, I bet'), NEWS_MS);
  // The next message is numbered after A's, though B never numbered one.
  const fromB = await say(b.url, g.id, g.black, { text: 'hi from B' });
  assert.equal(fromB.status, 201, fromB.text);
  assert.equal(fromB.json.message.n, 2);
  await black.waitFor((f) => chatFrames({ frames: f }).some((m) => m.text === 'hi from B'));
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(chatFrames(black).map((m) => [m.room, m.n]), [['players', 1], ['players', 2]]);
  assert.deepEqual(chatFrames(spectator).map((m) => [m.room, m.n]), [['spectators', 1]],
    'a spectator does not read the players before the end');
  for (const f of black.frames) assert.doesNotMatch(f.text, /D4, I bet|Fan|"spectators":\{/, 'nothing of the spectators reaches a player');

  // A rename on A shows in B's views; the end on A opens the rooms on B.
  assert.equal((await call(a.url, 'PUT', `/api/v1/games/${g.id}/name`, { token: white, body: { name: 'Bob' } })).status, 200);
  await black.waitFor((f) => f.some((x) => x.json.type === 'update' && x.json.view.seats?.white?.name === 'Bob'), NEWS_MS);
  const resign = await call(a.url, 'POST', `/api/v1/games/${g.id}/actions`, { token: white, body: { seq: 1, action: 'resign' } });
  assert.equal(resign.status, 200, resign.text);
  await black.waitFor((f) => f.some((x) => x.json.type === 'update' && x.json.view.over), NEWS_MS);
  assert.equal((await say(a.url, g.id, null, { text: 'well played', name: 'Fan' })).status, 201);
  await black.waitFor((f) => chatFrames({ frames: f }).some((m) => m.text === 'well played'), NEWS_MS);
  const overAt = black.frames.findIndex((x) => x.json.type === 'update' && x.json.view.over);
  const spectatorsAt = black.frames.findIndex((x) => x.json.type === 'chat' && x.json.message.room === 'spectators');
  assert.ok(overAt >= 0 && overAt < spectatorsAt, 'the spectators\' room reaches a player only after the end');
  await black.close();
  await spectator.close();
});

// A lobby socket collecting every frame.
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
  ws.on('open', () => ws.send(JSON.stringify({ type: 'hello' })));
  const closed = new Promise((resolve) => ws.on('close', resolve));
  return {
    // How many frames came so far: next(pred, mark()) before an action
    // waits for a frame that action caused.
    mark: () => frames.length,
    // The first frame from index `from` on that satisfies pred.
    next(pred, from = 0, ms = NEWS_MS) {
      const seen = frames.slice(from).find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such lobby frame in ${ms} ms; last ${JSON.stringify(frames.at(-1)).slice(0, 400)}`)), ms);
        waiters.push({ pred, resolve: (v) => { clearTimeout(timer); resolve(v); } });
      });
    },
    close() { ws.close(); return closed; },
  };
}

const entry = (list, id) => list?.find((e) => e.id === id);

test('the lobby of one server shows what happens to public games on another', async () => {
  const lobby = lobbySocket(b.url);
  await lobby.next((f) => f.type === 'lobby');
  const started = Date.now();
  let from = lobby.mark();
  const g = await onlineGame(a.url, { publicGame: true, name: 'Ann' });
  await lobby.next((f) => entry(f.open, g.id)?.free === 'white', from);
  const seenAfterMs = Date.now() - started;
  from = lobby.mark();
  const doomed = await onlineGame(a.url, { publicGame: true });
  await lobby.next((f) => entry(f.open, doomed.id), from);

  from = lobby.mark();
  assert.equal((await call(a.url, 'PUT', `/api/v1/games/${g.id}/name`, { token: g.black, body: { name: 'Anna' } })).status, 200);
  await lobby.next((f) => entry(f.open, g.id)?.names.black === 'Anna', from);
  from = lobby.mark();
  const joined = await call(a.url, 'POST', `/api/v1/games/${g.id}/join`, { body: { name: 'Bo' } });
  assert.equal(joined.status, 200, joined.text);
  await lobby.next((f) => !entry(f.open, g.id) && entry(f.playing, g.id)?.names.white === 'Bo', from);
  from = lobby.mark();
  assert.equal((await call(a.url, 'POST', `/api/v1/games/${doomed.id}/cancel`, { token: doomed.black })).status, 200);
  await lobby.next((f) => !entry(f.open, doomed.id) && !entry(f.playing, doomed.id), from);
  from = lobby.mark();
  const resign = await call(a.url, 'POST', `/api/v1/games/${g.id}/actions`,
    { token: joined.json.token, body: { seq: 1, action: 'resign' } });
  assert.equal(resign.status, 200, resign.text);
  await lobby.next((f) => !entry(f.open, g.id) && !entry(f.playing, g.id), from);
  // B's answer over HTTP is the same lobby.
  const listed = (await call(b.url, 'GET', '/api/v1/lobby')).json;
  assert.ok(!entry(listed.open, g.id) && !entry(listed.playing, g.id) && !entry(listed.open, doomed.id));
  await lobby.close();
  console.log(`# a public game created on A was in B's lobby socket after ${seenAfterMs} ms`);
});

test('a rematch cancelled on one server is shown cancelled on the other\'s sockets of the finished game', async () => {
  const g = await onlineGame(b.url);
  const claim = await call(b.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite } });
  assert.equal(claim.status, 200, claim.text);
  const white = claim.json.token;
  const resign = await call(b.url, 'POST', `/api/v1/games/${g.id}/actions`,
                            { token: g.black, body: { seq: 1, action: 'resign' } });
  assert.equal(resign.status, 200, resign.text);
  const offered = await call(b.url, 'POST', `/api/v1/games/${g.id}/rematch`, { token: white });
  assert.equal(offered.status, 201, offered.text);
  const next = offered.json.game.id;
  // A holds the finished game only: the rematch lives on B.
  const rematchOf = (f) => f.json.type === 'update' && f.json.view.rematch;
  const watcher = openSocket(a.url, g.id, { token: g.black });
  await watcher.waitFor((fs) => fs.some((f) => rematchOf(f)?.id === next && !rematchOf(f).cancelled));
  const cancelled = await call(b.url, 'POST', `/api/v1/games/${next}/cancel`, { token: offered.json.seats[0].token });
  assert.equal(cancelled.status, 200, cancelled.text);
  await watcher.waitFor((fs) => fs.some((f) => rematchOf(f)?.id === next && rematchOf(f).cancelled), NEWS_MS);
  await watcher.close();
  const seen = (await call(a.url, 'GET', `/api/v1/games/${g.id}`, { token: g.black })).json;
  assert.deepEqual(seen.rematch, { id: next, cancelled: true });
});
