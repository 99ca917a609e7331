// A rolling restart fails nothing: three servers on one PostgreSQL behind
// HAProxy (docker/haproxy.cfg), GAMES games played through it without a
// pause, a spectator WebSocket on each; the servers are stopped with
// SIGTERM one at a time and started again, each once HAProxy has the
// previous one back, as an upgrade does. The clients resend an action only
// when its connection closed before any answer (tests/lib/player.mjs) and
// every other answer must be 200: no 5xx, no HAProxy error page. Every
// server exits 0 within 10 s, every acknowledged action is in the store,
// and every spectator, reconnecting with its last seq when its socket
// closes (1012 from the draining server), sees every event of its game
// exactly once. One more spectator is the real page in Chromium: it
// reconnects by itself on 1012 and never shows "reconnecting" or "offline",
// and it shows the game's last event at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startPostgres } from '../pg/postgres.mjs';
import { startCluster } from './lib.mjs';
import { SANITIZED } from '../lib/server.mjs';
import { Player, assertActionsKept, newHotseatGame } from '../lib/player.mjs';
import { launchBrowser, waitForSeq } from '../e2e/lib.mjs';

const GAMES = 24;
// The promise is 10 s; a sanitized build's teardown (joining a thousand
// idle worker threads) can take longer on a loaded machine.
const STOP_LIMIT_MS = SANITIZED ? 60000 : 10000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A spectator of one game that reconnects at once (with a little jitter,
// as the page does) whenever its socket closes, from its last seq.
class Spectator {
  constructor(url, id) {
    Object.assign(this, { url, id, seqs: [], closes: [], stopped: false });
    this.open();
  }

  last() { return this.seqs.length ? this.seqs.at(-1) : 0; }

  open() {
    const u = new URL(`/api/v1/games/${this.id}/ws`, this.url);
    u.protocol = 'ws:';
    const ws = new WebSocket(u);
    this.ws = ws;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token: null, since: this.last() })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      for (const e of m.events ?? []) this.seqs.push(e.seq);
    });
    ws.on('error', () => {});
    ws.on('unexpected-response', (_req, res) => this.closes.push(`HTTP ${res.statusCode}`));
    ws.on('close', (code) => {
      this.closes.push(code);
      if (!this.stopped) setTimeout(() => this.open(), 20 + Math.random() * 400);
    });
  }

  stop() { this.stopped = true; this.ws.close(); }
}

test('a rolling restart of three servers under load fails nothing and loses nothing', async () => {
  const pg = await startPostgres();
  const cluster = await startCluster(pg.createDatabase('rolling'), 3);
  let stopped = false;
  const spectators = [];
  const browser = await launchBrowser();
  try {
    const players = [];
    for (let i = 0; i < GAMES; i++) players.push(new Player(cluster.url, await newHotseatGame(cluster.url), 3000 + i));
    for (const p of players) spectators.push(new Spectator(cluster.url, p.game.id));
    // The page of game 0, as a spectator: every status it shows, every socket it opens.
    const page = await browser.newPage();
    const statuses = [];
    const sockets = [];
    await page.exposeFunction('reportStatus', (status) => statuses.push(status));
    await page.addInitScript(() => {
      // Each socket's close code, for the failure message.
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          const opened = Date.now();
          this.addEventListener('close', (e) => window.reportStatus(`close ${e.code} after ${Date.now() - opened} ms`));
        }
      };
      document.addEventListener('DOMContentLoaded', () => {
        const box = document.getElementById('connection');
        new MutationObserver(() => window.reportStatus(box.dataset.status))
          .observe(box, { attributes: true, attributeFilter: ['data-status'] });
      });
    });
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${cluster.url}/g/${players[0].game.id}`);
    await page.waitForSelector('html[data-ready]', { timeout: 15000 });
    const loads = players.map((p) => p.play(() => stopped));
    await sleep(1000);
    const stops = [];
    for (let i = 0; i < 3; i++) {
      const r = await cluster.servers[i].stop();      // SIGTERM; asserts exit 0 and no sanitizer report
      assert.equal(r.code, 0);
      // The server's own figure, from the signal to the end of its teardown
      // (a sanitized build's leak check at exit comes after it).
      const stderr = cluster.servers[i].stderr();
      assert.match(stderr, /drained in \d+ ms \(behind a balancer/);
      const took = Number(/stopped in (\d+) ms/.exec(stderr)?.[1]);
      const drained = Number(/drained in (\d+) ms/.exec(stderr)?.[1]);
      assert.ok(drained < 7000, `server ${i + 1} drained in ${drained} ms:\n${stderr}`);
      assert.ok(took < STOP_LIMIT_MS, `server ${i + 1} took ${took} ms to stop:\n${stderr}`);
      stops[i] = took;
      await cluster.restart(i);
      await sleep(3000);                               // HAProxy's rise 2, a second apart
    }
    await sleep(500);
    stopped = true;
    await Promise.all(loads);
    const failures = players.flatMap((p) => p.failures);
    assert.deepEqual(failures, [], 'an answer other than 200 reached a client');
    for (const p of players) await assertActionsKept(cluster.url, p.game, p.acked);
    // Every spectator catches up to its game's last event, then holds each once.
    const until = Date.now() + 15000;
    while (Date.now() < until && spectators.some((s, i) => s.last() < players[i].seq)) await sleep(100);
    await waitForSeq(page, players[0].seq);
    const shown = statuses.filter((x) => x !== 'live' && x !== 'connecting' && !x.startsWith('close '));
    assert.deepEqual(shown, [], `the page showed ${JSON.stringify(statuses)}`);
    assert.ok(sockets.length >= 2, `the page's socket was never replaced: ${JSON.stringify(sockets)}`);
    const pageCloses = statuses.filter((x) => x.startsWith('close '));
    assert.ok(pageCloses.some((x) => x.startsWith('close 1012 ')), `the page's sockets: ${JSON.stringify(pageCloses)}`);
    for (const [i, s] of spectators.entries()) {
      assert.deepEqual(s.seqs, Array.from({ length: players[i].seq }, (_, k) => k + 1),
                       `spectator of ${s.id}: closes ${JSON.stringify(s.closes)}`);
    }
    const acked = players.reduce((n, p) => n + p.acked.length, 0);
    const resent = players.reduce((n, p) => n + p.resent, 0);
    const restarts = spectators.reduce((n, s) => n + s.closes.filter((c) => c === 1012).length, 0);
    const otherCloses = spectators.flatMap((s) => s.closes.filter((c) => c !== 1012 && c !== 1005));
    assert.ok(restarts > 0, 'no spectator socket was closed with 1012');
    console.log(`# rolling restart: ${acked} actions acknowledged, ${resent} resent after a cut connection, ` +
                `0 failed; servers stopped in ${stops.join(', ')} ms; spectators: ${restarts} closes 1012, ` +
                `other closes ${JSON.stringify(otherCloses)}; the page's sockets: ${JSON.stringify(pageCloses)}`);
  } finally {
    stopped = true;
    for (const s of spectators) s.stop();
    await browser.close();
    await cluster.stop();
    await pg.destroy();
  }
});
