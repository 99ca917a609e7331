// The PostgreSQL backup of docs/SELF-HOSTING.md, as a restore drill: while
// a server keeps serving clients on one PostgreSQL, `pg_dump -Fc` copies the
// database; a fresh PostgreSQL (another initdb) gets it back with
// `pg_restore --no-owner`, and a new `phantomgo serve` on it serves every
// game with every action acknowledged before the dump began.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

import { startPostgres } from '../pg/postgres.mjs';
import { startServer, tempDir } from '../lib/server.mjs';
import { Player, assertActionsKept, newHotseatGame } from '../lib/player.mjs';

const NO_LIMITS = ['--rate-limit', '0', '--create-limit', '0'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a pg_dump taken while serving restores into a fresh PostgreSQL that serves every acknowledged action', async () => {
  const source = await startPostgres();
  let target = null;
  const dir = tempDir('pg-dump-');
  let server = null;
  let stopped = false;
  try {
    server = await startServer({ db: source.createDatabase('phantomgo'), args: NO_LIMITS });
    const players = [];
    for (let i = 0; i < 3; i++) players.push(new Player(server.url, await newHotseatGame(server.url), 2000 + i));
    const loads = players.map((p) => p.play(() => stopped));
    while (players.reduce((n, p) => n + p.acked.length, 0) < 45) await sleep(20);
    const before = players.map((p) => [...p.acked]);
    const dump = path.join(dir, 'phantomgo.dump');
    execFileSync('pg_dump', ['-Fc', '-f', dump, '-d', source.conninfo('phantomgo')], { stdio: ['ignore', 'pipe', 'pipe'] });
    stopped = true;
    await Promise.all(loads);
    for (const p of players) assert.deepEqual(p.failures, []);
    await server.stop();
    server = null;

    target = await startPostgres();
    target.createDatabase('phantomgo');
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', '-d', target.conninfo('phantomgo'), dump],
                 { stdio: ['ignore', 'pipe', 'pipe'] });
    server = await startServer({ db: target.conninfo('phantomgo'), args: NO_LIMITS });
    for (let i = 0; i < players.length; i++) await assertActionsKept(server.url, players[i].game, before[i]);
    // The restored games go on.
    const p = players[0];
    p.base = () => server.url;
    await p.resync();
    if (p.toMove) {
      const seq = p.seq;
      await p.step();
      assert.deepEqual(p.failures, []);
      assert.ok(p.seq > seq);
    }
  } finally {
    stopped = true;
    if (server) await server.stop();
    await source.destroy();
    if (target) await target.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
