// "My games" in a real browser: the games whose seat links this browser
// opened are listed with the player's turn first, then those waiting for the
// opponent, then finished ones; a copied seat link opened in a fresh browser
// (no storage at all) plays the seat, and so does a browser whose storage
// refuses every write. Checked in English, Russian and Korean.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  startServer, launchBrowser, openPage, screenshot, waitForGame, clickVertex, waitForSeq, api, act, repoRoot,
  assertNoErrors,
} from './lib.mjs';

let server;
let browser;
const dictionaries = {};

before(async () => {
  for (const lang of ['en', 'ru', 'ko']) {
    dictionaries[lang] = JSON.parse(await readFile(path.join(repoRoot, `web/i18n/${lang}.json`), 'utf8'));
  }
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// An online game with both seats taken; Black is "me".
async function onlineGame(body = {}) {
  const created = await api(server.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black', ...body } });
  assert.equal(created.status, 201, created.text);
  const id = created.json.game.id;
  const claimed = await api(server.url, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: created.json.invite } });
  return { id, black: created.json.seats[0].token, white: claimed.json.token };
}

// Opening a seat link is how a browser learns (and stores) its seat.
async function openSeatLink(page, id, token) {
  await page.goto(`${server.url}/g/${id}#seat=${token}`);
  await waitForGame(page);
}

test('my games: my turn first, then waiting, then finished; a copied seat link plays anywhere', async () => {
  const mine = await onlineGame({ time_control: { type: 'absolute', main: 900 } });
  const waiting = await onlineGame();
  await act(server.url, waiting.id, waiting.black, { action: 'attempt', vertex: 'E5' });
  const finished = await onlineGame();
  await act(server.url, finished.id, finished.white, { action: 'resign' });

  const page = await openPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  for (const game of [finished, waiting, mine]) await openSeatLink(page, game.id, game.black);
  await page.goto(server.url + '/my-games');
  await waitForGame(page);
  const order = await page.$$eval('section:not([hidden]) li[data-game-id]', (items) => items.map((li) => [li.closest('ul').id, li.dataset.gameId]));
  assert.deepEqual(order, [['turn-list', mine.id], ['waiting-list', waiting.id], ['finished-list', finished.id]]);
  assert.match(await page.textContent(`#turn-list li[data-game-id="${mine.id}"]`), /online · 15 min absolute · You play Black.*Your turn \(Black\) · move 1/);
  assert.match(await page.textContent(`#waiting-list li[data-game-id="${waiting.id}"]`), /White to play · move 2/);
  assert.match(await page.textContent(`#finished-list li[data-game-id="${finished.id}"]`), /Black wins: White resigned/);
  await screenshot(page, 'my-games');

  await page.click(`#turn-list li[data-game-id="${mine.id}"] button.copy-seat`);
  await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, `${server.url}/g/${mine.id}#seat=${mine.black}`);

  // A fresh browser with nothing stored: the seat link alone is enough.
  const elsewhere = await openPage(browser);
  await elsewhere.goto(link);
  await waitForGame(elsewhere);
  assert.equal(await elsewhere.textContent('#role-title'), 'You play Black');
  await clickVertex(elsewhere, 'C3');
  await waitForSeq(elsewhere, 1);
  assert.match(await elsewhere.textContent('#log li[data-seq="1"]'), /Black played C3/);

  // A browser whose storage refuses every write still plays its seat.
  const noStorage = await openPage(browser);
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

test('my games speaks English, Russian and Korean', async () => {
  const game = await onlineGame();
  for (const [lang, locale] of [['en', 'en-US'], ['ru', 'ru-RU'], ['ko', 'ko-KR']]) {
    const page = await openPage(browser, { locale });
    await page.goto(server.url + '/my-games');
    await waitForGame(page);
    const dict = dictionaries[lang];
    assert.equal(await page.textContent('h1'), dict.myGames.heading, lang);
    assert.equal(await page.textContent('#my-games-empty > span'), dict.myGames.empty, lang);
    await openSeatLink(page, game.id, game.black);
    await page.goto(server.url + '/my-games');
    await waitForGame(page);
    assert.equal(await page.textContent('#turn-title'), dict.myGames.yourTurn, lang);
    assert.equal(await page.textContent('button.copy-seat'), dict.myGames.copy, lang);
    assert.equal(await page.textContent('nav a[href="/my-games"]'), dict.nav.myGames, lang);
    await screenshot(page, `my-games-${lang}`);
    assertNoErrors(assert, page, `my games ${lang}`);
    await page.context().close();
  }
});
