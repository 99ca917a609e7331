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

// Each selector's box lies inside the first screen (the page not scrolled).
async function assertOnFirstScreen(page, selectors, label) {
  const { height } = page.viewportSize();
  for (const selector of selectors) {
    const { top, bottom, height: tall } = await box(page, selector);
    assert.ok(tall > 0 && top >= 0 && bottom <= height + 0.5, `${label}: ${selector} spans ${Math.round(top)}-${Math.round(bottom)} px, the screen ${height} px`);
  }
}

test('the end: score, rematch and a new game on the first screen; the replay tells its step where the eye is', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'C3' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'G7' });
  await act(url, game.id, game.black, { action: 'pass' });
  await act(url, game.id, game.white, { action: 'pass' });
  for (const [device, options] of [['laptop', LAPTOP], ['phone', PHONE]]) {
    for (const lang of LANGUAGES) {
      const page = await seatPage(game.id, game.black, { ...options, locale: LOCALES[lang] });
      const label = `${device} ${lang}`;
      await assertOnFirstScreen(page, ['#turn-banner', '#result-score', '#rematch', '#new-game', '#board', '#replay-previous'], label);
      assert.match(await page.textContent('#result-score'), /\d/, `${label}: the score`);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/end-${device}-${lang}.png` });
      if (device === 'phone' && lang === 'en') {
        // A log line far below moves the replay and brings the board back.
        await page.click('#log li[data-seq="1"] .log-jump');
        await assertOnFirstScreen(page, ['#news', '#board'], `${label} after a log line`);
        assert.equal(await page.textContent('#news'), 'Move 1: Black played C3. (announcement 1 of 4)');
        await page.keyboard.press('End');
        assert.match(await page.textContent('#news'), /^Move 4: White passed\. \(announcement 4 of 4\)$/);
        await page.keyboard.press('Home');
        assert.equal(await page.textContent('#news'), 'Start of the game (4 announcements).');
        await page.keyboard.press('ArrowRight');
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/replay-step1-phone-en.png` });
      }
      assertNoErrors(assert, page, label);
      await page.context().close();
    }
  }
  // A new game at the same table: this seat's colour, the same settings.
  const page = await seatPage(game.id, game.white, LAPTOP);
  await page.click('#new-game');
  await page.waitForURL((address) => !address.pathname.endsWith(game.id));
  await waitForGame(page);
  await page.waitForSelector('#waiting:not([hidden])');
  const fresh = await api(url, 'GET', `/api/v1/games/${new URL(page.url()).pathname.split('/')[2]}`);
  assert.equal(fresh.json.game.mode, 'online');
  assert.equal(fresh.json.seats.white.taken, true, 'White again');
  assert.equal(fresh.json.seats.black.taken, false);
  assert.equal(await page.isVisible('#waiting-invite'), true, 'the invite to pass on');
  assertNoErrors(assert, page, 'new game');
  await page.context().close();
});

test('a rematch this player offered from another device is not shown as the opponent\'s offer', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  await act(url, game.id, game.black, { action: 'resign' });
  const offer = await api(url, 'POST', `/api/v1/games/${game.id}/rematch`, { token: game.black, body: { action: 'offer' } });
  assert.ok(offer.status === 200 || offer.status === 201, offer.text);
  // This device never stored the rematch's seat (the offer came from another).
  const black = await seatPage(game.id, game.black, LAPTOP);
  await black.waitForSelector('#rematch-status:has-text("You offered a rematch")');
  assert.equal(await black.isHidden('#rematch-offer'), true, 'no "your opponent offers" for your own offer');
  assert.equal(await black.isHidden('#rematch'), true, 'nothing to accept');
  const white = await seatPage(game.id, game.white, LAPTOP);
  await white.waitForSelector('#rematch-offer:not([hidden])');
  for (const page of [black, white]) {
    assertNoErrors(assert, page, 'a page');
    await page.context().close();
  }
});

// Equal to within a pixel (layout may round a fraction differently).
function assertNear(actual, expected, message) {
  assert.ok(Math.abs(actual - expected) < 1, `${message}: ${actual} px, was ${expected} px`);
}

