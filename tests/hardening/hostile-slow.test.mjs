// A hostile client, part 2: slow and oversized bodies (issue 21). A body
// declared as 100 bytes and sent a byte every 2 s used to keep its worker
// for ever, and ten such connections starved a server of its workers. A
// request, head and body, must now arrive whole within 10 s (else 408 and
// a close); a body over 16 KiB is refused unread (413 and a close), after
// the rate limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, connect, statusOf, sleep, timed } from './lib.mjs';

const slow = process.env.PHANTOMGO_SLOW === '1';

// Opens a connection, sends a POST head declaring `length` bytes, then drips
// one byte every `everyMs` until the server answers or closes. Resolves
// {answer, ms}: what came back and when, from the head's first byte.
function drip(port, { length = 100, everyMs = 2000, path = '/api/v1/games' } = {}) {
  return connect(port).then((s) => new Promise((resolve) => {
    const t0 = Date.now();
    let answer = '';
    let timer = null;
    const finish = () => { clearInterval(timer); s.destroy(); resolve({ answer, ms: Date.now() - t0 }); };
    s.on('data', (d) => { answer += d; });
    s.on('close', finish);
    s.on('error', finish);
    s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
    timer = setInterval(() => { if (!s.destroyed) s.write(' '); }, everyMs);
    setTimeout(finish, 40000);   // the test's own bound: the server must act long before
  }));
}

test('a dripped body is answered 408 and closed within the 10 s deadline', async () => {
  const server = await startServer();
  try {
    const port = new URL(server.url).port;
    const { answer, ms } = await drip(port);
    assert.equal(statusOf(answer), 408, answer);
    assert.match(answer, /"code":"request_timeout"/);
    assert.ok(ms >= 9000, `not before the deadline (${ms} ms)`);
    assert.ok(ms < (slow ? 20000 : 13000), `the worker was held ${ms} ms`);
  } finally {
    await server.stop();
  }
});

test('ten dripping clients on a 4-thread server leave /api/live answering', async () => {
  const server = await startServer({ args: ['--threads', '4', '--max-websockets', '4'] });
  try {
    const port = new URL(server.url).port;
    const drips = Array.from({ length: 10 }, () => drip(port, { everyMs: 1000 }));
    await sleep(500);
    // While they drip (or right after the deadline frees the workers), a
    // plain request gets through: at most the 10 s deadline, never for ever.
    const { value: live, ms } = await timed(() => request(server.url, 'GET', '/api/live'));
    assert.equal(live.status, 200);
    assert.ok(ms < (slow ? 25000 : 15000), `/api/live waited ${ms} ms`);
    // Eight workers (4 + 4): eight drips are cut at 10 s, the two that
    // queued for a worker meanwhile get their own 10 s after that.
    for (const d of await Promise.all(drips)) {
      assert.equal(statusOf(d.answer), 408, d.answer);
      assert.ok(d.ms < (slow ? 40000 : 25000), `a drip was answered after ${d.ms} ms`);
    }
  } finally {
    await server.stop();
  }
});

test('an over-limit body is refused 413 unread and closes; the rate limit comes before any body', async () => {
  const server = await startServer({ args: ['--rate-limit', '1'] });
  try {
    const port = new URL(server.url).port;
    const s = await connect(port);
    let answer = '';
    const closed = new Promise((r) => { s.on('close', r); s.on('error', r); });
    s.on('data', (d) => { answer += d; });
    // A megabyte declared, none of it sent: the answer must not wait for it.
    s.write('POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n');
    const { ms } = await timed(() => Promise.race([closed, sleep(8000)]));
    assert.equal(statusOf(answer), 413, answer);
    assert.match(answer, /Connection: close/i);
    assert.ok(ms < 5000, `closed after ${ms} ms`);
    // Spend the address's burst, then declare a body and send none of it:
    // the 429 comes at once instead of a wait for the body.
    let limited = false;
    for (let i = 0; i < 20 && !limited; i++)
      limited = (await request(server.url, 'GET', '/api/v1/lobby')).status === 429;
    assert.ok(limited, 'never rate limited');
    const r = await connect(port);
    let refused = '';
    r.on('data', (d) => { refused += d; });
    r.write('POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n');
    for (let i = 0; i < 40 && !refused; i++) await sleep(50);
    r.destroy();
    assert.equal(statusOf(refused), 429, `answered within 2 s: ${refused}`);
  } finally {
    await server.stop();
  }
});

test('an early answer to a request with a body keeps the answer readable', async () => {
  const server = await startServer();
  try {
    // 415 before the body is read: the body is then read within the
    // deadline and dropped, so the client reads its answer, not a reset.
    const res = await request(server.url, 'POST', '/api/v1/games',
                              { raw: JSON.stringify({ mode: 'hotseat', pad: 'x'.repeat(12000) }), headers: { 'Content-Type': 'text/plain' } });
    assert.equal(res.status, 415);
    assert.equal(res.json.error.code, 'unsupported_media_type');
  } finally {
    await server.stop();
  }
});
