// Web Push end to end, on loopback: the server under test sends to a push
// service of the test's own (tests/lib/push_service.mjs: HTTPS with a test
// CA, VAPID checked against GET /api/v1/push/key, bodies decrypted with
// each subscription's private key). Every kind of notice for both seats of
// a correspondence game; twin games that differ in hidden moves give the
// same pushes; none while the seat's socket is open; 410 drops a
// subscription; 503 is retried; a dead push service delays no move; a
// push queued when the server is killed with -9 is delivered after the
// restart; bad subscriptions are refused naming the field. On SQLite and (tests/pg) PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { startServer, call, tempDir, expectError, openSocket } from './lib.mjs';
import { ON_POSTGRES } from '../lib/server.mjs';
import { startPushService } from '../lib/push_service.mjs';


// One value read from the server's database, on SQLite or PostgreSQL.
function queryOne(server, sql) {
  const out = ON_POSTGRES ? execFileSync('psql', [server.db, '-Atc', sql]) : execFileSync('sqlite3', [server.db, sql]);
  return out.toString().trim();
}
const DAY = 86400000;

async function withPush(fn, { dir } = {}) {
  const push = await startPushService();
  const args = ['--push-allow-private', '--push-ca', push.caFile, '--push-contact', 'mailto:ops@example.org',
                '--test-clock'];
  const ownDir = !dir;
  dir ??= tempDir();
  const start = async () => {
    const server = await startServer({ dir, args });
    const key = await call(server.url, 'GET', '/api/v1/push/key');
    assert.equal(key.status, 200, key.text);
    assert.match(key.json.public_key, /^B[A-Za-z0-9_-]{86}$/);
    push.setServerKey(key.json.public_key);
    return server;
  };
  try {
    await fn({ push, start, dir });
  } finally {
    await push.close();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(push.failures, [], 'every message passed the push service\'s checks');
}

async function createOnline(url, body = {}) {
  const res = await call(url, 'POST', '/api/v1/games',
                         { body: { mode: 'online', color: 'black', settings: { size: 9 }, ...body } });
  assert.equal(res.status, 201, res.text);
  return { id: res.json.game.id, black: res.json.seats[0].token, invite: res.json.invite };
}

async function subscribe(url, id, token, subscription, lang) {
  const res = await call(url, 'PUT', `/api/v1/games/${id}/push`,
                         { token, body: lang ? { ...subscription, lang } : subscription });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { push: true });
}

async function act(url, id, token, body) {
  const res = await call(url, 'POST', `/api/v1/games/${id}/actions`, { token, body });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('every notice for both seats, from their own views, never while a socket is open', async () => {
  await withPush(async ({ push, start }) => {
    const server = await start();
    try {
      const g = await createOnline(server.url, { time_control: { type: 'none', days_per_move: 2 } });
      await subscribe(server.url, g.id, g.black, push.subscriber('black'), 'ru');
      const claim = await call(server.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite } });
      assert.equal(claim.status, 200, claim.text);
      const white = claim.json.token;
      assert.equal((await call(server.url, 'PUT', `/api/v1/games/${g.id}/name`, { token: white, body: { name: 'Alice' } })).status, 200);
      await push.waitFor(() => push.of('black').length === 1);
      let m = push.of('black')[0];
      assert.equal(m.payload.kind, 'opponent_joined');
      assert.equal(m.payload.game, g.id);
      assert.equal(m.payload.lang, 'ru');
      assert.equal(m.payload.you, 'black');
      assert.equal(m.claims.aud, push.url);
      assert.equal(m.claims.sub, 'mailto:ops@example.org');
      assert.equal(m.size, 86 + 512 + 1 + 16, 'padded: every notice is the same size on the wire');

      await subscribe(server.url, g.id, white, push.subscriber('white'), 'ko');
      // White watches the page (its socket is open): Black's move sends nothing.
      const ws = openSocket(server.url, g.id, { token: white });
      await ws.opened;
      await ws.waitFor((fs) => fs.some((f) => f.json.type === 'welcome' || f.json.type === 'view' || f.json.view));
      let view = await act(server.url, g.id, g.black, { seq: 1, action: 'attempt', vertex: 'D4' });
      await sleep(700);
      assert.equal(push.of('white').length, 0, 'no push to a seat with an open socket');
      ws.close();
      await ws.closed;
      // White moves, then Black tries and moves while White's page is closed.
      view = await act(server.url, g.id, white, { seq: view.view.seq + 1, action: 'attempt', vertex: 'E5' });
      await push.waitFor(() => push.of('black').length === 2);
      m = push.of('black')[1];
      assert.equal(m.payload.kind, 'your_turn');
      assert.equal(m.payload.opponent, 'Alice');
      assert.equal(m.headers.urgency, 'high');
      assert.equal(typeof m.payload.turn, 'number');
      assert.equal(JSON.stringify(m.payload).includes('E5'), false, 'nothing of where the opponent played');
      view = await act(server.url, g.id, g.black, { seq: view.view.seq + 1, action: 'attempt', vertex: 'E5' }); // tried: White's stone
      assert.equal(view.view.to_move, 'black');
      view = await act(server.url, g.id, g.black, { seq: view.view.seq + 1, action: 'attempt', vertex: 'C3' });
      await push.waitFor(() => push.of('white').length === 1);
      m = push.of('white')[0];
      assert.equal(m.payload.kind, 'your_turn');
      assert.equal(m.payload.lang, 'ko');
      assert.equal(m.payload.you, 'white');
      assert.equal(m.payload.opponent, null);
      assert.equal(JSON.stringify(m.payload).includes('C3'), false);
      for (const msg of push.messages) assert.equal(JSON.stringify(msg.payload).includes(white), false, 'never a token');

      // Less than 12 hours left of White's two days: time_low, once.
      await call(server.url, 'POST', '/api/v1/test/clock', { body: { advance_ms: 2 * DAY - 11 * 3600000 } });
      await push.waitFor(() => push.of('white').length === 2);
      assert.equal(push.of('white')[1].payload.kind, 'time_low');
      assert.equal(push.of('white')[1].headers.urgency, 'high');

      // White resigns: both told, with the result; then Black offers a rematch.
      await act(server.url, g.id, white, { seq: view.view.seq + 1, action: 'resign' });
      await push.waitFor(() => push.of('black').length === 3 && push.of('white').length === 3);
      for (const name of ['black', 'white']) {
        const over = push.of(name)[2].payload;
        assert.equal(over.kind, 'game_over');
        assert.equal(over.result.reason, 'resign');
        assert.equal(over.result.winner, 'black');
        assert.equal(push.of(name)[2].headers.urgency, 'normal');
      }
      const offer = await call(server.url, 'POST', `/api/v1/games/${g.id}/rematch`, { token: g.black });
      assert.equal(offer.status, 201, offer.text);
      await push.waitFor(() => push.of('white').length === 4);
      assert.equal(push.of('white')[3].payload.kind, 'rematch_offer');
      await sleep(500);
      assert.equal(push.of('black').length, 3, 'the offerer is not told of its own offer');
    } finally {
      await server.stop();
    }
  });
});

