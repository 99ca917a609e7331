// Clocks on the game page in a real browser: a byo-yomi game created through
// the new-game form (published in the lobby) shows both clocks ticking from
// the server's snapshot, turns to its warning state in the last seconds of a
// period, and shows the opponent's "disconnected" badge live; an untimed
// game's absent opponent can be claimed once the server's clock (moved by
// the test, not slept) passes the limit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openPage, screenshot, waitForGame, api, act, assertNoErrors } from './lib.mjs';

const env = serverAndBrowser({ serverOptions: { args: ['--test-clock'] } });

const clockText = (page, color) => page.textContent(`#clocks .clock[data-color="${color}"] .clock-time`);

test('the form sets a byo-yomi clock that ticks, warns, and shows who is disconnected', async () => {
  const black = await openPage(env.browser);
  await black.goto(env.server.url + '/');
  await waitForGame(black);
  await black.click('#custom summary');
  await black.check('input[name="mode"][value="online"]');
  await black.check('input[name="color"][value="black"]');
  await black.selectOption('#tc-type', 'byoyomi');
  assert.equal(await black.isHidden('#tc-increment'), true, 'only byo-yomi fields');
  await black.fill('#tc-main', '0');
  await black.fill('#tc-periods', '3');
  await black.fill('#tc-period', '12');
  await black.check('#public');
  await black.click('#create-button');
  await black.waitForSelector('#share:not([hidden])');
  const invite = await black.inputValue('#invite-link');
  const id = new URL(invite).pathname.split('/')[2];
  const lobby = await api(env.server.url, 'GET', '/api/v1/lobby');
  assert.deepEqual(lobby.json.open.find((entry) => entry.id === id)?.time_control, { type: 'byoyomi', main: 0, periods: 3, period: 12 });

  const white = await openPage(env.browser);
  await white.goto(invite);
  await waitForGame(white);
  await black.click('#play-link');
  await black.waitForURL(/\/g\//);
  await waitForGame(black);
  await black.waitForSelector('#clocks:not([hidden])');
  assert.match(await black.textContent('#clocks .clock[data-color="white"] .clock-detail'), /3 periods left/);
  const first = await clockText(black, 'black');
  await black.waitForFunction((before) =>
    document.querySelector('#clocks .clock[data-color="black"] .clock-time').textContent !== before, first);
  assert.equal(await clockText(black, 'white'), '0:12', 'only the side to move runs');
  await black.waitForSelector('#clocks .clock[data-color="black"][data-warning="true"][data-byoyomi="true"]', { timeout: 6000 });
  assert.match(await black.textContent('#clocks [aria-live]'), /Byo-yomi: \d+ seconds? left in this period!/);
  assert.equal(await black.isHidden('#clocks .clock[data-color="white"] .badge'), true, 'White is connected');
  await screenshot(black, 'clock-warning');

  await white.context().close();
  await black.waitForSelector('#clocks .clock[data-color="white"] .badge:not([hidden])');
  assert.equal(await black.textContent('#clocks .clock[data-color="white"] .badge'), 'disconnected');
  assertNoErrors(assert, black, 'black');
  await black.context().close();
});

test('an absent opponent of an untimed game can be claimed after the limit', async () => {
  const created = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black' } });
  const id = created.json.game.id;
  const blackToken = created.json.seats[0].token;
  await api(env.server.url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  await act(env.server.url, id, blackToken, { action: 'attempt', vertex: 'C3' });

  const black = await openPage(env.browser);
  await black.goto(`${env.server.url}/g/${id}#seat=${blackToken}`);
  await waitForGame(black);
  assert.equal(await black.isHidden('#claim'), true, 'too early');
  assert.match(await black.textContent('#clocks .clock[data-color="white"]'), /White\s*disconnected/, 'the absent side is shown');
  await api(env.server.url, 'POST', '/api/v1/test/clock', { body: { advance_ms: 601 * 1000 } });
  await black.reload();
  await waitForGame(black);
  await black.waitForSelector('#claim:not([hidden])');
  await black.click('#claim');
  await black.click('#confirm-ok');
  await black.waitForSelector('#result-panel:not([hidden])');
  assert.equal(await black.textContent('#result-text'), 'Black wins: White forfeited.');
  assertNoErrors(assert, black, 'claim');
  await black.context().close();
});
