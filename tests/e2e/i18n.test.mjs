// Translations: the three dictionaries have the same keys and every key the
// pages use; plurals follow each language's rules; no English is left on any
// page (game pages in every state included) in Russian or Korean; the
// language comes from the browser, the switcher changes it in place and is
// remembered; the rules page is photographed in each language.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  serverAndBrowser, openPage, screenshot, waitForGame, repoRoot, assertNoErrors, LANGUAGES, loadDictionaries,
  onlineGame, act, api, inEachLanguage,
} from './lib.mjs';

const PLURAL_KEYS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);
let dictionaries;
const env = serverAndBrowser({ setup: async () => { dictionaries = await loadDictionaries(); } });

function isPlural(node) {
  return node && typeof node === 'object' && Object.keys(node).every((key) => PLURAL_KEYS.has(key));
}

function flatten(node, prefix = '', out = new Map()) {
  for (const [key, value] of Object.entries(node)) {
    const name = prefix + key;
    if (typeof value === 'object' && !isPlural(value)) flatten(value, name + '.', out);
    else out.set(name, value);
  }
  return out;
}

test('every language has exactly the same keys, and plurals have their forms', () => {
  const english = flatten(dictionaries.en);
  for (const lang of LANGUAGES) {
    const keys = flatten(dictionaries[lang]);
    assert.deepEqual([...keys.keys()].sort(), [...english.keys()].sort(), `${lang} keys`);
    for (const [key, value] of keys) {
      if (isPlural(value)) assert.ok('other' in value, `${lang} ${key} has "other"`);
      if (isPlural(value) && lang === 'ru') assert.deepEqual(Object.keys(value).sort(), ['few', 'many', 'one', 'other'], `ru ${key}`);
      if (typeof value === 'string') assert.notEqual(value.trim(), '', `${lang} ${key} is not empty`);
    }
  }
});

// Every script under dir, its folders' included (web/js/pages, game, lib).
async function scripts(dir) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await scripts(file));
    else if (entry.name.endsWith('.js')) files.push(file);
  }
  return files;
}

test('every key used by the pages and scripts exists', async () => {
  const english = flatten(dictionaries.en);
  const has = (key) => english.has(key) || [...english.keys()].some((known) => known.startsWith(key + '.'));
  const used = new Set();
  for (const file of await readdir(path.join(repoRoot, 'web'))) {
    if (!file.endsWith('.html')) continue;
    const html = await readFile(path.join(repoRoot, 'web', file), 'utf8');
    for (const match of html.matchAll(/data-i18n="([^"]+)"/g)) used.add(match[1]);
    for (const match of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
      for (const pair of match[1].split(';')) used.add(pair.split(':')[1].trim());
    }
    for (const match of html.matchAll(/data-title-key="([^"]+)"/g)) used.add(match[1]);
  }
  for (const file of await scripts(path.join(repoRoot, 'web/js'))) {
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(/\bt\('([^']+)'/g)) used.add(match[1]);
  }
  assert.ok(used.size > 150, `found ${used.size} keys in use`);
  const missing = [...used].filter((key) => !has(key));
  assert.deepEqual(missing, [], 'keys used but not translated');
});

// The Latin words of the visible text: in Russian and Korean only the names
// that stay as they are (a file format, key names, an organisation, Roman
// numerals) may be.
function latinWords() {
  const KEPT = new Set(['SGF', 'Enter', 'ICGA', 'QR']);
  const words = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (element.closest('svg, option, script, [hidden]') || element.getClientRects().length === 0) continue;
    for (const [word] of node.textContent.matchAll(/(?<![\w.])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![\w])/g)) {
      if (!KEPT.has(word) && !/^[IVXLC]+$/.test(word)) words.push(`${word} (in "${node.textContent.trim().slice(0, 40)}")`);
    }
  }
  return words;
}

