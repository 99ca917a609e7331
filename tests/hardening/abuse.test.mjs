// Abuse: what one hostile or broken client can do, and the limits that stop
// it. Each limit is tested where it bites (the request past the limit gets
// 429 with Retry-After, 413...) and where it must not (another address, the
// request just under the limit). Servers here run with small limits so the
// tests take seconds; loopback addresses 127.0.0.2.. play other clients.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';

import { api, newGame, openWs, rawExchange, request, sleep, startServer, statusOf, watch } from './lib.mjs';

const slow = process.env.PHANTOMGO_SLOW === '1';   // under TSan: wider time margins
const RATE = 5;            // srv's API requests a second per address...
const BURST = 5 * RATE;    // ...and its bursts (--rate-limit N allows 5N)
let srv;          // limits: RATE API requests/s (bursts of BURST), 3 games a minute
let open;         // no limits, for everything that is not about rate limits
const secrets = [];   // every token and invite handed out, for the log check

before(async () => {
  srv = await startServer({ args: ['--rate-limit', String(RATE), '--create-limit', '3', '--max-websockets', '4'] });
  open = await startServer({ args: ['--rate-limit', '0', '--create-limit', '0'] });
});
after(async () => {
  const logs = srv.output() + open.output();
  await srv?.stop();
  await open?.stop();
  // Tokens never in logs: nothing any test here was given appears in what
  // the servers wrote, whole or in part (its first 12 characters).
  for (const s of secrets) {
    assert.ok(!logs.includes(s.slice(0, 12)), `a secret appears in the server's output:\n${logs.slice(0, 2000)}`);
  }
});

function remember(game) {
  secrets.push(...Object.values(game.tokens));
  if (game.created.invite) secrets.push(game.created.invite);
  return game;
}

// Sends count requests from one address at once, so that the bucket has
// little time to refill however loaded the machine is. Returns the answers
// and the tokens that may have refilled while they ran.
async function flood(count, send) {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, send));
  return { answers, refilled: Math.ceil(RATE * (Date.now() - started) / 1000) };
}

