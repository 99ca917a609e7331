#!/usr/bin/env node
// Runs a command beside a fresh PostgreSQL started for it (postgres.mjs):
//   node tests/pg/with-postgres.mjs COMMAND ARGS...
// The command finds the server in PHANTOMGO_TEST_PG (a connection string
// without a dbname); the server is stopped and its directory removed when
// the command ends, and the command's exit status is passed on.
import { spawn } from 'node:child_process';
import { startPostgres } from './postgres.mjs';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: with-postgres.mjs COMMAND [ARGS...]');
  process.exit(2);
}
const pg = await startPostgres();
const base = `host=${pg.dir} port=${pg.port} user=postgres`;
const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, PHANTOMGO_TEST_PG: base } });
const stopChild = (sig) => child.kill(sig);
process.on('SIGINT', stopChild);
process.on('SIGTERM', stopChild);
const status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
await pg.destroy();
process.exit(status);
