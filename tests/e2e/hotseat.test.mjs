// Hot-seat on one device: a curtain covers the board after every legal move
// or pass, shows nothing of either board (no stone, no log line, no vertex in
// the page's text), stays down for an illegal attempt, and each player sees
// only their own stones when they lift it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, clickVertex, waitForSeq, stonesShown,
  passWithConfirmation, assertNoErrors,
} from './lib.mjs';

const env = serverAndBrowser();

async function curtainShowsNothing(page, expectedColor) {
  await page.waitForSelector('#curtain:not([hidden])');
  assert.match(await page.textContent('#curtain-text'), new RegExp(`^${expectedColor} to play: pass the device`));
  assert.equal(await page.isHidden('#game-area'), true, 'the game area is hidden');
  assert.equal(await page.locator('#board .stone, #board .tried, #board .ghost').count(), 0, 'no stone or marker in the DOM');
  assert.equal(await page.locator('#log li').count(), 0, 'no log line in the DOM');
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /\b[A-HJ-T](?:[1-9]|1[0-9])\b/, 'no vertex anywhere in the page text');
}

test('hot-seat: the curtain hides both boards between turns', async () => {
  const page = await openPage(env.browser);
  await page.goto(env.server.url + '/');
  await waitForGame(page);
  await page.click('#custom summary');
  await page.check('input[name="mode"][value="hotseat"]');
  assert.equal(await page.isHidden('#color-field'), true, 'no colour choice for hot-seat');
  await page.click('#create-button');
  await page.waitForURL(/\/g\//);
  await waitForGame(page);

  await curtainShowsNothing(page, 'Black');
  await screenshot(page, 'hotseat-curtain');
  await page.click('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  assert.match(await page.textContent('#role-title'), /Black/);

  await clickVertex(page, 'E5');
  await curtainShowsNothing(page, 'White');
  await page.click('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  assert.match(await page.textContent('#role-title'), /White/);
  assert.deepEqual(await stonesShown(page), [], "White does not see Black's stone");

  // An illegal attempt keeps the curtain down: White tries again.
  await clickVertex(page, 'E5');
  await waitForSeq(page, 2);
  await page.waitForSelector('#board .tried[data-vertex="E5"]');
  assert.equal(await page.isHidden('#curtain'), true, 'the curtain stays down after an illegal attempt');
  await screenshot(page, 'hotseat-white-after-illegal');

  await clickVertex(page, 'D4');
  await curtainShowsNothing(page, 'Black');
  await page.click('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  assert.deepEqual(await stonesShown(page), ['black:E5'], 'Black sees only E5, not D4');
  assert.match(await page.textContent('#log li[data-seq="2"]'), /White tried an illegal move/);

  // A pass also brings the curtain; two passes end the game with no curtain.
  await passWithConfirmation(page);
  await curtainShowsNothing(page, 'White');
  await page.click('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  await passWithConfirmation(page);
  await page.waitForSelector('#result-panel:not([hidden])');
  assert.equal(await page.isHidden('#curtain'), true);
  assert.deepEqual(await stonesShown(page), ['black:E5', 'white:D4']);

  // Reloading a finished hot-seat game shows the result, not a curtain.
  await page.reload();
  await waitForGame(page);
  assert.equal(await page.isHidden('#curtain'), true);
  assert.equal(await page.isVisible('#result-panel'), true);

  // The rematch of a hot-seat game is a hot-seat game again, curtain first.
  const oldUrl = page.url();
  await page.click('#rematch');
  await page.waitForURL((url) => url.href !== oldUrl);
  await waitForGame(page);
  await curtainShowsNothing(page, 'Black');
  assertNoErrors(assert, page, 'hot-seat page');
});
