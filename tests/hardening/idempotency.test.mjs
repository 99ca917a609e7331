// A create, claim, join or rematch whose answer was lost, sent again with
// the same Idempotency-Key (docs/API.md): the same answer, byte for byte,
// and never a second game or seat; the same key with another body is
// refused (422); a malformed key is refused (400). The records live in the
// store, so a restart, even a kill -9 right after the answer, changes
// nothing; they expire after 24 hours of the server's clock (--test-clock
// moves it). And the database never holds a token in the clear: the kept
// answers are sealed under the key itself.
//
// Real server processes on loopback, real SQLite (or PostgreSQL when the
// suite runs under tests/pg/with-postgres.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { ON_POSTGRES } from '../lib/server.mjs';
import { api, connect, request, startServer, tempDir, removeDir } from './lib.mjs';

const NO_LIMITS = ['--rate-limit', '0', '--create-limit', '0'];
const DAY_MS = 24 * 3600 * 1000;
const HOTSEAT = { mode: 'hotseat', settings: { size: 9 } };

let srv;
before(async () => { srv = await startServer({ args: [...NO_LIMITS, '--test-clock'] }); });
after(async () => { await srv?.stop(); });

const keyed = (base, method, path, key, { body, raw, token, from } = {}) =>
  request(base, method, path, { body, raw, token, from, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
const create = (base, key, body = HOTSEAT, from) => keyed(base, 'POST', '/api/v1/games', key, { body, from });

const tokensOf = (r) => r.json.seats.map((s) => s.token);

// The second answer is the first again: status, body bytes, and it says so.
function assertReplay(first, again, what) {
  assert.equal(again.status, first.status, `${what}: ${again.text}`);
  assert.equal(again.text, first.text, `${what}: the same bytes`);
  assert.equal(again.headers['idempotent-replayed'], 'true', what);
  assert.equal(first.headers['idempotent-replayed'], undefined, what);
}

// A finished online game: {id, tokens}.
async function finishedGame(base) {
  const made = await create(base, undefined, { mode: 'online', color: 'black', settings: { size: 7 } });
  assert.equal(made.status, 201, made.text);
  const id = made.json.game.id;
  const claimed = await api.claim(base, id, made.json.invite);
  assert.equal(claimed.status, 200, claimed.text);
  const tokens = { black: made.json.seats[0].token, white: claimed.json.token };
  const resigned = await api.act(base, id, tokens.black, 1, 'resign');
  assert.equal(resigned.status, 200, resigned.text);
  return { id, tokens };
}

test('create: the same key twice is one game, its tokens and its answer; no key is a new game each time', async () => {
  const key = randomUUID();
  const first = await create(srv.url, key);
  assert.equal(first.status, 201, first.text);
  const again = await create(srv.url, key);
  assertReplay(first, again, 'create replayed');
  assert.equal(again.json.game.id, first.json.game.id);
  assert.deepEqual(tokensOf(again), tokensOf(first));
  // The replayed token is a real seat of that game.
  const view = await api.view(srv.url, first.json.game.id, tokensOf(again)[0]);
  assert.equal(view.status, 200, view.text);
  // Without a key, as before: every request is a new game.
  const a = await create(srv.url, undefined), b = await create(srv.url, undefined);
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.notEqual(a.json.game.id, b.json.game.id);
  assert.equal(b.headers['idempotent-replayed'], undefined);
  // A new key is a new game.
  const other = await create(srv.url, randomUUID());
  assert.notEqual(other.json.game.id, first.json.game.id);
});

test('the same key with another body is 422 idempotency_key_reused; keys are scoped by route', async () => {
  const key = randomUUID();
  const first = await create(srv.url, key);
  assert.equal(first.status, 201, first.text);
  const reused = await create(srv.url, key, { mode: 'hotseat', settings: { size: 13 } });
  assert.equal(reused.status, 422, reused.text);
  assert.equal(reused.json.error.code, 'idempotency_key_reused');
  // Even the same JSON spelt differently is another body.
  const spaced = await keyed(srv.url, 'POST', '/api/v1/games', key, { raw: JSON.stringify(HOTSEAT, null, 1) });
  assert.equal(spaced.status, 422, spaced.text);
  // The first answer is still there for its own body.
  assertReplay(first, await create(srv.url, key), 'after a 422');
  // The same key on another route is another record: the join of a public
  // game runs (and is not 422 against the create's body).
  const pub = await create(srv.url, undefined, { mode: 'online', public: true, settings: { size: 9 } });
  const joined = await keyed(srv.url, 'POST', `/api/v1/games/${pub.json.game.id}/join`, key, { body: {} });
  assert.equal(joined.status, 200, joined.text);
  assert.equal(joined.headers['idempotent-replayed'], undefined);
});

test('a malformed Idempotency-Key is 400 bad_request naming the header', async () => {
  for (const bad of ['', 'x'.repeat(65), 'caf\u00e9', 'tab\there', 'ctl\u0001']) {
    const res = await rawCreate(srv.port, bad); // node refuses some of these values itself
    assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
    assert.match(res.text, /"code":"bad_request"/);
    // Control characters in a header are refused by the HTTP parser
    // already, with its own message; the others reach the API.
    if (!/[\t\u0001]/.test(bad)) assert.match(res.text, /Idempotency-Key/);
  }
  const longest = await create(srv.url, 'k'.repeat(64));
  assert.equal(longest.status, 201, longest.text);
});

// POST /api/v1/games with the header's value as given, bytes and all.
async function rawCreate(port, keyValue) {
  const s = await connect(port);
  const body = JSON.stringify(HOTSEAT);
  const head = Buffer.concat([
    Buffer.from('POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
                `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: `),
    Buffer.from(keyValue, 'latin1'), Buffer.from(`\r\n\r\n${body}`)]);
  return new Promise((resolve) => {
    let data = '';
    s.on('data', (d) => { data += d.toString('latin1'); });
    s.on('close', () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1]);
      resolve({ status, text: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    s.write(head);
  });
}

test('claim, join and a rematch offer are each answered again for the same key', async () => {
  // claim
  const online = await create(srv.url, undefined, { mode: 'online', color: 'black', settings: { size: 9 } });
  const id = online.json.game.id;
  const claimPath = `/api/v1/games/${id}/claim`;
  const key = randomUUID();
  const claimed = await keyed(srv.url, 'POST', claimPath, key, { body: { invite: online.json.invite } });
  assert.equal(claimed.status, 200, claimed.text);
  assertReplay(claimed, await keyed(srv.url, 'POST', claimPath, key, { body: { invite: online.json.invite } }),
               'claim replayed');
  // Another key is another request: the seat is taken now.
  const late = await keyed(srv.url, 'POST', claimPath, randomUUID(), { body: { invite: online.json.invite } });
  assert.equal(late.status, 409, late.text);

  // join
  const pub = await create(srv.url, undefined, { mode: 'online', public: true, settings: { size: 9 } });
  const joinPath = `/api/v1/games/${pub.json.game.id}/join`;
  const jkey = randomUUID();
  const joined = await keyed(srv.url, 'POST', joinPath, jkey, { body: { name: 'Ann' } });
  assert.equal(joined.status, 200, joined.text);
  assertReplay(joined, await keyed(srv.url, 'POST', joinPath, jkey, { body: { name: 'Ann' } }), 'join replayed');

  // rematch offer: the same seat, the same key
  const done = await finishedGame(srv.url);
  const rematchPath = `/api/v1/games/${done.id}/rematch`;
  const rkey = randomUUID();
  const offered = await keyed(srv.url, 'POST', rematchPath, rkey, { token: done.tokens.white, body: { action: 'offer' } });
  assert.equal(offered.status, 201, offered.text);
  assertReplay(offered, await keyed(srv.url, 'POST', rematchPath, rkey,
                                    { token: done.tokens.white, body: { action: 'offer' } }), 'rematch replayed');
  // The key is the seat's: the other seat's same key is its own request
  // (it accepts the offer).
  const accepted = await keyed(srv.url, 'POST', rematchPath, rkey, { token: done.tokens.black, body: { action: 'offer' } });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.json.game.id, offered.json.game.id);
  assert.notDeepEqual(tokensOf(accepted), tokensOf(offered));
});

test('duplicates sent at once make one game', async () => {
  const key = randomUUID();
  const body = { mode: 'online', public: true, color: 'black', settings: { size: 9 }, name: `dup-${key.slice(0, 8)}` };
  const answers = await Promise.all(Array.from({ length: 6 }, () => create(srv.url, key, body)));
  for (const a of answers) assert.equal(a.status, 201, a.text);
  const ids = new Set(answers.map((a) => a.json.game.id));
  assert.equal(ids.size, 1, `one game, got ${[...ids].join(', ')}`);
  assert.equal(new Set(answers.map((a) => a.text)).size, 1, 'the same answer to all');
  const lobby = await request(srv.url, 'GET', '/api/v1/lobby');
  const mine = JSON.stringify(lobby.json).split(body.name).length - 1;
  assert.equal(mine, 1, `the lobby lists the game once: ${lobby.text}`);
});

test('a record expires after 24 hours of the server clock', async () => {
  const key = randomUUID();
  const first = await create(srv.url, key);
  const clock = (ms) => request(srv.url, 'POST', '/api/v1/test/clock', { body: { advance_ms: ms } });
  assert.equal((await clock(DAY_MS - 60000)).status, 200);
  assertReplay(first, await create(srv.url, key), 'a minute before the day ends');
  assert.equal((await clock(61000)).status, 200);
  const fresh = await create(srv.url, key);
  assert.equal(fresh.status, 201, fresh.text);
  assert.notEqual(fresh.json.game.id, first.json.game.id, 'after 24 hours the key is new again');
  assertReplay(fresh, await create(srv.url, key), 'the new record');
});

test('a 429 is not kept: the same key runs again when the limit allows', async () => {
  const s = await startServer({ args: ['--rate-limit', '0', '--create-limit', '1'] });
  try {
    assert.equal((await create(s.url, randomUUID(), HOTSEAT, '127.0.0.1')).status, 201);
    const key = randomUUID();
    const limited = await create(s.url, key, HOTSEAT, '127.0.0.1');
    assert.equal(limited.status, 429, limited.text);
    // Another address, the same key: not the 429 again, a game.
    const made = await create(s.url, key, HOTSEAT, '127.0.0.2');
    assert.equal(made.status, 201, made.text);
    assertReplay(made, await create(s.url, key, HOTSEAT, '127.0.0.1'), 'kept once final');
  } finally {
    await s.stop();
  }
});

test('a restart, and a kill -9 right after the answer, keep the answer', async () => {
  const dir = tempDir('pg-idem-');
  let s;
  try {
    s = await startServer({ dir, args: NO_LIMITS });
    const key = randomUUID();
    const first = await create(s.url, key);
    assert.equal(first.status, 201, first.text);
    await s.stop({ keepData: true });
    s = await startServer({ dir, args: NO_LIMITS });
    assertReplay(first, await create(s.url, key), 'after a restart');

    const key9 = randomUUID();
    const acked = await create(s.url, key9, { mode: 'online', color: 'white', settings: { size: 9 } });
    assert.equal(acked.status, 201, acked.text);
    await s.kill();
    s = await startServer({ dir, args: NO_LIMITS });
    const retry = await create(s.url, key9, { mode: 'online', color: 'white', settings: { size: 9 } });
    assertReplay(acked, retry, 'after kill -9');
    const claim = await api.claim(s.url, retry.json.game.id, retry.json.invite);
    assert.equal(claim.status, 200, claim.text);
    await s.stop({ keepData: true });
  } finally {
    if (s) await s.stop().catch(() => {});
    removeDir(dir);
  }
});

test('the database holds no token and no key in the clear', { skip: ON_POSTGRES && 'about the SQLite file' }, async () => {
  const dir = tempDir('pg-idem-');
  const s = await startServer({ dir, args: NO_LIMITS });
  try {
    const key = `secret-key-${randomUUID()}`;
    const first = await create(s.url, key, { mode: 'online', color: 'black', settings: { size: 9 } });
    assert.equal(first.status, 201, first.text);
    assertReplay(first, await create(s.url, key, { mode: 'online', color: 'black', settings: { size: 9 } }), 'replay');
    const bytes = ['', '-wal'].map((ext) => `${s.db}${ext}`).filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1')).join('');
    assert.ok(bytes.includes('idempotency'), 'the table is in the file');
    for (const secret of [...tokensOf(first), first.json.invite, key])
      assert.ok(!bytes.includes(secret), `${secret.slice(0, 6)}... is not in the database`);
  } finally {
    await s.stop();
    removeDir(dir);
  }
});

// The crash between a new game's commit and its answer's record: the
// record is left pending (with the seed the game was drawn from), the game
// committed or not. sqlite3 puts the database in either state after a kill
// -9, as a crash at that moment would leave it.
test('a create cut by a crash before its answer was stored makes the same game when sent again',
     { skip: ON_POSTGRES && 'edits the SQLite file' }, async () => {
  const dir = tempDir('pg-idem-');
  let s;
  try {
    s = await startServer({ dir, args: NO_LIMITS });
    for (const committed of [true, false]) {
      const key = randomUUID();
      const body = { mode: 'online', public: true, settings: { size: 9 }, name: `crash-${key.slice(0, 8)}` };
      const first = await create(s.url, key, body);
      assert.equal(first.status, 201, first.text);
      const id = first.json.game.id;
      await s.kill();
      const sql = committed ? 'UPDATE idempotency SET answer = NULL;'
        : `UPDATE idempotency SET answer = NULL; DELETE FROM seat_names WHERE game_id = '${id}';` +
          ` DELETE FROM games WHERE id = '${id}';`;
      execFileSync('sqlite3', [s.db, sql]);
      s = await startServer({ dir, port: s.port, args: NO_LIMITS });
      const retry = await create(s.url, key, body);
      const what = committed ? 'the game committed' : 'the game not committed';
      assert.equal(retry.status, 201, `${what}: ${retry.text}`);
      assert.equal(retry.text, first.text, `${what}: the same game, seats, invite and links`);
      assertReplay(first, await create(s.url, key, body), `${what}: kept now`);
      const lobby = await request(s.url, 'GET', '/api/v1/lobby');
      assert.equal(lobby.text.split(body.name).length - 1, 1, `${what}: one game in the lobby: ${lobby.text}`);
      const claimed = await api.claim(s.url, id, first.json.invite);
      assert.equal(claimed.status, 200, `${what}: the invite works: ${claimed.text}`);
    }
    await s.stop({ keepData: true });
  } finally {
    if (s) await s.stop().catch(() => {});
    removeDir(dir);
  }
});

test('another server of the same PostgreSQL database answers a retry the same',
     { skip: !ON_POSTGRES && 'needs two servers on one database (PostgreSQL)' }, async () => {
  const a = await startServer({ args: NO_LIMITS });
  const b = await startServer({ db: a.db, args: NO_LIMITS });
  try {
    const key = randomUUID();
    const first = await create(a.url, key, { mode: 'online', color: 'black', settings: { size: 9 } });
    assert.equal(first.status, 201, first.text);
    const retry = await create(b.url, key, { mode: 'online', color: 'black', settings: { size: 9 } });
    assertReplay(first, retry, 'on the other server');
    const claimPath = `/api/v1/games/${first.json.game.id}/claim`;
    const ckey = randomUUID();
    const claimed = await keyed(b.url, 'POST', claimPath, ckey, { body: { invite: first.json.invite } });
    assert.equal(claimed.status, 200, claimed.text);
    assertReplay(claimed, await keyed(a.url, 'POST', claimPath, ckey, { body: { invite: first.json.invite } }),
                 'claim on the other server');
  } finally {
    await b.stop();
    await a.stop();
  }
});
