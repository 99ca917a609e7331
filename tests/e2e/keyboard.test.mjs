// Keyboard-only play: Tab reaches the skip link first and then the board;
// arrow keys move the cursor, Enter tries the point, G marks a ghost stone
// (kept on the server across a reload), P passes after a confirmation.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, screenshot, waitForGame, waitForSeq, stonesShown, api, assertNoErrors,
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

async function tabTo(page, id, limit = 60) {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.id === wanted, id)) return;
  }
  throw new Error(`Tab never reached #${id}`);
}

test('a player places a stone, marks a ghost and passes with the keyboard only', async () => {
  const created = await api(server.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black', settings: { size: 9 } } });
  assert.equal(created.status, 201, created.text);
  const id = created.json.game.id;
  const claimed = await api(server.url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  assert.equal(claimed.status, 200, claimed.text);

  const page = await openPage(browser);
  await page.goto(created.json.links.play);
  await waitForGame(page);

  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link', 'the skip link comes first');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main', 'the skip link moves focus to the main content');

  await tabTo(page, 'board');
  await page.keyboard.press('ArrowUp');
  assert.match(await page.textContent('#cursor-status'), /^E6: /);
  await page.keyboard.press('Enter');
  await waitForSeq(page, 1);
  assert.deepEqual(await stonesShown(page), ['black:E6']);
  await page.waitForSelector('#board .last-mark');

  await page.keyboard.press('ArrowRight');
  const saved = page.waitForResponse((response) => response.url().endsWith('/notes') && response.request().method() === 'PUT');
  await page.keyboard.press('g');
  await page.waitForSelector('#board .ghost[data-vertex="F6"]');
  await screenshot(page, 'keyboard-black');
  // Ghost stones are saved for the seat on the server: they survive a
  // reload, and only the seat can read them.
  assert.equal((await saved).status(), 200);
  await page.reload();
  await waitForGame(page);
  await page.waitForSelector('#board .ghost[data-vertex="F6"]');
  const notes = await api(server.url, 'GET', `/api/v1/games/${id}/notes`, { token: created.json.seats[0].token });
  assert.deepEqual(notes.json, { ghosts: ['F6'] });
  const spectatorNotes = await api(server.url, 'GET', `/api/v1/games/${id}/notes`);
  assert.equal(spectatorNotes.status, 401);

  // White answers through the API; then P (with confirmation) passes.
  const view = await api(server.url, 'GET', `/api/v1/games/${id}`, { token: claimed.json.token });
  const moved = await api(server.url, 'POST', `/api/v1/games/${id}/actions`, {
    token: claimed.json.token, body: { seq: view.json.seq + 1, action: 'attempt', vertex: 'C3' },
  });
  assert.equal(moved.status, 200, moved.text);
  await waitForSeq(page, 2);
  await page.focus('#board');
  await page.keyboard.press('p');
  await page.waitForSelector('#confirm-dialog[open]');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'confirm-ok');
  await page.keyboard.press('Enter');
  await waitForSeq(page, 3);
  assert.match(await page.textContent('#log li[data-seq="3"]'), /Black passed/);
  assertNoErrors(assert, page, 'keyboard page');
});

test('on a touch screen a move is confirmed before it is sent', async () => {
  const created = await api(server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', settings: { size: 9 } } });
  assert.equal(created.status, 201, created.text);
  const page = await openPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(created.json.links.play);
  await waitForGame(page);
  await page.tap('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  assert.equal(await page.isChecked('#opt-confirm'), true, 'confirm mode is on by default on touch screens');
  await page.tap('#board .hit:not(.wrap)[data-vertex="C7"]');
  await page.waitForSelector('#confirm-move-bar:not([hidden])');
  assert.equal(await page.textContent('#confirm-move'), 'Play C7');
  assert.equal(await page.locator('#board .preview').count(), 1);
  assert.equal(await page.locator('#log li').count(), 0, 'nothing sent yet');
  await page.tap('#confirm-move');
  await page.waitForSelector('#curtain:not([hidden])');
  await page.tap('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  assert.match(await page.textContent('#role-title'), /White/);
  await screenshot(page, 'phone-confirm-white');
  assertNoErrors(assert, page, 'touch page');
});
