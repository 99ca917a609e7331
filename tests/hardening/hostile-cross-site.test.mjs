// A hostile client, part 4: writes from other sites (issue 21). Any web page
// could make its visitors' browsers create games, join free lobby seats and
// post spectator chat with a plain form or fetch(..., {mode: "no-cors"}),
// which send text/plain, a form type or no type at all without a CORS
// preflight. Writes must now say application/json (415 otherwise, and
// nothing happens), and a WebSocket upgrade from a foreign Origin is 403.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, newGame, openWs, api } from './lib.mjs';

let server, game, port;

before(async () => {
  server = await startServer();
  port = new URL(server.url).port;
  game = await newGame(server.url, { mode: 'online' });
});

after(async () => { await server.stop(); });

const lobbyCount = async () => {
  const lobby = await request(server.url, 'GET', '/api/v1/lobby');
  return JSON.stringify(lobby.json).split('"id"').length;
};

test('writes without application/json are refused 415 and change nothing; JSON ones go through', async () => {
  const open = await api.create(server.url, { mode: 'online', color: 'black', public: true });
  assert.equal(open.status, 201);
  const lobbyBefore = await lobbyCount();
  const body = JSON.stringify({ mode: 'online', color: 'black', public: true });
  const g = `/api/v1/games/${game.id}`;
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
                      'application/jsonx', null]) {
    const where = `Content-Type ${type}`;
    const writes = [
      ['POST', '/api/v1/games', body],
      ['POST', `/api/v1/games/${open.json.game.id}/join`, '{}'],
      ['POST', `/api/v1/games/${open.json.game.id}/join`, undefined],   // no body, no token: still a form's reach
      ['POST', `${g}/chat`, JSON.stringify({ text: 'spam' })],
      ['POST', '/api/v1/qr', JSON.stringify({ text: 'https://example.org/' })],
    ];
    for (const [method, path, raw] of writes) {
      const res = await request(server.url, method, path, { raw, headers: { 'Content-Type': type } });
      assert.equal(res.status, 415, `${where}: ${method} ${path}: ${res.status} ${res.text}`);
      assert.equal(res.json.error.code, 'unsupported_media_type');
    }
  }
  assert.equal(await lobbyCount(), lobbyBefore, 'no game was created and no seat taken');
  const chat = await request(server.url, 'GET', `${g}/chat?room=spectators`);
  assert.equal(chat.text.includes('spam'), false, chat.text);
  // application/json with parameters, in any case, is accepted.
  const res = await request(server.url, 'POST', '/api/v1/games',
                            { raw: JSON.stringify({ mode: 'hotseat' }), headers: { 'Content-Type': 'Application/JSON; charset=utf-8' } });
  assert.equal(res.status, 201, res.text);
  // A browser cannot send Authorization cross-site without a preflight, so
  // a body-less write with a token needs no type (curl -X POST ... -H
  // "Authorization: Bearer ..." keeps working).
  const mine = await api.create(server.url, { mode: 'online', color: 'black' });
  const cancel = await request(server.url, 'POST', `/api/v1/games/${mine.json.game.id}/cancel`,
                               { token: mine.json.seats[0].token, headers: { 'Content-Type': null } });
  assert.equal(cancel.status, 200, cancel.text);
});

test('a WebSocket upgrade from a foreign Origin is refused 403; its own origin and none are welcome', async () => {
  for (const path of [`/api/v1/games/${game.id}/ws`, '/api/v1/lobby/ws']) {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${Number(port) + 1}`]) {
      await assert.rejects(openWs(port, path, { origin }), (e) => e.status === 403, `${path} from ${origin}`);
    }
    for (const origin of [undefined, `http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`]) {
      const ws = await openWs(port, path, { origin });
      ws.close();
    }
  }
});

test('with --base-url, its origin is the site\'s own too', async () => {
  const s = await startServer({ args: ['--base-url', 'https://go.example.org'] });
  try {
    const p = new URL(s.url).port;
    const ws = await openWs(p, '/api/v1/lobby/ws', { origin: 'https://go.example.org' });
    ws.close();
    await assert.rejects(openWs(p, '/api/v1/lobby/ws', { origin: 'https://other.example.org' }), (e) => e.status === 403);
  } finally {
    await s.stop();
  }
});
