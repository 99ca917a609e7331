// Web Push and the device link in Chromium. Ticking "Notify me" registers
// the service worker at /sw.js; a push message delivered to it (DevTools'
// ServiceWorker.deliverPushMessage, as a push service would) shows a
// notification in the subscriber's language (in English while that
// language's text cannot be loaded), naming what happened, tagged with the
// game. Clicking it opens the game: no DevTools command clicks a
// notification, so that test gives Chromium a desktop notification server
// of its own (notification-server.py, on a session bus of the test's own),
// which receives the notification through Chromium's Linux bridge and
// clicks it as a desktop does; the service worker's trusted
// notificationclick then opens /g/{id} in a new tab, where the seat this
// browser holds plays. (Headless Chromium has no push service to subscribe
// with: the subscription's way to the server and on to a push service is
// tests/server/push.test.mjs's.) The device link of My games carries a
// browser's seats to a second browser context in its fragment: every byte
// that browser sends passes a recording proxy, which never sees the
// fragment, and each token only as the bearer of its own game's requests.
// Its QR code is drawn in the page by Debian's qrcode-generator; the test
// draws the same link with that same library in Node and compares every
// module with the pixels of the page's code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  serverAndBrowser, startServer, launchProfileBrowser, openPage, waitForGame, onlineGame, loadDictionaries, assertNoErrors, LANGUAGES,
} from './lib.mjs';

const SHOTS = process.env.SHOTS_DIR;
const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };
const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  laptop: { viewport: { width: 1366, height: 768 } },
};

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

