// When the network drops: the page says it is reconnecting, a move made
// meanwhile is sent again until the server answers and counts exactly once,
// and live updates resume by themselves. The outage is real: the server
// process is stopped and started again on the same port and database.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, startServer, openPage, waitForGame, waitForSeq, clickVertex, stonesShown, api, act, onlineGame, screenshot,
} from './lib.mjs';

const env = serverAndBrowser();

test('a dropped connection is shown, and no move is lost or doubled', async () => {
  const game = await onlineGame(env.server.url, { settings: { size: 9 } });
  const page = await openPage(env.browser);
  await page.goto(game.created.links.play);
  await waitForGame(page);
  await page.waitForFunction(() => document.getElementById('connection').dataset.status === 'live');

  await env.server.stop({ keepData: true });
  await page.waitForSelector('#connection:not([hidden])');
  assert.match(await page.textContent('#connection'), /reconnecting/);
  await screenshot(page, 'reconnecting');

  await clickVertex(page, 'E5');
  await page.waitForTimeout(300);
  env.server = await startServer({ port: env.server.port, dir: env.server.dir });
  await waitForSeq(page, 1);
  assert.deepEqual(await stonesShown(page), ['black:E5']);
  const view = await api(env.server.url, 'GET', `/api/v1/games/${game.id}`, { token: game.black });
  assert.equal(view.json.seq, 1, 'the move was made exactly once');

  await act(env.server.url, game.id, game.white, { action: 'attempt', vertex: 'C3' });
  await waitForSeq(page, 2);
  await page.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  assert.deepEqual(page.errors.filter((error) => !/ERR_CONNECTION_REFUSED|WebSocket connection/.test(error)), [],
    'only the refused connections of the outage are logged');
});

test('a server that hangs is noticed by the WebSocket heartbeat within seconds, with no HTTP polling', async () => {
  const game = await onlineGame(env.server.url, { settings: { size: 9 } });
  const page = await openPage(env.browser);
  const apiRequests = [];
  page.on('request', (request) => { if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url()); });
  const pongs = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => {
    if (String(frame.payload) === '{"type":"pong"}') pongs.push(Date.now());
  }));
  await page.goto(`${env.server.url}/g/${game.id}#seat=${game.black}`);
  await waitForGame(page);
  await page.waitForFunction(() => document.getElementById('connection').dataset.status === 'live');
  // Live for a while: pongs come over the socket, and no request at all.
  const before = apiRequests.length;
  await page.waitForTimeout(4500);
  assert.ok(pongs.length >= 2, `pongs while live: ${pongs.length}`);
  assert.deepEqual(apiRequests.slice(before), [], 'no HTTP request while the socket is live');
  // The process stops answering but keeps its sockets open: no close, no
  // offline event; only the missing pong tells.
  const stoppedAt = Date.now();
  env.server.proc.kill('SIGSTOP');
  let banner;
  try {
    await page.waitForSelector('#connection:not([hidden])', { timeout: 8000 });
    // Read while the server is still stopped: once it runs again the page
    // may reconnect and hide the banner before a later read.
    banner = await page.textContent('#connection');
  } finally {
    env.server.proc.kill('SIGCONT');
  }
  const noticedMs = Date.now() - stoppedAt;
  console.log(`a hung server noticed after ${noticedMs} ms`);
  assert.match(banner, /reconnecting/);
  await page.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  await page.context().close();
});

test('going offline is shown within seconds; a click made offline waits, drawn, and is sent once', async () => {
  const game = await onlineGame(env.server.url, { settings: { size: 9 } });
  const context = await env.browser.newContext({ locale: 'en-US' });
  const page = await openPage(env.browser, { context });
  await page.goto(`${env.server.url}/g/${game.id}#seat=${game.black}`);
  await waitForGame(page);
  await page.waitForFunction(() => document.getElementById('connection').dataset.status === 'live');
  await context.setOffline(true);
  await page.waitForSelector('#connection[data-status="offline"]:not([hidden])', { timeout: 5000 });
  assert.match(await page.textContent('#connection'), /You are offline/);
  await clickVertex(page, 'E5');
  await page.waitForSelector('#board .preview[data-vertex="E5"]');
  await screenshot(page, 'offline-pending-stone');
  await page.waitForTimeout(1500);
  await context.setOffline(false);
  await waitForSeq(page, 1);
  assert.deepEqual(await stonesShown(page), ['black:E5']);
  assert.equal(await page.locator('#board .preview').count(), 0);
  const view = await api(env.server.url, 'GET', `/api/v1/games/${game.id}`, { token: game.black });
  assert.equal(view.json.seq, 1, 'sent exactly once');
  await page.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  await context.close();
});

test('a create whose answer is lost is sent again with the same Idempotency-Key and makes one game', async () => {
  const page = await openPage(env.browser);
  const sent = [];
  let served = null;
  // The first create reaches the server, which makes the game; its answer
  // is then lost on the way back (the page sees a network failure).
  await page.route('**/api/v1/games', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.continue();
    sent.push(request.headers()['idempotency-key']);
    if (sent.length > 1) return route.continue();
    const response = await route.fetch();
    served = await response.json();
    return route.abort('connectionreset');
  });
  await page.goto(env.server.url + '/');
  await waitForGame(page);
  await page.click('.way[data-mode="hotseat"]');
  await page.waitForURL(/\/g\//);
  await waitForGame(page);
  assert.equal(sent.length, 2, 'sent once more after the lost answer');
  assert.match(sent[0], /^[0-9a-f-]{36}$/, 'a random UUID as the key');
  assert.equal(sent[1], sent[0], 'the retry carries the same key');
  assert.equal(new URL(page.url()).pathname, `/g/${served.game.id}`, 'the game the first request made');
  // A second create is a new request: a new key.
  const again = await openPage(env.browser);
  const keys = [];
  again.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/v1/games')) keys.push(r.headers()['idempotency-key']); });
  await again.goto(env.server.url + '/');
  await waitForGame(again);
  await again.click('.way[data-mode="hotseat"]');
  await again.waitForURL(/\/g\//);
  assert.equal(keys.length, 1);
  assert.notEqual(keys[0], sent[0]);
  for (const p of [page, again]) await p.context().close();
});