function assertRateLimited(res) {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.json?.error?.code, 'rate_limited');
  const retry = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After: ${res.headers['retry-after']}`);
}

test('API requests past the per-address rate get 429 with Retry-After; other addresses do not', async () => {
  // The burst passes, and no more pass than the refill since allows.
  const from = '127.0.0.2';
  const { answers, refilled } = await flood(40, () => request(srv.url, 'GET', '/api/v1/games/nosuchgame0', { from }));
  const passed = answers.filter((r) => r.status === 404).length;
  const limited = answers.filter((r) => r.status === 429);
  assert.equal(passed + limited.length, 40, answers.map((r) => r.status).join(' '));
  assert.ok(passed >= BURST, `the burst is allowed: only ${passed} of 40 passed`);
  assert.ok(passed <= BURST + refilled + 1, `${passed} of 40 passed, the bucket allows ${BURST + refilled}`);
  assert.ok(limited.length >= 1, `none of 40 was limited (${refilled} tokens refilled meanwhile)`);
  assertRateLimited(limited[0]);
  const other = await request(srv.url, 'GET', '/api/v1/games/nosuchgame0', { from: '127.0.0.3' });
  assert.equal(other.status, 404, 'another address is not limited');
  await sleep(Number(limited[0].headers['retry-after']) * 1000 + 200);
  assert.equal((await request(srv.url, 'GET', '/api/v1/games/nosuchgame0', { from })).status, 404,
               'the limit lifts after Retry-After');
});

test('game creation is limited per address (3 a minute here)', async () => {
  const from = '127.0.0.4';
  const body = { mode: 'hotseat', settings: { size: 9 } };
  for (let i = 0; i < 3; i++) {
    const r = await request(srv.url, 'POST', '/api/v1/games', { body, from });
    assert.equal(r.status, 201, r.text);
    secrets.push(...r.json.seats.map((s) => s.token));
  }
  assertRateLimited(await request(srv.url, 'POST', '/api/v1/games', { body, from }));
  const other = await request(srv.url, 'POST', '/api/v1/games', { body, from: '127.0.0.5' });
  assert.equal(other.status, 201, 'another address may still create');
  secrets.push(...other.json.seats.map((s) => s.token));
});

test('actions are rate limited, and a limited action can be retried with the same seq', async () => {
  const from = '127.0.0.6';
  const r = await request(srv.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat' }, from: '127.0.0.7' });
  const id = r.json.game.id;
  const tok = Object.fromEntries(r.json.seats.map((s) => [s.color, s.token]));
  secrets.push(...Object.values(tok));
  let seq = 0, limited = null;
  const cols = 'ABCDEFGHJ';
  for (let i = 0; i < 60 && !limited; i++) {
    const color = seq % 2 === 0 ? 'black' : 'white';
    const body = { seq: seq + 1, action: 'attempt', vertex: cols[i % 9] + (1 + Math.floor(i / 9)) };
    const res = await request(srv.url, 'POST', `/api/v1/games/${id}/actions`, { token: tok[color], body, from });
    if (res.status === 429) limited = { res, color, body };
    else if (res.status === 200) seq = res.json.view.seq;
    else assert.fail(`unexpected ${res.status} ${res.text}`);
  }
  assert.ok(limited, 'a flood of actions from one address must be limited');
  assertRateLimited(limited.res);
  await sleep(Number(limited.res.headers['retry-after']) * 1000 + 200);
  const again = await request(srv.url, 'POST', `/api/v1/games/${id}/actions`,
                              { token: tok[limited.color], body: limited.body, from });
  assert.equal(again.status, 200, 'the limited action was not applied and can be sent again');
  assert.equal(again.json.view.seq, seq + 1);
});

test('WebSocket connections are rate limited per address and capped in total (1013)', async () => {
  const g = remember(await newGameFrom(srv.url, '127.0.0.8'));
  // The total cap (--max-websockets 4): the fifth socket is closed with 1013.
  const sockets = [];
  for (let i = 0; i < 4; i++) sockets.push(await watch(srv.port, g.id, null, 0, `127.0.0.${20 + i}`));
  assert.ok(sockets.every((s) => s.first?.json?.type === 'update'));
  const extra = await openWs(srv.port, `/api/v1/games/${g.id}/ws`, { from: '127.0.0.30' });
  const closed = await Promise.race([extra.closed, sleep(5000).then(() => null)]);
  assert.ok(closed, 'the socket past the limit must be closed');
  assert.equal(closed.code, 1013);
  assert.match(closed.reason, /too many connections/);
  sockets.forEach((s) => s.close());
  await sleep(300);
  // Per address: upgrades count against the API rate (bursts of BURST here).
  let refused = null;
  for (let i = 0; i < 40 && !refused; i++) {
    try {
      const ws = await openWs(srv.port, `/api/v1/games/${g.id}/ws`, { from: '127.0.0.9' });
      ws.close();
    } catch (e) { refused = e; }
  }
  assert.ok(refused, 'a flood of WebSocket upgrades from one address must be refused');
  assert.equal(refused.status, 429);
});

test('one address may hold at most 32 WebSockets (429 with Retry-After past that); closing one frees its place', async () => {
  const g = remember(await newGame(open.url));
  const from = '127.0.0.40';
  const held = [];
  for (let i = 0; i < 32; i++) held.push(await watch(open.port, g.id, null, 0, from));
  assert.ok(held.every((s) => s.first?.json?.type === 'update'), 'the first 32 are served');
  // The 33rd upgrade is refused before it becomes a socket: 429 + Retry-After.
  const refused = await openWs(open.port, `/api/v1/games/${g.id}/ws`, { from }).then(() => null, (e) => e);
  assert.equal(refused?.status, 429, 'the 33rd socket of one address must be refused');
  assert.match(refused.message, /Retry-After: \d+/i);
  const other = await watch(open.port, g.id, null, 0, '127.0.0.41');
  assert.equal(other.first?.json?.type, 'update', 'another address is not affected');
  other.close();
  held.pop().close();
  await sleep(slow ? 1000 : 300);
  const again = await watch(open.port, g.id, null, 0, from);
  assert.equal(again.first?.json?.type, 'update', 'a closed socket frees its place');
  again.close();
  held.forEach((s) => s.close());
});

async function newGameFrom(base, from) {
  const r = await request(base, 'POST', '/api/v1/games', { body: { mode: 'hotseat' }, from });
  assert.equal(r.status, 201, r.text);
  return { id: r.json.game.id, tokens: Object.fromEntries(r.json.seats.map((s) => [s.color, s.token])), created: r.json };
}

test('bodies over 16 KiB get 413 (declared or chunked); 16 KiB exactly is read', async () => {
  const big = JSON.stringify({ text: 'x'.repeat(16 * 1024) });
  const r1 = await request(open.url, 'POST', '/api/v1/qr', { raw: big });
  assert.equal(r1.status, 413);
  assert.equal(r1.json.error.code, 'body_too_large');
  const chunked = `POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
    `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
    `${(17 * 1024).toString(16)}\r\n${'{'.padEnd(17 * 1024, ' ')}\r\n0\r\n\r\n`;
  assert.equal(statusOf(await rawExchange(open.port, chunked)), 413);
  const exact = '{"mode":"hotseat"' + ' '.repeat(16 * 1024 - 18) + '}';
  assert.equal(Buffer.byteLength(exact), 16 * 1024);
  const r3 = await request(open.url, 'POST', '/api/v1/games', { raw: exact });
  assert.equal(r3.status, 201, r3.text);
  secrets.push(...r3.json.seats.map((s) => s.token));
  // A huge declared length is refused before any of the body is read.
  const liar = 'POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
               'Content-Length: 10000000000\r\nConnection: close\r\n\r\n{}';
  assert.equal(statusOf(await rawExchange(open.port, liar)), 413);
});

test('oversized or malformed request heads are refused and the server lives on', async () => {
  const huge = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Junk: ${'a'.repeat(20000)}\r\n\r\n`;
  const s1 = statusOf(await rawExchange(open.port, huge));
  assert.ok([400, 413, 431].includes(s1), `oversized head: ${s1}`);
  const many = 'GET /api/health HTTP/1.1\r\nHost: x\r\n' + 'X-A: b\r\n'.repeat(200) + '\r\n';
  const s2 = statusOf(await rawExchange(open.port, many));
  assert.ok(s2 === 200 || (s2 >= 400 && s2 < 500), `many headers: ${s2}`);
  for (const junk of ['\x00\x01\x02\r\n\r\n', 'GET\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'BREW /api/health HTTP/1.1\r\n\r\n']) {
    const s = statusOf(await rawExchange(open.port, junk, 2000));
    assert.ok(s === null || s >= 400, `junk ${JSON.stringify(junk)} answered ${s}`);
  }
  assert.equal((await request(open.url, 'GET', '/api/health')).status, 200);
});