test('a steady page on a phone: nothing above the board changes height, Pass stays put, one signal for an illegal try', async () => {
  const { url } = env.server;
  for (const lang of LANGUAGES) {
    const game = await onlineGame(url);
    const page = await seatPage(game.id, game.black, { ...PHONE, locale: LOCALES[lang] });
    const nav = await box(page, '.site-nav');
    assert.ok(nav.height < 40, `${lang}: the site menu takes one line (${nav.height} px)`);
    const navFits = await page.$eval('.site-nav', (node) => node.scrollWidth <= node.clientWidth);
    assert.ok(navFits, `${lang}: every link of the menu is on the screen`);
    const boardTop = (await box(page, '#board')).top;
    const passTop = (await box(page, '#pass')).top;
    const boardBottom = (await box(page, '#board')).bottom;
    assert.ok(passTop - boardBottom < 24, `${lang}: Pass sits right under the board, not ${passTop - boardBottom} px below it`);
    await clickVertex(page, 'E5');
    await page.waitForSelector('#confirm-move-bar:not([hidden])');
    assertNear((await box(page, '#pass')).top, passTop, `${lang}: the confirmation bar does not push Pass down`);
    await page.click('#confirm-move');
    await waitForSeq(page, 1);
    assertNear((await box(page, '#board')).top, boardTop, `${lang}: the board stays put on the opponent's turn`);
    await act(url, game.id, game.white, { action: 'attempt', vertex: 'G7' });
    await waitForSeq(page, 2);
    assertNear((await box(page, '#board')).top, boardTop, `${lang}: the board stays put on your turn`);
    await clickVertex(page, 'G7');
    await page.click('#confirm-move');
    await waitForSeq(page, 3);
    await page.waitForSelector('#news .news-item[data-kind="bad"]');
    const news = await page.$eval('#news', (node) => ({ text: node.textContent, cut: node.scrollHeight > node.clientHeight + 1 }));
    assert.equal(news.cut, false, `${lang}: the news of the illegal try is cut: "${news.text}"`);
    assert.equal(await page.isHidden('#notice'), true, `${lang}: no notice over the header for an illegal try`);
    assert.equal(await page.locator('#board .tried[data-vertex="G7"]').count(), 1, `${lang}: the mark on the point`);
    assertNear((await box(page, '#board')).top, boardTop, `${lang}: the board stays put after the illegal try`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/illegal-phone-${lang}.png` });
    assertNoErrors(assert, page, lang);
    await page.context().close();
  }
});

test('the board is reached in two keys and told anew after Enter; a free seat is said to be free', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  const page = await seatPage(game.id, game.black, LAPTOP);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'skip-board', 'the second Tab reaches the skip link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'board');
  await page.keyboard.press('Enter');
  await waitForSeq(page, 1);
  await page.waitForFunction(() => document.getElementById('cursor-status').textContent === 'E5: black stone');
  assertNoErrors(assert, page, 'keyboard');
  await page.context().close();
  // A public game waiting for its second player, in the lobby and My games.
  const made = await api(url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black', public: true, name: 'Carol' } });
  assert.equal(made.status, 201, made.text);
  const carol = await seatPage(made.json.game.id, made.json.seats[0].token, LAPTOP);
  await carol.goto(`${url}/my-games`);
  await carol.waitForSelector(`text=Carol vs White: seat free`);
  await carol.goto(`${url}/lobby`);
  await carol.waitForSelector(`.lobby-names:has-text("Carol vs White: seat free")`);
  assertNoErrors(assert, carol, 'lists');
  await carol.context().close();
});

test('on a phone the share panel shows "Go to the game" first and offers the share sheet', async () => {
  for (const lang of LANGUAGES) {
    const page = await openPage(env.browser, { ...PHONE, locale: LOCALES[lang] });
    // Headless Chromium has no share sheet: a stand-in records the call.
    await page.addInitScript(() => {
      window.sharedData = [];
      navigator.share = async (data) => { window.sharedData.push(data); };
    });
    await page.goto(`${env.server.url}/`);
    await waitForGame(page);
    await page.click('.way[data-mode="online"]');
    await page.waitForSelector('#share:not([hidden])');
    await page.evaluate(() => scrollTo(0, 0));
    for (const selector of ['#play-link', '#share-native']) {
      const { bottom } = await box(page, selector);
      assert.ok(bottom <= 844, `${lang}: ${selector} ends at ${Math.round(bottom)} px, on the first screen`);
    }
    await page.click('#share-native');
    const shared = await page.evaluate(() => window.sharedData);
    assert.equal(shared.length, 1);
    assert.equal(shared[0].url, await page.inputValue('#invite-link'), `${lang}: the invite link is shared`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/share-phone-${lang}.png` });
    assertNoErrors(assert, page, lang);
    await page.context().close();
  }
});

test('the rules page shows the game in pictures, each described, on both screens', async () => {
  for (const [device, options] of [['laptop', LAPTOP], ['phone', PHONE]]) {
    for (const lang of LANGUAGES) {
      const page = await openPage(env.browser, { ...options, locale: LOCALES[lang] });
      await page.goto(`${env.server.url}/rules`);
      await waitForGame(page);
      const figures = await page.$$eval('.rules-diagram', (nodes) => nodes.map((node) => {
        const svg = node.querySelector('svg[role="img"]');
        const rect = svg?.getBoundingClientRect();
        const caption = svg && document.getElementById(svg.getAttribute('aria-labelledby'));
        return { width: rect?.width ?? 0, right: rect?.right ?? 0, caption: caption?.textContent ?? '' };
      }));
      assert.equal(figures.length, 4, `${device} ${lang}: four diagrams`);
      const { width } = page.viewportSize();
      for (const figure of figures) {
        assert.ok(figure.width >= 120 && figure.right <= width, `${device} ${lang}: a diagram ${figure.width} px wide fits the screen`);
        assert.ok(figure.caption.length > 20, `${device} ${lang}: each diagram is described`);
      }
      if (SHOTS) {
        await page.locator('#pictures').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/rules-pictures-${device}-${lang}.png` });
      }
      assertNoErrors(assert, page, `${device} ${lang}`);
      await page.context().close();
    }
  }
});
