// Every error of docs/API.md, with its status and code, and proof that a
// refused request changes nothing: the view's seq stays where it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { startServer, call, newGame, expectError, tempDir } from './lib.mjs';
import { ON_POSTGRES } from '../lib/server.mjs';

let server, base;
before(async () => { server = await startServer(); base = server.url; });
after(async () => {
  const r = await server.stop();
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

const act = (id, token, body) => call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body });
const seqOf = async (id, token) => (await call(base, 'GET', `/api/v1/games/${id}`, { token })).json.seq;

test('400 bad_json: the body is not JSON or not an object', async () => {
  const { id, tokens } = await newGame(base);
  expectError(await call(base, 'POST', '/api/v1/games', { raw: '{"mode":' }), 400, 'bad_json');
  expectError(await call(base, 'POST', '/api/v1/games', { raw: '[1,2]' }), 400, 'bad_json');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/actions`, { token: tokens.black, raw: 'nope' }), 400, 'bad_json');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/actions`, { token: tokens.black, raw: '' }), 400, 'bad_json');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/claim`, { raw: '"x"' }), 400, 'bad_json');
  assert.equal(await seqOf(id), 0);
});

test('400 bad_request: missing, unknown, mistyped or out-of-range fields, named in the message', async () => {
  const { id, tokens } = await newGame(base);
  const create = (body) => call(base, 'POST', '/api/v1/games', { body });
  for (const [body, field] of [
    [{ color: 'black' }, 'mode'], [{ mode: 'chess' }, 'mode'], [{ mode: 'online', color: 'red' }, 'color'],
    [{ mode: 'online', extra: 1 }, 'extra'], [{ mode: 'computer', level: 'godlike' }, 'level'],
    [{ mode: 'online', settings: { size: 3 } }, 'size'], [{ mode: 'online', settings: { size: 9, foo: 1 } }, 'foo'],
    [{ mode: 'online', settings: { komi: 7.3 } }, 'komi'], [{ mode: 'online', settings: { handicap: 1 } }, 'handicap'],
    [{ mode: 'online', settings: { ko: 'japanese' } }, 'ko'], [{ mode: 'online', settings: { rules: 'aga' } }, 'rules'],
    [{ mode: 'online', settings: { torus: 'yes' } }, 'torus'], [{ mode: 'online', settings: 9 }, 'settings'],
  ]) {
    const res = await create(body);
    expectError(res, 400, 'bad_request');
    assert.ok(res.json.error.message.includes(field), `${JSON.stringify(body)}: ${res.text}`);
  }
  for (const [body, field] of [
    [{ action: 'pass' }, 'seq'], [{ seq: 0, action: 'pass' }, 'seq'], [{ seq: '1', action: 'pass' }, 'seq'],
    [{ seq: 1.5, action: 'pass' }, 'seq'], [{ seq: 1, action: 'jump' }, 'action'], [{ seq: 1 }, 'action'],
    [{ seq: 1, action: 'pass', vertex: 'D4' }, 'vertex'], [{ seq: 1, action: 'attempt' }, 'vertex'],
    [{ seq: 1, action: 'attempt', vertex: 4 }, 'vertex'], [{ seq: 1, action: 'pass', why: 1 }, 'why'],
  ]) {
    const res = await act(id, tokens.black, body);
    expectError(res, 400, 'bad_request');
    assert.ok(res.json.error.message.includes(field), `${JSON.stringify(body)}: ${res.text}`);
  }
  expectError(await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: {} }), 400, 'bad_request');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: 5 } }), 400, 'bad_request');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/events?since=-1`), 400, 'bad_request');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/events?since=abc`), 400, 'bad_request');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/ws`), 400, 'bad_request');
  expectError(await call(base, 'POST', '/api/v1/qr', { body: { text: 'x'.repeat(1025) } }), 400, 'bad_request');
  assert.equal(await seqOf(id), 0);
});

test('400 bad_vertex: a point that is not on this board', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 9 } });
  for (const vertex of ['Z99', 'J10', 'I5', 'A0', 'pass', 'D04', '', 'E5 ', 'e5x'])
    expectError(await act(id, tokens.black, { seq: 1, action: 'attempt', vertex }), 400, 'bad_vertex');
  expectError(await call(base, 'PUT', `/api/v1/games/${id}/notes`, { token: tokens.black, body: { ghosts: ['K1'] } }),
              400, 'bad_vertex');
  assert.equal(await seqOf(id), 0);
});