// A page of game whose Black seat ticked "Notify me", its service worker
// running; deliver(notice) hands the worker a push message as a push
// service would, shownWith(body, ms) resolves with the notification of that
// body once the page sees it (undefined after ms).
async function subscribedPage(game) {
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
  const deliver = (notice) => cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: id,
    data: JSON.stringify({ game: game.id, turn: 7, you: 'black', opponent: null, result: null, ...notice }),
  });
  const shownWith = async (body, ms) => {
    for (let waited = 0; ; waited += 50) {
      const shown = (await notifications(page)).find((n) => n.body === body);
      if (shown || waited >= ms) return shown;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  // Headless Chromium sometimes drops the first notification a freshly
  // activated worker shows (showNotification resolves, getNotifications
  // stays empty; about one run in twenty on a loaded machine): a notice of
  // a kind this worker does not know, which shows the generic text in
  // English, is delivered until one is seen. Later notices go once each.
  const generic = dictionaries.en.notify.body;
  let warmedUp;
  for (let attempt = 0; attempt < 5 && !warmedUp; attempt++) {
    await deliver({ lang: 'en', kind: 'unknown_kind' });
    warmedUp = await shownWith(generic, 5000);
  }
  assert.ok(warmedUp, `a notice of an unknown kind shows "${generic}"`);
  return { page, deliver, shownWith };
}

test('the service worker shows each notice in the subscriber\'s language, tagged with its game', async () => {
  const game = await onlineGame(env.server.url);
  const { page, deliver, shownWith } = await subscribedPage(game);

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
    await deliver(notice);
    // A worker woken from idle on a busy machine (CI runs this beside the
    // server suites) may take seconds: wait up to 20 s for each notice.
    const shown = await shownWith(body, 20000);
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

test('a notice that finds the server away is shown in English, and the next in its own language', async () => {
  const game = await onlineGame(env.server.url);
  const { page, deliver, shownWith } = await subscribedPage(game);
  await env.server.stop({ keepData: true });
  await deliver({ lang: 'ko', kind: 'time_low' });
  const english = await shownWith(dictionaries.en.push.timeLow, 20000);
  assert.ok(english, `with the Korean text out of reach, the English one; shown: ${JSON.stringify(await notifications(page))}`);
  assert.equal(english.title, dictionaries.en.notify.title);

  env.server = await startServer({ port: env.server.port, dir: env.server.dir });
  await deliver({ lang: 'ko', kind: 'time_low' });
  const korean = await shownWith(dictionaries.ko.push.timeLow, 20000);
  assert.ok(korean, `the server back, the Korean text; shown: ${JSON.stringify(await notifications(page))}`);
  assert.equal(korean.title, dictionaries.ko.notify.title);
  await page.context().close();
});

// A session bus of the test's own (dbus-daemon) with the desktop
// notification server of notification-server.py on it, which Chromium
// started with that bus uses to show notifications. next(match) resolves
// with the server's next message that match(message) accepts; click(id)
// clicks a notification as a desktop would; stop() ends both.
async function desktopNotifications() {
  const firstLine = (stream) => new Promise((resolve, reject) => {
    readline.createInterface({ input: stream }).once('line', resolve);
    stream.once('error', reject);
  });
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'],
    { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await firstLine(bus.stdout);
  const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address };
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'notification-server.py');
  const server = spawn('/usr/bin/python3', [script], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const messages = [];
  const waiting = [];
  readline.createInterface({ input: server.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    messages.push(message);
    for (const waiter of [...waiting]) {
      if (!waiter.match(message)) continue;
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const next = (match, ms = 10000) => {
    const seen = messages.find(match);
    if (seen) {
      messages.splice(messages.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve };
      waiting.push(waiter);
      setTimeout(() => {
        if (waiting.includes(waiter)) reject(new Error(`no such message from the notification server in ${ms} ms; got ${JSON.stringify(messages)}`));
      }, ms).unref();
    });
  };
  await next((m) => m.ready);
  return {
    env,
    next,
    click: (id) => server.stdin.write(`${JSON.stringify({ click: id })}\n`),
    stop: () => {
      server.stdin.end();
      server.kill();
      bus.kill();
    },
  };
}

test('a notice shown on the desktop opens its game when clicked', async () => {
  const game = await onlineGame(env.server.url);
  const desktop = await desktopNotifications();
  const profile = mkdtempSync(path.join(tmpdir(), 'phantomgo-profile-'));
  const context = await launchProfileBrowser(profile, { env: desktop.env });
  try {
    const origin = env.server.url;
    const page = await openPage(null, { context });
    await context.grantPermissions(['notifications'], { origin });
    await page.goto(`${origin}/g/${game.id}#seat=${game.black}`);
    await waitForGame(page);
    const cdp = await context.newCDPSession(page);
    const registrationId = workerRegistration(cdp);
    await page.evaluate(() => { document.getElementById('opt-notify').closest('details').open = true; });
    await page.check('#opt-notify');
    const id = await registrationId;
    // The game's page is closed (a tab on another page of the site stays):
    // the click must open it.
    await page.goto(`${origin}/my-games`);
    await waitForGame(page);

    const data = JSON.stringify({ game: game.id, kind: 'your_turn', turn: 2, you: 'black', opponent: 'Alice', lang: 'en' });
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data });
    const shown = await desktop.next((m) => m.id && m.body.includes('Alice played: your turn.'));
    assert.equal(shown.summary, dictionaries.en.notify.title);
    assert.ok(shown.actions.includes('default'), `a clickable notification: ${JSON.stringify(shown.actions)}`);

    const pagesBefore = context.pages().length;
    const opened = context.waitForEvent('page', { timeout: 10000 });
    desktop.click(shown.id);
    const gamePage = await opened;
    await gamePage.waitForURL(`${origin}/g/${game.id}`);
    await waitForGame(gamePage);
    assert.equal(await gamePage.textContent('#role-title'), 'You play Black', 'the seat this browser holds');
    await desktop.next((m) => m.closed === shown.id);
    assert.equal(context.pages().length, pagesBefore + 1, 'one page opened');
    page.errors = page.errors.filter((e) => !e.includes('does not support the Push API in incognito mode'));
    assertNoErrors(assert, page, 'page that subscribed');
  } finally {
    await context.close();
    desktop.stop();
    rmSync(profile, { recursive: true, force: true });
  }
});

// The modules of link's QR code as Debian's qrcode-generator makes them
// here in Node (error correction M, as the page asks), with the four-module
// white quiet zone around them: rows of 0/1.
const debianQrcode = createRequire(import.meta.url)('/usr/share/javascript/qrcode-generator/qrcode.js');
function expectedModules(link) {
  const qr = debianQrcode(0, 'M');
  qr.addData(link, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n + 8 }, (_, r) => Array.from({ length: n + 8 }, (_, c) =>
    (r >= 4 && c >= 4 && r < n + 4 && c < n + 4 && qr.isDark(r - 4, c - 4) ? 1 : 0)));
}

// The page's QR code as drawn: its SVG rasterized at 4 pixels a module,
// each module read at its centre (dark below mid grey): rows of 0/1.
const drawnModules = (page) => page.evaluate(async () => {
  const svg = document.querySelector('#transfer-qr svg');
  const size = svg.viewBox.baseVal.width;
  const image = new Image();
  image.src = `data:image/svg+xml;base64,${btoa(new XMLSerializer().serializeToString(svg))}`;
  await image.decode();
  const scale = 4;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size * scale;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const dark = (r, c) => (pixels[((r * scale + 2) * canvas.width + c * scale + 2) * 4] < 128 ? 1 : 0);
  return Array.from({ length: size }, (_, r) => Array.from({ length: size }, (_, c) => dark(r, c)));
});

// A TCP proxy on loopback to the server that keeps every byte browsers
// send through it: what the server receives, exactly.
async function recordingProxy(serverUrl) {
  const upstream = new URL(serverUrl);
  const received = [];
  const proxy = net.createServer((client) => {
    const chunks = [];
    received.push(chunks);
    const server = net.connect(Number(upstream.port), upstream.hostname);
    client.on('data', (data) => { chunks.push(data); server.write(data); });
    server.pipe(client);
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    client.on('end', () => server.end());
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${proxy.address().port}`,
    text: () => received.map((chunks) => Buffer.concat(chunks).toString('latin1')),
    close: () => new Promise((resolve) => { proxy.close(resolve); }),
  };
}

// This browser's seats in a fresh context: it opened each seat link.
async function pageWithSeats(options, seats) {
  const page = await openPage(env.browser, options);
  for (const [game, token] of seats) {
    await page.goto(`${env.server.url}/g/${game.id}#seat=${token}`);
    await waitForGame(page);
  }
  return page;
}

async function showDeviceLink(page) {
  await page.goto(`${env.server.url}/my-games`);
  await waitForGame(page);
  await page.click('#transfer-show');
  await page.waitForSelector('#transfer-qr svg');
  return page.inputValue('#transfer-link');
}

test('the device link and its QR code carry My games to a second browser; the server never sees the fragment', async () => {
  const first = await onlineGame(env.server.url);
  const second = await onlineGame(env.server.url);
  const page = await pageWithSeats({}, [[first, first.black], [second, second.white]]);
  const link = await showDeviceLink(page);
  const origin = env.server.url;
  assert.match(link, new RegExp(`^${origin}/my-games#games=[A-Za-z0-9_-]+$`));

  // The QR code is this very link, module for module.
  const expected = expectedModules(link);
  const drawn = await drawnModules(page);
  assert.equal(drawn.length, expected.length, 'the QR code has the size of the link\'s');
  assert.deepEqual(drawn, expected, 'the QR code drawn is the link\'s');
  assert.notDeepEqual(expectedModules(link.replace(/#.*/, '')), expected, 'a link without its seats would draw another code');
  assert.equal(await page.getAttribute('#transfer-qr', 'role'), 'img');
  assert.equal(await page.getAttribute('#transfer-qr', 'aria-label'), dictionaries.en.transfer.qrLabel);
  // Hidden, the panel forgets both; shown again, both are back.
  await page.click('#transfer-show');
  assert.equal(await page.$('#transfer-qr svg'), null);
  await page.click('#transfer-show');
  await page.waitForSelector('#transfer-qr svg');

  // The second browser opens it through a proxy that records every byte it
  // sends the server (the link's own address, on the proxy's port).
  const proxy = await recordingProxy(origin);
  try {
    const fragment = new URL(link).hash;
    const other = await openPage(env.browser);
    await other.goto(`${proxy.url}/my-games${fragment}`);
    await other.waitForSelector(`li[data-game-id="${first.id}"]`);
    await other.waitForSelector(`li[data-game-id="${second.id}"]`);
    assert.equal(new URL(other.url()).hash, '', 'the fragment is dropped at once');
    assert.match(await other.textContent('#copy-status'), /2/);
    // The seat plays there: its own view, as Black of the first game.
    await other.goto(`${proxy.url}/g/${first.id}`);
    await waitForGame(other);
    assert.equal(await other.textContent('#role-title'), 'You play Black');
    assertNoErrors(assert, other, 'my games after the device link');
    await other.context().close();

    const sent = proxy.text();
    assert.ok(sent.some((text) => text.includes('GET /my-games HTTP/1.1\r\n')), 'the proxy saw the navigation');
    const tokens = { [first.black]: first.id, [second.white]: second.id };
    for (const text of sent) {
      assert.equal(text.includes('games='), false, 'the fragment reached the server');
      assert.equal(text.includes(fragment.slice(7, 40)), false, 'the fragment\'s seats reached the server');
      // A token goes only as the bearer of a request about its own game.
      let requestLine = '';
      for (const line of text.split('\r\n')) {
        if (/^[A-Z]+ \S+ HTTP\/1\.1$/.test(line)) requestLine = line;
        for (const [token, id] of Object.entries(tokens)) {
          if (!line.includes(token)) continue;
          assert.match(line, new RegExp(`^authorization: Bearer ${token}$`, 'i'), `a token outside its header: ${line}`);
          assert.ok(requestLine.includes(`/api/v1/games/${id}`), `${token.slice(0, 6)}… sent with ${requestLine}`);
        }
      }
    }
  } finally {
    await proxy.close();
  }
  assertNoErrors(assert, page, 'my games with the device link');
  await page.context().close();
});

test('the device link\'s QR code fits a phone and a laptop, labelled in English, Russian and Korean', async () => {
  const game = await onlineGame(env.server.url);
  for (const [device, options] of Object.entries(VIEWPORTS)) {
    for (const lang of LANGUAGES) {
      const label = `${device} ${lang}`;
      // The seat as the game page stores it (opening it six times would
      // only slow the suite; the test above opens seat links for real).
      const page = await openPage(env.browser, { ...options, locale: LOCALES[lang] });
      await page.goto(`${env.server.url}/my-games`);
      await page.evaluate(([id, token]) => localStorage.setItem('phantomgo.games',
        JSON.stringify({ [id]: { seats: { black: token }, savedAt: Date.now() } })), [game.id, game.black]);
      await showDeviceLink(page);
      const dict = dictionaries[lang].transfer;
      assert.equal(await page.getAttribute('#transfer-qr', 'aria-label'), dict.qrLabel, label);
      assert.equal(await page.textContent('#transfer-qr-figure figcaption'), dict.qrCaption, label);
      await page.locator('#transfer-qr').scrollIntoViewIfNeeded();
      const box = await page.locator('#transfer-qr svg').boundingBox();
      const width = options.viewport.width;
      assert.ok(box.width >= 200 && box.width <= 320, `${label}: a code ${box.width} px wide`);
      assert.ok(Math.abs(box.width - box.height) < 1, `${label}: square`);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `${label}: inside the screen`);
      assert.ok(box.height <= options.viewport.height, `${label}: within one screen's height`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `${label}: nothing wider than the screen`);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/device-link-${device}-${lang}.png` });
      assertNoErrors(assert, page, label);
      await page.context().close();
    }
  }
});

test('without its script, or with more games than a QR code holds, the link stays and the page says why', async () => {
  // Twenty games of both seats make a link of some 4 kB, more than a QR
  // code holds (2953 bytes at most). The server knows none of them: each
  // view answers 404, which the browser logs.
  const crowded = await openPage(env.browser);
  await crowded.goto(`${env.server.url}/my-games`);
  await crowded.evaluate(() => {
    const games = {};
    for (let i = 0; i < 20; i++) {
      games[`zz${String(i).padStart(8, '0')}`] = { seats: { black: 'B'.repeat(43), white: 'W'.repeat(43) }, savedAt: Date.now() - i };
    }
    localStorage.setItem('phantomgo.games', JSON.stringify(games));
  });
  await crowded.reload();
  await waitForGame(crowded);
  await crowded.click('#transfer-show');
  await crowded.waitForFunction(() => document.getElementById('transfer-qr-status').textContent !== '');
  assert.equal(await crowded.textContent('#transfer-qr-status'), dictionaries.en.transfer.qrTooLong);
  assert.ok((await crowded.inputValue('#transfer-link')).length > 2953);
  assert.equal(await crowded.isHidden('#transfer-qr-figure'), true);
  crowded.errors = crowded.errors.filter((e) => !/status of 404/.test(e));
  assertNoErrors(assert, crowded, 'my games with 20 unknown games');
  await crowded.context().close();

  const bare = await startServer({ args: ['--qrcode-js', '/nonexistent/qrcode.js'] });
  try {
    const game = await onlineGame(bare.url);
    const page = await openPage(env.browser, { locale: 'ko-KR' });
    await page.goto(`${bare.url}/g/${game.id}#seat=${game.black}`);
    await waitForGame(page);
    await page.goto(`${bare.url}/my-games`);
    await waitForGame(page);
    await page.click('#transfer-show');
    await page.waitForFunction(() => document.getElementById('transfer-qr-status').textContent !== '');
    assert.equal(await page.textContent('#transfer-qr-status'), dictionaries.ko.transfer.qrUnavailable);
    assert.match(await page.inputValue('#transfer-link'), /#games=/);
    assert.equal(await page.isHidden('#transfer-qr-figure'), true);
    // Chromium's own lines about the refused script (a 503 JSON answer).
    page.errors = page.errors.filter((e) => !/status of 503|Refused to execute script from '[^']*\/vendor\/qrcode\.js'/.test(e));
    assertNoErrors(assert, page, 'my games without the QR code script');
    await page.context().close();
  } finally {
    await bare.stop();
  }
});
