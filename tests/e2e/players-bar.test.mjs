// The players' bar above the board names each seat: its name, or its
// colour when it has none, in every language; a rename shows at once (over
// the WebSocket); a name is text, never markup; a long name is cut with an
// ellipsis so nothing overflows the bar or the page at 1366x768 or 390x844.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, screenshotDir, waitForGame, api, assertNoErrors, LANGUAGES, loadDictionaries,
} from './lib.mjs';

const env = serverAndBrowser();
after(() => console.log(`screenshots: ${screenshotDir}`));

const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };
// 32 characters, the longest name allowed, in each script.
const LONG = {
  en: 'Bartholomew Montgomery-Fairchild',
  ru: 'Константин Константинопольский',
  ko: '김수한무거북이와두루미삼천갑자동방삭치치카포사리사리센타워리워리',
};
// Shown as these characters, never as an entity or markup.
const MARKUP = 'Tom &amp; Jerry';

async function namedGame(blackName) {
  const created = await api(env.server.url, 'POST', '/api/v1/games',
    { body: { mode: 'online', color: 'black', name: blackName, settings: { size: 19 } } });
  assert.equal(created.status, 201, created.text);
  const id = created.json.game.id;
  const claimed = await api(env.server.url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  assert.equal(claimed.status, 200, claimed.text);
  return { id, black: created.json.seats[0].token, white: claimed.json.token };
}

const barNames = (page) => page.$$eval('#clocks .clock-name', (nodes) => nodes.map((node) => node.textContent));

// Nothing sticks out: each row of the bar holds its content, the bar and
// the page fit the viewport, and the long name is cut (shown narrower than
// its text).
async function checkFits(page, label) {
  const m = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('#clocks .clock')];
    const name = document.querySelector('#clocks .clock[data-color="black"] .clock-name');
    const bar = document.getElementById('clocks').getBoundingClientRect();
    return {
      rowsOverflow: rows.filter((row) => row.scrollWidth > row.clientWidth).length,
      nameCut: name.scrollWidth > name.clientWidth,
      ellipsis: getComputedStyle(name).textOverflow,
      barRight: bar.right, barBottom: bar.bottom,
      pageWidth: document.documentElement.scrollWidth, width: innerWidth, height: innerHeight,
    };
  });
  assert.equal(m.rowsOverflow, 0, `${label}: a row of the bar overflows`);
  assert.ok(m.nameCut && m.ellipsis === 'ellipsis', `${label}: the long name is not cut with an ellipsis`);
  assert.ok(m.barRight <= m.width && m.barBottom <= m.height, `${label}: the bar is outside the viewport`);
  assert.equal(m.pageWidth, m.width, `${label}: the page is wider than the viewport`);
}

test('the players\' bar names both seats, live, as text, cut when long, in every language', async () => {
  const dict = await loadDictionaries();
  for (const lang of LANGUAGES) {
    const game = await namedGame(LONG[lang]);
    const page = await openPage(env.browser, { locale: LOCALES[lang], viewport: SIZES.desktop });
    await page.goto(`${env.server.url}/g/${game.id}#seat=${game.white}`);
    await waitForGame(page);
    assert.deepEqual(await barNames(page), [LONG[lang], dict[lang].color.white], `${lang}: unnamed White is called by its colour`);
    assert.equal(await page.getAttribute('#clocks .clock[data-color="black"] .clock-name', 'title'),
      dict[lang].names.seat.replace('{name}', LONG[lang]).replace('{color}', dict[lang].color.black));
    // White names itself elsewhere (another device): the bar follows at once.
    const renamed = await api(env.server.url, 'PUT', `/api/v1/games/${game.id}/name`, { token: game.white, body: { name: MARKUP } });
    assert.equal(renamed.status, 200, renamed.text);
    await page.waitForFunction((name) => document.querySelector('#clocks .clock[data-color="white"] .clock-name').textContent === name,
      MARKUP, { timeout: 3000 });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await checkFits(page, `${lang} ${size}`);
      await screenshot(page, `game-names-${lang}-${size}`);
    }
    assertNoErrors(assert, page, lang);
    await page.context().close();
  }
});
