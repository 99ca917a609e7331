// A hostile client, part 5: one host rotating its addresses (issue 21). An
// IPv6 host commonly holds a whole /64; limits keyed by the full address let
// it make a fresh client of every request. Rate limits, WebSocket caps and
// chat limits now key an IPv6 client by its /64 and IPv4 by the address.
// The addresses come from X-Forwarded-For through --trust-proxy (the test
// is the proxy), since loopback has one IPv6 address only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, newGame, openWs } from './lib.mjs';

const from = (address) => ({ headers: { 'X-Forwarded-For': address } });

// Requests from `addresses` in turn until one is limited; how many went through.
async function untilLimited(base, addresses, max = 60) {
  for (let i = 0; i < max; i++) {
    const res = await request(base, 'GET', '/api/v1/lobby', from(addresses[i % addresses.length]));
    if (res.status === 429) return i;
  }
  return max;
}

test('the request limit counts a whole IPv6 /64 as one client, IPv4 by address', async () => {
  const server = await startServer({ args: ['--trust-proxy', '--rate-limit', '2'] });
  try {
    const rotating = Array.from({ length: 60 }, (_, i) => `2001:db8:1:2::${(i + 1).toString(16)}`);
    const allowed = await untilLimited(server.url, rotating);
    assert.ok(allowed < 20, `a /64 rotating addresses was limited after ${allowed} requests`);
    // Another /64 of the same /48 is another client.
    assert.equal((await request(server.url, 'GET', '/api/v1/lobby', from('2001:db8:1:3::1'))).status, 200);
    // IPv4: neighbours are different clients, and an IPv4-mapped IPv6
    // address is that IPv4 client.
    const one = await untilLimited(server.url, ['198.51.100.7']);
    assert.ok(one < 20);
    assert.equal((await request(server.url, 'GET', '/api/v1/lobby', from('198.51.100.8'))).status, 200);
    assert.equal((await request(server.url, 'GET', '/api/v1/lobby', from('::ffff:198.51.100.7'))).status, 429);
  } finally {
    await server.stop();
  }
});

test('the WebSocket cap per address counts a /64 as one', async () => {
  const server = await startServer({ args: ['--trust-proxy', '--rate-limit', '0', '--websockets-per-address', '2'] });
  const open = [];
  try {
    const port = new URL(server.url).port;
    const game = await newGame(server.url);
    // openWs sends no X-Forwarded-For; a raw upgrade with one is needed.
    const { connect, statusOf } = await import('./lib.mjs');
    const upgrade = async (address) => {
      const s = await connect(port);
      open.push(s);
      s.write(`GET /api/v1/games/${game.id}/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
              `Connection: Upgrade\r\nX-Forwarded-For: ${address}\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
              'Sec-WebSocket-Version: 13\r\n\r\n');
      const head = await new Promise((resolve) => { let d = ''; s.on('data', (c) => { d += c; if (d.includes('\r\n\r\n')) resolve(d); }); });
      return statusOf(head);
    };
    assert.equal(await upgrade('2001:db8:5:6::a'), 101);
    assert.equal(await upgrade('2001:db8:5:6::b'), 101);
    assert.equal(await upgrade('2001:db8:5:6::c'), 429, 'a third socket of the same /64');
    assert.equal(await upgrade('2001:db8:5:7::a'), 101, 'another /64');
  } finally {
    for (const s of open) s.destroy();
    await server.stop();
  }
});

test('spectator chat limits count a /64 as one', async () => {
  const server = await startServer({ args: ['--trust-proxy', '--rate-limit', '0', '--chat-limit', '1'] });
  try {
    const game = await newGame(server.url, { mode: 'online' });
    let sent = 0, limited = false;
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await request(server.url, 'POST', `/api/v1/games/${game.id}/chat`,
                                { body: { text: `hello ${i}` }, ...from(`2001:db8:9:9::${i + 1}`) });
      if (res.status === 429) limited = true;
      else { assert.equal(res.status, 201, res.text); sent++; }
    }
    assert.ok(limited, `a /64 rotating addresses sent ${sent} messages unlimited`);
  } finally {
    await server.stop();
  }
});
