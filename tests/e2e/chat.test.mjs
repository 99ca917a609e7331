// Table talk in real Chromium, in English, Russian and Korean: two players
// name themselves on the home page (the browser remembers it), one creates
// an online game and the other opens the invite; a spectator watches on a
// phone. They chat; the spectators' room stays invisible to the players
// (no message, no unread sign) until the game ends, and the players' room
// to the spectator; then both rooms open to everyone. Also: cancelling a
// game nobody joined, and My games forgetting and hiding entries.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, api, act, assertNoErrors, loadDictionaries,
} from './lib.mjs';

const env = serverAndBrowser();
const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const NAMES = {
  en: { black: 'Alice', white: 'Bob', fan: 'Kibitzer' },
  ru: { black: 'Алиса', white: 'Борис', fan: 'Болельщик' },
  ko: { black: '이세돌', white: '조훈현', fan: '관전자님' },
};
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function nameOnHome(page, name) {
  await page.goto(`${env.server.url}/`);
  await waitForGame(page);
  await page.fill('#player-name', name);
}

async function send(page, text) {
  await page.fill('.talk-input', text);
  await page.click('.talk-send');
  await page.waitForFunction((t) => [...document.querySelectorAll('.talk-text')].some((n) => n.textContent === t), text);
}

const logText = (page) => page.$eval('.talk', (node) => node.innerText);

for (const lang of ['en', 'ru', 'ko']) {
  test(`two players and a spectator (on a phone) chat in ${lang}`, async () => {
    const names = NAMES[lang];
    const dict = (await loadDictionaries())[lang];
    const black = await openPage(env.browser, { locale: LOCALES[lang] });
    const white = await openPage(env.browser, { locale: LOCALES[lang] });
    const fan = await openPage(env.browser, { locale: LOCALES[lang], ...PHONE });

    await nameOnHome(black, names.black);
    await black.click('.way[data-mode="online"]');
    await black.waitForSelector('#share:not([hidden])');
    const invite = await black.inputValue('#invite-link');
    const watch = await black.inputValue('#watch-link');
    const playHref = await black.getAttribute('#play-link', 'href');
    await black.goto(new URL(playHref, env.server.url).href);
    await waitForGame(black);

    await nameOnHome(white, names.white);
    await white.goto(invite);
    await waitForGame(white);
    await fan.goto(watch);
    await waitForGame(fan);
    await fan.evaluate((n) => localStorage.setItem('phantomgo.pref.name', JSON.stringify(n)), names.fan);

    // Names: both players see both, the spectator too; the count of watchers.
    for (const page of [black, white]) {
      await page.waitForFunction((n) => document.querySelector('.talk-versus')?.textContent.includes(n), names.white);
      assert.match(await page.textContent('.talk-versus'), new RegExp(names.black));
      await page.waitForFunction(() => /1/.test(document.querySelector('.talk-watching')?.textContent ?? ''));
    }

    // The spectator's panel is folded on a phone; the players' room is closed to it.
    assert.equal(await fan.$eval('#talk-panel', (node) => node.open), false, 'folded on a phone');
    await fan.click('#talk-panel > summary');
    assert.equal(await fan.isVisible('.talk-input'), true);

    await send(black, `${names.black}: gl hf <b>!</b>`);
    await white.waitForFunction((t) => document.querySelector('.talk-log')?.innerText.includes(t), 'gl hf <b>!</b>');
    assert.equal(await white.locator('.talk-log b').count(), 0, 'markup stays text');
    await send(white, dict.talk.phrases.thanks);
    await send(fan, `${names.fan} says D4`);

    // Nothing of the spectators reaches a player: no text, no unread count, no tab.
    await black.waitForTimeout(500);
    for (const page of [black, white]) {
      assert.doesNotMatch(await page.evaluate(() => document.body.innerText), new RegExp(`${names.fan}|says D4`));
      assert.equal(await page.isHidden('.talk-tab[data-room="spectators"]'), true);
      assert.equal((await page.textContent('.talk-unread')).trim(), '');
    }
    assert.doesNotMatch(await logText(fan), /gl hf/, 'the spectator does not read the players during the game');
    await screenshot(fan, `chat-spectator-phone-${lang}`);
    await screenshot(black, `chat-player-${lang}`);

    // The end opens both rooms to everyone.
    const id = new URL(watch).pathname.split('/').pop();
    const guestToken = await white.evaluate((gameId) => Object.values(JSON.parse(localStorage.getItem('phantomgo.games'))[gameId].seats)[0], id);
    await act(env.server.url, id, guestToken, { action: 'resign' });
    await black.waitForSelector('.talk-tab[data-room="spectators"]:not([hidden])');
    await black.click('.talk-tab[data-room="spectators"]');
    await black.waitForFunction((t) => document.querySelector('.talk-log')?.innerText.includes(t), 'says D4');
    await fan.waitForSelector('.talk-tab[data-room="players"]:not([hidden])');
    await fan.click('.talk-tab[data-room="players"]');
    await fan.waitForFunction(() => document.querySelector('.talk-log')?.innerText.includes('gl hf'));
    await screenshot(black, `chat-after-end-${lang}`);

    // The SGF names the players.
    const sgf = await api(env.server.url, 'GET', `/api/v1/games/${id}/sgf`);
    assert.match(sgf.text, new RegExp(`P[BW]\\[${names.black}\\]`));
    assert.match(sgf.text, new RegExp(`P[BW]\\[${names.white}\\]`));

    for (const [page, label] of [[black, 'black'], [white, 'white'], [fan, 'spectator']]) {
      assertNoErrors(assert, page, `${lang} ${label}`);
      await page.context().close();
    }
  });
}

