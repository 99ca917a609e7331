// The live-update socket: hello and its errors, resuming from a sequence
// number, an update when a seat is claimed, the connection limit with its
// close code, and a client that never reads, which must not slow anyone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { startServer, call, newGame, openSocket, until } from './lib.mjs';

let server, base;
before(async () => { server = await startServer({ args: ['--max-websockets', '6'] }); base = server.url; });
after(async () => {
  const r = await server.stop();
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

const act = (id, token, body) => call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body });

test('an update at once after hello, then one per event, resuming after since', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 9 } });
  await act(id, tokens.black, { seq: 1, action: 'attempt', vertex: 'E5' });
  await act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'E5' });
  const s = openSocket(base, id, { token: tokens.white, since: 1 });
  await s.waitFor((f) => f.length >= 1);
  const first = s.frames[0].json;
  assert.equal(first.type, 'update');
  assert.deepEqual(first.events.map((e) => e.seq), [2]);
  assert.equal(first.events[0].vertex, 'E5', 'the actor sees its own point');
  assert.equal(first.view.viewer, 'white');
  assert.equal(first.view.seats.white.connected, true, 'the first frame already counts the seat\'s own socket');
  await act(id, tokens.white, { seq: 3, action: 'attempt', vertex: 'D4' });
  await s.waitFor((f) => f.some((x) => x.json.view.seq === 3));
  assert.deepEqual(s.frames.map((x) => x.json.events.map((e) => e.seq)), [[2], [3]], 'one frame a change, none for the arrival');
  const everything = openSocket(base, id);
  await everything.waitFor((f) => f.length >= 1);
  assert.deepEqual(everything.frames[0].json.events.map((e) => e.seq), [1, 2, 3]);
  assert.equal(everything.frames[0].json.view.viewer, 'spectator');
  const none = openSocket(base, id, { since: 3 });
  await none.waitFor((f) => f.length >= 1);
  assert.deepEqual(none.frames[0].json.events, []);
  await Promise.all([s.close(), everything.close(), none.close()]);
});

test('a ping after the hello is answered with a pong on the same socket, game and lobby alike', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 9 } });
  const s = openSocket(base, id, { token: tokens.black });
  // The server allows 6 sockets here: a failure must not leave these open.
  let lobby = null;
  try {
    await s.waitFor((f) => f.length >= 1);
    s.ws.send(JSON.stringify({ type: 'ping' }));
    await s.waitFor((f) => f.some((x) => x.json.type === 'pong'), 3000);
    assert.equal(s.frames.find((x) => x.json.type === 'pong').text, '{"type":"pong"}');
    // Anything else after the hello is still ignored: no answer, no close.
    s.ws.send('{"type":"shout"}');
    s.ws.send('not json');
    s.ws.send(JSON.stringify({ type: 'ping' }));
    await s.waitFor((f) => f.filter((x) => x.json.type === 'pong').length === 2, 3000);
    // (Besides the updates: the socket's own arrival may push one more.)
    assert.deepEqual(s.frames.map((x) => x.json.type).filter((type) => type !== 'update'), ['pong', 'pong']);
    await s.close();
    lobby = new WebSocket(`${base.replace('http', 'ws')}/api/v1/lobby/ws`);
    const types = [];
    const pong = new Promise((resolve) => lobby.on('message', (data) => {
      types.push(JSON.parse(String(data)).type);
      if (types.length === 1) lobby.send(JSON.stringify({ type: 'ping' }));
      if (types.includes('pong')) resolve();
    }));
    lobby.on('open', () => lobby.send(JSON.stringify({ type: 'hello' })));
    await pong;
    assert.deepEqual(types, ['lobby', 'pong']);
  } finally {
    s.ws.close();
    lobby?.close();
  }
});

