// The game page, second look (issue 23): the referee's news where a player
// looks. On a 1366x768 laptop the referee's latest announcements are on the
// first screen beside the board, and table talk, which nobody answers in a
// computer game, waits folded at the end of the column; the news strip tells
// the player's whole round (the opponent's illegal tries, the player's own
// captures with a mark unlike a loss), not just the latest event.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, waitForSeq, clickVertex, api, act, onlineGame, assertNoErrors,
  LANGUAGES,
} from './lib.mjs';

const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const LAPTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const SHOTS = process.env.SHOTS_DIR;
const COMPUTER = { en: 'Computer (easy)', ru: 'Компьютер (слабый)', ko: '컴퓨터 (쉬움)' };
const LEVEL = { en: 'Easy', ru: 'Слабый', ko: '쉬움' };

const env = serverAndBrowser();

async function seatPage(id, token, options = {}) {
  const page = await openPage(env.browser, options);
  await page.goto(`${env.server.url}/g/${id}#seat=${token}`, { waitUntil: 'domcontentloaded' });
  await waitForGame(page);
  return page;
}

async function box(page, selector) {
  return page.$eval(selector, (node) => {
    const rect = node.getBoundingClientRect();
    return { top: rect.top + scrollY, bottom: rect.bottom + scrollY, height: rect.height };
  });
}

test('on a laptop the referee\'s latest announcements are on the first screen of a computer game', async () => {
  for (const lang of LANGUAGES) {
    const made = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'computer', color: 'black', level: 'easy' } });
    assert.equal(made.status, 201, made.text);
    const page = await seatPage(made.json.game.id, made.json.seats[0].token, { ...LAPTOP, locale: LOCALES[lang] });
    await clickVertex(page, 'E5');
    await waitForSeq(page, 2);
    const newest = await box(page, '#log li:first-child');
    assert.ok(newest.bottom <= 768, `${lang}: the newest announcement ends at ${Math.round(newest.bottom)} px, below the first screen`);
    assert.equal(await page.$eval('#talk-panel', (node) => node.open), false, `${lang}: table talk is folded against the computer`);
    const talk = await box(page, '#talk-panel');
    const log = await box(page, '#log-panel');
    assert.ok(talk.top > log.bottom, `${lang}: table talk comes after the referee`);
    // The computer has a face: a player card with its level, and the
    // level in the table panel.
    assert.equal(await page.isVisible('#clocks'), true, `${lang}: the players' bar shows`);
    assert.equal(await page.textContent('#clocks .clock[data-color="white"] .clock-name'), COMPUTER[lang], `${lang}: the computer's card`);
    assert.match(await page.textContent('#table-info'), new RegExp(LEVEL[lang]), `${lang}: the level in the table panel`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/computer-laptop-${lang}.png` });
    assertNoErrors(assert, page, lang);
    await page.context().close();
    const phone = await seatPage(made.json.game.id, made.json.seats[0].token, { ...PHONE, locale: LOCALES[lang] });
    assert.equal(await phone.textContent('#clocks .clock[data-color="white"] .clock-name'), COMPUTER[lang], `${lang}: the card on a phone`);
    for (const selector of ['#clocks', '#news', '#board', '#pass', '#resign']) {
      assert.ok((await box(phone, selector)).bottom <= 844, `${lang}: ${selector} on a phone's first screen`);
    }
    if (SHOTS) await phone.screenshot({ path: `${SHOTS}/computer-phone-${lang}.png` });
    assertNoErrors(assert, phone, `${lang} phone`);
    await phone.context().close();
  }
});

test('the news tells the opponent\'s illegal tries and your own captures, marked unlike a loss', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  const black = await seatPage(game.id, game.black, LAPTOP);
  await clickVertex(black, 'C3');
  await waitForSeq(black, 1);
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'C3' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'A1' });
  await waitForSeq(black, 3);
  assert.equal(await black.textContent('#news'), 'White tried an illegal move. White played.');
  assert.equal(await black.textContent('#news .news-item[data-kind="info"]'), 'White tried an illegal move.');
  await clickVertex(black, 'A2');
  await waitForSeq(black, 4);
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'J9' });
  await waitForSeq(black, 5);
  await clickVertex(black, 'B1');
  await waitForSeq(black, 6);
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'A2' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'B1' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'G7' });
  await waitForSeq(black, 9);
  assert.equal(await black.textContent('#news'), 'You captured 1 stone: A1. White tried 2 illegal moves. White played.');
  assert.equal(await black.getAttribute('#news', 'data-kind'), 'good');
  assert.equal(await black.locator('#news .news-item[data-kind="good"]').count(), 1);
  assert.equal(await black.locator('#board .taken-mark[data-vertex="A1"]').count(), 1, 'your capture has its own mark');
  assert.equal(await black.locator('#board .captured-mark').count(), 0, 'not the mark of a loss');
  const newsHeight = (await box(black, '#news')).height;
  await clickVertex(black, 'G7');
  await black.waitForSelector('#news:has-text("G7 is illegal")');
  assert.equal((await box(black, '#news')).height, newsHeight, 'the strip keeps its height');
  await screenshot(black, 'news-round');
  if (SHOTS) await black.screenshot({ path: `${SHOTS}/news-round-laptop-en.png` });
  assertNoErrors(assert, black, 'black page');
  await black.context().close();
});
