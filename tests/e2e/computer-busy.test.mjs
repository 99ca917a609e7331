// The game page says when the computer thinks with less time because other
// games wait for it (issue 16), in each language (three pages, one turn). One computer worker
// (PHANTOMGO_COMPUTER_THREADS=1): a 13x13 game keeps it busy while the
// page's human moves and another game queues behind; the page's game then
// gets half its budget, and its turn banner says so until the computer has
// answered. (The budget is large so that the first game, cut to a third,
// still outlasts the two moves; the server's stop cuts the last search.) A MutationObserver keeps every text the banner showed, so the
// test does not depend on when it looks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as serverProcess from '../lib/server.mjs';
import { launchBrowser, openPage, api, waitForGame, clickVertex, loadDictionaries, assertNoErrors } from './lib.mjs';

let server, browser, dictionaries;
before(async () => {
  server = await serverProcess.startServer({
    args: ['--rate-limit', '0', '--create-limit', '0'],
    env: { PHANTOMGO_COMPUTER_THREADS: '1', PHANTOMGO_BOT_PLAYOUTS: '100000' },
  });
  browser = await launchBrowser();
  dictionaries = await loadDictionaries();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

// A computer game; the human plays `color`.
async function computerGame(size, color) {
  const res = await api(server.url, 'POST', '/api/v1/games',
                        { body: { mode: 'computer', color, level: 'easy', settings: { size } } });
  assert.equal(res.status, 201, res.text);
  return res.json;
}

// Three pages on the same seat, one per language, watch the same turn.
test('the turn banner says the server is busy, in each language', async () => {
  const shared = await computerGame(9, 'black');
  const pages = {};
  for (const [lang, locale] of [['en', 'en-US'], ['ru', 'ru-RU'], ['ko', 'ko-KR']]) {
    const page = await openPage(browser, { locale });
    await page.goto(shared.links.play);
    await waitForGame(page);
    await page.waitForFunction(() => document.getElementById('connection').dataset.status === 'live');
    // Every text the banner shows from now on.
    await page.evaluate(() => {
      const banner = document.getElementById('turn-banner');
      window.bannerTexts = [banner.textContent];
      new MutationObserver(() => window.bannerTexts.push(banner.textContent))
        .observe(banner, { childList: true, characterData: true, subtree: true });
    });
    pages[lang] = page;
  }
  await computerGame(13, 'white'); // the worker thinks there (cut to a third as two queue)
  await clickVertex(pages.en, 'E5'); // this game waits...
  await pages.en.waitForSelector('#turn-banner[data-kind="computer"]');
  await computerGame(9, 'white');  // ...and another behind it: it gets half
  for (const page of Object.values(pages)) await page.waitForSelector('#turn-banner[data-kind="yours"]', { timeout: 60000 });
  const view = await api(server.url, 'GET', `/api/v1/games/${shared.game.id}`);
  assert.deepEqual(view.json.computer, { think_percent: 50, busy: true });
  for (const [lang, page] of Object.entries(pages)) {
    const busyText = dictionaries[lang].turn.computerBusy.replace('{color}', dictionaries[lang].color.white);
    const texts = await page.evaluate(() => window.bannerTexts);
    assert.ok(texts.includes(busyText), `${lang}: "${busyText}" not among ${JSON.stringify(texts)}`);
    assertNoErrors(assert, page, `busy banner ${lang}`);
    await page.context().close();
  }
});