test('the invite secret works once; a wrong one is refused', async () => {
  const r = await api.create(open.url, { mode: 'online', color: 'black' });
  assert.equal(r.status, 201);
  const id = r.json.game.id, invite = r.json.invite;
  secrets.push(invite, r.json.seats[0].token);
  const wrong = await api.claim(open.url, id, invite.slice(0, -2) + (invite.endsWith('AA') ? 'BB' : 'AA'));
  assert.equal(wrong.status, 403);
  assert.equal(wrong.json.error.code, 'bad_invite');
  const first = await api.claim(open.url, id, invite);
  assert.equal(first.status, 200);
  assert.equal(first.json.color, 'white');
  secrets.push(first.json.token);
  const second = await api.claim(open.url, id, invite);
  assert.equal(second.status, 409);
  assert.equal(second.json.error.code, 'seat_taken');
  assert.ok(!second.text.includes(first.json.token));
  // Concurrent claims of a fresh invite: exactly one wins.
  const c = await api.create(open.url, { mode: 'online', color: 'white' });
  secrets.push(c.json.invite, c.json.seats[0].token);
  const race = await Promise.all(Array.from({ length: 8 }, () => api.claim(open.url, c.json.game.id, c.json.invite)));
  assert.equal(race.filter((x) => x.status === 200).length, 1, race.map((x) => x.status).join(','));
  assert.ok(race.every((x) => x.status === 200 || x.json.error.code === 'seat_taken'));
  secrets.push(...race.filter((x) => x.status === 200).map((x) => x.json.token));
});

