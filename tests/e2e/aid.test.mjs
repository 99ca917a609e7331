// The deduction aid in the browser: the home form's field (it follows the
// mode until the player sets it, and reaches the server); the heat map of a
// computer game's human seat, drawn once the server answered, toggled by
// its button and by H (in Russian and Korean, at 1366x768 and 390x844,
// with screenshots); the table panel saying it is on; a spectator shown
// nothing of it; and after the end the replay showing what the computer
// believed at its moves. Hot-seat privacy with the aid on is checked by
// hotseat-privacy.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openPage, api, act, waitForGame, waitForSeq, clickVertex, screenshot, assertNoErrors } from './lib.mjs';

const env = serverAndBrowser();

const heatCount = (page) => page.locator('#board .layer-heat .heat:not(.wrap)').count();

// Waits until the page shows the seat's current map: its line names the
// likeliest points, and exactly the points of 10 % or more are tinted
// (the server's own answer, read by the test, says which).
async function aidShown(page, g, lang) {
  await page.waitForFunction(() => /\d/.test(document.getElementById('aid-hint').textContent));
  const view = await api(env.server.url, 'GET', `/api/v1/games/${g.id}`, { token: g.token });
  const aid = await api(env.server.url, 'GET', `/api/v1/games/${g.id}/aid`, { token: g.token });
  assert.equal(aid.json.seq, view.json.seq, `${lang}: the map of the position shown`);
  const worth = Object.entries(aid.json.points).filter(([, percent]) => percent >= 10).map(([vertex]) => vertex).sort();
  await page.waitForFunction((count) => document.querySelectorAll('#board .layer-heat .heat:not(.wrap)').length === count, worth.length);
  const tinted = await page.$$eval('#board .layer-heat .heat:not(.wrap)', (nodes) => nodes.map((node) => node.dataset.vertex).sort());
  assert.deepEqual(tinted, worth, `${lang}: only the points worth attention are tinted`);
}

// Black's view once it has more than `seq` events and Black (the human
// seat) is to move again, or the last view read after 10 s.
async function blacksTurnAfter(page, g, seq) {
  let view;
  for (let i = 0; i < 200; i++) {
    view = await api(env.server.url, 'GET', `/api/v1/games/${g.id}`, { token: g.token });
    if (view.json.seq > seq && view.json.to_move === 'black') break;
    await page.waitForTimeout(50);
  }
  return view;
}

// Plays the first of these points that is legal (the computer's unseen
// stone may stand on one: the referee then says "illegal" and the turn
// stays) and waits until the computer has answered and the page shows it.
async function playAndAwaitComputer(page, g, vertices) {
  let view = await api(env.server.url, 'GET', `/api/v1/games/${g.id}`, { token: g.token });
  for (const vertex of vertices) {
    const before = view.json.seq;
    await clickVertex(page, vertex);
    view = await blacksTurnAfter(page, g, before);
    assert.equal(view.json.to_move, 'black', 'the computer answered within 10 s');
    const ours = view.json.events.filter((event) => event.seq > before && event.color === 'black');
    await waitForSeq(page, view.json.seq); // the page acts on the position it shows
    if (ours.some((event) => event.type === 'move')) return vertex;
  }
  assert.fail(`none of ${vertices.join(' ')} was legal`);
}

async function computerGame(body = {}) {
  const created = await api(env.server.url, 'POST', '/api/v1/games',
    { body: { mode: 'computer', color: 'black', level: 'easy', ...body } });
  assert.equal(created.status, 201, created.text);
  return { id: created.json.game.id, token: created.json.seats[0].token, play: created.json.links.play };
}

