// The screen layout, in all three languages on a 1366x768 laptop and a
// 390x844 phone: no page is wider than the viewport, and on the game page
// the turn banner, the board and the buttons to act (or, after the end, the
// result and the replay controls) are inside the first screen for 9x9,
// 13x13, 19x19 and a torus. It also leaves a screenshot of every page at
// both sizes in every language for a reviewer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openPage, screenshot, waitForGame, api, act, onlineGame, LANGUAGES } from './lib.mjs';

const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const VIEWPORTS = {
  desktop: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
};
const BOARDS = [{ size: 9 }, { size: 13 }, { size: 19 }, { size: 9, torus: true }];

const env = serverAndBrowser();

async function pageIn(device, lang) {
  return openPage(env.browser, { ...VIEWPORTS[device], locale: LOCALES[lang] });
}

// Measured against the screen's width, not innerWidth: a mobile browser
// widens its layout viewport to fit a page that is too wide.
async function assertNotWider(page, label) {
  const screen = page.viewportSize().width;
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  assert.equal(scroll, screen, `${label}: the page is ${scroll} px wide on a ${screen} px screen`);
  assert.equal(inner, screen, `${label}: the layout viewport was widened to ${inner} px`);
}

// Each selector's box lies inside the first screen (the page not scrolled).
async function assertOnFirstScreen(page, selectors, label) {
  const boxes = await page.evaluate((list) => list.map((selector) => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    return box ? [selector, box.top + scrollY, box.bottom + scrollY, box.left, box.right, box.width] : [selector, null];
  }), selectors);
  const { width, height } = page.viewportSize();
  for (const [selector, top, bottom, left, right, boxWidth] of boxes) {
    assert.ok(top !== null && boxWidth > 0, `${label}: ${selector} is shown`);
    assert.ok(top >= 0 && bottom <= height + 0.5, `${label}: ${selector} spans ${Math.round(top)}-${Math.round(bottom)} px, the screen ${height} px`);
    assert.ok(left >= 0 && right <= width + 0.5, `${label}: ${selector} spans ${Math.round(left)}-${Math.round(right)} px across, the screen ${width} px`);
  }
}

test('the board, the turn banner and the buttons to act fit the first screen', async () => {
  const games = [];
  for (const settings of BOARDS) games.push([settings, await onlineGame(env.server.url, { settings })]);
  for (const device of Object.keys(VIEWPORTS)) {
    for (const lang of LANGUAGES) {
      const page = await pageIn(device, lang);
      for (const [settings, game] of games) {
        const label = `${device} ${lang} ${settings.size}x${settings.size}${settings.torus ? ' torus' : ''}`;
        await page.goto(`${env.server.url}/g/${game.id}#seat=${game.black}`);
        await waitForGame(page);
        await assertNotWider(page, label);
        await assertOnFirstScreen(page, ['#turn-banner', '#news', '#board', '#pass', '#resign'], label);
        const coarse = await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches);
        assert.equal(await page.isVisible('#board-help'), !coarse, `${label}: the keyboard help only where there is a keyboard`);
        if (lang === 'en') await screenshot(page, `game-${settings.size}${settings.torus ? '-torus' : ''}-${device}`);
      }
      assert.deepEqual(page.errors, [], `${device} ${lang}: console errors`);
      await page.context().close();
    }
  }
});

test('after the end the result and the replay controls are on the first screen', async () => {
  const { url } = env.server;
  const game = await onlineGame(url);
  await act(url, game.id, game.black, { action: 'attempt', vertex: 'C3' });
  await act(url, game.id, game.white, { action: 'attempt', vertex: 'G7' });
  await act(url, game.id, game.black, { action: 'pass' });
  await act(url, game.id, game.white, { action: 'pass' });
  for (const device of Object.keys(VIEWPORTS)) {
    for (const lang of LANGUAGES) {
      const page = await pageIn(device, lang);
      await page.goto(`${url}/g/${game.id}#seat=${game.black}`);
      await waitForGame(page);
      const label = `${device} ${lang} game over`;
      await assertNotWider(page, label);
      await assertOnFirstScreen(page, ['#turn-banner', '#board', '#replay-previous', '#replay-next'], label);
      if (lang === 'en') await screenshot(page, `game-over-${device}`);
      await page.context().close();
    }
  }
});

test('no page in any language is wider than the screen', async () => {
  const { url } = env.server;
  const playing = await onlineGame(url, { settings: { size: 13 } });
  const open = await api(url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black' } });
  const hotseat = await api(url, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } });
  const visits = [
    ['home', '/'], ['rules', '/rules'], ['lobby', '/lobby'], ['spectator', `/g/${playing.id}`],
    ['player', `/g/${playing.id}#seat=${playing.white}`],
    ['waiting', `/g/${open.json.game.id}#seat=${open.json.seats[0].token}`],
    ['hotseat-curtain', new URL(hotseat.json.links.play).pathname + new URL(hotseat.json.links.play).hash],
    ['my-games', '/my-games'], ['missing-game', '/g/nosuchgame1'], ['not-found', '/no/such/page'],
  ];
  for (const device of Object.keys(VIEWPORTS)) {
    for (const lang of LANGUAGES) {
      const page = await pageIn(device, lang);
      for (const [name, path] of visits) {
        await page.goto(url + path);
        await waitForGame(page);
        await assertNotWider(page, `${name} ${device} ${lang}`);
        if (name === 'home') {
          await page.click('#custom summary');
          await assertNotWider(page, `home with the custom table open, ${device} ${lang}`);
          await screenshot(page, `home-custom-${device}-${lang}`);
          await page.click('#custom summary');
        }
        await screenshot(page, `${name}-${device}-${lang}`);
      }
      assert.deepEqual(page.errors.filter((error) => !/404/.test(error)), [], `${device} ${lang}: console errors`);
      await page.context().close();
    }
  }
});
