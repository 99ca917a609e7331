// A rematch offer, as two players live it after a game: Black offers and
// waits on the new game's page; White's page shows the offer at once (over
// the WebSocket) and loses it at once when Black withdraws it; a second
// offer is declined, which Black's page shows at once too. Then the same
// states in every language at both sizes, for the screenshots and the
// layout checks (no page wider than the viewport).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, screenshotDir, waitForGame, api, act, onlineGame,
  assertNoErrors, LANGUAGES, loadDictionaries,
} from './lib.mjs';

const env = serverAndBrowser();
after(() => console.log(`screenshots: ${screenshotDir}`));

const LIVE_MS = 3000; // well under the pages' 4 s poll: only the live feed is that fast
const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

async function finishedGame() {
  const game = await onlineGame(env.server.url, { settings: { size: 9 } });
  await act(env.server.url, game.id, game.black, { action: 'resign' });
  return game;
}

async function seatPage(id, token, { lang = 'en', size = 'desktop' } = {}) {
  const page = await openPage(env.browser, { locale: LOCALES[lang], viewport: SIZES[size] });
  await page.goto(`${env.server.url}/g/${id}#seat=${token}`);
  await waitForGame(page);
  return page;
}

const bannerShown = (page) => page.waitForSelector('#rematch-offer:not([hidden])', { timeout: LIVE_MS });
const bannerGone = (page) => page.waitForSelector('#rematch-offer[hidden]', { state: 'attached', timeout: LIVE_MS });

test('a rematch offer is withdrawn and declined live on both pages', async () => {
  const { id, black, white } = await finishedGame();
  const offerer = await seatPage(id, black);
  const opponent = await seatPage(id, white);

  await offerer.click('#rematch');
  await offerer.waitForURL((url) => !url.pathname.endsWith(id));
  await waitForGame(offerer);
  assert.match(await offerer.textContent('#waiting'), /Rematch offered: waiting for your opponent/);
  await screenshot(offerer, 'rematch-offered-offerer');
  assert.equal((await offerer.textContent('#cancel-game')).trim(), 'Withdraw the offer');
  // On a phone too, the way out of the offer is on the first screen.
  await offerer.setViewportSize(SIZES.phone);
  await assertOnFirstScreen(offerer, '#cancel-game', 'the offerer on a phone');
  await screenshot(offerer, 'rematch-offered-offerer-phone');
  await offerer.setViewportSize(SIZES.desktop);
  await bannerShown(opponent);
  assert.match(await opponent.textContent('#rematch-offer'), /Your opponent offers a rematch/);

  // Withdrawn: the offerer's page says so, the opponent's banner goes away.
  await offerer.click('#cancel-game');
  await offerer.click('#confirm-ok');
  await offerer.waitForSelector('#cancelled-page h1');
  assert.equal(await offerer.textContent('#cancelled-page h1'), 'Rematch offer withdrawn');
  await screenshot(offerer, 'rematch-withdrawn-offerer');
  await bannerGone(opponent);
  assert.equal(await opponent.textContent('#rematch-status'), 'Your opponent withdrew the rematch offer.');
  assert.ok(await opponent.isVisible('#rematch'), 'the opponent may offer a rematch now');

  // Offered again from the finished game, then declined.
  await offerer.click('#cancelled-back');
  await waitForGame(offerer);
  await offerer.click('#rematch');
  await offerer.waitForURL((url) => !url.pathname.endsWith(id));
  await waitForGame(offerer);
  await bannerShown(opponent);
  assert.equal(await opponent.textContent('#rematch-status'), '');
  await opponent.click('#rematch-decline');
  await bannerGone(opponent);
  await opponent.waitForFunction(() => document.getElementById('rematch-status').textContent === 'You declined the rematch.');
  await offerer.waitForSelector('#cancelled-page h1', { timeout: LIVE_MS });
  assert.equal(await offerer.textContent('#cancelled-page h1'), 'Your opponent declined the rematch');
  await screenshot(offerer, 'rematch-declined-offerer');
  await screenshot(opponent, 'rematch-declined-opponent');
  const stored = await api(env.server.url, 'GET', `/api/v1/games/${id}`, { token: white });
  assert.equal(stored.json.rematch.cancelled, true);

  assertNoErrors(assert, offerer, 'offerer');
  assertNoErrors(assert, opponent, 'opponent');
  await offerer.context().close();
  await opponent.context().close();
});

test('the rematch states fit the screen in every language, for the screenshots', async () => {
  const dict = await loadDictionaries();
  // One finished game: each withdrawn offer leaves room for the next.
  const { id, black, white } = await finishedGame();
  const rematch = (action) => api(env.server.url, 'POST', `/api/v1/games/${id}/rematch`, { token: black, body: { action } });
  for (const lang of LANGUAGES) {
    const opponent = await seatPage(id, white, { lang });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await opponent.setViewportSize(viewport);
      assert.equal((await rematch('offer')).status, 201);
      await bannerShown(opponent);
      assert.equal(await opponent.textContent('#rematch-offer-text'), dict[lang].rematch.offered);
      await checkFits(opponent, `${lang} ${size} offered`);
      await assertOnFirstScreen(opponent, '#rematch-accept', `${lang} ${size} offered`);
      await screenshot(opponent, `rematch-offered-${lang}-${size}`);
      assert.equal((await rematch('withdraw')).status, 200);
      await bannerGone(opponent);
      assert.equal(await opponent.textContent('#rematch-status'), dict[lang].rematch.withdrawnByOpponent);
      await checkFits(opponent, `${lang} ${size} withdrawn`);
      await screenshot(opponent, `rematch-withdrawn-${lang}-${size}`);
    }
    assertNoErrors(assert, opponent, lang);
    await opponent.context().close();
  }
});

// The element is inside the viewport of a page not scrolled.
async function assertOnFirstScreen(page, selector, label) {
  const box = await page.evaluate((sel) => {
    scrollTo(0, 0);
    const r = document.querySelector(sel).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight, shown: r.height > 0 };
  }, selector);
  assert.ok(box.shown && box.top >= 0 && box.bottom <= box.height,
            `${label}: ${selector} is not on the first screen (${box.top}..${box.bottom} of ${box.height})`);
}

// No sideways scrolling.
async function checkFits(page, label) {
  const { scrollWidth, width } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: innerWidth }));
  assert.equal(scrollWidth, width, `${label}: page wider than the viewport`);
}
