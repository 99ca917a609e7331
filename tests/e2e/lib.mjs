// Shared helpers of the browser end-to-end suite: start the real server
// binary on a free port with a fresh database, launch Debian's Chromium
// through playwright-core (serverAndBrowser() does both for a test file),
// open pages that record every console error, set games up through the API,
// and small steps that read or drive the game page the way a person would.
//
// The server binary is PHANTOMGO_BIN (tests/run-all.sh points it at the
// sanitized build) or build/phantomgo. Screenshots go to
// tests/artifacts/screenshots/ for a reviewer.

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { newGame } from '../lib/games.mjs';
import { call } from '../lib/http.mjs';
import * as serverProcess from '../lib/server.mjs';

export const repoRoot = serverProcess.ROOT;
export const screenshotDir = path.join(repoRoot, 'tests/artifacts/screenshots');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Starts `phantomgo serve` (tests/lib/server.mjs) and resolves once it
// printed its URL. A restart passes the port and data directory of the
// server it replaces; args are extra flags (e.g. --test-clock). stop()
// removes the data directory unless keepData (for a restart on the same
// database) and rejects when the server crashed or a sanitizer reported.
export function startServer({ port = 0, dir = undefined, args = [] } = {}) {
  return serverProcess.startServer({ port, dir, args, removeDir: true });
}

export function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

// A browser whose one context is its default profile, kept in userDataDir,
// with env for its environment: what a desktop notification's click needs
// (Chromium hands the click to the profile the notification came from by
// its name, which a fresh context of launchBrowser() does not have).
export function launchProfileBrowser(userDataDir, { env = process.env } = {}) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, env, viewport: { width: 1280, height: 900 }, locale: 'en-US',
  });
}

// The fixture of a test file: one server (serverOptions as for startServer)
// and one browser, started before the file's tests and stopped after them;
// setup(env) then prepares what the file's tests share. Tests read
// env.server and env.browser, which are set once `before` ran; a test that
// restarts the server stores the new one in env.server. (Node 20 runs
// top-level `before` hooks at once, not one after another, so set-up that
// needs the server belongs in setup, not in a second hook.)
export function serverAndBrowser({ serverOptions = {}, setup = async () => {} } = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(serverOptions);
    env.browser = await launchBrowser();
    await setup(env);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

export const LANGUAGES = ['en', 'ru', 'ko'];
const LOCALES = { en: 'en-US', ru: 'ru-RU', ko: 'ko-KR' };

// The translation dictionaries the pages load, {en, ru, ko}.
export async function loadDictionaries() {
  const entries = await Promise.all(LANGUAGES.map(async (lang) =>
    [lang, JSON.parse(await readFile(path.join(repoRoot, `web/i18n/${lang}.json`), 'utf8'))]));
  return Object.fromEntries(entries);
}

// A page (in its own context unless one is given) whose console errors and
// uncaught exceptions are collected in page.errors.
export async function openPage(browser, options = {}) {
  const { context: given, ...contextOptions } = options;
  const context = given ?? await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...contextOptions });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.errors.push(`pageerror: ${error.message}`));
  return page;
}

export async function screenshot(page, name) {
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// Calls the API from the test itself (to set up games the page then shows).
export async function api(baseUrl, method, apiPath, { body, token } = {}) {
  const { status, json, text } = await call(baseUrl, method, apiPath, { body, token });
  return { status, json: json ?? null, text };
}

// Plays one action through the API with the right seq; returns the answer.
export async function act(baseUrl, gameId, token, action) {
  const view = await api(baseUrl, 'GET', `/api/v1/games/${gameId}`, { token });
  const answer = await api(baseUrl, 'POST', `/api/v1/games/${gameId}/actions`, { token, body: { seq: view.json.seq + 1, ...action } });
  if (answer.status !== 200) throw new Error(`action ${JSON.stringify(action)} failed: ${answer.status} ${answer.text}`);
  return answer.json;
}

// Runs check(page, lang) on a fresh page for each language, which the
// browser's locale chooses; each page must log no error.
export async function inEachLanguage(browser, check, languages = LANGUAGES) {
  for (const lang of languages) {
    const page = await openPage(browser, { locale: LOCALES[lang] });
    await check(page, lang);
    if (page.errors.length > 0) throw new Error(`${lang}: console errors:\n${page.errors.join('\n')}`);
    await page.context().close();
  }
}

// An online game made through the API with both seats taken (the invite
// claimed); body adds to the creation request, whose creator plays Black
// unless body.color says otherwise. Returns {id, created (the creation
// answer, with its links), black, white (the seat tokens)}.
export async function onlineGame(baseUrl, body = {}) {
  const { color = 'black', settings = { size: 9 }, ...extra } = body;
  const { id, tokens, created } = await newGame(baseUrl, { mode: 'online', color, settings, extra });
  return { id, created, black: tokens.black, white: tokens.white };
}

// Waits until the page's game area shows (the page finished loading a game).
export async function waitForGame(page) {
  await page.waitForSelector('html[data-ready]', { timeout: 10000 });
}

export async function clickVertex(page, vertex) {
  await page.click(`#board .hit:not(.wrap)[data-vertex="${vertex}"]`);
}

// Waits until the referee log shows the event with this sequence number.
export async function waitForSeq(page, seq) {
  await page.waitForSelector(`#log li[data-seq="${seq}"]`, { timeout: 10000 });
}

// The stones drawn on the real board (wrap copies excluded), as "color:vertex", sorted.
export async function stonesShown(page) {
  const stones = await page.$$eval('#board .stone:not(.wrap)', (nodes) => nodes.map((node) => `${node.dataset.color}:${node.dataset.vertex}`));
  return stones.sort();
}

export async function passWithConfirmation(page) {
  await page.click('#pass');
  await page.click('#confirm-ok');
}

// How long the page took until its content was ready (ms since navigation).
export async function readyTime(page) {
  return Number(await page.getAttribute('html', 'data-ready'));
}

export function assertNoErrors(assert, page, label) {
  assert.deepEqual(page.errors, [], `${label}: console errors`);
}
