// Every page: becomes ready (content rendered; how fast is measured by
// bench/pages.mjs in `make bench`, against issue 13's one second), logs no
// console error, has text with WCAG AA contrast in the light and the dark
// theme, and fits a phone held upright. Also the computer mode: it is offered
// with a strength choice, the page says while the computer is thinking, and
// the computer's move arrives by itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, readyTime, api, clickVertex, assertNoErrors,
  inEachLanguage, loadDictionaries,
} from './lib.mjs';

let game;
const env = serverAndBrowser({
  setup: async ({ server }) => {
    const body = { mode: 'online', color: 'white', settings: { size: 13, handicap: 3, torus: true } };
    const created = await api(server.url, 'POST', '/api/v1/games', { body });
    assert.equal(created.status, 201, created.text);
    game = created.json;
  },
});

function pages() {
  return [
    ['home', '/'],
    ['rules', '/rules'],
    ['lesson', '/lesson'],
    // The spectator first: opening the play link stores the seat on this
    // browser, after which /g/{id} shows the player.
    ['spectator', `/g/${game.game.id}`],
    ['player', game.links.play.replace(/^https?:\/\/[^/]+/, '')],
    ['lobby', '/lobby'],
    ['my games', '/my-games'],
  ];
}

// Text elements whose contrast with their (first opaque ancestor's)
// background is below AA: 4.5:1, or 3:1 for large text.
function lowContrast() {
  const parse = (value) => {
    const match = /rgba?\(([^)]+)\)/.exec(value);
    if (!match) return null;
    const [r, g, b, a = 1] = match[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const luminance = ({ r, g, b }) => {
    const channel = (c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const background = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color && color.a > 0.5) return color;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const failures = [];
  for (const element of document.querySelectorAll('body *')) {
    if (element.closest('svg, [hidden], .visually-hidden, option') || element.disabled) continue;
    const hasText = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim());
    if (!hasText || element.getClientRects().length === 0) continue;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const fg = parse(style.color);
    const bg = background(element);
    const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) failures.push(`${element.tagName}.${element.className} "${element.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
  }
  return failures;
}

test('each page becomes ready and logs no error', async () => {
  const page = await openPage(env.browser);
  for (const [name, url] of pages()) {
    await page.goto(env.server.url + url);
    await waitForGame(page);
    const ready = await readyTime(page);
    assert.ok(ready > 0, `${name} never marked itself ready`);
    console.log(`${name}: ready after ${ready} ms`);
  }
  assertNoErrors(assert, page, 'pages');
});

test('an unknown address answers 404 with a translated page: a heading and a way to a new game', async () => {
  const dict = await loadDictionaries();
  await inEachLanguage(env.browser, async (page, lang) => {
    // Chromium logs the 404 status itself as a console error: that one is expected.
    const response = await page.goto(`${env.server.url}/no/such/page`);
    page.errors = page.errors.filter((error) => !/status of 404/.test(error));
    assert.equal(response.status(), 404);
    await waitForGame(page);
    console.log(`not found (${lang}): ready after ${await readyTime(page)} ms`);
    assert.equal(await page.textContent('h1'), dict[lang].notFound.heading);
    assert.equal(await page.title(), dict[lang].notFound.title);
    await page.click('#not-found-new');
    await page.waitForURL(`${env.server.url}/`);
  });
});

test('text contrast passes WCAG AA in the light and the dark theme', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openPage(env.browser, { colorScheme: scheme });
    for (const [name, url] of pages()) {
      await page.goto(env.server.url + url);
      await waitForGame(page);
      assert.deepEqual(await page.evaluate(lowContrast), [], `${name} in ${scheme}`);
      if (name === 'player') await screenshot(page, `player-torus-${scheme}`);
    }
    assertNoErrors(assert, page, scheme);
    await page.context().close();
  }
});

test('pages fit a phone held upright', async () => {
  const page = await openPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const [name, url] of pages()) {
    await page.goto(env.server.url + url);
    await waitForGame(page);
    // Against the phone's 390 px, not innerWidth: a mobile browser widens
    // its layout viewport to fit a page that is too wide.
    const overflow = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, innerWidth) - 390);
    assert.ok(overflow <= 0, `${name} is ${overflow}px wider than the phone`);
    await screenshot(page, `phone-${name.replace(/ /g, '-')}`);
  }
  assertNoErrors(assert, page, 'phone');
});

test('against the computer: a strength to choose, "thinking" while it thinks, then its move', async () => {
  const page = await openPage(env.browser);
  // The computer may answer within milliseconds: its news is held back on
  // the way to the page until the thinking state has been looked at.
  let held = null;
  let toPage = null;
  await page.routeWebSocket(/\/ws$/, (pageSide) => {
    toPage = pageSide;
    pageSide.connectToServer().onMessage((message) => (held ? held.push(message) : pageSide.send(message)));
  });
  await page.goto(env.server.url + '/');
  await waitForGame(page);
  assert.equal(await page.isHidden('#level-field'), true, 'strength appears only for the computer');
  await page.click('#custom summary');
  await page.check('input[name="mode"][value="computer"]');
  assert.equal(await page.isVisible('#level-field'), true);
  assert.equal(await page.locator('input[name="level"]').count(), 3);
  await page.check('input[name="level"][value="easy"]');
  await page.check('input[name="color"][value="black"]');
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/v1/games'));
  await page.click('#create-button');
  assert.equal((await answer).status(), 201);
  await page.waitForURL(/\/g\//);
  await waitForGame(page);
  await page.waitForFunction(() => document.getElementById('connection').dataset.status === 'live');
  assert.equal(await page.textContent('#role-title'), 'You play Black');

  held = [];
  await clickVertex(page, 'E5');
  await page.waitForSelector('#turn-banner[data-kind="computer"]');
  assert.equal(await page.textContent('#turn-banner'), 'White: the computer is thinking…');
  assert.equal(await page.isDisabled('#pass'), true, 'no pass while the computer thinks');
  await screenshot(page, 'computer-thinking');
  const news = held;
  held = null;
  for (const message of news) toPage.send(message);
  // It may try unseen points first; its turn ends with a move or a pass.
  await page.waitForSelector('#turn-banner[data-kind="yours"]', { timeout: 30000 });
  assert.match(await page.textContent('#log li:first-child'), /^Move 2: White (played|passed)\.$/);
  assertNoErrors(assert, page, 'computer game');
});
