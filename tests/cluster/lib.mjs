// Helpers of the cluster suite: a PostgreSQL (tests/pg/postgres.mjs), N
// `phantomgo serve` processes on it (tests/lib/server.mjs) and Debian's
// HAProxy in front, started with docker/haproxy.cfg itself: only its bind
// address and `server` lines are rewritten to the loopback ports of this run
// and its per-address limits dropped (every test client is 127.0.0.1), so
// what the tests prove is the routing and failover users deploy.
//
// PHANTOMGO_CLUSTER_LOG=FILE keeps HAProxy's log (one line a request, with
// its termination state, and every server going down or up) and writes it
// to FILE when the cluster stops, the servers' output beside it as
// FILE.serverN: what to read when a cluster test fails.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, startServer, tempDir } from '../lib/server.mjs';
import { freePort } from '../pg/postgres.mjs';

export const HAPROXY_CFG = path.join(ROOT, 'docker/haproxy.cfg');
const LOG_FILE = process.env.PHANTOMGO_CLUSTER_LOG || '';

// docker/haproxy.cfg for servers on the given loopback ports, HAProxy on
// `port`. Each `server appN ...` line keeps its options (check or track).
export function haproxyConfig(port, serverPorts) {
  const text = readFileSync(HAPROXY_CFG, 'utf8');
  const out = text.replace(/^(\s*)bind :8080$/m, `$1bind 127.0.0.1:${port}`)
    .replace(/^(\s*)log stdout.*$/m, LOG_FILE ? '$&' : '$1# log: off in tests')
    .replace(/^(\s*)maxconn \d+$/m, '$1maxconn 2000');
  return out.split('\n').flatMap((line) => {
    const m = /^(\s*)server app1 app1:8080 (.*)$/.exec(line);
    if (m) return serverPorts.map((p, i) => `${m[1]}server app${i + 1} 127.0.0.1:${p} ${m[2].replace('games/app1', `games/app${i + 1}`)}`);
    if (/^\s*server app[2-9] /.test(line)) return [];
    if (/^\s*http-request return status 429 /.test(line)) return [];   // one test address
    return [line];
  }).join('\n');
}

export class HAProxy {
  constructor(port, serverPorts) {
    this.port = port;
    this.dir = tempDir('pg-haproxy-');
    this.cfg = path.join(this.dir, 'haproxy.cfg');
    writeFileSync(this.cfg, haproxyConfig(port, serverPorts));
    execFileSync('haproxy', ['-c', '-q', '-f', this.cfg]);
    this.url = `http://127.0.0.1:${port}`;
  }

  async start() {
    this.out = '';
    this.proc = spawn('haproxy', ['-db', '-f', this.cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (d) => { this.out += d; });
    this.proc.stderr.on('data', (d) => { this.out += d; });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    const until = Date.now() + 10000;
    while (Date.now() < until) {
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.status === 200) return this;
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`haproxy did not come up:\n${this.out}`);
  }

  async stop() {
    if (this.proc && this.proc.exitCode === null) this.proc.kill('SIGTERM');
    await this.exited;
    if (LOG_FILE) writeFileSync(LOG_FILE, this.out);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// N servers on one database (a connection string), each on a port chosen
// up front so a killed one can come back on the same address HAProxy knows.
export async function startCluster(db, n, { args = [] } = {}) {
  const ports = [];
  for (let i = 0; i < n; i++) ports.push(await freePort());
  const servers = [];
  // A sanitized server on a busy machine may take long to start.
  const start = (port) => startServer({ db, port, timeoutMs: 60000, args: ['--rate-limit', '0', '--create-limit', '0', ...args] });
  for (const port of ports) servers.push(await start(port));
  const proxy = await new HAProxy(await freePort(), ports).start();
  return {
    servers, ports, proxy, url: proxy.url,
    async restart(i) {
      servers[i] = await start(ports[i]);
      return servers[i];
    },
    // The servers first, all at once, while HAProxy still checks them: each
    // drains as in a restart (http_drain.c) and exits.
    async stop() {
      await Promise.all(servers.filter((s) => s.proc.exitCode === null && s.proc.signalCode === null)
        .map((s) => s.stop()));
      await proxy.stop();
      servers.forEach((s, i) => {
        if (LOG_FILE) writeFileSync(`${LOG_FILE}.server${i + 1}`, `exit: ${s.proc.exitCode ?? s.proc.signalCode}\n${s.output()}`);
      });
    },
  };
}