test('twin games that differ only in hidden moves give byte-identical pushes', async () => {
  await withPush(async ({ push, start }) => {
    const server = await start();
    try {
      const twins = [];
      for (const [name, moves] of [['twin-a', ['D4', 'C3']], ['twin-b', ['F6', 'G7']]]) {
        const g = await createOnline(server.url);
        const claim = await call(server.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite } });
        const white = claim.json.token;
        await subscribe(server.url, g.id, white, push.subscriber(name));
        // White answers each notice (a notice of a state gone by before
        // it was looked at is not sent: White would have acted on it).
        let view = await act(server.url, g.id, g.black, { seq: 1, action: 'attempt', vertex: moves[0] });
        await push.waitFor(() => push.of(name).length === 1);
        view = await act(server.url, g.id, white, { seq: view.view.seq + 1, action: 'attempt', vertex: 'E5' });
        await act(server.url, g.id, g.black, { seq: view.view.seq + 1, action: 'attempt', vertex: moves[1] });
        await push.waitFor(() => push.of(name).length === 2);
        twins.push({ id: g.id, name });
      }
      const masked = (name, id) => push.of(name).map((m) => JSON.stringify(m.payload).replaceAll(id, 'GAME'));
      assert.deepEqual(masked('twin-a', twins[0].id), masked('twin-b', twins[1].id));
      assert.deepEqual(push.of('twin-a').map((m) => m.size), push.of('twin-b').map((m) => m.size));
    } finally {
      await server.stop();
    }
  });
});

test('410 drops the subscription; 503 is tried again', async () => {
  await withPush(async ({ push, start }) => {
    const server = await start();
    try {
      const g = await createOnline(server.url);
      await subscribe(server.url, g.id, g.black, push.subscriber('gone'));
      await subscribe(server.url, g.id, g.black, push.subscriber('busy'));
      push.answer('gone', [410]);
      push.answer('busy', [503]);
      const claim = await call(server.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite } });
      assert.equal(claim.status, 200);
      await push.waitFor(() => push.of('busy').length === 2 && push.of('gone').length === 1);
      const [first, second] = push.of('busy');
      assert.equal(first.status, 503);
      assert.equal(second.status, 201);
      assert.ok(second.at - first.at >= 800, 'retried after a delay');
      assert.equal(second.payload.kind, 'opponent_joined');
      await sleep(300);
      const rows = queryOne(server, `SELECT endpoint FROM push_subscriptions WHERE game_id = '${g.id}'`);
      assert.equal(rows.includes('/push/gone'), false, '410: the subscription is deleted');
      assert.equal(rows.includes('/push/busy'), true);
    } finally {
      await server.stop();
    }
  });
});

