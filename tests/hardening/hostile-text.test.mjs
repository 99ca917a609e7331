// A hostile client, part 3: U+0000 in JSON strings and error messages that
// quote a client's text (issue 21). "ab\u0000cd" used to be stored as "ab",
// "D4\u0000junk" played D4, a hello token followed by \u0000 was taken as
// that seat, and an unknown field of 50 'é' was echoed cut in the middle
// of a character. Now U+0000 is refused everywhere a JSON string is read,
// and every error message is valid UTF-8.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, newGame, openWs, api } from './lib.mjs';

let server, game;

before(async () => {
  server = await startServer();
  game = await newGame(server.url, { mode: 'online' });
});

after(async () => { await server.stop(); });

const NUL = '\\u0000';

function expectRefused(res, where) {
  assert.equal(res.status, 400, `${where}: ${res.status} ${res.text}`);
  assert.ok(['bad_request', 'bad_text', 'bad_vertex'].includes(res.json.error.code), `${where}: ${res.text}`);
}

test('U+0000 in a name, a chat message or a vertex is refused and nothing changes', async () => {
  const g = `/api/v1/games/${game.id}`;
  expectRefused(await request(server.url, 'PUT', `${g}/name`, { token: game.tokens.black, raw: `{"name":"ab${NUL}cd"}` }), 'name');
  expectRefused(await request(server.url, 'POST', `${g}/chat`, { token: game.tokens.black, raw: `{"text":"ab${NUL}cd"}` }), 'chat');
  expectRefused(await request(server.url, 'POST', `${g}/chat`, { raw: `{"text":"hi${NUL}"}` }), 'spectator chat');
  expectRefused(await request(server.url, 'POST', `${g}/actions`,
                              { token: game.tokens.black, raw: `{"seq":1,"action":"attempt","vertex":"D4${NUL}junk"}` }), 'vertex');
  expectRefused(await request(server.url, 'POST', '/api/v1/games', { raw: `{"mode":"hotseat${NUL}"}` }), 'create');
  const view = await api.view(server.url, game.id, game.tokens.black);
  assert.equal(view.json.seq, 0, 'no move was played');
  assert.equal(view.json.seats.black.name, null, 'no name was stored');
  const chat = await request(server.url, 'GET', `${g}/chat`, { token: game.tokens.black });
  assert.equal(chat.status, 200);
  assert.equal(JSON.stringify(chat.json).includes('ab'), false, `no message was stored: ${chat.text}`);
});

test('a WebSocket hello whose token is followed by U+0000 is not taken as the seat', async () => {
  const port = new URL(server.url).port;
  const forged = await openWs(port, `/api/v1/games/${game.id}/ws`);
  forged.send(`{"type":"hello","token":"${game.tokens.black}${NUL}xx","since":0}`);
  const first = await forged.next(5000);
  assert.ok(first && first.json, 'an answer');
  assert.equal(first.json.type, 'error', `refused, not a seat's view: ${first.text.slice(0, 200)}`);
  forged.close();
});

test('error messages quoting a client\'s field name are valid UTF-8, cut on characters', async () => {
  const name = 'é'.repeat(50);
  for (const [method, path, token, raw] of [
    ['POST', '/api/v1/games', null, `{"${name}":1}`],
    ['POST', '/api/v1/games', null, `{"mode":"hotseat","settings":{"${name}":1}}`],
    ['POST', `/api/v1/games/${game.id}/chat`, game.tokens.black, `{"${name}":1}`],
    ['POST', '/api/v1/games', null, '{"\xff\xfe":1}'],
  ]) {
    const res = await request(server.url, method, path, { token, raw: Buffer.from(raw, raw.includes('\xff') ? 'latin1' : 'utf8') });
    assert.equal(res.status, 400, res.text);
    // request() has decoded the body strictly already (it throws on bad UTF-8).
    if (raw.includes('é')) assert.match(res.json.error.message, /é{20}/, res.text);
  }
});