test('401 token_required and 403 bad_token', async () => {
  const { id, tokens } = await newGame(base);
  const other = await newGame(base);
  const res = await act(id, undefined, { seq: 1, action: 'pass' });
  expectError(res, 401, 'token_required');
  assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/notes`), 401, 'token_required');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/rematch`), 401, 'token_required');
  expectError(await act(id, other.tokens.black, { seq: 1, action: 'pass' }), 403, 'bad_token');
  expectError(await act(id, 'x'.repeat(43), { seq: 1, action: 'pass' }), 403, 'bad_token');
  expectError(await act(id, tokens.black.slice(1), { seq: 1, action: 'pass' }), 403, 'bad_token');
  expectError(await call(base, 'GET', `/api/v1/games/${id}`, { token: 'nonsense' }), 403, 'bad_token');
  expectError(await call(base, 'GET', `/api/v1/games/${id}`, { headers: { Authorization: `Basic ${tokens.black}` } }),
              403, 'bad_token');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/events`, { token: other.tokens.white }), 403, 'bad_token');
  assert.equal(await seqOf(id), 0);
});

test('403 bad_invite and 409 seat_taken', async () => {
  const created = await call(base, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'white' } });
  const id = created.json.game.id;
  expectError(await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: 'wrong' } }), 403, 'bad_invite');
  const claim = await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  assert.equal(claim.status, 200);
  assert.equal(claim.json.color, 'black');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } }), 409, 'seat_taken');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: 'wrong' } }), 409, 'seat_taken');
  const hot = await newGame(base);
  expectError(await call(base, 'POST', `/api/v1/games/${hot.id}/claim`, { body: { invite: 'x' } }), 409, 'seat_taken');
});

test('403 record_not_available before the end, for everyone', async () => {
  const { id, tokens } = await newGame(base);
  expectError(await call(base, 'GET', `/api/v1/games/${id}/sgf`), 403, 'record_not_available');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/sgf`, { token: tokens.black }), 403, 'record_not_available');
});

test('404 not_found: unknown games and endpoints', async () => {
  const { id } = await newGame(base);
  expectError(await call(base, 'GET', '/api/v1/games/aaaaaaaaaaaa'), 404, 'not_found');
  expectError(await call(base, 'GET', '/api/v1/games/NOT-AN-ID'), 404, 'not_found');
  expectError(await call(base, 'POST', '/api/v1/games/aaaaaaaaaaaa/actions', { token: 'x', body: {} }), 404, 'not_found');
  expectError(await call(base, 'GET', `/api/v1/games/${id}/nothing`), 404, 'not_found');
  expectError(await call(base, 'GET', '/api/v2/games'), 404, 'not_found');
  expectError(await call(base, 'GET', '/api/v1/'), 404, 'not_found');
});

test('405 method_not_allowed with Allow', async () => {
  const { id } = await newGame(base);
  for (const [method, url, allow] of [['GET', '/api/v1/games', 'POST'], ['DELETE', `/api/v1/games/${id}`, 'GET, HEAD'],
                                      ['GET', `/api/v1/games/${id}/actions`, 'POST'],
                                      ['POST', `/api/v1/games/${id}/notes`, 'GET, HEAD, PUT'],
                                      ['PUT', '/api/health', 'GET, HEAD'], ['GET', '/api/v1/qr', 'POST']]) {
    const res = await call(base, method, url);
    expectError(res, 405, 'method_not_allowed');
    assert.equal(res.headers.get('allow'), allow, `${method} ${url}`);
  }
});

test('409 not_your_turn, already_tried, own_stone, stale_seq and game_over change nothing', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 7 } });
  expectError(await act(id, tokens.white, { seq: 1, action: 'attempt', vertex: 'D4' }), 409, 'not_your_turn');
  assert.equal((await act(id, tokens.black, { seq: 1, action: 'attempt', vertex: 'D4' })).status, 200);
  expectError(await act(id, tokens.black, { seq: 2, action: 'attempt', vertex: 'C3' }), 409, 'not_your_turn');
  const illegal = await act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'D4' });
  assert.equal(illegal.status, 200);
  assert.equal(illegal.json.event.type, 'illegal');
  assert.equal(illegal.json.view.to_move, 'white');
  expectError(await act(id, tokens.white, { seq: 3, action: 'attempt', vertex: 'D4' }), 409, 'already_tried');
  assert.equal((await act(id, tokens.white, { seq: 3, action: 'attempt', vertex: 'C3' })).status, 200);
  expectError(await act(id, tokens.black, { seq: 4, action: 'attempt', vertex: 'D4' }), 409, 'own_stone');
  expectError(await act(id, tokens.black, { seq: 9, action: 'pass' }), 409, 'stale_seq');
  expectError(await act(id, tokens.black, { seq: 3, action: 'pass' }), 409, 'stale_seq');
  expectError(await act(id, tokens.black, { seq: 1, action: 'attempt', vertex: 'E5' }), 409, 'stale_seq');
  assert.equal(await seqOf(id), 3);
  assert.equal((await act(id, tokens.black, { seq: 4, action: 'resign' })).status, 200);
  expectError(await act(id, tokens.white, { seq: 5, action: 'pass' }), 409, 'game_over');
  expectError(await act(id, tokens.black, { seq: 5, action: 'pass' }), 409, 'game_over');
  assert.equal(await seqOf(id), 4);
});