test('a push service that never answers does not delay a move', async () => {
  await withPush(async ({ push, start }) => {
    const server = await start();
    try {
      const g = await createOnline(server.url);
      await subscribe(server.url, g.id, g.black, push.subscriber('dead'));
      push.answer('dead', ['hang', 'hang', 'hang']);
      const claim = await call(server.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite } });
      const white = claim.json.token;
      await push.waitFor(() => push.of('dead').length === 1); // the sender now waits on it
      let seq = 0;
      for (const [token, vertex] of [[g.black, 'D4'], [white, 'E5'], [g.black, 'C3'], [white, 'F6']]) {
        const started = Date.now();
        const answer = await act(server.url, g.id, token, { seq: ++seq, action: 'attempt', vertex });
        assert.ok(Date.now() - started < 1000, `a move answered in ${Date.now() - started} ms`);
        seq = answer.view.seq;
      }
    } finally {
      await server.stop();
    }
  });
});

test('a push queued when the server is killed with -9 is sent after the restart', async () => {
  const dir = tempDir();
  try {
    await withPush(async ({ push, start }) => {
      let server = await start();
      const g = await createOnline(server.url);
      await subscribe(server.url, g.id, g.black, push.subscriber('phone'));
      push.answer('phone', [503], { retryAfter: 2 });
      const claim = await call(server.url, 'POST', `/api/v1/games/${g.id}/claim`, { body: { invite: g.invite } });
      assert.equal(claim.status, 200);
      await push.waitFor(() => push.of('phone').length === 1);
      // Killed once the retry is on record (the row queued for 2 s later).
      const attempts = () => queryOne(server, 'SELECT attempts FROM push_outbox WHERE state = 0');
      for (let i = 0; i < 100 && attempts() !== '1'; i++) await sleep(20);
      assert.equal(attempts(), '1');
      await server.kill();
      server = await start();
      try {
        await push.waitFor(() => push.of('phone').length === 2, 20000);
        assert.equal(push.of('phone')[1].status, 201);
        assert.equal(push.of('phone')[1].payload.kind, 'opponent_joined');
        await sleep(500);
        assert.equal(push.of('phone').length, 2, 'sent once, not again after the restart');
      } finally {
        await server.stop({ keepData: true });
      }
    }, { dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('subscriptions: checked field by field, five a seat, seat tokens only', async () => {
  await withPush(async ({ push, start }) => {
    const server = await start();
    try {
      const g = await createOnline(server.url);
      const good = push.subscriber('one');
      const put = (body, token = g.black) => call(server.url, 'PUT', `/api/v1/games/${g.id}/push`, { token, body });
      const refused = async (body, field) => {
        const res = await put(body);
        expectError(res, 400, 'bad_request');
        assert.equal(res.json.error.field, field, res.text);
      };
      await refused({ ...good, endpoint: 'http://127.0.0.1/x' }, 'endpoint');
      await refused({ ...good, endpoint: 'https://user@127.0.0.1/x' }, 'endpoint');
      await refused({ ...good, keys: { ...good.keys, p256dh: 'BAAA' } }, 'keys.p256dh');
      await refused({ ...good, keys: { ...good.keys, auth: 'short' } }, 'keys.auth');
      await refused({ ...good, lang: 'de' }, 'lang');
      await refused({ ...good, extra: 1 }, 'body');
      expectError(await put(good, null), 401, 'token_required');
      expectError(await put(good, 'not-a-token'), 403, 'bad_token');
      for (let i = 0; i < 5; i++) await subscribe(server.url, g.id, g.black, push.subscriber(`d${i}`));
      expectError(await put(push.subscriber('d5')), 409, 'too_many_subscriptions');
      const del = await call(server.url, 'DELETE', `/api/v1/games/${g.id}/push`, { token: g.black, body: { endpoint: `${push.url}/push/d0` } });
      assert.equal(del.status, 200, del.text);
      assert.deepEqual(del.json, { push: false });
      await subscribe(server.url, g.id, g.black, push.subscriber('d5'));
    } finally {
      await server.stop();
    }
  });
});

test('without --push-allow-private a loopback endpoint is refused', async () => {
  const server = await startServer();
  try {
    const g = await createOnline(server.url);
    const key = Buffer.alloc(65, 0); key[0] = 4;
    const res = await call(server.url, 'PUT', `/api/v1/games/${g.id}/push`, { token: g.black, body: {
      endpoint: 'https://127.0.0.1:8443/push/x', keys: { p256dh: key.toString('base64url'), auth: 'AAAAAAAAAAAAAAAAAAAAAA' } } });
    expectError(res, 400, 'bad_request');
    assert.equal(res.json.error.field, 'endpoint');
    for (const host of ['10.1.2.3', '192.168.0.1', '169.254.1.1', '[::1]', '[fe80::1]', '224.0.0.1', 'localhost']) {
      const r = await call(server.url, 'PUT', `/api/v1/games/${g.id}/push`, { token: g.black, body: {
        endpoint: `https://${host}/x`, keys: { p256dh: key.toString('base64url'), auth: 'AAAAAAAAAAAAAAAAAAAAAA' } } });
      assert.equal(r.json?.error?.field, 'endpoint', `${host}: ${r.text}`);
    }
  } finally {
    await server.stop();
  }
});
