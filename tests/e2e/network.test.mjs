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