test('tokens are long random secrets, and guessing them is rate limited', async () => {
  const g = remember(await newGameFrom(srv.url, '127.0.0.10'));
  for (const t of Object.values(g.tokens)) {
    assert.match(t, /^[A-Za-z0-9_-]{22,}$/, 'a token is at least 128 bits of base64url');
  }
  assert.notEqual(g.tokens.black, g.tokens.white);
  const from = '127.0.0.11';
  const { answers } = await flood(60, () => request(srv.url, 'POST', `/api/v1/games/${g.id}/actions`,
    { token: randomBytes(32).toString('base64url'), body: { seq: 1, action: 'pass' }, from }));
  for (const res of answers) if (res.status === 403) assert.equal(res.json.error.code, 'bad_token');
  const statuses = answers.map((r) => r.status);
  assert.ok(!statuses.includes(200), 'a guess succeeded');
  assert.ok(statuses.filter((s) => s === 429).length >= 25, `guesses were not limited: ${statuses.join(',')}`);
  // Wrong tokens change nothing: the game is still at seq 0 for its seats.
  const v = await request(srv.url, 'GET', `/api/v1/games/${g.id}`, { token: g.tokens.black, from: '127.0.0.12' });
  assert.equal(v.json.seq, 0);
  // A token of another game, a token with junk around it: 403, never accepted.
  const other = remember(await newGame(open.url));
  for (const token of [other.tokens.black, `${g.tokens.black}x`, g.tokens.black.slice(1), ` ${g.tokens.black}z`]) {
    const res = await request(srv.url, 'POST', `/api/v1/games/${g.id}/actions`,
                              { token, body: { seq: 1, action: 'pass' }, from: '127.0.0.13' });
    assert.equal(res.status, 403, `${token}: ${res.text}`);
  }
  await sleep(slow ? 400 : 100);
});

test('secrets stay out of the logs even when the server logs errors', async () => {
  const g = remember(await newGame(open.url, { mode: 'online' }));
  // Requests that make a server talk: bad tokens, stale seqs, junk bodies,
  // a WebSocket hello with a token, a retry, a query string with a token.
  await api.act(open.url, g.id, g.tokens.black, 1, 'attempt', 'E5');
  await api.act(open.url, g.id, g.tokens.black, 1, 'attempt', 'E5');
  await api.act(open.url, g.id, g.tokens.black, 7, 'pass');
  await api.act(open.url, g.id, `${g.tokens.white}junk`, 2, 'pass');
  await request(open.url, 'POST', `/api/v1/games/${g.id}/actions`, { token: g.tokens.white, raw: '{"seq":' });
  await request(open.url, 'GET', `/api/v1/games/${g.id}?token=${g.tokens.black}`);
  await request(open.url, 'GET', `/g/${g.id}?invite=${g.created.invite}`);
  const ws = await watch(open.port, g.id, g.tokens.white, 0);
  ws.send({ type: 'hello', token: g.tokens.black, since: 0 });
  ws.close();
  const bad = await watch(open.port, g.id, `${g.tokens.black}zz`, 0);
  assert.equal(bad.first?.json?.type, 'error');
  bad.close();
  await sleep(200);
  const logs = open.output();
  for (const s of secrets) assert.ok(!logs.includes(s.slice(0, 12)), 'a secret appears in the log');
});
