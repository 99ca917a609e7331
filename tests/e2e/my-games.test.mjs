// "My games" in a real browser: the games whose seat links this browser
// opened are listed with the player's turn first, then those waiting for the
// opponent (to move, or to come at all), then finished ones; a copied seat link opened in a fresh browser
// (no storage at all) plays the seat, and so does a browser whose storage
// refuses every write. Checked in English, Russian and Korean.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, clickVertex, waitForSeq, api, act, onlineGame,
  loadDictionaries, inEachLanguage, assertNoErrors,
} from './lib.mjs';

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
