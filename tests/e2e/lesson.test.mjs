// The interactive lesson (/lesson, issue 23): the home and rules pages lead
// to it; a newcomer walks through every step with the mouse and the
// keyboard on a 1366x768 laptop and a 390x844 phone, each answer coming
// from the server's referee and shown right by the board; one step is
// played in Russian and Korean on both; the finale starts a real game
// against the easy computer. Every answer the page receives is checked to
// name no point that Black may not know until the end reveals the board,
// and the page's own files hold no position at all. A viewport screenshot
// of each step is left in tests/artifacts/screenshots/lesson-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, openPage, waitForGame, screenshotDir, loadDictionaries, assertNoErrors } from './lib.mjs';
import { mkdir } from 'node:fs/promises';

const VIEWPORTS = {
  laptop: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
};
const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const VERTEX = /^[A-E][1-5]$/;

let dictionaries;
const env = serverAndBrowser({ setup: async () => { dictionaries = await loadDictionaries(); } });

function words(lang, key, params = {}) {
  let node = dictionaries[lang];
  for (const part of key.split('.')) node = node[part];
  return String(node).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Every point an answer names while the game is on must be one Black may
// know: Black's stones and tries, and announced captures. White's stones
// are listed only once the game is over.
function assertAnswerHidesWhite(json, label) {
  if (json.view.over) return;
  assert.deepEqual(json.view.stones.white, [], `${label}: White's stones sent`);
  const allowed = new Set(json.view.stones.black);
  for (const event of json.view.events) {
    if (event.color === 'black' && event.vertex) allowed.add(event.vertex);
    for (const point of event.captured ?? []) allowed.add(point);
    if (event.color === 'white') assert.equal(event.vertex, undefined, `${label}: White's ${event.type} located`);
  }
  const named = [];
  const walk = (value) => {
    if (typeof value === 'string' && VERTEX.test(value)) named.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(json);
  for (const point of named) assert.ok(allowed.has(point), `${label}: the answer names ${point}, which Black may not know`);
}

// Records every response the page receives; check() awaits their bodies
// and applies the rules above (API answers) and "no position at all" (the
// lesson's own page, script and style).
function recordResponses(page) {
  const bodies = [];
  page.on('response', (response) => {
    bodies.push(response.body().then((body) => ({ url: response.url(), text: body.toString('utf8') }), () => null));
  });
  return {
    async check(label) {
      const seen = (await Promise.all(bodies)).filter(Boolean);
      let answers = 0;
      for (const { url, text } of seen) {
        const { pathname } = new URL(url);
        if (pathname.startsWith('/api/v1/lesson/')) {
          answers++;
          assertAnswerHidesWhite(JSON.parse(text), `${label} ${pathname}`);
        } else if (/\/lesson(\.html|\.js|\.css)?$/.test(pathname)) {
          assert.doesNotMatch(text, /["'`][A-E][1-5]["'`]/, `${label}: ${pathname} holds a point`);
        }
      }
      return answers;
    },
  };
}

async function lessonPage(device, lang = 'en', hash = '') {
  const page = await openPage(env.browser, { ...VIEWPORTS[device], locale: LOCALES[lang] });
  const responses = recordResponses(page);
  await page.goto(`${env.server.url}/lesson${hash}`);
  await waitForGame(page);
  if (hash !== '#ready') await page.waitForSelector('#board.interactive');
  return { page, responses };
}

function assertStarts(text, start) {
  assert.ok(text.startsWith(start), `"${text}" should start with "${start}"`);
}

function assertIncludes(text, part) {
  assert.ok(text.includes(part), `"${text}" should include "${part}"`);
}

// The referee's words by the board (and what the step taught, once done).
async function answerText(page) {
  return page.evaluate(() => [...document.querySelectorAll('#lesson-answer-box p:not([hidden])')]
    .map((p) => p.textContent).join(' ').replace(/\s+/g, ' ').trim());
}

// Waits for the referee's answer to an action: new words by the board, and
// the board taking tries again (or the game over).
async function waitForAnswer(page, before) {
  await page.waitForFunction((old) => {
    const now = [...document.querySelectorAll('#lesson-answer-box p:not([hidden])')]
      .map((p) => p.textContent).join(' ').replace(/\s+/g, ' ').trim();
    return now !== old && (document.querySelector('#board').classList.contains('interactive')
      || document.querySelector('#pass').disabled);
  }, before);
}

async function clickPoint(page, vertex) {
  const before = await answerText(page);
  await page.click(`#board .hit:not(.wrap)[data-vertex="${vertex}"]`);
  await waitForAnswer(page, before);
}

async function press(page, key) {
  const before = await answerText(page);
  await page.keyboard.press(key);
  await waitForAnswer(page, before);
}

// The layout a newcomer needs: nothing wider than the screen; the board,
// the step's title and the referee's answer on the first screen (on a
// phone, the answer's first line at least, just under the board); no
// button's or line's text cut.
async function assertLayout(page, label) {
  const facts = await page.evaluate(() => {
    const box = (selector) => {
      const r = document.querySelector(selector).getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right };
    };
    const cut = [...document.querySelectorAll('#main button, #main p, #main h2, #main li')]
      .filter((element) => element.getClientRects().length > 0 && !element.closest('.visually-hidden'))
      .filter((element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1)
      .map((element) => `${element.tagName}#${element.id} "${element.textContent.trim().slice(0, 40)}"`);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      board: box('#board'), title: box('#step-title'), answer: box('#lesson-answer'), cut,
    };
  });
  const { width, height } = page.viewportSize();
  assert.ok(facts.scrollWidth <= width, `${label}: the page is ${facts.scrollWidth} px wide`);
  assert.ok(facts.board.bottom <= height && facts.board.right <= width, `${label}: the board ends at ${JSON.stringify(facts.board)}`);
  assert.ok(facts.title.top >= 0 && facts.title.bottom <= height, `${label}: the step's title is off the first screen`);
  const answerLimit = width < 600 ? facts.answer.top + 24 : facts.answer.bottom;
  assert.ok(answerLimit <= height, `${label}: the referee's answer is off the first screen (${JSON.stringify(facts.answer)})`);
  assert.deepEqual(facts.cut, [], `${label}: text cut`);
}

async function shoot(page, name) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `lesson-${name}.png`) });
}