// Writes a request on a raw socket (the server may answer and close before
// the body is all sent: a write error is expected then) and resolves what
// came back.
function rawExchange(port, parts) {
  return new Promise((resolve) => {
    let data = '';
    const sock = net.connect(port, '127.0.0.1', () => { for (const p of parts) sock.write(p); });
    sock.on('data', (d) => { data += d; });
    sock.on('error', () => {});
    sock.on('close', () => resolve(data));
  });
}

test('413 body_too_large, by Content-Length and by a chunked body', async () => {
  const port = new URL(base).port;
  // Only the head: the declared length alone must be refused, before any
  // body is read (sending the body too races the server's close into a RST).
  const declared = await rawExchange(port, ['POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 17000\r\n\r\n']);
  assert.match(declared, /^HTTP\/1.1 413/);
  assert.match(declared, /"code":"body_too_large"/);
  assert.match(declared, /Connection: close/);
  const chunks = ['POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'];
  // 16 KiB and one byte, and nothing after it: the server refuses the body
  // at that byte and closes without reading on, so a client that sent more
  // could see its connection reset before it reads the answer.
  for (let i = 0; i < 4; i++) chunks.push(`1000\r\n${'x'.repeat(4096)}\r\n`);
  chunks.push('1\r\nx\r\n');
  const chunked = await rawExchange(port, chunks);
  assert.match(chunked, /^HTTP\/1.1 413/);
  assert.match(chunked, /"code":"body_too_large"/);
});

test('429 rate_limited with Retry-After, per address, for requests and for game creation', async () => {
  const s = await startServer({ args: ['--rate-limit', '2', '--create-limit', '3'] });
  try {
    let limited;
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await call(s.url, 'GET', '/api/v1/games/aaaaaaaaaaaa');
      if (res.status === 429) limited = res;
    }
    assert.ok(limited, 'never rate limited');
    expectError(limited, 429, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await call(s.url, 'GET', '/api/health')).status, 200, 'health is not limited');
    assert.equal((await call(s.url, 'GET', '/')).status, 200, 'pages are not limited');
  } finally {
    assert.equal((await s.stop()).code, 0);
  }
  const c = await startServer({ args: ['--create-limit', '3'] });
  try {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call(c.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } })).status);
    assert.deepEqual(statuses, [201, 201, 201, 429, 429]);
  } finally {
    assert.equal((await c.stop()).code, 0);
  }
});

test('503 unavailable when the disk refuses writes: nothing changes, and play resumes after',
     { skip: ON_POSTGRES && 'about the SQLite file (PostgreSQL: tests/cluster)' }, async () => {
  const dir = tempDir();
  try {
    let s = await startServer({ dir });
    const { id, tokens } = await newGame(s.url);
    await s.stop();
    const biggest = Math.max(...readdirSync(dir).map((f) => statSync(`${dir}/${f}`).size));
    const limitKb = Math.ceil(biggest / 1024) + 16;
    s = await startServer({
      dir,
      spawnVia: (bin, argv) => spawn('bash', ['-c', `trap '' XFSZ; ulimit -f ${limitKb}; exec "$0" "$@"`, bin, ...argv]),
    });
    let seq = 0, refused;
    for (let i = 0; i < 49 && !refused; i++) {
      const color = seq % 2 ? 'white' : 'black';
      const vertex = 'ABCDEFGHJ'[i % 9] + (1 + Math.floor(i / 9));
      const res = await call(s.url, 'POST', `/api/v1/games/${id}/actions`,
                             { token: tokens[color], body: { seq: seq + 1, action: 'attempt', vertex } });
      if (res.status === 200) seq++;
      else refused = { res, color, vertex };
    }
    assert.ok(refused, 'the file size limit was never reached');
    expectError(refused.res, 503, 'unavailable');
    const view = await call(s.url, 'GET', `/api/v1/games/${id}`, { token: tokens.black });
    assert.equal(view.json.seq, seq, 'the refused action changed the game');
    assert.equal((await s.stop()).code, 0);
    s = await startServer({ dir });
    assert.equal((await call(s.url, 'GET', `/api/v1/games/${id}`)).json.seq, seq);
    const again = await call(s.url, 'POST', `/api/v1/games/${id}/actions`,
                             { token: tokens[refused.color], body: { seq: seq + 1, action: 'attempt', vertex: refused.vertex } });
    assert.equal(again.status, 200, again.text);
    assert.equal((await s.stop()).code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
