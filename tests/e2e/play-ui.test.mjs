// The details a careful game page gets right (issue 13): the referee's
// latest news next to the board and capture marks that last until your next
// move (after a reload too); ghost mode ends when your turn begins; resign
// asks in red with the focus on Cancel; the pass question says when it ends
// the game; the result banner says who won and "You won"/"You lost"; the
// reveal marks the opponent stones you never learned of; the replay steps
// with the arrow keys from anywhere and from each log line, without
// scrolling; sounds for a stone and an illegal try; the page of a missing
// game and a finished game's unused invite; Olympiad's log after the end.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, waitForSeq, clickVertex, api, act, onlineGame, assertNoErrors,
} from './lib.mjs';

const env = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function playerPage(game, color, options = {}) {
  const page = await openPage(env.browser, options);
  await page.goto(`${env.server.url}/g/${game.id}#seat=${game[color]}`, { waitUntil: 'domcontentloaded' });
  await waitForGame(page);
  return page;
}

test('the news strip tells the latest announcement and capture marks last until your next move', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  const white = await playerPage(game, 'white');
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'A2' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'A1' });
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'B1' });
  await waitForSeq(white, 3);
  await white.waitForSelector('#news[data-kind="bad"]');
  assert.equal(await white.textContent('#news'), 'Black captured your stone at A1.');
  assert.equal(await white.getAttribute('#news', 'role'), 'status', 'screen readers hear it');
  assert.equal(await white.locator('#board .captured-mark[data-vertex="A1"]').count(), 1);
  await screenshot(white, 'news-captured');
  await white.reload();
  await waitForGame(white);
  assert.equal(await white.locator('#board .captured-mark[data-vertex="A1"]').count(), 1, 'the mark survives a reload');
  assert.equal(await white.textContent('#news'), 'Black captured your stone at A1.');
  // An illegal try of White's own is news; the mark stays (no move yet).
  await clickVertex(white, 'B1');
  await white.waitForSelector('#news:has-text("B1 is illegal")');
  assert.equal(await white.locator('#board .captured-mark[data-vertex="A1"]').count(), 1);
  await clickVertex(white, 'G7');
  await waitForSeq(white, 5);
  assert.equal(await white.locator('#board .captured-mark').count(), 0, 'gone after White moves');
  // Black passes: White is told that passing now ends the game.
  await act(url, game.id, game.black, { action: 'pass' });
  await white.waitForSelector('#news[data-kind="end"]');
  assert.equal(await white.textContent('#news'), 'Black passed: another pass now ends the game.');
  await white.click('#pass');
  assert.match(await white.textContent('#confirm-text'), /this pass ends the game.*every stone on it counts as alive/);
  await white.click('#confirm-cancel');
  assertNoErrors(assert, white, 'white page');
  await white.context().close();
});

test('ghost mode turns itself off when your turn begins', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  const black = await playerPage(game, 'black');
  await clickVertex(black, 'E5');
  await waitForSeq(black, 1);
  await black.click('#notes-panel summary');
  await black.click('#ghost-mode');
  assert.equal(await black.getAttribute('#ghost-mode', 'aria-pressed'), 'true');
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'C3' });
  await waitForSeq(black, 2);
  assert.equal(await black.getAttribute('#ghost-mode', 'aria-pressed'), 'false');
  assert.equal(await black.locator('#board.ghost-mode').count(), 0);
  assertNoErrors(assert, black, 'black page');
  await black.context().close();
});

test('resign asks in red with the focus on Cancel: Enter twice does not resign', async () => {
  const game = await onlineGame(env.server.url);
  const black = await playerPage(game, 'black');
  await black.click('#resign');
  assert.equal(await black.evaluate(() => document.activeElement.id), 'confirm-cancel');
  assert.equal(await black.getAttribute('#confirm-ok', 'class'), 'danger');
  await black.keyboard.press('Enter');
  await black.keyboard.press('Enter');
  await black.waitForTimeout(300);
  if (await black.evaluate(() => document.getElementById('confirm-dialog').open)) await black.keyboard.press('Escape');
  const view = await api(env.server.url, 'GET', `/api/v1/games/${game.id}`, { token: game.black });
  assert.equal(view.json.over, false, 'the game goes on');
  await black.click('#pass');
  assert.equal(await black.evaluate(() => document.activeElement.id), 'confirm-ok', 'pass is not destructive');
  assert.match(await black.textContent('#confirm-text'), /If your opponent passes next, the game ends/);
  await black.click('#confirm-cancel');
  assertNoErrors(assert, black, 'black page');
  await black.context().close();
});

