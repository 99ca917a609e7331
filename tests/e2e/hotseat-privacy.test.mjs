// Hot-seat privacy of the page itself: after each curtain, nothing the page
// holds may depend on what the other seat did behind it. The test plays the
// same hot-seat opening several times, changing only one seat's hidden
// moves and how they were made (mouse with hovering, keyboard cursor, ghost
// stones, ghost mode), and compares everything the next seat's page shows:
// the whole DOM with its attributes (cursor mark, hover stone, aria text),
// the focused element, the title, the scroll positions. Any difference is a
// leak of the hidden move (issue 13: the keyboard cursor was drawn on the
// opponent's last point). The table has the deduction aid on, so each
// seat's heat map is part of what is compared once it has arrived (it must
// come from that seat's own view), and no trace of it may stay behind a
// curtain.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openPage, api, waitForGame, clickVertex, assertNoErrors } from './lib.mjs';

const env = serverAndBrowser();

// Arrow presses from the 9x9 centre (E5) to a vertex.
function arrowsTo(vertex) {
  const letters = 'ABCDEFGHJ';
  const dx = letters.indexOf(vertex[0]) - 4;
  const dy = Number(vertex.slice(1)) - 5;
  const keys = [];
  for (let i = 0; i < Math.abs(dx); i++) keys.push(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(dy); i++) keys.push(dy > 0 ? 'ArrowUp' : 'ArrowDown');
  return keys;
}

// Plays one hidden move the way `style` says, leaving every trace of it the
// page could keep: hover, cursor, ghost stones, ghost mode.
async function playMove(page, vertex, style) {
  if (style === 'mouse') {
    await page.hover('#board .hit:not(.wrap)[data-vertex="H8"]');
    await page.hover('#board .hit:not(.wrap)[data-vertex="B2"]');
    await clickVertex(page, vertex);
  } else {
    await page.focus('#board');
    for (const key of arrowsTo(vertex)) await page.keyboard.press(key);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('g');
    await page.keyboard.press('ArrowDown');
    await page.click('#notes-panel summary');
    await page.click('#ghost-mode');
    await page.click('#ghost-mode');
    await page.focus('#board');
    await page.keyboard.press('Enter');
  }
  await page.waitForSelector('#curtain:not([hidden])');
}

// Everything of the page a person or a screen reader could perceive, and
// every attribute a script could read, with the game's id taken out.
async function pageState(page, gameId) {
  await page.waitForTimeout(150);
  const state = await page.evaluate(() => {
    const active = document.activeElement;
    return {
      html: document.body.outerHTML,
      focus: active ? `${active.tagName}#${active.id}` : null,
      title: document.title,
      scroll: [scrollX, scrollY, document.getElementById('log').scrollTop],
      text: document.body.innerText,
    };
  });
  return JSON.parse(JSON.stringify(state).replaceAll(gameId, 'GAME'));
}

async function lift(page, { heat = true } = {}) {
  await page.click('#curtain-show');
  await page.waitForSelector('#game-area:not([hidden])');
  await page.waitForSelector('#board .hit');
  // The seat's map has arrived once its line says something other than
  // "working out" (only points of 10 % or more are tinted, maybe none).
  if (heat) {
    await page.waitForFunction(() => {
      const hint = document.getElementById('aid-hint').textContent;
      return hint !== '' && !hint.startsWith('Working out');
    });
  }
}

// Behind a curtain nothing of the deduction aid is left: no tint, no text.
async function assertNoAid(page, label) {
  assert.equal(await page.locator('.heat').count(), 0, `${label}: a heat map stayed behind the curtain`);
  assert.equal(await page.textContent('#aid-hint'), '', `${label}: the aid's text stayed behind the curtain`);
  assert.equal(await page.isHidden('#aid-bar'), true, `${label}: the aid's toggle stayed behind the curtain`);
}

// One hot-seat opening: Black's move, White's move. Returns the states of
// the page at each curtain and just after each lift.
async function opening({ black, blackStyle, white, whiteStyle }) {
  const created = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', deduction_aid: true } });
  assert.equal(created.status, 201);
  const gameId = created.json.game.id;
  const page = await openPage(env.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(created.json.links.play);
  await waitForGame(page);
  await lift(page, { heat: false });   // nothing of White's to guess yet
  await playMove(page, black, blackStyle);
  const curtainForWhite = await pageState(page, gameId);
  await assertNoAid(page, 'curtain before White');
  await lift(page);
  const whiteShown = await pageState(page, gameId);
  await playMove(page, white, whiteStyle);
  const curtainForBlack = await pageState(page, gameId);
  await assertNoAid(page, 'curtain before Black');
  await lift(page);
  const blackShown = await pageState(page, gameId);
  assertNoErrors(assert, page, 'hot-seat page');
  await page.context().close();
  return { curtainForWhite, whiteShown, curtainForBlack, blackShown };
}

// Fails with the first difference and a little context on either side.
function assertSame(actual, expected, label) {
  for (const key of Object.keys(expected)) {
    const [a, b] = [JSON.stringify(actual[key]), JSON.stringify(expected[key])];
    if (a === b) continue;
    let i = 0;
    while (a[i] === b[i]) i++;
    assert.fail(`${label}: ${key} depends on the other seat's hidden move:\n  one game:   …${a.slice(Math.max(0, i - 160), i + 80)}\n  other game: …${b.slice(Math.max(0, i - 160), i + 80)}`);
  }
}

test("hot-seat: after a curtain nothing on the page depends on the other seat's hidden moves", async () => {
  const first = await opening({ black: 'C3', blackStyle: 'mouse', white: 'D6', whiteStyle: 'keyboard' });
  // Black moves elsewhere, by keyboard: White's page must not change.
  const otherBlack = await opening({ black: 'G7', blackStyle: 'keyboard', white: 'D6', whiteStyle: 'keyboard' });
  assertSame(otherBlack.curtainForWhite, first.curtainForWhite, 'curtain before White');
  assertSame(otherBlack.whiteShown, first.whiteShown, "White's board");
  // White moves elsewhere, by mouse: Black's page must not change.
  const otherWhite = await opening({ black: 'C3', blackStyle: 'mouse', white: 'F4', whiteStyle: 'mouse' });
  assertSame(otherWhite.curtainForBlack, first.curtainForBlack, 'curtain before Black');
  assertSame(otherWhite.blackShown, first.blackShown, "Black's board");
});