test('no English is left on any page in Russian or Korean', async () => {
  const { url } = env.server;
  const playing = await onlineGame(url, { public: true, settings: { size: 9, handicap: 2 } });
  await act(url, playing.id, playing.white, { action: 'attempt', vertex: 'E5' });
  await act(url, playing.id, playing.black, { action: 'attempt', vertex: 'E5' });
  const over = await onlineGame(url);
  await act(url, over.id, over.black, { action: 'attempt', vertex: 'C3' });
  await act(url, over.id, over.white, { action: 'pass' });
  await act(url, over.id, over.black, { action: 'pass' });
  const open = await api(url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'white', public: true } });
  const hotseat = await api(url, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } });
  // No two visits in a row to one game: a new fragment alone would not load
  // the page again.
  const visits = [
    ['home', '/'], ['spectator', `/g/${playing.id}`], ['rules', '/rules'],
    ['player', `/g/${playing.id}#seat=${playing.black}`], ['lobby', '/lobby'],
    ['game over', `/g/${over.id}#seat=${over.white}`],
    ['waiting for the opponent', `/g/${open.json.game.id}#seat=${open.json.seats[0].token}`],
    ['hot-seat curtain', new URL(hotseat.json.links.play).pathname + new URL(hotseat.json.links.play).hash],
    ['my games', '/my-games'], ['lesson', '/lesson#capture'],
  ];
  await inEachLanguage(env.browser, async (page, lang) => {
    for (const [name, path] of visits) {
      await page.goto(url + path);
      await waitForGame(page);
      assert.deepEqual(await page.evaluate(latinWords), [], `${name} in ${lang}`);
    }
  }, ['ru', 'ko']);
});

test('the browser language is followed and the switcher is remembered', async () => {
  const korean = await openPage(env.browser, { locale: 'ko-KR' });
  await korean.goto(env.server.url + '/');
  await waitForGame(korean);
  assert.equal(await korean.getAttribute('html', 'lang'), 'ko');
  assert.equal(await korean.textContent('h1'), dictionaries.ko.home.heading);
  await korean.context().close();

  const page = await openPage(env.browser);
  await page.goto(env.server.url + '/');
  await waitForGame(page);
  assert.equal(await page.textContent('h1'), dictionaries.en.home.heading);
  await page.selectOption('#lang', 'ru');
  await page.waitForFunction(() => document.documentElement.lang === 'ru');
  assert.equal(await page.textContent('#new-game-title'), dictionaries.ru.home.customTable);
  assert.equal(await page.textContent('#create-button'), 'Создать партию');
  await page.reload();
  await waitForGame(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'ru', 'the choice survives a reload');
  assert.equal(await page.textContent('.tagline'), dictionaries.ru.home.noSignup);
  await page.selectOption('#lang', 'ko');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  assert.equal(await page.textContent('#create-button'), '대국 만들기');
  await screenshot(page, 'home-ko');

  for (const lang of LANGUAGES) {
    await page.goto(env.server.url + '/rules');
    await waitForGame(page);
    await page.selectOption('#lang', lang);
    await page.waitForFunction((wanted) => document.documentElement.lang === wanted, lang);
    assert.equal(await page.textContent('h1'), dictionaries[lang].rules.heading);
    assert.equal(await page.locator('table.compare tbody tr').count(), 6);
    await screenshot(page, `rules-${lang}`);
  }
  assertNoErrors(assert, page, 'language pages');
});

test('plurals and numbers follow each language', async () => {
  const page = await openPage(env.browser);
  await page.goto(env.server.url + '/');
  await waitForGame(page);
  const forms = await page.evaluate(async () => {
    const i18n = await import('/web/js/lib/i18n.js');
    const result = {};
    for (const lang of ['en', 'ru', 'ko']) {
      await i18n.setLanguage(lang);
      result[lang] = [1, 3, 5, 21, 1.5].map((count) => i18n.t('log.capturedCount', { color: 'X', count }));
      result[lang].push(i18n.formatNumber(7.5));
    }
    return result;
  });
  assert.deepEqual(forms.en, ['X captured 1 stone.', 'X captured 3 stones.', 'X captured 5 stones.', 'X captured 21 stones.', 'X captured 1.5 stones.', '7.5']);
  assert.deepEqual(forms.ru, ['X взяли 1 камень.', 'X взяли 3 камня.', 'X взяли 5 камней.', 'X взяли 21 камень.', 'X взяли 1,5 камня.', '7,5']);
  assert.deepEqual(forms.ko, ['X이 돌 1개를 따냈습니다.', 'X이 돌 3개를 따냈습니다.', 'X이 돌 5개를 따냈습니다.', 'X이 돌 21개를 따냈습니다.', 'X이 돌 1.5개를 따냈습니다.', '7.5']);
  assertNoErrors(assert, page, 'home');
});
