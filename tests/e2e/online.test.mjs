// A whole online game between two browser contexts, as two people would play
// it: Black creates the game on the home page, White opens the invite link,
// they make legal moves and illegal attempts, Black captures a stone, both
// pass. Each page must show only its own stones until the end and the whole
// board after, and Black's browser must never receive White's hidden stone.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, screenshotDir, waitForGame, clickVertex, waitForSeq,
  stonesShown, passWithConfirmation, assertNoErrors,
} from './lib.mjs';

const env = serverAndBrowser();

after(() => console.log(`screenshots: ${screenshotDir}`));

// Every API answer and WebSocket frame a page receives, to search for leaks.
function recordTraffic(page) {
  const received = [];
  const pending = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => received.push(String(frame.payload))));
  page.on('response', (response) => {
    if (response.url().includes('/api/')) pending.push(response.text().then((text) => received.push(text), () => {}));
  });
  return async () => {
    await Promise.all(pending);
    return received.join('\n');
  };
}

test('two browsers play a whole online game through the invite link', async () => {
  const black = await openPage(env.browser);
  await black.goto(env.server.url + '/');
  await waitForGame(black);
  await screenshot(black, 'home');
  await black.click('#custom summary');
  await black.check('input[name="mode"][value="online"]');
  await black.check('input[name="color"][value="black"]');
  await black.click('#create-button');
  await black.waitForSelector('#share:not([hidden])');
  await black.waitForSelector('#invite-qr:not([hidden])');
  const invite = await black.inputValue('#invite-link');
  const watch = await black.inputValue('#watch-link');
  assert.match(invite, /\/g\/[^#]+#invite=/);
  assert.match(watch, /\/g\/[^#]+$/);
  await screenshot(black, 'home-share');

  const blackTraffic = recordTraffic(black);
  await black.click('#play-link');
  await black.waitForURL(/\/g\//);
  await waitForGame(black);
  assert.equal(new URL(black.url()).hash, '', 'the seat token is removed from the address bar');
  assert.match(await black.textContent('#role-title'), /Black/);

  const white = await openPage(env.browser);
  const whiteTraffic = recordTraffic(white);
  await white.goto(invite);
  await waitForGame(white);
  assert.equal(new URL(white.url()).hash, '', 'the invite secret is removed from the address bar');
  assert.match(await white.textContent('#role-title'), /White/);

  // 1. Black E5.
  await clickVertex(black, 'E5');
  await waitForSeq(black, 1);
  await waitForSeq(white, 1);
  // 2. White tries E5: illegal (Black's unseen stone), keeps the turn.
  const whiteBoard = await white.locator('#board').boundingBox();
  await clickVertex(white, 'E5');
  await waitForSeq(white, 2);
  await white.waitForSelector('#board .tried[data-vertex="E5"]');
  await waitForSeq(black, 2);
  assert.match(await black.textContent('#log li[data-seq="2"]'), /White tried an illegal move/);
  assert.match(await white.textContent('#stats [data-stat="attempts"]'), /^1$/);
  // Trying the same point again is refused by the page itself.
  await clickVertex(white, 'E5');
  await white.waitForSelector('#notice:not([hidden])');
  assert.match(await white.textContent('#notice'), /already tried E5/);
  assert.deepEqual(await white.locator('#board').boundingBox(), whiteBoard, 'notices do not move the board under the pointer');
  // White A1, Black A2, White G7.
  await clickVertex(white, 'A1');
  await waitForSeq(black, 3);
  await waitForSeq(white, 3);
  assert.equal(await white.isHidden('#notice'), true, "a notice about the last turn goes with it");
  await clickVertex(black, 'A2');
  await waitForSeq(white, 4);
  await clickVertex(white, 'G7');
  await waitForSeq(black, 5);
  // Black tries A1 (White's stone): illegal; then B1 captures it.
  await clickVertex(black, 'A1');
  await waitForSeq(black, 6);
  await black.waitForSelector('#board .tried[data-vertex="A1"]');
  assert.match(await black.textContent('#news'), /A1 is illegal/);
  assert.equal(await black.isHidden('#notice'), true, 'one signal by the board, no notice over the header');
  await clickVertex(black, 'B1');
  await waitForSeq(black, 7);
  await waitForSeq(white, 7);
  assert.match(await black.textContent('#log li[data-seq="7"]'), /Black captured 1 stone: A1/);
  assert.match(await white.textContent('#log li[data-seq="7"]'), /Black captured 1 stone: A1/);
  assert.match(await white.textContent('#stats [data-stat="prisoners-black"]'), /^1$/);

  assert.deepEqual(await stonesShown(black), ['black:A2', 'black:B1', 'black:E5'], 'Black sees only Black stones');
  assert.deepEqual(await stonesShown(white), ['white:G7'], 'White sees only White stones (A1 was captured)');
  await screenshot(black, 'game-black');
  await screenshot(white, 'game-white');

  // Two passes end the game.
  await passWithConfirmation(white);
  await waitForSeq(black, 8);
  await passWithConfirmation(black);
  await white.waitForSelector('#result-panel:not([hidden])');
  await black.waitForSelector('#result-panel:not([hidden])');

  const everything = ['black:A2', 'black:B1', 'black:E5', 'white:G7'];
  assert.deepEqual(await stonesShown(black), everything, 'Black sees the whole board after the end');
  assert.deepEqual(await stonesShown(white), everything, 'White sees the whole board after the end');
  assert.match(await black.textContent('#result-text'), /White wins by 4\.5 points/);
  assert.equal(await black.isHidden('#notice'), true, 'no notice from the play outlives the game');
  // A1, the point Black's B1 emptied, is Black's territory: shaded and marked.
  assert.equal(await black.locator('#board .territory.black[data-vertex="A1"]').count(), 1);
  assert.equal(await black.locator('#board .territory-area.black').count(), 1);
  assert.equal(await black.getAttribute('#sgf-link', 'href'), `/api/v1/games/${new URL(watch).pathname.split('/')[2]}/sgf`);
  await screenshot(black, 'game-over');

  // Before the end, nothing Black's page received named White's G7, and
  // nothing White's page received named Black's A2 or B1.
  const blackText = await blackTraffic();
  const whiteText = await whiteTraffic();
  const beforeEnd = (text) => text.split('\n').filter((line) => !line.includes('"over":true')).join('\n');
  assert.ok(!beforeEnd(blackText).includes('"G7"'), 'Black never received G7 before the end');
  assert.ok(!beforeEnd(whiteText).includes('"A2"') && !beforeEnd(whiteText).includes('"B1"'), 'White never received A2 or B1 before the end');

  // The replay, driven from the keyboard: the slider steps through every
  // event, and each side's view shows only what that side knew.
  await black.focus('#replay-slider');
  await black.keyboard.press('Home');
  assert.deepEqual(await stonesShown(black), [], 'the replay starts from the empty board');
  for (let step = 0; step < 5; step++) await black.keyboard.press('ArrowRight');
  assert.match(await black.textContent('#replay-caption'), /^Move 4: White played G7\. \(announcement 5 of 9\)$/);
  assert.deepEqual(await stonesShown(black), ['black:A2', 'black:E5', 'white:A1', 'white:G7']);
  await black.check('input[name="perspective"][value="white"]');
  assert.deepEqual(await stonesShown(black), ['white:A1', 'white:G7'], "White's view of step 5");
  await black.focus('#replay-slider');
  await black.keyboard.press('ArrowRight');
  await black.check('input[name="perspective"][value="black"]');
  assert.deepEqual(await stonesShown(black), ['black:A2', 'black:E5'], "Black's view of step 6");
  assert.equal(await black.locator('#board .tried[data-vertex="A1"]').count(), 1, "Black's illegal try at A1 is shown");
  await black.click('#replay-last');
  await black.check('input[name="perspective"][value="full"]');
  assert.deepEqual(await stonesShown(black), everything);

  // Rematch: Black offers it and lands in the new game as White; White's
  // page learns of the offer, accepts it and plays Black there.
  const oldId = new URL(watch).pathname.split('/')[2];
  assert.match(await black.textContent('#rematch'), /Rematch with colours swapped/);
  await black.click('#rematch');
  await black.waitForURL((url) => url.pathname.startsWith('/g/') && !url.pathname.endsWith(oldId));
  await waitForGame(black);
  assert.match(await black.textContent('#role-title'), /You play White/);
  assert.match(await black.textContent('#waiting'), /Rematch offered: waiting for your opponent to accept/);
  assert.doesNotMatch(await black.textContent('#waiting'), /invite link/);
  // The offer comes over the live connection, well before the 4 s poll.
  await white.waitForSelector('#rematch-offer:not([hidden])', { timeout: 3000 });
  assert.match(await white.textContent('#rematch-offer'), /Your opponent offers a rematch/);
  await screenshot(white, 'rematch-offer');
  await white.click('#rematch-accept');
  await white.waitForURL(black.url());
  await waitForGame(white);
  assert.match(await white.textContent('#role-title'), /You play Black/);
  assert.match(await white.textContent('#turn-banner'), /Your turn/);

  assertNoErrors(assert, black, 'black page');
  assertNoErrors(assert, white, 'white page');
});
