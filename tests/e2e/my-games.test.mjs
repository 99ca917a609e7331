// "My games" in a real browser: the games whose seat links this browser
// opened are listed with the player's turn first (least time left on the
// player's clock first, with that time), then those waiting for the
// opponent (to move, or to come at all), then finished ones; a copied seat link opened in a fresh browser
// (no storage at all) plays the seat, and so does a browser whose storage
// refuses every write. Checked in English, Russian and Korean.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, clickVertex, waitForSeq, api, act, onlineGame,
  loadDictionaries, inEachLanguage, assertNoErrors,
} from './lib.mjs';

const SHOTS = process.env.SHOTS_DIR;
let dictionaries;
const env = serverAndBrowser({ setup: async () => { dictionaries = await loadDictionaries(); } });

// An online game with both seats taken; Black is "me".
const gameOfMine = (body = {}) => onlineGame(env.server.url, body);

// Opening a seat link is how a browser learns (and stores) its seat.
async function openSeatLink(page, id, token) {
  await page.goto(`${env.server.url}/g/${id}#seat=${token}`);
  await waitForGame(page);
}

test('my games: my turn first, then waiting, then finished; a copied seat link plays anywhere', async () => {
  const mine = await gameOfMine({ time_control: { type: 'absolute', main: 900 } });
  const waiting = await gameOfMine();
  await act(env.server.url, waiting.id, waiting.black, { action: 'attempt', vertex: 'E5' });
  const finished = await gameOfMine();
  await act(env.server.url, finished.id, finished.white, { action: 'resign' });
  // Black moves first, but nobody has opened the invite yet.
  const created = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black' } });
  const alone = { id: created.json.game.id, black: created.json.seats[0].token };

  const page = await openPage(env.browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  for (const game of [finished, alone, waiting, mine]) await openSeatLink(page, game.id, game.black);
  await page.goto(env.server.url + '/my-games');
  await waitForGame(page);
  const order = await page.$$eval('section:not([hidden]) li[data-game-id]', (items) => items.map((li) => [li.closest('ul').id, li.dataset.gameId]));
  assert.deepEqual(order, [['turn-list', mine.id], ['waiting-list', waiting.id], ['waiting-list', alone.id], ['finished-list', finished.id]]);
  assert.match(await page.textContent(`#turn-list li[data-game-id="${mine.id}"]`), /online · 15 min absolute · You play Black.*Your turn \(Black\) · move 1/);
  assert.match(await page.textContent(`#waiting-list li[data-game-id="${waiting.id}"]`), /White to play · move 2/);
  assert.match(await page.textContent(`#waiting-list li[data-game-id="${alone.id}"]`), /Waiting for an opponent to join/);
  assert.match(await page.textContent(`#finished-list li[data-game-id="${finished.id}"]`), /Black wins: White resigned/);
  await screenshot(page, 'my-games');

  await page.click(`#turn-list li[data-game-id="${mine.id}"] button.copy-seat`);
  await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, `${env.server.url}/g/${mine.id}#seat=${mine.black}`);

  // A fresh browser with nothing stored: the seat link alone is enough.
  const elsewhere = await openPage(env.browser);
  await elsewhere.goto(link);
  await waitForGame(elsewhere);
  assert.equal(await elsewhere.textContent('#role-title'), 'You play Black');
  await clickVertex(elsewhere, 'C3');
  await waitForSeq(elsewhere, 1);
  assert.match(await elsewhere.textContent('#log li[data-seq="1"]'), /Black played C3/);

  // A browser whose storage refuses every write still plays its seat.
  const noStorage = await openPage(env.browser);
  await noStorage.context().addInitScript(() => {
    Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
  });
  await openSeatLink(noStorage, mine.id, mine.white);
  assert.equal(await noStorage.textContent('#role-title'), 'You play White');
  await clickVertex(noStorage, 'G7');
  await waitForSeq(noStorage, 2);
  assert.match(await noStorage.textContent('#log li[data-seq="2"]'), /White played G7/);
  for (const [p, label] of [[page, 'my games'], [elsewhere, 'fresh browser'], [noStorage, 'no storage']]) {
    assertNoErrors(assert, p, label);
    await p.context().close();
  }
});