test('claiming the invited seat pushes an update with the seat taken', async () => {
  const created = await call(base, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black' } });
  const id = created.json.game.id;
  const s = openSocket(base, id, { token: created.json.seats[0].token });
  await s.waitFor((f) => f.length >= 1);
  assert.equal(s.frames[0].json.view.seats.white.taken, false);
  await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  await s.waitFor((f) => f.some((x) => x.json.view.seats.white.taken));
  assert.deepEqual(s.frames.at(-1).json.events, []);
  await s.close();
});

test('hello errors: a wrong token, a malformed hello; unknown games refuse the upgrade', async () => {
  const { id } = await newGame(base);
  const other = await newGame(base);
  const bad = openSocket(base, id, { token: other.tokens.black });
  await bad.waitFor((f) => f.length >= 1);
  assert.deepEqual(bad.frames[0].json.type, 'error');
  assert.equal(bad.frames[0].json.error.code, 'bad_token');
  assert.equal((await bad.closed).code, 1008);
  const junk = openSocket(base, id, { hello: false });
  await junk.opened;
  junk.ws.send('{"type":"bonjour"}');
  await junk.waitFor((f) => f.length >= 1);
  assert.equal(junk.frames[0].json.error.code, 'bad_request');
  await junk.closed;
  const missing = openSocket(base, 'aaaaaaaaaaaa');
  await assert.rejects(missing.opened, (e) => e.status === 404);
});

// A client sees a close handshake before the server has released the
// socket's slot (and the earlier tests' sockets close without waiting):
// wait until the server counts n sockets.
function untilServerCounts(n) {
  const want = new RegExp(`^phantomgo_websocket_connections ${n}$`, 'm');
  return until(`the server to count ${n} sockets`, async () => want.test((await call(base, 'GET', '/metrics')).text),
               10000);
}

test('past --max-websockets a socket is closed with 1013 "too many connections"', async () => {
  const { id } = await newGame(base);
  await untilServerCounts(0);
  const open = [];
  for (let i = 0; i < 6; i++) {
    const s = openSocket(base, id);
    await s.waitFor((f) => f.length >= 1);
    open.push(s);
  }
  const extra = openSocket(base, id);
  const closed = await extra.closed;
  assert.equal(closed.code, 1013);
  assert.equal(closed.reason, 'too many connections');
  const m = await call(base, 'GET', '/metrics');
  assert.match(m.text, /^phantomgo_websocket_connections 6$/m);
  assert.match(m.text, /^phantomgo_websocket_refused_total [1-9]/m);
  await open.pop().close();
  await untilServerCounts(5);
  const again = openSocket(base, id);
  await again.waitFor((f) => f.length >= 1);
  open.push(again);
  await Promise.all(open.map((s) => s.close()));
});

// A WebSocket client that says hello and then never reads a byte.
function deafSocket(id) {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(port), '127.0.0.1', () => {
      const key = randomBytes(16).toString('base64');
      sock.write(`GET /api/v1/games/${id}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
                 `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      sock.once('data', (d) => {
        const expect = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        assert.ok(String(d).includes(expect));
        const payload = Buffer.from(JSON.stringify({ type: 'hello', token: null, since: 0 }));
        const mask = randomBytes(4);
        const frame = Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask,
                                     Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]);
        sock.write(frame);
        sock.pause();
        resolve(sock);
      });
    });
    sock.on('error', reject);
  });
}

test('a client that never reads does not delay the others', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 19 } });
  const deaf = await deafSocket(id);
  const live = openSocket(base, id);
  await live.waitFor((f) => f.length >= 1);
  const letters = 'ABCDEFGHJKLMNOPQRST';
  let seq = 0, slowest = 0;
  for (let i = 0; i < 160; i++) {
    const color = seq % 2 ? 'white' : 'black';
    const vertex = `${letters[(i * 7) % 19]}${1 + ((i * 3 + Math.floor(i / 19)) % 19)}`;
    const t0 = Date.now();
    const res = await act(id, tokens[color], { seq: seq + 1, action: 'attempt', vertex });
    if (res.status !== 200) continue;
    seq++;
    await live.waitFor((f) => f.some((x) => x.json.view.seq === seq), 5000);
    slowest = Math.max(slowest, Date.now() - t0);
  }
  assert.ok(seq > 100);
  assert.ok(slowest < 3000, `an update took ${slowest} ms`);
  deaf.destroy();
  await live.close();
});
