// Web Push and the device link in Chromium. Ticking "Notify me" registers the service worker
// at /sw.js; a push message delivered to it (DevTools'
// ServiceWorker.deliverPushMessage, as a push service would) shows a
// notification in the subscriber's language, naming what happened, tagged
// with the game. (Headless Chromium has no push service to subscribe with,
// and DevTools cannot click a notification: the subscription's way to the
// server and on to a push service is tests/server/push.test.mjs's; the
// click handler, which opens /g/{id}, is not exercised here.) The device
// link of My games carries a browser's seats to a second browser context
// in its fragment, and no request of that browser carries a token.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openPage, waitForGame, onlineGame, loadDictionaries, assertNoErrors } from './lib.mjs';

let dictionaries;
const env = serverAndBrowser({ setup: async () => { dictionaries = await loadDictionaries(); } });

// The service worker's registration id, through DevTools.
async function workerRegistration(cdp) {
  const found = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const running = versions.find((v) => v.scriptURL.endsWith('/sw.js') && v.status === 'activated');
      if (running) resolve(running.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

const notifications = (page) => page.evaluate(async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
});

test('the service worker shows each notice in the subscriber\'s language, tagged with its game', async () => {
  const game = await onlineGame(env.server.url);
  const page = await openPage(env.browser);
  const origin = env.server.url;
  await page.context().grantPermissions(['notifications'], { origin });
  await page.goto(`${origin}/g/${game.id}#seat=${game.black}`);
  await waitForGame(page);
  const cdp = await page.context().newCDPSession(page);
  const registrationId = workerRegistration(cdp);
  await page.evaluate(() => { document.getElementById('opt-notify').closest('details').open = true; });
  await page.check('#opt-notify');
  const id = await registrationId;
  assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope), `${origin}/`);

  const cases = [
    [{ lang: 'en', kind: 'your_turn', opponent: 'Alice' }, 'Alice played: your turn.'],
    [{ lang: 'ru', kind: 'opponent_joined', opponent: null }, dictionaries.ru.push.joined],
    [{ lang: 'ko', kind: 'time_low', opponent: null }, dictionaries.ko.push.timeLow],
    [{ lang: 'en', kind: 'game_over', result: { reason: 'passes', winner: 'black', score: { black: 44, white: 40.5 } } },
     'You won by 3.5 points.'],
    [{ lang: 'ru', kind: 'game_over', result: { reason: 'resign', winner: 'white' } }, dictionaries.ru.push.lost],
    [{ lang: 'ko', kind: 'rematch_offer' }, dictionaries.ko.push.rematch],
  ];
  for (const [notice, body] of cases) {
    const data = JSON.stringify({ game: game.id, turn: 7, you: 'black', opponent: null, result: null, ...notice });
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data });
    let shown;
    for (let i = 0; i < 100 && !shown; i++) {
      shown = (await notifications(page)).find((n) => n.body === body);
      if (!shown) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(shown, `a notification "${body}"; shown: ${JSON.stringify(await notifications(page))}`);
    assert.equal(shown.title, dictionaries[notice.lang].notify.title);
    assert.equal(shown.tag, `phantomgo-${game.id}`);
    assert.deepEqual(shown.data, { game: game.id });
  }

  // Chromium itself logs that a fresh (incognito) context has no Push API
  // when the page subscribes: that line only, nothing of the page's own.
  page.errors = page.errors.filter((e) => !e.includes('does not support the Push API in incognito mode'));
  assertNoErrors(assert, page, 'game page with push');
  await page.context().close();
});

test('the device link carries My games to a second browser, in the fragment only', async () => {
  const first = await onlineGame(env.server.url);
  const second = await onlineGame(env.server.url);
  const page = await openPage(env.browser);
  const origin = env.server.url;
  for (const [game, token] of [[first, first.black], [second, second.white]]) {
    await page.goto(`${origin}/g/${game.id}#seat=${token}`);
    await waitForGame(page);
  }
  await page.goto(`${origin}/my-games`);
  await page.waitForSelector(`li[data-game-id="${first.id}"]`);
  await page.click('#transfer-show');
  const link = await page.inputValue('#transfer-link');
  assert.match(link, new RegExp(`^${origin}/my-games#games=[A-Za-z0-9_-]+$`));

  const other = await openPage(env.browser);
  const requested = [];
  other.on('request', (request) => requested.push(request.url()));
  await other.goto(link);
  await other.waitForSelector(`li[data-game-id="${first.id}"]`);
  await other.waitForSelector(`li[data-game-id="${second.id}"]`);
  assert.equal(new URL(other.url()).hash, '', 'the fragment is dropped at once');
  assert.match(await other.textContent('#copy-status'), /2/);
  for (const url of requested) {
    assert.equal(url.includes(first.black) || url.includes(second.white), false, `a seat token left the browser: ${url}`);
  }
  // The seat plays there: its own view, as Black of the first game.
  await other.goto(`${origin}/g/${first.id}`);
  await waitForGame(other);
  assert.equal(await other.evaluate(() => JSON.parse(localStorage.getItem('phantomgo.games'))[location.pathname.split('/')[2]].seats.black !== undefined), true);
  assertNoErrors(assert, other, 'my games after the device link');
  await page.context().close();
  await other.context().close();
});