test('the end: who won, "You won"/"You lost", the unseen stones marked, the replay steps from anywhere', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'C3' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'D4' });
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'D4' });   // illegal: Black finds D4
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'G3' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'G7' });
  await act(url, game.id, game.black, { action: 'pass' });
  await act(url, game.id, game.white, { action: 'pass' });
  const black = await playerPage(game, 'black', PHONE);
  assert.match(await black.textContent('#turn-banner'), /^You lost\. White wins by \d+(\.5)? points?\.$/);
  assert.equal(await black.getAttribute('#turn-banner', 'data-kind'), 'lost');
  // Black ran into D4, never into G7: only G7 is marked, with its legend.
  assert.deepEqual(await black.$$eval('#board .unseen-mark', (marks) => marks.map((mark) => mark.dataset.vertex)), ['G7']);
  assert.equal(await black.isVisible('#unseen-legend'), true);
  await screenshot(black, 'reveal-unseen-phone');
  // Black's own view in the replay keeps marking it, faintly drawn.
  await black.check('input[name="perspective"][value="black"]');
  assert.equal(await black.locator('#board .unseen-stone.white[data-vertex="G7"]').count(), 1);
  assert.equal(await black.locator('#board .unseen-stone[data-vertex="D4"]').count(), 0);
  await black.check('input[name="perspective"][value="full"]');
  // Arrow keys step the replay with the focus anywhere, and nothing scrolls.
  await black.evaluate(() => document.activeElement?.blur());
  const scrollBefore = await black.evaluate(() => scrollY);
  await black.keyboard.press('ArrowLeft');
  await black.keyboard.press('ArrowLeft');
  assert.equal(await black.inputValue('#replay-slider'), '5');
  await black.click('#replay-previous');
  await black.click('#replay-previous');
  assert.equal(await black.evaluate(() => scrollY), scrollBefore, 'stepping does not scroll the board away');
  // A line of the log jumps the replay to its moment.
  await black.click('#log li[data-seq="2"] .log-jump');
  assert.equal(await black.inputValue('#replay-slider'), '2');
  assert.match(await black.textContent('#replay-caption'), /^Move 2: White played D4\. \(announcement 2 of 7\)$/);
  assert.equal(await black.locator('#log li.current[data-seq="2"]').count(), 1);
  const white = await playerPage(game, 'white');
  assert.match(await white.textContent('#turn-banner'), /^You won! White wins by/);
  assert.equal(await white.getAttribute('#turn-banner', 'data-kind'), 'won');
  // A spectator gets the result, no "you", and no marks.
  const spectator = await openPage(env.browser);
  await spectator.goto(`${url}/g/${game.id}`);
  await waitForGame(spectator);
  assert.match(await spectator.textContent('#turn-banner'), /^White wins by/);
  assert.equal(await spectator.locator('#board .unseen-mark').count(), 0);
  for (const page of [black, white, spectator]) {
    assertNoErrors(assert, page, 'a page');
    await page.context().close();
  }
});

test('Olympiad: the log revealed at the end adds no atari; Common keeps its announced one', async () => {
  const { url } = env.server;
  for (const rules of ['olympiad', 'common']) {
    const game = await onlineGame(url, { settings: { size: 9, rules } });
    await act(url, game.id, game.black, { action: 'attempt', vertex: 'E5' });
    await act(url, game.id, game.white, { action: 'attempt', vertex: 'A1' });
    await act(url, game.id, game.black, { action: 'attempt', vertex: 'B1' });   // A1 in atari
    await act(url, game.id, game.white, { action: 'resign' });
    const black = await playerPage(game, 'black');
    const line = await black.textContent('#log li[data-seq="3"]');
    if (rules === 'olympiad') assert.doesNotMatch(line, /atari/, 'olympiad never announced it');
    else assert.match(line, /puts White into atari/);
    await black.context().close();
    const view = await api(url, 'GET', `/api/v1/games/${game.id}`);
    assert.equal(view.json.events[2].atari ?? false, rules === 'common', `${rules}: the API log`);
  }
});

test('sounds for a stone placed and an illegal try, under the mute switch', async () => {
  const game = await onlineGame(env.server.url);
  const context = await env.browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => {
    window.tones = [];
    const original = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function createOscillator() {
      const oscillator = original.call(this);
      const start = oscillator.start.bind(oscillator);
      oscillator.start = (...args) => { window.tones.push(oscillator.frequency.value); start(...args); };
      return oscillator;
    };
  });
  const black = await openPage(env.browser, { context });
  await black.goto(`${env.server.url}/g/${game.id}#seat=${game.black}`, { waitUntil: 'domcontentloaded' });
  await waitForGame(black);
  await clickVertex(black, 'E5');
  await waitForSeq(black, 1);
  await black.waitForFunction(() => window.tones.length === 1);
  await act(env.server.url, game.id, game.white, { action: 'attempt', vertex: 'D4' });
  await waitForSeq(black, 2);
  await clickVertex(black, 'D4');
  await waitForSeq(black, 3);
  await black.waitForFunction(() => window.tones.length === 2);
  assert.deepEqual(await black.evaluate(() => window.tones), [880, 150], 'a stone click, then the illegal buzz');
  await black.click('summary:has(#options-title)');
  await black.uncheck('#opt-sound');
  await clickVertex(black, 'C3');
  await waitForSeq(black, 4);
  await black.waitForTimeout(200);
  assert.equal(await black.evaluate(() => window.tones.length), 2, 'muted: no sound');
  assertNoErrors(assert, black, 'black page');
  await context.close();
});

test('a missing game has a heading and a way to a new game; a finished game\'s invite gives no seat', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}/g/nosuchgame1`);
  await waitForGame(page);
  assert.equal(await page.textContent('h1:visible'), 'Game not found');
  await page.click('#fatal a.button');
  await page.waitForURL(`${env.server.url}/`);
  await screenshot(page, 'missing-game');

  const { url } = env.server;
  const created = await api(url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black' } });
  const { id } = created.json.game;
  await act(url, id, created.json.seats[0].token, { action: 'resign' });
  const late = await openPage(env.browser);
  await late.goto(created.json.links.invite);
  await waitForGame(late);
  assert.doesNotMatch(await late.textContent('#role-title'), /You play/);
  assert.match(await late.textContent('#notice'), /ended before the invite was used/);
  assert.equal(await late.isVisible('#result-panel'), true);
  const claim = await api(url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  assert.equal(claim.status, 200, 'the page did not take the seat itself');
  await page.context().close();
  await late.context().close();
});
