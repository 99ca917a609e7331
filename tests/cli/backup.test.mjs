// `phantomgo backup`: a copy of the SQLite database of a running server.
// The copy is taken while clients keep playing on the server; it must pass
// PRAGMA integrity_check (the sqlite3 shell), hold every action the server
// acknowledged before the command started, and be served by a second
// `phantomgo serve --db COPY`. A kill -9 at any moment of a backup must
// leave the target absent or whole, never torn. The binary runs as a child
// process (execFile / spawn), so this process's clients keep playing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { BIN, ROOT, startServer, tempDir } from '../lib/server.mjs';
import { Player, assertActionsKept, newHotseatGame } from '../lib/player.mjs';

const NO_LIMITS = ['--rate-limit', '0', '--create-limit', '0'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function backup(args) {
  return new Promise((resolve) => {
    execFile(BIN, ['backup', ...args], { timeout: 60000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

function sqlite(db, sql) {
  return execFileSync('sqlite3', [db], { input: sql, encoding: 'utf8' }).trim();
}

test('a backup taken under load passes integrity_check, keeps every acknowledged action and serves', async () => {
  const server = await startServer({ args: NO_LIMITS });
  const out = tempDir('pg-backup-');
  const copy = path.join(out, 'copy.db');
  let stopped = false;
  const players = [];
  try {
    for (let i = 0; i < 4; i++) players.push(new Player(server.url, await newHotseatGame(server.url), 1000 + i));
    const loads = players.map((p) => p.play(() => stopped));
    const total = () => players.reduce((n, p) => n + p.acked.length, 0);
    while (total() < 60) await sleep(20);
    const before = players.map((p) => [...p.acked]);     // acknowledged before the command started
    const started = Date.now();
    const r = await backup(['--db', server.db, '--to', copy]);
    const ended = Date.now();
    const during = players.reduce((n, p) => n + p.acked.filter((a) => a.at >= started && a.at <= ended).length, 0);
    stopped = true;
    await Promise.all(loads);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /integrity ok/);
    for (const p of players) assert.deepEqual(p.failures, []);
    assert.equal(sqlite(copy, 'PRAGMA integrity_check;'), 'ok');
    assert.equal(statSync(copy).mode & 0o777, 0o600, 'the copy holds hidden stones: mode 0600');
    assert.ok(!existsSync(`${copy}.partial`), 'the temporary file is gone');
    const second = await startServer({ db: copy, args: NO_LIMITS });
    try {
      for (let i = 0; i < players.length; i++) await assertActionsKept(second.url, players[i].game, before[i]);
    } finally {
      await second.stop();
    }
    console.log(`# backup under load: ${before.flat().length} actions acknowledged before it, ` +
                `${during} more answered during its ${ended - started} ms, all kept`);
  } finally {
    stopped = true;
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
});

test('backup refuses bad arguments, a PostgreSQL string, the database itself and a non-database', async () => {
  const dir = tempDir('pg-backup-');
  try {
    const db = path.join(dir, 'a.db');
    sqlite(db, readFileSync(path.join(ROOT, 'schema.sql'), 'utf8'));
    assert.equal((await backup([])).code, 2);
    assert.equal((await backup(['--db', db])).code, 2);
    assert.equal((await backup(['--to'])).code, 2);
    assert.equal((await backup(['--db', db, '--to', path.join(dir, 'b.db'), 'extra'])).code, 2);
    let r = await backup(['--db', 'host=/nowhere dbname=x', '--to', path.join(dir, 'b.db')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /pg_dump/);
    r = await backup(['--db', db, '--to', db]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the database itself/);
    assert.equal(sqlite(db, 'PRAGMA integrity_check;'), 'ok');
    r = await backup(['--db', path.join(dir, 'missing.db'), '--to', path.join(dir, 'b.db')]);
    assert.equal(r.code, 1);
    const other = path.join(dir, 'other.db');
    sqlite(other, 'CREATE TABLE t (x);');
    r = await backup(['--db', other, '--to', path.join(dir, 'b.db')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not a Phantom Go database/);
    assert.ok(!existsSync(path.join(dir, 'b.db')) && !existsSync(path.join(dir, 'b.db.partial')));
    r = await backup(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--to FILE/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kill -9 during a backup leaves the copy whole or absent', async () => {
  const dir = tempDir('pg-backup-');
  try {
    // A database large enough (about 4 MB) that a backup takes a while.
    const db = path.join(dir, 'src.db');
    sqlite(db, readFileSync(path.join(ROOT, 'schema.sql'), 'utf8'));
    sqlite(db, 'PRAGMA journal_mode = WAL; CREATE TABLE filler (b BLOB); ' +
               'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500) ' +
               'INSERT INTO filler SELECT randomblob(8000) FROM c;');
    const to = path.join(dir, 'copy.db');
    const t0 = Date.now();
    const full = await backup(['--db', db, '--to', to]);
    assert.equal(full.code, 0, full.stderr);
    const duration = Date.now() - t0;
    let midway = 0, whole = 0, absent = 0;
    // Kills spread over the whole run and past it, until some landed
    // mid-copy and one after the end.
    for (let i = 0; i < 16 && (midway < 2 || whole < 1); i++) {
      rmSync(to, { force: true });
      const proc = spawn(BIN, ['backup', '--db', db, '--to', to], { stdio: 'ignore' });
      const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
      await sleep(Math.round((duration * ((i * 7) % 24)) / 16));
      proc.kill('SIGKILL');
      const r = await exited;
      if (r.signal === 'SIGKILL' && existsSync(`${to}.partial`)) midway++;
      if (existsSync(to)) {
        whole++;
        assert.equal(sqlite(to, 'PRAGMA integrity_check;'), 'ok', `kill ${i}: a torn copy`);
        assert.equal(sqlite(to, 'SELECT count(*) FROM filler;'), '500', `kill ${i}: a short copy`);
      } else {
        absent++;
      }
    }
    assert.ok(midway >= 1, `no kill landed while the copy was being written (backup takes ${duration} ms)`);
    // The next run clears what a killed one left.
    rmSync(to, { force: true });
    const again = await backup(['--db', db, '--to', to]);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(!existsSync(`${to}.partial`));
    assert.equal(sqlite(to, 'SELECT count(*) FROM filler;'), '500');
    console.log(`# kill -9 during backup (${duration} ms each): ${midway} mid-copy, ${whole} whole, ${absent} absent`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
