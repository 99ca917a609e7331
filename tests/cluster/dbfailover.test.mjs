// Losing the database machine loses nothing acknowledged: a PostgreSQL
// primary with a synchronous streaming standby (both started here), three
// servers behind HAProxy on a multi-host connection string
// (target_session_attrs=read-write). Under load, the primary is killed -9
// and the standby promoted: every action answered 200 is in the new
// primary's log, every game goes on through the same servers, and each
// game saw at most a few failed requests while the database changed hands,
// each answered by its server: JSON 503 `unavailable` with Retry-After.
// HAProxy answers nothing itself: no 502 (a request cut), no 503 page (no
// server left), no connection cut; its check (/api/live) keeps servers
// whose database is away in (tests/cluster/dbdown.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPostgres, startStandby, PASSWORD } from '../pg/postgres.mjs';
import { startCluster } from './lib.mjs';
import { call, allVertices, rng } from '../server/lib.mjs';

const GAMES = 24;
const MAX_503_PER_GAME = 8;

async function waitFor(check, what, ms = 20000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// call(), with a connection cut as an answer of status 0.
const callOrCut = (...args) => call(...args).catch((e) => ({ status: 0, text: `connection cut: ${e.code ?? e.message}` }));

// Plays one hotseat game until stop.now, recording every 200 and 503.
// A connection cut is recorded as status 0 among the unexpected answers.
async function play(url, g, random, stop) {
  const free = allVertices(19);
  while (!stop.now) {
    const vertex = free[Math.floor(random() * free.length)];
    const body = { seq: g.seq + 1, action: 'attempt', vertex };
    const res = await callOrCut(url, 'POST', `/api/v1/games/${g.id}/actions`, { token: g.tokens[g.toMove], body });
    if (res.status === 200) {
      g.acked.push(res.json.event);
      g.seq = res.json.event.seq;
      g.toMove = res.json.view.to_move;
      if (stop.promoted) g.afterPromotion++;
    } else if (res.status === 503 && res.json?.error?.code === 'unavailable' && Number(res.headers.get('retry-after')) >= 1) {
      g.unavailable++;
      await new Promise((r) => setTimeout(r, 200));       // a client's back-off
    } else if (res.status === 409 && res.json?.error?.code === 'stale_seq') {
      const view = await callOrCut(url, 'GET', `/api/v1/games/${g.id}`, { token: g.tokens.black });
      if (view.status === 200) {
        g.seq = view.json.seq;
        g.toMove = view.json.to_move;
      } else if (view.status !== 503 || view.json?.error?.code !== 'unavailable') {
        g.other.push(`view: ${view.status} ${view.text}`);
      }
    } else if (res.status !== 409) {
      g.other.push(`${res.status} ${res.text}`);
    }
  }
}

test('kill -9 the primary under load, promote the synchronous standby: nothing acknowledged is lost', async () => {
  const primary = await startPostgres();
  primary.psql('CREATE DATABASE phantomgo');
  const standby = await startStandby(primary, { name: 'standby1' });
  primary.psql("ALTER SYSTEM SET synchronous_standby_names = 'standby1'");
  primary.psql('SELECT pg_reload_conf()');
  await waitFor(() => primary.psql("SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'") === 'sync',
                'the standby to be synchronous');
  const db = `host=127.0.0.1,127.0.0.1 port=${primary.port},${standby.port} user=postgres password=${PASSWORD}` +
             ' dbname=phantomgo target_session_attrs=read-write connect_timeout=2';
  let cluster;
  try {
    cluster = await startCluster(db, 3);
    const games = [];
    for (let i = 0; i < GAMES; i++) {
      const res = await call(cluster.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', settings: { size: 19 } } });
      assert.equal(res.status, 201, res.text);
      games.push({ id: res.json.game.id, tokens: Object.fromEntries(res.json.seats.map((s) => [s.color, s.token])),
                   seq: 0, toMove: 'black', acked: [], unavailable: 0, afterPromotion: 0, other: [] });
    }
    const random = rng(17);
    const stop = { now: false, promoted: false };
    const playing = Promise.all(games.map((g) => play(cluster.url, g, random, stop)));
    await new Promise((r) => setTimeout(r, 1500));
    await primary.kill9();
    standby.promote();
    stop.promoted = true;
    await new Promise((r) => setTimeout(r, 4000));
    stop.now = true;
    await playing;

    for (const g of games) {
      assert.deepEqual(g.other, [], `game ${g.id}: unexpected answers`);
      assert.ok(g.unavailable <= MAX_503_PER_GAME, `game ${g.id}: ${g.unavailable} answers 503`);
      assert.ok(g.afterPromotion > 0, `game ${g.id} did not go on after the promotion`);
      const log = standby.psql(`SELECT seq || ' ' || vertex FROM actions WHERE game_id = '${g.id}' ORDER BY seq`, 'phantomgo')
        .split('\n').filter(Boolean);
      // The mover's answer names the point tried (a move or an illegal try).
      for (const e of g.acked)
        assert.equal(log[e.seq - 1], `${e.seq} ${e.vertex}`,
                     `game ${g.id}: acknowledged seq ${e.seq} is not in the new primary's log as answered`);
    }
    const total503 = games.reduce((n, g) => n + g.unavailable, 0);
    const total = games.reduce((n, g) => n + g.acked.length, 0);
    console.log(`# ${total} actions acknowledged, ${total503} answers 503 while the database failed over`);
  } finally {
    await cluster?.stop();
    await standby.destroy();
    await primary.destroy();
  }
});