test('a refused name or message is explained in the page language', async () => {
  const page = await openPage(env.browser, { locale: 'ru-RU' });
  const dict = (await loadDictionaries()).ru;
  await page.goto(`${env.server.url}/`);
  await waitForGame(page);
  await page.fill('#player-name', 'evil\u202Eexe');
  assert.equal(await page.textContent('.name-field .error'), dict.talk.reason.bidi);
  assert.equal(await page.evaluate(() => localStorage.getItem('phantomgo.pref.name')), null, 'a refused name is not remembered');
  await page.context().close();
});

test('the creator cancels a game nobody joined; both links say so', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}/`);
  await waitForGame(page);
  await page.click('.way[data-mode="online"]');
  await page.waitForSelector('#share:not([hidden])');
  const invite = await page.inputValue('#invite-link');
  await page.goto(new URL(await page.getAttribute('#play-link', 'href'), env.server.url).href);
  await waitForGame(page);
  await page.click('#cancel-game');
  await page.click('#confirm-ok');
  await page.waitForSelector('#cancelled-page');
  assert.match(await page.textContent('#cancelled-page h1'), /cancelled/);

  const guest = await openPage(env.browser);
  await guest.goto(invite);
  await waitForGame(guest);
  await guest.waitForSelector('#cancelled-page');
  assert.equal(await guest.isHidden('#game-area'), true);
  await screenshot(guest, 'cancelled-invite');
  assertNoErrors(assert, page, 'creator');
  await page.context().close();
  await guest.context().close();
});

test('My games forgets an entry and hides the finished ones in one click', async () => {
  const page = await openPage(env.browser);
  const games = [];
  for (let i = 0; i < 2; i++) {
    const created = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } });
    games.push(created.json);
  }
  await act(env.server.url, games[0].game.id, games[0].seats[0].token, { action: 'resign' });
  await page.goto(`${env.server.url}/`);
  await page.evaluate((list) => {
    const stored = {};
    list.forEach((g, i) => { stored[g.game.id] = { seats: { black: g.seats[0].token, white: g.seats[1].token }, savedAt: 1000 + i }; });
    localStorage.setItem('phantomgo.games', JSON.stringify(stored));
  }, games);
  await page.goto(`${env.server.url}/my-games`);
  await waitForGame(page);
  assert.equal(await page.isVisible('#finished-section'), true);
  await page.click('#hide-finished');
  assert.equal(await page.isHidden('#finished-section'), true);
  assert.match(await page.textContent('#hide-finished'), /Show 1 finished game/);
  await page.reload();
  await waitForGame(page);
  assert.equal(await page.isHidden('#finished-section'), true, 'the choice is remembered');
  await page.click(`li[data-game-id="${games[1].game.id}"] .row-remove`);
  await page.click('#confirm-ok');
  await page.waitForSelector(`li[data-game-id="${games[1].game.id}"]`, { state: 'detached' });
  const kept = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('phantomgo.games'))));
  assert.deepEqual(kept, [games[0].game.id]);
  const still = await api(env.server.url, 'GET', `/api/v1/games/${games[1].game.id}`);
  assert.equal(still.status, 200, 'the game itself is untouched');
  assertNoErrors(assert, page, 'my games');
  await page.context().close();
});
