// When the network drops: the page says it is reconnecting, a move made
// meanwhile is sent again until the server answers and counts exactly once,
// and live updates resume by themselves. The outage is real: the server
// process is stopped and started again on the same port and database.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, waitForGame, waitForSeq, clickVertex, stonesShown, api, act, screenshot,
} from './lib.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a dropped connection is shown, and no move is lost or doubled', async () => {
  const created = await api(server.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black', settings: { size: 9 } } });
  const id = created.json.game.id;
  const blackToken = created.json.seats[0].token;
  const claimed = await api(server.url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  const page = await openPage(browser);
  await page.goto(created.json.links.play);
  await waitForGame(page);
  await page.waitForFunction(() => document.getElementById('connection').dataset.status === 'live');

  await server.stop({ keepData: true });
  await page.waitForSelector('#connection:not([hidden])');
  assert.match(await page.textContent('#connection'), /reconnecting/);
  await screenshot(page, 'reconnecting');

  await clickVertex(page, 'E5');
  await page.waitForTimeout(300);
  server = await startServer({ port: server.port, dir: server.dir });
  await waitForSeq(page, 1);
  assert.deepEqual(await stonesShown(page), ['black:E5']);
  const view = await api(server.url, 'GET', `/api/v1/games/${id}`, { token: blackToken });
  assert.equal(view.json.seq, 1, 'the move was made exactly once');

  await act(server.url, id, claimed.json.token, { action: 'attempt', vertex: 'C3' });
  await waitForSeq(page, 2);
  await page.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  assert.deepEqual(page.errors.filter((error) => !/ERR_CONNECTION_REFUSED|WebSocket connection/.test(error)), [],
    'only the refused connections of the outage are logged');
});
