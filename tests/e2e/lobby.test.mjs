// The open-games lobby in a real browser: a public game appears without a
// reload, a visitor takes its free seat in one click (no invite) and plays,
// the game then shows among the games in progress for others to watch as
// spectators; the page is checked in English, Russian and Korean.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, clickVertex, waitForSeq, api, act,
  loadDictionaries, inEachLanguage, assertNoErrors,
} from './lib.mjs';

let dictionaries;
const env = serverAndBrowser({ setup: async () => { dictionaries = await loadDictionaries(); } });

const row = (list, id) => `#${list}-list li[data-game-id="${id}"]`;

test('a visitor takes the free seat of a public game from the live lobby, and others watch it', async () => {
  const visitor = await openPage(env.browser);
  await visitor.goto(env.server.url + '/lobby');
  await waitForGame(visitor);
  await visitor.waitForSelector('#open-empty:not([hidden])');
  await visitor.waitForFunction(() => document.getElementById('lobby-status').dataset.status === 'lobby.live');

  const created = await api(env.server.url, 'POST', '/api/v1/games', {
    body: { mode: 'online', color: 'black', public: true, time_control: { type: 'fischer', main: 600, increment: 10 } },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json.game.id;
  const blackToken = created.json.seats[0].token;
  await visitor.waitForSelector(row('open', id));
  assert.match(await visitor.textContent(row('open', id)), /9 × 9 · Olympiad · 10 min \+ 10 s per move/);
  await screenshot(visitor, 'lobby-open');
  // The lobby page is ready too: wait for the game page before waiting for it.
  await visitor.click(`${row('open', id)} button`);
  await visitor.waitForURL((url) => url.pathname === `/g/${id}`);
  await waitForGame(visitor);
  assert.equal(await visitor.textContent('#role-title'), 'You play White');
  await visitor.waitForSelector('#clocks:not([hidden])');
  // Black's clock runs from the moment White sits down, so a loaded
  // machine may show it a few seconds into the ten minutes.
  assert.match(await visitor.textContent('#clocks .clock[data-color="black"]'), /Black.*(10:00|9:[45]\d)/);

  await act(env.server.url, id, blackToken, { action: 'attempt', vertex: 'C3' });
  await waitForSeq(visitor, 1);
  await clickVertex(visitor, 'G7');
  await waitForSeq(visitor, 2);
  assert.match(await visitor.textContent('#log li[data-seq="2"]'), /White played G7/);

  const watcher = await openPage(env.browser);
  await watcher.goto(env.server.url + '/lobby');
  await waitForGame(watcher);
  await watcher.waitForSelector(row('playing', id));
  assert.equal(await watcher.locator(row('open', id)).count(), 0, 'no longer open');
  await watcher.click(`${row('playing', id)} a`);
  await watcher.waitForURL((url) => url.pathname === `/g/${id}`);
  await waitForGame(watcher);
  assert.match(await watcher.textContent('#role-title'), /watching/);
  assert.equal(await watcher.isHidden('#play-buttons'), true);
  assertNoErrors(assert, visitor, 'visitor');
  assertNoErrors(assert, watcher, 'watcher');
  await visitor.context().close();
  await watcher.context().close();
});

test('the lobby speaks English, Russian and Korean', async () => {
  const created = await api(env.server.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'white', public: true } });
  const id = created.json.game.id;
  await inEachLanguage(env.browser, async (page, lang) => {
    await page.goto(env.server.url + '/lobby');
    await waitForGame(page);
    const dict = dictionaries[lang];
    assert.equal(await page.textContent('h1'), dict.lobby.heading, lang);
    assert.equal(await page.textContent('#open-title'), dict.lobby.open, lang);
    assert.equal(await page.textContent('nav a[href="/lobby"]'), dict.nav.lobby, lang);
    await page.waitForSelector(row('open', id));
    const take = dict.lobby.take.replace('{color}', dict.color.black);
    assert.equal(await page.textContent(`${row('open', id)} button`), take, lang);
    await screenshot(page, `lobby-${lang}`);
  });
});