async function assertStep(page, index, step) {
  assert.equal(await page.textContent('#step-title'), words('en', `lesson.steps.${step}.title`));
  assert.equal(await page.getAttribute(`#lesson-progress li:nth-child(${index + 1}) button`, 'aria-current'), 'step');
  assert.equal(new URL(page.url()).hash, `#${step}`);
}

async function whiteStonesDrawn(page) {
  return page.locator('#board .stone.white').count();
}

async function next(page) {
  await page.click('#next');
  await page.waitForSelector('#board.interactive');
}

test('the home page and the rules page lead to the lesson', async () => {
  const page = await openPage(env.browser, VIEWPORTS.laptop);
  await page.goto(`${env.server.url}/rules`);
  await waitForGame(page);
  assert.ok(await page.locator('main a[href="/lesson"]').first().isVisible());
  await page.goto(`${env.server.url}/`);
  await waitForGame(page);
  const link = page.locator('main a[href="/lesson"]');
  assert.equal(await link.textContent(), words('en', 'home.lesson'));
  await link.click();
  await waitForGame(page);
  assert.equal(new URL(page.url()).pathname, '/lesson');
  await page.waitForFunction(() => document.querySelector('#step-title').textContent.length > 0);
  assert.equal(await page.textContent('h1'), words('en', 'lesson.heading'));
  assertNoErrors(assert, page, 'links');
  await page.context().close();
});

