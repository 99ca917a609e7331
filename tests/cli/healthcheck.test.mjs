// `phantomgo healthcheck` against tiny node HTTP servers on free loopback
// ports: the exit code is what Docker's HEALTHCHECK and monitors rely on
// (0 for HTTP 200, 1 for anything else), so each way a server can answer, or
// fail to, is one case here; the last case checks it against the real
// `phantomgo serve`. The binary runs as a child process with execFile, never
// spawnSync, so this process's servers keep answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

import { BIN as bin, startServer as startRealServer } from '../lib/server.mjs';

// Runs the healthcheck with a clean PHANTOMGO_* environment plus `env`.
function healthcheck(args, env = {}) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('PHANTOMGO_')));
  return new Promise((resolve) => {
    const started = Date.now();
    execFile(bin, ['healthcheck', ...args], { env: { ...base, ...env }, timeout: 20000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      });
  });
}

// A server on a free loopback port; `handler` gets (req, res); `requests`
// records the request line and headers of everything it received.
async function startServer(handler) {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push({ line: `${req.method} ${req.url} HTTP/${req.httpVersion}`, headers: req.headers });
    handler(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { port, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

function answer(status, body) {
  return (req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

async function freePortNobodyListensOn() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('HTTP 200 exits 0 after one HTTP/1.0 GET of the given path', async () => {
  const server = await startServer(answer(200, { status: 'ok', version: '0', commit: 'x' }));
  try {
    const r = await healthcheck(['--url', `http://127.0.0.1:${server.port}/api/health`]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0].line, 'GET /api/health HTTP/1.0');
    assert.equal(server.requests[0].headers.host, `127.0.0.1:${server.port}`);
  } finally {
    await server.close();
  }
});

test('HTTP 503 exits 1 and says which status it got', async () => {
  const server = await startServer(answer(503, { status: 'unavailable' }));
  try {
    const r = await healthcheck(['--url', `http://127.0.0.1:${server.port}/api/health`]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /HTTP 503/);
  } finally {
    await server.close();
  }
});

test('a refused connection exits 1 and says so', async () => {
  const port = await freePortNobodyListensOn();
  const r = await healthcheck(['--url', `http://127.0.0.1:${port}/api/health`]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /refused/i);
});

test('without --url it checks /api/health on PHANTOMGO_PORT', async () => {
  const server = await startServer(answer(200, { status: 'ok' }));
  try {
    const r = await healthcheck([], { PHANTOMGO_PORT: String(server.port), PHANTOMGO_LISTEN: '0.0.0.0' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0].line, 'GET /api/health HTTP/1.0');
  } finally {
    await server.close();
  }
});

test('a server that accepts but never answers is abandoned at --timeout', async () => {
  const sockets = [];
  const server = net.createServer((socket) => sockets.push(socket));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const r = await healthcheck(['--timeout', '1', '--url', `http://127.0.0.1:${server.address().port}/`]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /timed out/i);
    assert.ok(r.ms < 5000, `took ${r.ms} ms`);
  } finally {
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an answer that is not HTTP exits 1', async () => {
  const server = net.createServer((socket) =>
    socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.2\r\n')));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const r = await healthcheck(['--url', `http://127.0.0.1:${server.address().port}/api/health`]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not an HTTP answer/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('bad arguments exit 1 (Docker reserves 2), --help exits 0', async () => {
  for (const args of [['--url', 'https://example.org/'], ['--url', 'http://host:99999/'],
                      ['--url', 'http://127.0.0.1/a b'], ['--timeout', '0'], ['--bogus']]) {
    const r = await healthcheck(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.notEqual(r.stderr, '');
  }
  const help = await healthcheck(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--url URL/);
});

test('the real server: healthy while it runs, unhealthy once it stopped', async () => {
  const server = await startRealServer();
  try {
    const up = await healthcheck(['--url', `${server.url}/api/health`]);
    assert.equal(up.code, 0, up.stderr);
  } finally {
    assert.equal((await server.stop()).code, 0);
  }
  const down = await healthcheck(['--url', `${server.url}/api/health`]);
  assert.equal(down.code, 1);
});