// A dictionary's text with {name} placeholders as a regular expression,
// each placeholder matching the pattern given for it.
function textPattern(template, patterns) {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return escaped.replace(/\\\{(\w+)\\\}/g, (_, name) => patterns[name]);
}

test('my turn first, least time left on my clock first and shown, ticking; games without a clock last', async () => {
  const quick = await gameOfMine({ time_control: { type: 'absolute', main: 600 } });
  const oneDay = await gameOfMine({ time_control: { type: 'none', days_per_move: 1 } });
  const untimed = await gameOfMine();
  const threeDays = await gameOfMine({ time_control: { type: 'none', days_per_move: 3 } });
  // White to move in a correspondence game: it waits, and shows no time of mine.
  const theirs = await gameOfMine({ time_control: { type: 'none', days_per_move: 2 } });
  await act(env.server.url, theirs.id, theirs.black, { action: 'attempt', vertex: 'E5' });

  const page = await openPage(env.browser);
  // Opened in this order, the list (newest first) would begin with threeDays.
  for (const game of [quick, oneDay, theirs, untimed, threeDays]) await openSeatLink(page, game.id, game.black);
  await page.goto(env.server.url + '/my-games');
  await waitForGame(page);
  const order = await page.$$eval('#turn-list li[data-game-id]', (items) => items.map((li) => li.dataset.gameId));
  assert.deepEqual(order, [quick.id, oneDay.id, threeDays.id, untimed.id], 'least time left first, no clock last');
  const status = (game) => page.textContent(`li[data-game-id="${game.id}"] .game-status`);
  for (const lang of ['en', 'ru', 'ko']) {
    const dict = dictionaries[lang];
    if (lang !== 'en') {
      await page.selectOption('#lang', lang);
      await page.waitForFunction(([id, prefix]) => document.querySelector(`li[data-game-id="${id}"] .game-status`).textContent.startsWith(prefix),
        [quick.id, dict.myGames.yourMove.split('{')[0]]);
    }
    const left = (time) => new RegExp(`${textPattern(dict.myGames.move, { turn: '1' })} · ${textPattern(dict.myGames.timeLeft, { time })}$`);
    assert.match(await status(quick), left('(?:9:[0-5]\\d|10:00)'), `${lang}: 10 minutes absolute`);
    assert.match(await status(oneDay), left('23:[0-5]\\d:[0-5]\\d'), `${lang}: one day per move`);
    assert.match(await status(threeDays), left(textPattern(dict.clock.daysHours, { days: '2', hours: '23' })), `${lang}: three days per move`);
    const anyTime = new RegExp(textPattern(dict.myGames.timeLeft, { time: '.+' }));
    assert.doesNotMatch(await status(untimed), anyTime, `${lang}: no clock, no time`);
    assert.match(await status(untimed), new RegExp(`${textPattern(dict.myGames.move, { turn: '1' })}$`), lang);
    assert.doesNotMatch(await status(theirs), anyTime, `${lang}: not my turn, no time`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/my-games-time-left-${lang}.png`, fullPage: true });
  }
  // The running clock counts down in place.
  const before = await status(quick);
  await page.waitForFunction(([id, text]) => document.querySelector(`li[data-game-id="${id}"] .game-status`).textContent !== text,
    [quick.id, before], { timeout: 5000 });
  assert.notEqual(await status(quick), before);
  assertNoErrors(assert, page, 'my games with clocks');
  await page.context().close();
});

test('my games speaks English, Russian and Korean', async () => {
  const game = await gameOfMine();
  await inEachLanguage(env.browser, async (page, lang) => {
    await page.goto(env.server.url + '/my-games');
    await waitForGame(page);
    const dict = dictionaries[lang];
    assert.equal(await page.textContent('h1'), dict.myGames.heading, lang);
    assert.equal(await page.textContent('#my-games-empty > span'), dict.myGames.empty, lang);
    await openSeatLink(page, game.id, game.black);
    await page.goto(env.server.url + '/my-games');
    await waitForGame(page);
    assert.equal(await page.textContent('#turn-title'), dict.myGames.yourTurn, lang);
    assert.equal(await page.textContent('button.copy-seat'), dict.myGames.copy, lang);
    assert.equal(await page.textContent('nav a[href="/my-games"]'), dict.nav.myGames, lang);
    await screenshot(page, `my-games-${lang}`);
  });
});