for (const device of ['laptop', 'phone']) {
  test(`every step in English on a ${device}, and nothing hidden reaches the page`, async () => {
    const { page, responses } = await lessonPage(device);

    // 1: only your stones. A click plays; White answers unseen.
    await assertStep(page, 0, 'see');
    assert.equal(await answerText(page), words('en', 'lesson.say.waiting'));
    await assertLayout(page, `${device} see`);
    await clickPoint(page, 'A1');
    assertStarts(await answerText(page), `${words('en', 'lesson.say.youPlayed', { vertex: 'A1' })} ${words('en', 'lesson.say.whitePlayed')}`);
    assertIncludes(await answerText(page), words('en', 'lesson.steps.see.done'));
    assert.equal(await page.locator('#board .stone.black').count(), 1);
    assert.equal(await whiteStonesDrawn(page), 0);
    assert.equal(await page.getAttribute('#lesson-progress li:nth-child(1) button', 'data-done'), 'true');
    await assertLayout(page, `${device} see answered`);
    await shoot(page, `1-see-${device}`);

    // 2: a try on an unseen stone is illegal, and the turn stays.
    await next(page);
    await assertStep(page, 1, 'illegal');
    for (const point of ['A2', 'A4']) await clickPoint(page, point);
    assert.equal(await page.locator('#board .tried').count(), 0);
    await clickPoint(page, 'B2');
    assertStarts(await answerText(page), words('en', 'lesson.say.illegal', { vertex: 'B2' }));
    assert.equal(await page.locator('#board .tried[data-vertex="B2"]').count(), 1, 'the try is marked');
    assert.equal(await whiteStonesDrawn(page), 0);
    await assertLayout(page, `${device} illegal`);
    await shoot(page, `2-illegal-${device}`);

    // 3: each point once per turn, with the keyboard: Enter tries the
    // point under the cursor (the centre, C3), twice.
    await next(page);
    await assertStep(page, 2, 'once');
    await page.focus('#board');
    assert.equal(await page.textContent('#cursor-status'), `C3: ${words('en', 'point.empty')}`);
    await press(page, 'Enter');
    assertStarts(await answerText(page), words('en', 'lesson.say.illegal', { vertex: 'C3' }));
    await press(page, 'Enter');
    assertStarts(await answerText(page), words('en', 'lesson.refused.already_tried', { vertex: 'C3' }));
    assertIncludes(await answerText(page), words('en', 'lesson.steps.once.done'));
    assert.equal(await page.textContent('#cursor-status'), `C3: ${words('en', 'point.tried')}`);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.textContent('#cursor-status'), `B3: ${words('en', 'point.empty')}`);
    await assertLayout(page, `${device} once`);
    await shoot(page, `3-once-${device}`);

    // 4: captures are announced with their points; the capturing stone
    // of White stays unseen.
    await next(page);
    await assertStep(page, 3, 'capture');
    await clickPoint(page, 'C4');
    const captured = await answerText(page);
    assertStarts(captured, words('en', 'lesson.say.youCaptured', { vertex: 'C4', points: 'C3' }));
    assertIncludes(captured, words('en', 'lesson.say.whiteCaptured', { points: 'A5' }));
    assert.equal(await page.locator('#board .taken-mark[data-vertex="C3"]').count(), 1, 'own capture: a green square');
    assert.equal(await page.locator('#board .captured-mark[data-vertex="A5"]').count(), 1, 'own loss: a red ring');
    assert.equal(await whiteStonesDrawn(page), 0);
    await assertLayout(page, `${device} capture`);
    await shoot(page, `4-capture-${device}`);

    // 5: passes end the game and the board is revealed (P passes).
    await next(page);
    await assertStep(page, 4, 'end');
    assert.equal(await whiteStonesDrawn(page), 0);
    await page.focus('#board');
    await press(page, 'p');
    const end = await answerText(page);
    assertIncludes(end, words('en', 'lesson.say.over.black', { black: 16, white: 15.5 }));
    assert.equal(await whiteStonesDrawn(page), 6, 'the reveal shows White');
    assert.equal(await page.locator('#board .unseen-mark').count(), 6, 'and marks what was never seen');
    assert.ok(await page.isDisabled('#pass'));
    await assertLayout(page, `${device} end`);
    await shoot(page, `5-end-${device}`);

    // The finale offers a real game.
    await page.click('#next');
    await page.waitForSelector('#finale:not([hidden])');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'finale-title');
    assert.equal(new URL(page.url()).hash, '#ready');
    const play = await page.locator('#play-computer').boundingBox();
    assert.ok(play.y + play.height <= page.viewportSize().height, `${device}: the offer of a game is on the first screen`);
    await shoot(page, `6-ready-${device}`);

    const answers = await responses.check(device);
    assert.equal(answers, 13, `${device}: every answer of the referee (5 starts, 8 actions) checked`);
    assertNoErrors(assert, page, device);
    await page.context().close();
  });
}

test('the finale starts a game against the easy computer', async () => {
  const { page } = await lessonPage('laptop', 'en', '#ready');
  await page.waitForSelector('#finale:not([hidden])');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\/[a-z0-9]+/);
  await waitForGame(page);
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = await (await fetch(`${env.server.url}/api/v1/games/${id}`)).json();
  assert.deepEqual([view.game.mode, view.game.level, view.game.settings.size], ['computer', 'easy', 9]);
  assertNoErrors(assert, page, 'finale');
  await page.context().close();
});

for (const lang of ['ru', 'ko']) {
  test(`a step in ${lang} on a laptop and a phone`, async () => {
    for (const device of ['laptop', 'phone']) {
      const { page, responses } = await lessonPage(device, lang, '#capture');
      assert.equal(await page.textContent('#step-title'), words(lang, 'lesson.steps.capture.title'));
      assert.equal(await page.textContent('#step-count').then((text) => text.length > 0), true);
      await clickPoint(page, 'C4');
      const said = await answerText(page);
      assertStarts(said, words(lang, 'lesson.say.youCaptured', { vertex: 'C4', points: 'C3' }));
      assertIncludes(said, words(lang, 'lesson.steps.capture.done'));
      await assertLayout(page, `${lang} ${device} capture`);
      await shoot(page, `4-capture-${device}-${lang}`);
      await responses.check(`${lang} ${device}`);
      assertNoErrors(assert, page, `${lang} ${device}`);
      await page.context().close();
    }
  });
}
