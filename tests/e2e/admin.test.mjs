// The operator's page (/admin) with a real Chromium: a spectator reports a
// message from the game page, the operator types the token in, sees the
// open reports with their message, removes the message with the
// keyboard (Tab to the button, Enter), and a spectator's page that was
// showing that message hides it at once, through its WebSocket, with no
// reload; the log then says what was done.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverAndBrowser, openPage, screenshot, waitForGame, api, onlineGame, assertNoErrors } from './lib.mjs';

const TOKEN = 'e2e-operator-token-0123456789abcdefghij';
const tokenDir = mkdtempSync(path.join(tmpdir(), 'pg-admin-'));
const tokenFile = path.join(tokenDir, 'token');
writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
process.on('exit', () => rmSync(tokenDir, { recursive: true, force: true }));

const env = serverAndBrowser({ serverOptions: { args: ['--admin-token-file', tokenFile] } });

test('the admin page removes a message that a spectator\'s page is showing', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  const said = await api(url, 'POST', `/api/v1/games/${game.id}/chat`, { body: { text: 'a rude remark about Black', name: 'Troll' } });
  assert.equal(said.status, 201, said.text);
  await api(url, 'POST', `/api/v1/games/${game.id}/chat`, { body: { text: 'a kind word', name: 'Friend' } });

  // The spectator's page shows both messages in the spectators' room.
  const spectator = await openPage(env.browser);
  await spectator.goto(`${url}/g/${game.id}`);
  await waitForGame(spectator);
  if (!(await spectator.$eval('#talk-panel', (node) => node.open))) await spectator.click('#talk-panel > summary');
  await spectator.waitForSelector('.talk-message:has-text("a rude remark")');
  assert.equal(await spectator.locator('.talk-message').count(), 2);

  // The spectator reports it from the page, with the keyboard: its own
  // Report button, then the confirmation.
  await spectator.focus('.talk-message[data-n="1"] .talk-report');
  await spectator.keyboard.press('Enter');
  await spectator.waitForSelector('#confirm-dialog[open]');
  await spectator.focus('#confirm-ok');
  await spectator.keyboard.press('Enter');
  await spectator.waitForSelector('.talk-moderation:not([hidden])');
  assert.match(await spectator.textContent('.talk-moderation'), /Reported/);
  // Another report, with a reason, through the API.
  const reported = await api(url, 'POST', `/api/v1/games/${game.id}/chat/spectators/1/report`, { body: { reason: 'insults' } });
  assert.equal(reported.status, 201, reported.text);

  // The operator signs in and removes it with the keyboard.
  const operator = await openPage(env.browser);
  await operator.goto(`${url}/admin`);
  await waitForGame(operator);
  assert.equal(await operator.isHidden('#admin-work'), true, 'nothing shows before the token');
  await operator.focus('#admin-token');
  await operator.keyboard.type(TOKEN);
  await operator.keyboard.press('Enter');
  await operator.waitForSelector('#reports .admin-report');
  const report = operator.locator('#reports .admin-report');
  assert.equal(await report.count(), 2, 'the page\'s report and the API\'s');
  assert.match(await report.first().innerText(), /a rude remark about Black/);
  assert.match(await report.first().innerText(), /insults/);
  await screenshot(operator, 'admin-report');
  await operator.focus('#reports .admin-report button[data-action="remove"]');
  await operator.keyboard.press('Enter');
  await operator.waitForSelector('#reports-empty:not([hidden])'); // one removal closes both reports
  assert.match(await operator.textContent('#admin-status'), /removed/);
  assert.match(await operator.textContent('#log'), /removed a message/);

  // The spectator's page hid it at once: no reload happened.
  await spectator.waitForFunction(() => !document.body.innerText.includes('a rude remark'), null, { timeout: 5000 });
  assert.equal(await spectator.locator('.talk-message').count(), 1);
  assert.match(await spectator.textContent('.talk-message'), /a kind word/);
  // And a fresh load shows it no more either.
  await spectator.reload();
  await waitForGame(spectator);
  const chat = (await api(url, 'GET', `/api/v1/games/${game.id}/chat`)).json;
  assert.equal(chat.spectators.messages[0].removed, true);
  assert.ok(!(await spectator.evaluate(() => document.body.innerText)).includes('a rude remark'));
  await screenshot(spectator, 'admin-removed-spectator');
  // The page fits a laptop and a phone without sideways scrolling.
  for (const [width, height] of [[1366, 768], [390, 844]]) {
    await operator.setViewportSize({ width, height });
    const overflow = await operator.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the admin page scrolls sideways by ${overflow}px at ${width}x${height}`);
  }
  await screenshot(operator, 'admin-phone');
  assertNoErrors(assert, spectator, 'spectator page');
  assertNoErrors(assert, operator, 'admin page');
});
