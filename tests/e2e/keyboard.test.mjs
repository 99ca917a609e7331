// Keyboard-only play: Tab reaches the skip link first and then the board;
// arrow keys move the cursor, Enter tries the point, G marks a ghost stone
// (kept on the server across a reload), P passes after a confirmation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, waitForSeq, stonesShown, api, act, onlineGame, assertNoErrors,
} from './lib.mjs';

const env = serverAndBrowser();

async function tabTo(page, id, limit = 60) {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.id === wanted, id)) return;
  }
  throw new Error(`Tab never reached #${id}`);
}

test('a player places a stone, marks a ghost and passes with the keyboard only', async () => {
  const game = await onlineGame(env.server.url, { settings: { size: 9 } });
  const page = await openPage(env.browser);
  await page.goto(game.created.links.play);
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
  const notes = await api(env.server.url, 'GET', `/api/v1/games/${game.id}/notes`, { token: game.black });
  assert.deepEqual(notes.json, { ghosts: ['F6'] });
  const spectatorNotes = await api(env.server.url, 'GET', `/api/v1/games/${game.id}/notes`);
  assert.equal(spectatorNotes.status, 401);

  // White answers through the API; then P (with confirmation) passes.
  await act(env.server.url, game.id, game.white, { action: 'attempt', vertex: 'C3' });
  await waitForSeq(page, 2);
  // P is read by its key's place: a Russian layout sends "з" for it.
  await page.focus('#board');
  await page.evaluate(() => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'з', code: 'KeyP', bubbles: true })));
  await page.waitForSelector('#confirm-dialog[open]');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'confirm-ok');
  await page.keyboard.press('Enter');
  await waitForSeq(page, 3);
  assert.match(await page.textContent('#log li[data-seq="3"]'), /Black passed/);
  assertNoErrors(assert, page, 'keyboard page');
});

test('on a touch screen a move is confirmed before it is sent', async () => {
  const created = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', settings: { size: 9 } } });
  assert.equal(created.status, 201, created.text);
  const page = await openPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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
