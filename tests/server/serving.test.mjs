// The server as a web server: pages and files with their types and caching
// headers, no listings and no way out of web/ and static/, security headers
// on every kind of answer, health and metrics, configuration, shutdown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startServer, call, newGame, openSocket, BIN, ROOT } from './lib.mjs';
import { SANITIZED } from '../lib/server.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let server;
before(async () => { server = await startServer(); });
after(async () => {
  const r = await server.stop();
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

function checkSecurityHeaders(res, where) {
  const csp = res.headers.get('content-security-policy');
  assert.ok(csp, `${where}: no CSP`);
  for (const part of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
                      "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"])
    assert.ok(csp.includes(part), `${where}: CSP lacks ${part}: ${csp}`);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', where);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer', where);
  assert.equal(res.headers.get('x-frame-options'), 'DENY', where);
}

// A raw HTTP exchange, for requests fetch will not send as written.
function rawRequest(port, text) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(text));
    let data = '';
    sock.on('data', (d) => { data += d; });
    sock.on('end', () => resolve(data));
    sock.on('error', reject);
    setTimeout(() => { sock.destroy(); resolve(data); }, 3000);
  });
}

test('pages map to the application files with their content types', async () => {
  const { id } = await newGame(server.url);
  for (const [url, file] of [['/', 'index.html'], ['/rules', 'rules.html'], [`/g/${id}`, 'game.html']]) {
    const res = await call(server.url, 'GET', url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.text, readFileSync(path.join(ROOT, 'web', file), 'utf8'));
    checkSecurityHeaders(res, url);
    const port = new URL(server.url).port;
    assert.ok(res.headers.get('content-security-policy').includes(`ws://127.0.0.1:${port}`), 'page CSP names its socket origin');
  }
  const types = { '/web/js/lib/api.js': 'text/javascript', '/web/css/app.css': 'text/css', '/web/i18n/en.json': 'application/json',
                  '/static/favicon.svg': 'image/svg+xml' };
  for (const [url, type] of Object.entries(types)) {
    const res = await call(server.url, 'GET', url);
    assert.equal(res.status, 200, url);
    assert.ok(res.headers.get('content-type').startsWith(type), `${url}: ${res.headers.get('content-type')}`);
    checkSecurityHeaders(res, url);
  }
});

