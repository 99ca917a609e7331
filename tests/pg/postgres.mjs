// A real PostgreSQL for the tests: initdb in a temporary directory, the
// server on a free loopback port with its unix socket in that directory,
// stopped and removed at the end. Debian's binaries are used as they are
// (/usr/lib/postgresql/<version>/bin).
//
// PostgreSQL refuses to run as root, and the tests and CI do run as root:
// then every PostgreSQL program runs as the unprivileged `postgres` system
// user through setpriv, and the directory is handed to that user. Run as
// anyone else, the programs run as that user.
//
// Authentication: trust on the unix socket (the tests' own connections),
// scram-sha-256 over TCP with the password PASSWORD, so a wrong password
// can be tested; replication is allowed both ways for a standby.
import { spawn, execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const PASSWORD = 'phantom-test';
const USER = 'postgres';

function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
}

const asRoot = process.getuid?.() === 0;
let pgUid = null;
let pgGid = null;
function pgIds() {
  if (pgUid === null) {
    pgUid = Number(execFileSync('id', ['-u', USER]).toString());
    pgGid = Number(execFileSync('id', ['-g', USER]).toString());
  }
  return [pgUid, pgGid];
}

// argv of a PostgreSQL program, run as the postgres user when we are root.
function command(prog, args) {
  const bin = path.join(binDir(), prog);
  if (!asRoot) return [bin, args];
  return ['setpriv', ['--reuid', USER, '--regid', USER, '--init-groups', '--', bin, ...args]];
}

function run(prog, args, opts = {}) {
  const [cmd, argv] = command(prog, args);
  return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...opts }).toString();
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

// The directory holds the unix socket, so anyone may enter it (a test
// server may run as nobody); the data directory inside stays 0700.
function ownedTempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  if (asRoot) { const [u, g] = pgIds(); chownSync(dir, u, g); }
  return dir;
}

async function waitReady(socketDir, port, proc, log) {
  const until = Date.now() + 30000;
  while (Date.now() < until) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`postgres exited:\n${log()}`);
    try {
      execFileSync('pg_isready', ['-q', '-h', socketDir, '-p', String(port)]);
      return;
    } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  throw new Error(`postgres did not become ready:\n${log()}`);
}

// One running PostgreSQL server. `conninfo(db)` is the key=value string
// for the unix socket; `tcp(db, {password})` one for 127.0.0.1.
class Postgres {
  constructor({ dir, data, port, settings }) {
    Object.assign(this, { dir, data, port, settings, proc: null, out: '' });
  }

  async start() {
    const args = ['-D', this.data, '-p', String(this.port), '-k', this.dir,
                  '-c', 'listen_addresses=127.0.0.1', ...this.settings.flatMap((s) => ['-c', s])];
    const [cmd, argv] = command('postgres', args);
    this.out = '';
    this.proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (d) => { this.out += d; });
    this.proc.stderr.on('data', (d) => { this.out += d; });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    await waitReady(this.dir, this.port, this.proc, () => this.out);
    return this;
  }

  conninfo(db = 'postgres') {
    return `host=${this.dir} port=${this.port} user=${USER} dbname=${db}`;
  }

  tcp(db = 'postgres', { password = PASSWORD } = {}) {
    return `host=127.0.0.1 port=${this.port} user=${USER} password=${password} dbname=${db}`;
  }

  // Runs SQL through psql on the unix socket; returns its unaligned output.
  psql(sql, db = 'postgres') {
    return execFileSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', this.conninfo(db), '-c', sql],
                        { stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
  }

  createDatabase(name) {
    this.psql(`CREATE DATABASE ${name}`);
    return this.conninfo(name);
  }

  async kill9() {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    await this.exited;
    // The postmaster's children notice it died and exit on their own; wait
    // until nothing holds the data directory any more.
    const until = Date.now() + 10000;
    while (Date.now() < until) {
      try { execFileSync('pg_isready', ['-q', '-h', this.dir, '-p', String(this.port)]); }
      catch { break; }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop() {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill('SIGINT');     // fast shutdown
      await this.exited;
    }
  }

  promote() {
    run('pg_ctl', ['promote', '-w', '-D', this.data]);
  }
}

// Starts a fresh server. `settings`: extra -c name=value strings.
export async function startPostgres({ settings = [] } = {}) {
  const dir = ownedTempDir('pg-db-');
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', USER, '-E', 'UTF8', '--no-sync', '--auth-local=trust',
                 '--auth-host=scram-sha-256', '--no-instructions']);
  // Replication from loopback for a standby made by startStandby.
  appendFileSync(path.join(data, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 scram-sha-256\n');
  const port = await freePort();
  const pg = new Postgres({ dir, data, port, settings: ['fsync=on', 'wal_level=replica', 'max_wal_senders=5', ...settings] });
  await pg.start();
  pg.psql(`ALTER USER ${USER} PASSWORD '${PASSWORD}'`);
  return Object.assign(pg, {
    async destroy() {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

// A streaming standby of `primary`, named `name` for
// synchronous_standby_names, in its own directory and port.
export async function startStandby(primary, { name = 'standby1' } = {}) {
  const dir = ownedTempDir('pg-standby-');
  const data = path.join(dir, 'data');
  run('pg_basebackup', ['-D', data, '-h', primary.dir, '-p', String(primary.port), '-U', USER,
                        '-X', 'stream', '-R', '--no-sync', '--checkpoint=fast']);
  appendFileSync(path.join(data, 'postgresql.auto.conf'),
                 `primary_conninfo = 'host=${primary.dir} port=${primary.port} user=${USER} application_name=${name}'\n`);
  const port = await freePort();
  const standby = new Postgres({ dir, data, port, settings: ['fsync=on', 'hot_standby=on'] });
  await standby.start();
  return Object.assign(standby, {
    async destroy() {
      await standby.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

// PHANTOMGO_TEST_PG, set by with-postgres.mjs: the connection string of a
// running test server without a dbname ("host=... port=... user=...").
export const TEST_PG = process.env.PHANTOMGO_TEST_PG || '';

// With PHANTOMGO_TEST_PG set, each key (a test server's directory, so a
// restart finds its games) gets a database of its own, created on first
// use; returns its connection string. Without it, null.
const databases = new Map();
export function testDatabase(key) {
  if (!TEST_PG) return null;
  if (!databases.has(key)) {
    const name = `t${process.pid}_${databases.size + 1}`;
    execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', `${TEST_PG} dbname=postgres`,
                          '-c', `CREATE DATABASE ${name}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    databases.set(key, `${TEST_PG} dbname=${name}`);
  }
  return databases.get(key);
}
