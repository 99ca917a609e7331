// The home page starts a game in one click: three big buttons (a friend by
// link, the computer, hot-seat) on the first screen of a laptop and a phone,
// each making a 9x9 game with the usual table; every other setting is in
// the "Custom table" disclosure, which remembers the last table made with
// it; a mistake in the form is said next to its field.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openPage, screenshot, waitForGame, api, assertNoErrors } from './lib.mjs';

const env = serverAndBrowser();
const USUAL = { size: 9, komi: 7.5, handicap: 0, ko: 'simple', rules: 'olympiad', torus: false, capture_go: false };

async function home(options = {}) {
  const page = await openPage(env.browser, options);
  await page.goto(env.server.url + '/');
  await waitForGame(page);
  return page;
}

async function settingsOf(page) {
  const id = new URL(page.url()).pathname.split('/')[2];
  const view = await api(env.server.url, 'GET', `/api/v1/games/${id}`);
  return view.json.game;
}

test('each of the three big buttons makes a usual 9x9 game in one click', async () => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    const page = await home({ viewport });
    for (const button of await page.$$('.way')) {
      const box = await button.boundingBox();
      assert.ok(box.y + box.height <= viewport.height, `${viewport.width}px: every way to play is on the first screen`);
    }
    assert.equal(await page.isVisible('#komi'), false, 'the settings are folded away');
    await screenshot(page, `home-${viewport.width}`);
    await page.context().close();
  }

  const friend = await home();
  await friend.click('.way[data-mode="online"]');
  await friend.waitForSelector('#share:not([hidden])');
  assert.match(await friend.inputValue('#invite-link'), /#invite=/);
  await friend.click('#play-link');
  await waitForGame(friend);
  assert.deepEqual((await settingsOf(friend)).settings, USUAL);
  assertNoErrors(assert, friend, 'friend');

  const computer = await home();
  await computer.click('.way[data-mode="computer"]');
  await computer.waitForURL(/\/g\//);
  await waitForGame(computer);
  const game = await settingsOf(computer);
  assert.equal(game.mode, 'computer');
  assert.deepEqual(game.settings, USUAL);
  assert.match(await computer.textContent('#role-title'), /You play Black/);

  const hotseat = await home();
  await hotseat.click('.way[data-mode="hotseat"]');
  await hotseat.waitForURL(/\/g\//);
  await waitForGame(hotseat);
  await hotseat.waitForSelector('#curtain:not([hidden]) h1');
  assert.equal((await settingsOf(hotseat)).mode, 'hotseat');
  for (const page of [friend, computer, hotseat]) await page.context().close();
});

test('the custom table remembers the last table; a bad komi is said next to its field', async () => {
  const page = await home();
  await page.click('#custom summary');
  await page.check('input[name="mode"][value="hotseat"]');
  await page.selectOption('#size', '13');
  await page.check('input[name="rules"][value="hamburg"]');
  await page.fill('#komi', '7.3');
  await page.click('#create-button');
  const error = page.locator('#komi-error');
  await error.waitFor();
  assert.match(await error.textContent(), /Komi must be a number in steps of 0\.5/);
  assert.equal(await page.getAttribute('#komi', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'komi');
  assert.ok(await page.evaluate(() => document.getElementById('komi').closest('.field').contains(document.getElementById('komi-error'))),
    'the message sits in the komi field');
  await screenshot(page, 'home-komi-error');
  await page.fill('#komi', '6.5');
  await page.click('#create-button');
  await page.waitForURL(/\/g\//);
  await waitForGame(page);
  const game = await settingsOf(page);
  assert.equal(game.settings.size, 13);
  assert.equal(game.settings.rules, 'hamburg');
  assert.equal(game.settings.komi, 6.5);

  await page.goto(env.server.url + '/');
  await waitForGame(page);
  assert.equal(await page.evaluate(() => document.getElementById('custom').open), true, 'still open');
  assert.equal(await page.inputValue('#size'), '13');
  assert.equal(await page.inputValue('#komi'), '6.5');
  assert.equal(await page.isChecked('input[name="rules"][value="hamburg"]'), true);
  assert.equal(await page.isChecked('input[name="mode"][value="hotseat"]'), true);
  assertNoErrors(assert, page, 'home');
  await page.context().close();
});
