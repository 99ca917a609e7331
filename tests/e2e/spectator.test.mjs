// A spectator (the watch link, no seat) sees the public handicap stones and
// public announcements only, is updated live, and sees the whole board once
// the game ends.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, waitForSeq, stonesShown, api, act, onlineGame, assertNoErrors,
} from './lib.mjs';

const env = serverAndBrowser();

test('a spectator sees only the handicap stones until the end', async () => {
  const { id, created, black: blackToken, white: whiteToken } = await onlineGame(env.server.url, { settings: { size: 9, handicap: 2 } });
  const handicap = (await api(env.server.url, 'GET', `/api/v1/games/${id}`)).json.handicap;
  assert.equal(handicap.length, 2);

  // White moves first after handicap: a move, then Black tries White's point.
  await act(env.server.url, id, whiteToken, { action: 'attempt', vertex: 'E5' });
  await act(env.server.url, id, blackToken, { action: 'attempt', vertex: 'E5' });
  await act(env.server.url, id, blackToken, { action: 'attempt', vertex: 'D5' });

  const page = await openPage(env.browser);
  await page.goto(created.links.watch);
  await waitForGame(page);
  assert.match(await page.textContent('#role-title'), /watching/);
  const expected = handicap.map((vertex) => `black:${vertex}`).sort();
  assert.deepEqual(await stonesShown(page), expected, 'only the handicap stones');
  assert.equal(await page.locator('#board .stone.handicap').count(), 2);
  assert.match(await page.textContent('#log li[data-seq="1"]'), /White played\.$/);
  assert.match(await page.textContent('#log li[data-seq="2"]'), /Black tried an illegal move/);
  const text = await page.evaluate(() => document.body.innerText);
  assert.ok(!/\bE5\b|\bD5\b/.test(text), 'no hidden vertex in the page text');
  assert.equal(await page.isHidden('#play-buttons'), true, 'a spectator has no play buttons');
  await screenshot(page, 'spectator');

  // Live: the next moves arrive without a reload; the end reveals everything.
  await act(env.server.url, id, whiteToken, { action: 'pass' });
  await waitForSeq(page, 4);
  await act(env.server.url, id, blackToken, { action: 'pass' });
  await page.waitForSelector('#result-panel:not([hidden])');
  assert.deepEqual(await stonesShown(page), [...expected, 'black:D5', 'white:E5'].sort());
  assert.equal(await page.isHidden('#clocks'), true, 'no presence badges after the end of an untimed game');
  assert.equal(await page.textContent('#opt-sound-label'), 'Sound on captures', 'a spectator has no turn to hear');
  await screenshot(page, 'spectator-game-over');
  assertNoErrors(assert, page, 'spectator page');
});