test('the home form: the aid follows the mode until set, and is sent with the game', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}/`);
  await waitForGame(page);
  await page.click('#custom summary');
  const aid = page.locator('#deduction-aid');
  assert.equal(await aid.isChecked(), false, 'off for an online game');
  await page.check('input[name="mode"][value="computer"]');
  assert.equal(await aid.isChecked(), true, 'on against the computer');
  await page.check('input[name="mode"][value="hotseat"]');
  assert.equal(await aid.isChecked(), false, 'off for hot-seat');
  await aid.focus();
  await page.keyboard.press('Space');
  await page.check('input[name="mode"][value="online"]');
  assert.equal(await aid.isChecked(), true, 'once set, a mode change keeps it');
  await page.check('input[name="mode"][value="hotseat"]');
  await page.click('#create-button');
  await page.waitForURL(/\/g\//);
  await waitForGame(page);
  const id = new URL(page.url()).pathname.split('/')[2];
  const view = await api(env.server.url, 'GET', `/api/v1/games/${id}`);
  assert.equal(view.json.game.deduction_aid, true);
  assertNoErrors(assert, page, 'home');
  await page.context().close();
});

test('a computer game: the heat map, its toggle and the table panel, in Russian and Korean', async () => {
  for (const [lang, locale, viewport] of [['ru', 'ru-RU', { width: 1366, height: 768 }], ['ko', 'ko-KR', { width: 390, height: 844 }]]) {
    const g = await computerGame();
    const page = await openPage(env.browser, { locale, viewport });
    await page.goto(g.play);
    await waitForGame(page);
    await playAndAwaitComputer(page, g, ['E5']);
    await aidShown(page, g, lang);
    assert.equal(await page.getAttribute('#aid-toggle', 'aria-pressed'), 'true');
    const hint = await page.textContent('#aid-hint');
    assert.match(hint, lang === 'ru' ? /Вероятнее всего камни соперника/ : /상대 돌이 있을 가능성이 높은 곳/);
    assert.equal(await page.locator('#board .layer-heat .heat[data-vertex="E5"]').count(), 0, 'never on our own stone');
    await page.click('#table-info >> xpath=ancestor::details/summary');
    const table = await page.textContent('#table-info');
    assert.match(table, lang === 'ru' ? /Подсказка-карта\s*включена/ : /추론 도우미\s*켜짐/);
    await screenshot(page, `aid-live-${lang}-${viewport.width}x${viewport.height}`);
    await page.click('#aid-toggle');
    assert.equal(await heatCount(page), 0, 'hidden by the button');
    assert.equal(await page.getAttribute('#aid-toggle', 'aria-pressed'), 'false');
    await page.locator('#main').focus();
    await page.keyboard.press('h');
    assert.equal(await page.getAttribute('#aid-toggle', 'aria-pressed'), 'true', 'H shows it again');
    await aidShown(page, g, lang);
    // The next position gets its own map.
    await playAndAwaitComputer(page, g, ['C3', 'G7', 'C7', 'G3']);
    await aidShown(page, g, lang);
    assertNoErrors(assert, page, `${lang} player`);
    await page.context().close();
  }
});

test('a spectator sees the setting but no aid; after the end the replay shows the computer\'s belief', async () => {
  const g = await computerGame({ deduction_aid: false });
  await act(env.server.url, g.id, g.token, { action: 'attempt', vertex: 'E5' });
  const spectator = await openPage(env.browser);
  await spectator.goto(`${env.server.url}/g/${g.id}`);
  await waitForGame(spectator);
  assert.equal(await spectator.isHidden('#aid-bar'), true);
  assert.equal(await heatCount(spectator), 0);
  // The seat of a table with the aid off is offered none either.
  const player = await openPage(env.browser, { viewport: { width: 1366, height: 768 } });
  await player.goto(g.play);
  await waitForGame(player);
  assert.equal(await player.isHidden('#aid-bar'), true);
  await blacksTurnAfter(player, g, 0);
  await act(env.server.url, g.id, g.token, { action: 'resign' });
  await spectator.waitForSelector('#replay-panel:not([hidden])');
  await spectator.waitForSelector('#aid-bar:not([hidden])');
  assert.match(await spectator.textContent('#aid-toggle'), /What the computer believed/);
  // The plain final position comes first: the belief waits for the toggle.
  assert.equal(await spectator.getAttribute('#aid-toggle', 'aria-pressed'), 'false');
  assert.equal(await heatCount(spectator), 0);
  await spectator.click('#aid-toggle');
  assert.equal(await spectator.getAttribute('#aid-toggle', 'aria-pressed'), 'true');
  // Frame 2 is the computer's move: the map it chose it from.
  await spectator.locator('#replay-first').click();
  await spectator.locator('#replay-next').click();
  await spectator.locator('#replay-next').click();
  await spectator.waitForFunction(() => /Where the computer thought/.test(document.getElementById('aid-hint').textContent), null, { timeout: 10000 });
  assert.match(await spectator.textContent('#aid-hint'), /Tinted: points of 10% or more/, 'the legend says what the tints mean');
  // Switched off again, the button and its line say so at once.
  await spectator.click('#aid-toggle');
  assert.equal(await spectator.getAttribute('#aid-toggle', 'aria-pressed'), 'false');
  assert.equal(await heatCount(spectator), 0);
  assert.equal(await spectator.textContent('#aid-hint'), '');
  await screenshot(spectator, 'aid-replay-en-1280x900');
  assertNoErrors(assert, spectator, 'spectator');
  await spectator.context().close();
  await player.context().close();
});
