// A server's death moves its games to the others, losing nothing: GAMES
// games in play through HAProxy on three servers sharing one PostgreSQL,
// a spectator WebSocket on some of them; many times over, one server is
// killed -9 at a random moment and started again a little later (so the
// hash moves its games away and back). Every action answered 200 is in the
// log as answered, no seq is answered twice with different contents, every
// game goes on, and every spectator, reconnecting with its last seq as a
// browser does, ends with every event of its game exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startPostgres } from '../pg/postgres.mjs';
import { startCluster } from './lib.mjs';
import { call, allVertices, rng } from '../server/lib.mjs';

const GAMES = Number(process.env.FAILOVER_GAMES ?? 200);
const SPECTATED = Math.min(GAMES, 40);
const KILLS = Number(process.env.FAILOVER_KILLS ?? 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Plays until stop.now; a lost answer (0, 408, 502-504) is retried with the
// same body, as the API's seq makes safe.
async function play(url, g, random, stop) {
  const free = allVertices(9);
  let body = null;
  while (!stop.now) {
    body ??= { seq: g.seq + 1, action: 'attempt', vertex: free[Math.floor(random() * free.length)] };
    const res = await call(url, 'POST', `/api/v1/games/${g.id}/actions`, { token: g.tokens[g.toMove], body })
      .catch(() => ({ status: 0 }));
    if (res.status === 200) {
      const e = res.json.event;
      const before = g.acked.get(e.seq);
      if (before) assert.deepEqual(e, before, `game ${g.id}: seq ${e.seq} answered twice differently`);
      g.acked.set(e.seq, e);
      g.seq = e.seq;
      g.toMove = res.json.view.to_move;
      if (res.json.view.over) return;
      body = null;
    } else if ([0, 408, 502, 503, 504].includes(res.status)) {    // transport: HAProxy or a dead server
      g.retries++;
      await sleep(100);
    } else if (res.status === 409 && res.json?.error?.code === 'stale_seq') {
      const view = (await call(url, 'GET', `/api/v1/games/${g.id}`, { token: g.tokens.black }).catch(() => null))?.json;
      if (view) { g.seq = view.seq; g.toMove = view.to_move; }
      body = null;
    } else if (res.status === 409) {
      body = null;                                   // own stone or tried: another point
    } else {
      g.other.push(`${res.status} ${res.text}`);
      body = null;
    }
  }
}

// A spectator that reconnects whenever its socket closes, with since = the
// last seq it saw; records every event seq it is sent.
function spectate(url, id, stop) {
  const s = { seqs: [], last: 0, connections: 0 };
  const connect = () => {
    if (stop.closed) return;
    const u = new URL(`/api/v1/games/${id}/ws`, url);
    u.protocol = 'ws:';
    const ws = new WebSocket(u);
    s.ws = ws;
    s.connections++;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token: null, since: s.last })));
    ws.on('message', (data) => {
      const f = JSON.parse(String(data));
      for (const e of f.events ?? []) { s.seqs.push(e.seq); s.last = Math.max(s.last, e.seq); }
    });
    ws.on('error', () => {});
    ws.on('close', () => { if (!stop.closed) setTimeout(connect, 200); });
  };
  connect();
  return s;
}

test(`kill -9 one of three servers ${KILLS} times under ${GAMES} games: nothing lost, nothing twice`, async () => {
  const pg = await startPostgres();
  const stop = { now: false, closed: false };
  const spectators = [];
  let cluster;
  try {
    cluster = await startCluster(pg.createDatabase('phantomgo'), 3);
    const create = async () => {
      // A keep-alive connection closed under a request is tried again.
      let res;
      for (let tries = 0; !res && tries < 5; tries++)
        res = await call(cluster.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', settings: { size: 9 } } })
          .catch(() => null);
      assert.equal(res.status, 201, res.text);
      return { id: res.json.game.id, tokens: Object.fromEntries(res.json.seats.map((s) => [s.color, s.token])),
               seq: 0, toMove: 'black', acked: new Map(), retries: 0, other: [] };
    };
    const games = [];
    while (games.length < GAMES)
      games.push(...await Promise.all(Array.from({ length: Math.min(20, GAMES - games.length) }, create)));
    for (const g of games.slice(0, SPECTATED)) spectators.push(spectate(cluster.url, g.id, stop));
    const random = rng(1717);
    const playing = Promise.all(games.map((g) => play(cluster.url, g, random, stop)));
    const progress = [];
    for (let k = 0; k < KILLS; k++) {
      await sleep(400 + Math.floor(random() * 1200));
      const i = Math.floor(random() * 3);
      await cluster.servers[i].kill();
      const before = games.reduce((n, g) => n + g.acked.size, 0);
      await sleep(1500 + Math.floor(random() * 1000));     // HAProxy notices, games move
      progress.push(games.reduce((n, g) => n + g.acked.size, 0) - before);
      await cluster.restart(i);
    }
    await sleep(1500);
    stop.now = true;
    await playing;

    for (const [k, n] of progress.entries()) assert.ok(n > 0, `no game went on while server ${k} was down`);
    const rows = pg.psql("SELECT game_id || ' ' || seq || ' ' || vertex FROM actions ORDER BY game_id, seq", 'phantomgo')
      .split('\n').filter(Boolean).map((l) => l.split(' '));
    const logs = new Map();
    for (const [id, seq, vertex] of rows) {
      if (!logs.has(id)) logs.set(id, []);
      logs.get(id).push([Number(seq), vertex ?? '']);
    }
    for (const g of games) {
      assert.deepEqual(g.other, [], `game ${g.id}: unexpected answers`);
      const log = logs.get(g.id) ?? [];
      log.forEach(([seq], i) => assert.equal(seq, i + 1, `game ${g.id}: the log has a gap`));
      for (const [seq, e] of g.acked)
        assert.equal(log[seq - 1]?.[1], e.vertex ?? '', `game ${g.id}: acknowledged seq ${seq} differs in the log`);
    }
    // Each spectator catches up with its game's log, every event once.
    for (const [i, s] of spectators.entries()) {
      const n = (logs.get(games[i].id) ?? []).length;
      const until = Date.now() + 15000;
      while (s.last < n && Date.now() < until) await sleep(100);
      assert.deepEqual(s.seqs, Array.from({ length: n }, (_, k) => k + 1),
                       `spectator of ${games[i].id} (${s.connections} connections)`);
    }
    const acked = games.reduce((n, g) => n + g.acked.size, 0);
    const retries = games.reduce((n, g) => n + g.retries, 0);
    console.log(`# ${acked} actions acknowledged, ${retries} requests retried, ${KILLS} servers killed`);
  } finally {
    stop.now = true;
    stop.closed = true;
    for (const s of spectators) s.ws?.close();
    await cluster?.stop();
    await pg.destroy();
  }
});
