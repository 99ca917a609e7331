// The database going away, as in a failover, seen through HAProxy: every
// request gets a clear answer from a server, never one HAProxy makes up.
//
// - While PostgreSQL is down, the servers stay in HAProxy (its check is
//   /api/live, which does not ask the database) and each action is answered
//   by its server: JSON 503 `unavailable` with Retry-After. Were the check
//   /api/health, every server would fail it at once and be taken out after
//   two checks: requests in flight cut (HAProxy's 502) and the rest answered
//   by HAProxy's own 503 page. Once the database is back, the same action
//   (same seq) is applied.
// - A game whose load loses its connection halfway (after its row and log,
//   before its names and chat: the database killed the session) answers 503,
//   not 500, and loads once the database answers again. The loss is made
//   exact by a view that ends the session reading it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPostgres, PASSWORD } from '../pg/postgres.mjs';
import { startCluster } from './lib.mjs';
import { call, newGame } from '../server/lib.mjs';

// Longer than HAProxy's `inter 1s fall 2`, three times over.
const DOWN_MS = 6000;

function assertServerUnavailable(res, what) {
  assert.equal(res.status, 503, `${what}: ${res.status} ${res.text}`);
  assert.equal(res.json?.error?.code, 'unavailable', `${what}: not the server's JSON answer: ${res.text}`);
  assert.ok(Number(res.headers.get('retry-after')) >= 1, `${what}: no Retry-After`);
}

async function hotseatGame(url) {
  const { id, tokens } = await newGame(url);
  return { id, token: tokens.black, white: tokens.white };
}

async function startAll() {
  const pg = await startPostgres();
  pg.psql('CREATE DATABASE phantomgo');
  const db = `host=127.0.0.1 port=${pg.port} user=postgres password=${PASSWORD} dbname=phantomgo connect_timeout=2`;
  const cluster = await startCluster(db, 2);
  return { pg, cluster };
}

test('while the database is down, each action gets its server\'s JSON 503 with Retry-After, then goes through', async () => {
  const { pg, cluster } = await startAll();
  try {
    const g = await hotseatGame(cluster.url);
    const first = await call(cluster.url, 'POST', `/api/v1/games/${g.id}/actions`,
                             { token: g.token, body: { seq: 1, action: 'attempt', vertex: 'C3' } });
    assert.equal(first.status, 200, first.text);

    await pg.kill9();
    const action = { token: g.white, body: { seq: 2, action: 'attempt', vertex: 'G7' } };
    let tries = 0;
    for (const until = Date.now() + DOWN_MS; Date.now() < until; tries++) {
      assertServerUnavailable(await call(cluster.url, 'POST', `/api/v1/games/${g.id}/actions`, action),
                              `action while the database is down (try ${tries + 1})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const s of cluster.servers) {
      assertServerUnavailable(await call(s.url, 'GET', '/api/health'), 'the health of a server without its database');
      const live = await call(s.url, 'GET', '/api/live');
      assert.equal(live.status, 200, live.text);
      assert.equal(live.json.status, 'live');
    }

    await pg.start();
    let done;
    for (const until = Date.now() + 30000; !done && Date.now() < until;) {
      const res = await call(cluster.url, 'POST', `/api/v1/games/${g.id}/actions`, action);
      if (res.status === 200) done = res;
      else {
        assertServerUnavailable(res, 'action while the database comes back');
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    assert.ok(done, 'the action never went through once the database was back');
    assert.equal(done.json.event.seq, 2);
    assert.equal(pg.psql(`SELECT string_agg(seq || ' ' || vertex, ',' ORDER BY seq) FROM actions WHERE game_id = '${g.id}'`,
                         'phantomgo'), '1 C3,2 G7');
  } finally {
    await cluster.stop();
    await pg.destroy();
  }
});

test('a game whose load loses the database halfway answers 503, not 500, and loads once it answers', async () => {
  const { pg, cluster } = await startAll();
  try {
    // Created on one server, read on the other: the second loads it.
    const [a, b] = cluster.servers;
    const g = await hotseatGame(a.url);
    pg.psql('ALTER TABLE seat_names RENAME TO seat_names_kept;' +
            ' CREATE VIEW seat_names AS SELECT id AS game_id, 1 AS color, \'x\'::text AS name,' +
            ' 0::bigint AS updated_at_ms FROM games WHERE pg_terminate_backend(pg_backend_pid())', 'phantomgo');
    assertServerUnavailable(await call(b.url, 'GET', `/api/v1/games/${g.id}`, { token: g.token }),
                            'a load cut after the game\'s row');
    pg.psql('DROP VIEW seat_names; ALTER TABLE seat_names_kept RENAME TO seat_names', 'phantomgo');
    const view = await call(b.url, 'GET', `/api/v1/games/${g.id}`, { token: g.token });
    assert.equal(view.status, 200, view.text);
    assert.doesNotMatch(b.output(), /runtime error|AddressSanitizer/);
  } finally {
    await cluster.stop();
    await pg.destroy();
  }
});
