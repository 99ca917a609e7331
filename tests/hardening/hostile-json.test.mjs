// A hostile client, part 1: JSON nested deep enough to overflow a worker's
// stack inside the parser (issue 21). 5,000 '[' then 5,000 ']' used to kill
// the whole server with one anonymous request. Now every route and both
// sockets refuse JSON nested deeper than 16 levels (400 bad_request, or an
// error frame and a close of that socket only), accept it at exactly 16,
// and the server answers afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, newGame, openWs, api } from './lib.mjs';

const LIMIT = 16;
const deepArray = (n) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
// A body whose first field holds the nesting, so that it reaches the parser
// of every route (an object at the top, as every route wants).
const wrapped = (inner) => `{"x":${inner}}`;

let server, game, lobbyGame;

before(async () => {
  server = await startServer();
  game = await newGame(server.url, { mode: 'online' });
  // A spectators' message, so that its report route reaches its parser.
  const said = await request(server.url, 'POST', `/api/v1/games/${game.id}/chat`, { body: { text: 'hello' } });
  assert.equal(said.status, 201, said.text);
  lobbyGame = (await api.create(server.url, { mode: 'online', color: 'black', public: true })).json;
});

after(async () => { await server.stop(); });

// Every route that reads a body, with the token it needs to reach its parser.
function routes() {
  const g = `/api/v1/games/${game.id}`;
  const lobbyId = lobbyGame.game.id;
  return [
    ['POST', '/api/v1/games', null],
    ['POST', '/api/v1/qr', null],
    ['POST', `/api/v1/games/${lobbyId}/claim`, null],
    ['POST', `/api/v1/games/${lobbyId}/join`, null],
    ['POST', `${g}/chat`, null],                  // a spectator
    ['POST', `${g}/chat`, game.tokens.black],
    ['PUT', `${g}/name`, game.tokens.black],
    ['POST', `${g}/actions`, game.tokens.black],
    ['PUT', `${g}/notes`, game.tokens.black],
    ['POST', `${g}/chat/spectators/1/report`, null],         // a report, by a spectator
    ['PUT', `${g}/push`, game.tokens.black],
    ['POST', `${g}/rematch`, game.tokens.black],
  ];
}

async function alive() {
  const live = await request(server.url, 'GET', '/api/live');
  assert.equal(live.status, 200, 'the server still answers');
}

// The deepest each shape goes within a 16 KiB body (objects take 6 bytes a
// level) and a 4 KiB WebSocket message.
const shapes = [['arrays', deepArray, 5000, 2000], ['objects', deepObject, 2500, 600]];

for (const [shape, make, farHttp] of shapes) {
  test(`deep ${shape} far over the limit get 400 bad_request on every route, and the server lives`, async () => {
    for (const depth of [LIMIT, 800, farHttp]) {
      for (const [method, path, token] of routes()) {
        const raw = depth === LIMIT ? make(depth) : wrapped(make(depth));
        const res = await request(server.url, method, path, { raw, token });
        const where = `${method} ${path} at depth ${depth}${token ? ' (seat)' : ''}: ${res.status} ${res.text}`;
        if (depth === LIMIT) {
          // At the limit the JSON is read; the route then judges its shape.
          assert.notEqual(res.json?.error?.message, 'JSON arrays and objects may be nested at most 16 deep.', where);
        } else {
          assert.equal(res.status, 400, where);
          assert.equal(res.json.error.code, 'bad_request', where);
          assert.match(res.json.error.message, /nested at most 16 deep/, where);
        }
      }
      await alive();
    }
  });
}

test('one more level than the limit is refused, the limit itself is not', async () => {
  const at = await request(server.url, 'POST', '/api/v1/games', { raw: wrapped(deepArray(LIMIT - 1)) });
  assert.equal(at.status, 400);
  assert.equal(at.json.error.code, 'bad_request');
  assert.match(at.json.error.message, /Field 'x'/, 'parsed, then refused for its unknown field');
  const over = await request(server.url, 'POST', '/api/v1/games', { raw: wrapped(deepArray(LIMIT)) });
  assert.equal(over.status, 400);
  assert.match(over.json.error.message, /nested at most 16 deep/);
});

// A socket that sent deep JSON gets an error frame and is closed; another
// socket on the same game goes on receiving.
async function expectClosedWithError(ws, where) {
  let m = await ws.next(5000);
  while (m && m.json && m.json.type === 'update') m = await ws.next(5000);   // news that came first
  assert.ok(m && m.json && m.json.type === 'error', `${where}: an error frame, got ${m && m.text}`);
  assert.equal(m.json.error.code, 'bad_request', where);
  const closed = await Promise.race([ws.closed, new Promise((r) => setTimeout(() => r(null), 5000))]);
  assert.ok(closed, `${where}: the socket is closed`);
}

for (const [shape, make, , farWs] of shapes) {
  test(`deep ${shape} on the game and lobby sockets, as the hello and after it, close only that socket`, async () => {
    const port = new URL(server.url).port;
    const bystander = await openWs(port, `/api/v1/games/${game.id}/ws`);
    bystander.send({ type: 'hello', token: null, since: 0 });
    assert.equal((await bystander.next()).json.type, 'update');
    for (const path of [`/api/v1/games/${game.id}/ws`, '/api/v1/lobby/ws']) {
      const first = await openWs(port, path);
      first.send(make(farWs));
      await expectClosedWithError(first, `${path}: deep hello`);
      const later = await openWs(port, path);
      later.send({ type: 'hello', token: null, since: 0 });
      await later.next();
      later.send(wrapped(make(farWs)));
      await expectClosedWithError(later, `${path}: deep frame after the hello`);
    }
    // The bystander still hears the game: a pass reaches it.
    const view = await api.view(server.url, game.id, game.tokens.black);
    const passed = await api.act(server.url, game.id, game.tokens[view.json.to_move], view.json.seq + 1, 'pass');
    assert.equal(passed.status, 200, passed.text);
    let heard = null;
    const until = Date.now() + 10000;
    while (!heard && Date.now() < until) {
      const m = await bystander.next(until - Date.now());
      if (!m) break;
      if (m.json && m.json.type === 'update' && m.json.view.seq > view.json.seq) heard = m;
    }
    assert.ok(heard, 'the other socket still receives updates');
    bystander.close();
    await alive();
  });
}