test('files carry ETag and Last-Modified and answer 304 to revalidation', async () => {
  const res = await call(server.url, 'GET', '/web/js/lib/api.js');
  const etag = res.headers.get('etag'), modified = res.headers.get('last-modified');
  assert.ok(etag && modified);
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  const again = await call(server.url, 'GET', '/web/js/lib/api.js', { headers: { 'If-None-Match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
  checkSecurityHeaders(again, '304');
  const since = await call(server.url, 'GET', '/web/js/lib/api.js', { headers: { 'If-Modified-Since': modified } });
  assert.equal(since.status, 304);
  const stale = await call(server.url, 'GET', '/web/js/lib/api.js', { headers: { 'If-None-Match': '"nope"' } });
  assert.equal(stale.status, 200);
  const media = await call(server.url, 'GET', '/static/favicon.svg');
  assert.match(media.headers.get('cache-control'), /max-age=\d+/);
  const head = await call(server.url, 'HEAD', '/web/js/lib/api.js');
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  assert.equal(head.headers.get('content-length'), res.headers.get('content-length'));
});

test('no directory listings, dot files or paths outside web/ and static/', async () => {
  const port = new URL(server.url).port;
  // To a browser's navigation a 404 is the one not-found page, byte for
  // byte whatever the path; to anything else the plain line. Neither ever
  // lists a directory or shows a file.
  const notFoundPage = readFileSync(path.join(ROOT, 'web/not-found.html'), 'utf8');
  for (const p of ['/web/', '/web/js', '/static/', '/static/sounds', '/web/../schema.sql', '/web/%2e%2e/schema.sql',
                   '/web/js/..%2f..%2fschema.sql', '/static/..%2f..%2fMakefile', '/web/.hidden', '/schema.sql',
                   '/src/main.c', '/g/../schema.sql', '/g/UPPER', '/web/%00x'])
  {
    for (const accept of ['', 'Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\n']) {
      const raw = await rawRequest(port, `GET ${p} HTTP/1.1\r\nHost: x\r\n${accept}Connection: close\r\n\r\n`);
      const status = Number(raw.split(' ')[1]);
      const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      assert.ok(status === 404 || status === 400, `${p} answered ${raw.slice(0, 200)}`);
      assert.ok(!raw.includes('CREATE TABLE'), `${p} leaked a file`);
      if (status === 404 && accept) assert.equal(body, notFoundPage, `${p}: not the not-found page`);
      else assert.ok(!body.includes('<a href'), `${p} leaked a listing: ${body.slice(0, 200)}`);
      assert.match(raw, /X-Content-Type-Options: nosniff/i, `${p}: headers`);
    }
  }
  // A browser that follows a dead link gets the page with status 404; the
  // API keeps its JSON errors whatever the client accepts.
  const dead = await fetch(`${server.url}/no/such/page`, { headers: { accept: 'text/html' } });
  assert.equal(dead.status, 404);
  assert.match(dead.headers.get('content-type'), /^text\/html/);
  assert.match(await dead.text(), /<h1 data-i18n="notFound.heading">/);
  const script = await fetch(`${server.url}/web/js/nothing.js`, { headers: { accept: '*/*' } });
  assert.equal(script.status, 404);
  assert.equal(await script.text(), '404 not found\n');
  const apiMiss = await fetch(`${server.url}/api/v1/nothing`, { headers: { accept: 'text/html' } });
  assert.equal(apiMiss.status, 404);
  assert.equal((await apiMiss.json()).error.code, 'not_found');
  const post = await call(server.url, 'POST', '/web/js/lib/api.js', { body: {} });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
});

// The device link's QR code is drawn in the browser by Debian's
// node-qrcode-generator: one fixed path serves that one file, nothing else
// of the package's directory or the file system; without the file, 503
// names the package (and the server warned at start).
const DEBIAN_QRCODE_JS = '/usr/share/javascript/qrcode-generator/qrcode.js';
test('/vendor/qrcode.js is Debian\'s QR code library, and only it; 503 naming the package when missing', async () => {
  const res = await call(server.url, 'GET', '/vendor/qrcode.js');
  assert.equal(res.status, 200, res.text.slice(0, 200));
  assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(res.text, readFileSync(DEBIAN_QRCODE_JS, 'utf8'));
  checkSecurityHeaders(res, '/vendor/qrcode.js');
  const again = await call(server.url, 'GET', '/vendor/qrcode.js', { headers: { 'If-None-Match': res.headers.get('etag') } });
  assert.equal(again.status, 304);
  const port = new URL(server.url).port;
  for (const p of ['/vendor/', '/vendor', '/vendor/qrcode.d.ts', '/vendor/package.json', '/vendor/qrcode.js/',
                   '/vendor/../schema.sql', '/vendor/%2e%2e/qrcode.js', '/vendor/%2e%2e/%2e%2e/etc/passwd', '/vendor/QRCODE.JS']) {
    const raw = await rawRequest(port, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const status = Number(raw.split(' ')[1]);
    assert.ok(status === 404 || status === 400, `${p} answered ${raw.slice(0, 200)}`);
    assert.ok(!raw.includes('Kazuhiko Arase') && !raw.includes('CREATE TABLE'), `${p} served a file`);
  }
  const s = await startServer({ env: { PHANTOMGO_QRCODE_JS: '/nonexistent/qrcode.js' } });
  try {
    const missing = await call(s.url, 'GET', '/vendor/qrcode.js');
    assert.equal(missing.status, 503);
    assert.equal(missing.json.error.code, 'missing_package');
    assert.match(missing.json.error.message, /node-qrcode-generator/);
    assert.ok(!missing.text.includes('/nonexistent'), 'the answer names no path of the server');
    checkSecurityHeaders(missing, '503 /vendor/qrcode.js');
  } finally {
    const stopped = await s.stop();
    assert.equal(stopped.code, 0);
    assert.match(s.stderr(), /warning: \/nonexistent\/qrcode\.js: .*node-qrcode-generator/);
  }
});

test('every error answer carries the security headers and the JSON error shape', async () => {
  const port = new URL(server.url).port;
  const answers = [
    await call(server.url, 'GET', '/api/v1/nothing'),
    await call(server.url, 'GET', '/api/v1/games/zzzzzzzzzzzz'),
    await call(server.url, 'DELETE', '/api/v1/games'),
    await call(server.url, 'POST', '/api/v1/games', { raw: 'x'.repeat(17000) }),
    await call(server.url, 'POST', '/api/v1/games', { raw: '{' }),
    await call(server.url, 'GET', '/nothing-here'),
  ];
  for (const res of answers) {
    assert.ok(res.status >= 400, `${res.status}`);
    checkSecurityHeaders(res, `${res.status} ${res.text}`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  }
  // A request civetweb itself rejects (no HTTP version) still gets our headers.
  const raw = await rawRequest(port, 'GARBAGE\r\n\r\n');
  assert.match(raw, /^HTTP\/1.1 400/);
  assert.match(raw, /Content-Security-Policy/i);
  assert.match(raw, /"code":"bad_request"/);
});

test('GET /api/health answers with the version; /metrics in Prometheus text', async () => {
  const health = await call(server.url, 'GET', '/api/health');
  assert.equal(health.status, 200);
  assert.equal(health.json.status, 'ok');
  const version = readFileSync(path.join(ROOT, 'VERSION'), 'utf8').trim();
  assert.equal(health.json.version, version);
  assert.equal(typeof health.json.commit, 'string');
  // One generated version object: the server answers the binary's own commit.
  const own = execFileSync(BIN, ['--version'], { encoding: 'utf8' }).trim();
  assert.equal(own, `phantomgo ${version} (${health.json.commit})`);
  checkSecurityHeaders(health, 'health');
  const { id, tokens } = await newGame(server.url);
  await call(server.url, 'POST', `/api/v1/games/${id}/actions`,
             { token: tokens.black, body: { seq: 1, action: 'attempt', vertex: 'E5' } });
  const m = await call(server.url, 'GET', '/metrics');
  assert.equal(m.status, 200);
  assert.match(m.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  for (const name of ['phantomgo_games_open', 'phantomgo_games_loaded', 'phantomgo_websocket_connections',
                      'phantomgo_moves_played_total{kind="move"}', 'phantomgo_games_created_total',
                      'phantomgo_http_request_duration_seconds_bucket{route="api_write",le="+Inf"}'])
    assert.ok(m.text.includes(name), `metrics lack ${name}`);
  const moves = Number(/phantomgo_moves_played_total\{kind="move"\} (\d+)/.exec(m.text)[1]);
  assert.ok(moves >= 1);
  assert.ok(Number(/^phantomgo_games_open (\d+)/m.exec(m.text)[1]) >= 1);
});

test('--metrics-listen serves /metrics on its own port and the public port answers 404', async () => {
  const s = await startServer({ args: ['--metrics-listen', '127.0.0.1:0'] });
  try {
    const m = /metrics on (http:\/\/127\.0\.0\.1:(\d+))\/metrics/.exec(s.output());
    assert.ok(m, s.output());
    const priv = m[1];
    assert.notEqual(Number(m[2]), s.port);
    const { id, tokens } = await newGame(s.url);
    await call(s.url, 'POST', `/api/v1/games/${id}/actions`,
               { token: tokens.black, body: { seq: 1, action: 'attempt', vertex: 'E5' } });
    const page = await call(priv, 'GET', '/metrics');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    assert.ok(Number(/phantomgo_moves_played_total\{kind="move"\} (\d+)/.exec(page.text)[1]) >= 1, page.text);
    const pub = await call(s.url, 'GET', '/metrics');
    // The public port answers it as any unknown path.
    assert.equal(pub.status, 404);
    assert.ok(!pub.text.includes('phantomgo_'), pub.text);
    checkSecurityHeaders(pub, 'public /metrics');
    // The private port serves nothing else: no pages, no API, no sockets.
    for (const p of ['/', '/api/health', `/api/v1/games/${id}`]) {
      const r = await call(priv, 'GET', p);
      assert.equal(r.status, 404, `${p} on the metrics port: ${r.status}`);
    }
    assert.equal((await call(s.url, 'GET', '/api/health')).status, 200);
  } finally {
    await s.stop();
  }
  for (const bad of ['9100', '127.0.0.1', 'example.org:9100', '127.0.0.1:70000', '[::1:9100']) {
    let failed = null;
    try { execFileSync(BIN, ['serve', '--metrics-listen', bad], { stdio: 'pipe' }); } catch (e) { failed = e; }
    assert.equal(failed?.status, 2, `--metrics-listen ${bad} was accepted`);
    assert.match(String(failed.stderr), /--metrics-listen: expected ADDR:PORT/);
  }
});

test('--help documents every flag and its environment variable', () => {
  const help = execFileSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
  for (const [flag, env] of [['--listen', 'PHANTOMGO_LISTEN'], ['--port', 'PHANTOMGO_PORT'], ['--db', 'PHANTOMGO_DB'],
                             ['--threads', 'PHANTOMGO_THREADS'], ['--max-websockets', 'PHANTOMGO_MAX_WEBSOCKETS'],
                             ['--base-url', 'PHANTOMGO_BASE_URL'], ['--root', 'PHANTOMGO_ROOT'],
                             ['--metrics-listen', 'PHANTOMGO_METRICS_LISTEN']]) {
    assert.ok(help.includes(flag), flag);
    assert.ok(help.includes(env), env);
  }
  assert.throws(() => execFileSync(BIN, ['serve', '--no-such-flag'], { stdio: 'pipe' }),
                (e) => e.status === 2 && /unknown option/.test(String(e.stderr)));
  assert.throws(() => execFileSync(BIN, ['serve', '--port', 'abc'], { stdio: 'pipe' }),
                (e) => e.status === 2 && /--port/.test(String(e.stderr)));
});

test('environment variables configure the server and flags win over them', async () => {
  const s = await startServer({ env: { PHANTOMGO_BASE_URL: 'https://go.example.org', PHANTOMGO_PORT: '1' } });
  try {
    assert.notEqual(new URL(s.url).port, '1', '--port 0 wins over PHANTOMGO_PORT');
    const res = await call(s.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black' } });
    assert.equal(res.status, 201);
    assert.ok(res.json.links.watch.startsWith('https://go.example.org/g/'), res.json.links.watch);
    assert.ok(res.json.links.invite.startsWith(`https://go.example.org/g/${res.json.game.id}#invite=`));
  } finally {
    assert.equal((await s.stop()).code, 0);
  }
});

test('SIGTERM drains: /api/live 503 at once, requests in flight answered, sockets closed 1012, exit 0 in 10 s', async () => {
  const s = await startServer();
  const { Player, newHotseatGame } = await import('../lib/player.mjs');
  const game = await newHotseatGame(s.url);
  const player = new Player(s.url, game, 77);
  for (let i = 0; i < 5; i++) await player.step();
  const watcher = openSocket(s.url, game.id);
  const seat = openSocket(s.url, game.id, { token: game.tokens.black });
  await watcher.waitFor((f) => f.some((x) => x.json.view?.seq === player.seq));
  await seat.waitFor((f) => f.some((x) => x.json.view?.seq === player.seq));
  // A balancer's check: the server now waits for it to let go.
  const live = await call(s.url, 'GET', '/api/live');
  assert.equal(live.status, 200);
  assert.equal(live.json.status, 'live');
  // Clients keep acting until the balancer's check says draining.
  let draining = false;
  const load = (async () => { while (!draining && await player.step()) { /* next */ } })();
  await sleep(50);
  const t0 = Date.now();
  s.proc.kill('SIGTERM');
  const refusals = [];
  while (refusals.length < 2) {
    const probe = await call(s.url, 'GET', '/api/live');
    if (probe.status === 503) refusals.push({ ms: Date.now() - t0, json: probe.json });
    else assert.equal(probe.status, 200);
    draining = refusals.length > 0;
    await sleep(100);
  }
  await load;
  assert.equal(refusals[0].json.status, 'draining');
  assert.ok(refusals[0].ms < 1000, `the first check after SIGTERM answered 503 only after ${refusals[0].ms} ms`);
  assert.deepEqual(player.failures, [], 'every request in flight was answered');
  assert.equal(player.resent, 0);
  const [closedWatcher, closedSeat] = await Promise.all([watcher.closed, seat.closed]);
  assert.equal(closedWatcher.code, 1012, JSON.stringify(closedWatcher));
  assert.equal(closedSeat.code, 1012, JSON.stringify(closedSeat));
  // Each socket had every event up to the last answered action first.
  const seqs = (sock) => sock.frames.flatMap((f) => f.json.events ?? []).map((e) => e.seq);
  for (const sock of [watcher, seat]) {
    const got = seqs(sock);
    assert.deepEqual(got, Array.from({ length: player.seq }, (_, i) => i + 1));
  }
  const r = await s.stop();
  assert.equal(r.code, 0);
  // The server's own figure, from the signal to the end of its teardown
  // (a sanitized build's leak check at exit comes after it).
  const ms = Number(/stopped in (\d+) ms/.exec(s.stderr())?.[1]);
  assert.ok(ms < (SANITIZED ? 60000 : 10000), `stopped after ${ms} ms:\n${s.stderr()}`);
  assert.match(s.stderr(), /drained in \d+ ms \(behind a balancer; 2 WebSockets closed with 1012, 0 left\)/);
  console.log(`# SIGTERM under load: ${player.acked.length} actions answered, stopped in ${ms} ms, exit 0`);
});

test('SIGINT stops the server cleanly too, and the database keeps the games', async () => {
  const s = await startServer({ dir: (await import('./lib.mjs')).tempDir() });
  const { id } = await newGame(s.url);
  s.proc.kill('SIGINT');
  const r = await s.exited;
  assert.equal(r.code, 0, s.output());
  const again = await startServer({ dir: s.dir });
  const view = await call(again.url, 'GET', `/api/v1/games/${id}`);
  assert.equal(view.status, 200);
  assert.equal((await again.stop()).code, 0);
  (await import('node:fs')).rmSync(s.dir, { recursive: true, force: true });
});

test('under a process limit the server shrinks its WebSocket allowance and still answers', async (t) => {
  if (process.getuid() !== 0) return t.skip('needs root to drop to nobody');
  // ThreadSanitizer reserves memory per thread that a nobody under a 1024
  // process limit cannot get; the check is about the server, not TSan.
  if (process.env.PHANTOMGO_SLOW === '1') return t.skip('not under ThreadSanitizer');
  const { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { spawn } = await import('node:child_process');
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-nproc-'));
  chmodSync(dir, 0o777);
  // nobody may not reach a clone under /root (mode 700), where a newcomer
  // working as root keeps it: the binary and the files it serves are copied.
  const root = path.join(dir, 'root');
  for (const f of ['web', 'static', ...readdirSync(ROOT).filter((n) => /^schema.*\.sql$/.test(n))])
    cpSync(path.join(ROOT, f), path.join(root, f), { recursive: true });
  cpSync(BIN, path.join(root, 'phantomgo'));
  const server = await startServer({
    dir,
    args: ['--root', root],
    spawnVia: (bin, argv) => spawn('prlimit', ['--nproc=1024:1024', 'setpriv', '--reuid=65534',
      '--regid=65534', '--clear-groups', path.join(root, 'phantomgo'), ...argv]),
  });
  try {
    const res = await call(server.url, 'GET', '/api/health');
    assert.equal(res.status, 200);
    assert.match(server.output(), /process limit \(ulimit -u 1024\) leaves room for \d+ WebSockets/);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
