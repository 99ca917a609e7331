// The one way every node suite starts and stops a real `phantomgo serve`.
//
// startServer() spawns the binary (PHANTOMGO_BIN, else build/phantomgo) on
// port 0 (or the port of a server it replaces), waits for its "listening on
// http://ADDR:PORT" line and hands back a handle. stop() sends SIGTERM and
// asserts what a clean shutdown means: exit status 0 and no sanitizer
// report on stderr, so a suite cannot pass over a server that crashed,
// leaked or hit undefined behaviour on its way out. kill() is kill -9, for
// the crash tests; a killed handle's stop() only cleans up.
//
// The database argument is chosen here and nowhere else (testDatabase):
// a database of its own on the PostgreSQL of PHANTOMGO_TEST_PG, or
// PHANTOMGO_TEST_DB_URL when set (to run the suites against another
// backend), otherwise an SQLite file in the server's data directory. A test
// that restarts a server on the same data passes the old handle's `dir`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testDatabase as postgresDatabase } from '../pg/postgres.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.resolve(ROOT, process.env.PHANTOMGO_BIN ?? 'build/phantomgo');

// True when BIN is a sanitized build (it links libasan): slower at
// everything, its stop included, which timing promises must allow for.
export const SANITIZED = (() => {
  try { return /libasan|libtsan/.test(execFileSync('readelf', ['-d', BIN], { encoding: 'utf8' })); }
  catch { return false; }
})();

const SANITIZER_REPORT = /AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|ThreadSanitizer|runtime error:/;

// Servers still running when a test file ends (a test that failed before
// its stop()) are killed, so the file's process can exit instead of
// waiting for their pipes forever and hanging the whole run. This hook is
// registered before the file's own after() hooks and runs before them, so
// it only arms a timer: a server that those hooks stop in time leaves the
// set; one left behind 120 s later is killed (a sanitized server's leak
// check at exit can take tens of seconds on a loaded machine, and a file
// may stop several). The timer is unref'd: a file whose servers are all
// stopped exits at once.
const running = new Set();
after(() => {
  setTimeout(() => { for (const proc of running) proc.kill('SIGKILL'); }, 120000).unref();
});

export function tempDir(prefix = 'pg-test-') {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

// The --db argument for a server whose data directory is dir: under
// tests/pg/with-postgres.mjs (PHANTOMGO_TEST_PG) a PostgreSQL database of
// that directory's own, so servers do not see each other's games and a
// restart on the same dir finds its own.
export function testDatabase(dir) {
  return postgresDatabase(dir) ?? (process.env.PHANTOMGO_TEST_DB_URL || path.join(dir, 'pg.db'));
}

// Set when the suites run on PostgreSQL (tests/pg/with-postgres.mjs): the
// few tests about the SQLite file itself skip then, saying so.
export const ON_POSTGRES = Boolean(process.env.PHANTOMGO_TEST_PG || process.env.PHANTOMGO_TEST_DB_URL);

// Throws unless the exit {code, signal} and stderr are a clean shutdown's.
export function assertCleanExit({ code, signal }, stderr, what = 'server') {
  if (SANITIZER_REPORT.test(stderr)) throw new Error(`sanitizer report from the ${what}:\n${stderr}`);
  if (code !== 0) throw new Error(`${what} exited with ${code ?? signal}; stderr:\n${stderr}`);
}

// Options:
//   dir        data directory to reuse (a restart); otherwise a fresh one,
//              removed by stop() unless removeDir says otherwise
//   db         an explicit --db value (tests about the SQLite file itself;
//              no directory is made then)
//   port       0 (a free port) unless a restart must keep its address
//   args, env  extra flags and environment
//   spawnVia   (bin, argv) => ChildProcess, to start it under a wrapper
// The handle: {url, port, dir, db, proc, exited, output(), stderr(),
//              stop({keepData}), kill()}.
export async function startServer({ dir, db, port = 0, args = [], env = {}, spawnVia,
                                    removeDir = !dir && !db, timeoutMs = 20000 } = {}) {
  if (!db) dir ??= tempDir();
  db ??= testDatabase(dir);
  const argv = ['serve', '--port', String(port), '--db', db, '--root', ROOT, ...args];
  const proc = spawnVia ? spawnVia(BIN, argv)
    : spawn(BIN, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; err += d; });
  running.add(proc);
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => { running.delete(proc); resolve({ code, signal }); }));
  const cleanUp = (keepData) => { if (removeDir && dir && !keepData) rmSync(dir, { recursive: true, force: true }); };
  const started = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    proc.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1].replace(/\/$/, '')); }
    });
    proc.on('error', (e) => { clearTimeout(timer); reject(e); });
    exited.then((r) => { clearTimeout(timer); reject(new Error(`server exited ${JSON.stringify(r)} before listening:\n${out}`)); });
  });
  // A server that never listened (a test of a refused start) leaves no
  // directory behind either.
  const url = await started.catch((e) => { cleanUp(false); throw e; });
  let killed = false;
  return {
    url, port: Number(new URL(url).port), dir, db, proc, exited,
    output: () => out,      // stdout and stderr as they came
    stderr: () => err,
    // SIGTERM, then asserts a clean exit; resolves {code, signal}.
    async stop({ keepData = false } = {}) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      const r = await exited;
      cleanUp(keepData);
      if (!killed) assertCleanExit(r, err);
      return r;
    },
    async kill() {
      killed = true;
      proc.kill('SIGKILL');
      return exited;
    },
  };
}
