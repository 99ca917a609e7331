// The players of bench/computer.sh: GAMES humans, each against the computer
// at LEVEL on 9x9, all at once, over the real API (HTTP for moves, the
// game's WebSocket for the computer's answers), with nothing but Node's
// built-ins so the benchmark needs no npm install.
//
//   node bench/computer_clients.mjs URL LEVEL GAMES MOVES
//
// Every game is created and its socket opened first; then all humans play
// at once, each MOVES moves. A human picks a random point that is neither
// its stone nor tried this turn (an illegal answer: another point, same
// turn); the clock starts when the attempt that turns out to be a move is
// sent and stops when the socket brings the view where the human is to
// move again: the computer's whole turn, its illegal attempts included.
// The human then moves again at once. Prints one JSON line: the latencies'
// p50/p99/max in ms, how many computer turns were shared ("busy"), errors.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';

const [base, level, gamesText, movesText] = process.argv.slice(2);
if (!base || !level || !gamesText || !movesText) {
  console.error('usage: computer_clients.mjs URL LEVEL GAMES MOVES');
  process.exit(2);
}
const GAMES = Number(gamesText);
const MOVES = Number(movesText);
const COLUMNS = 'ABCDEFGHJ';
const POINTS = [...COLUMNS].flatMap((c) => Array.from({ length: 9 }, (_, r) => `${c}${r + 1}`));

// A keep-alive connection the server closed while idle fails before any
// answer ("other side closed"): such a request is sent again, which the API
// makes safe (an action is retried with the same seq).
async function api(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  for (let tries = 1; !res; tries++) {
    try {
      res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
    } catch (e) {
      if (tries >= 3) throw e;
    }
  }
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

// A game's WebSocket as the human's seat: calls onView(view) for every
// update frame. Resolves once the first update has arrived.
function openSocket(id, token, onView) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const sock = net.connect(Number(port), hostname, () => {
      sock.write(`GET /api/v1/games/${id}/ws HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
                 `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    let buf = Buffer.alloc(0), upgraded = false, first = true, message = [];
    const frame = () => { // one whole frame off buf, or null
      if (buf.length < 2) return null;
      let len = buf[1] & 0x7f, at = 2;
      if (len === 126) { if (buf.length < 4) return null; len = buf.readUInt16BE(2); at = 4; }
      else if (len === 127) { if (buf.length < 10) return null; len = Number(buf.readBigUInt64BE(2)); at = 10; }
      if (buf.length < at + len) return null;
      const f = { fin: (buf[0] & 0x80) !== 0, opcode: buf[0] & 0x0f, payload: buf.subarray(at, at + len) };
      buf = buf.subarray(at + len);
      return f;
    };
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        if (!buf.subarray(0, end).toString().includes(accept)) { reject(new Error('no upgrade')); return; }
        upgraded = true;
        buf = buf.subarray(end + 4);
        const payload = Buffer.from(JSON.stringify({ type: 'hello', token, since: 0 }));
        const mask = randomBytes(4);
        const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length])
                                          : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
        sock.write(Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]));
      }
      for (let f; (f = frame());) {
        if (f.opcode === 8) { sock.destroy(); return; }
        if (f.opcode !== 1 && f.opcode !== 0) continue;
        message.push(f.payload);
        if (!f.fin) continue;
        const msg = JSON.parse(Buffer.concat(message).toString());
        message = [];
        if (msg.type !== 'update') continue;
        onView(msg.view);
        if (first) { first = false; resolve(sock); }
      }
    });
    sock.on('error', reject);
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// One game: created, its socket open; play() makes its MOVES moves.
async function newGame(seed) {
  const created = await api('POST', '/api/v1/games', { mode: 'computer', color: 'black', level, settings: { size: 9 } });
  const game = { id: created.game.id, token: created.seats[0].token, view: null, waiters: [], rand: seed };
  game.socket = await openSocket(game.id, game.token, (view) => {
    if (!game.view || view.seq >= game.view.seq) game.view = view;
    for (const w of [...game.waiters]) if (w.pred(game.view)) { game.waiters.splice(game.waiters.indexOf(w), 1); w.resolve(); }
  });
  return game;
}

function until(game, pred) {
  if (game.view && pred(game.view)) return Promise.resolve();
  return new Promise((resolve) => game.waiters.push({ pred, resolve }));
}

function random(game) {
  game.rand = (game.rand * 1103515245 + 12345) % 2147483648;
  return game.rand;
}

async function play(game, out) {
  for (let m = 0; m < MOVES; m++) {
    await until(game, (v) => v.over || v.to_move === 'black');
    if (game.view.over) return;
    let tried = new Set(game.view.tried), own = new Set(game.view.stones.black), seq = game.view.seq;
    for (;;) {
      const free = POINTS.filter((p) => !own.has(p) && !tried.has(p));
      const act = free.length ? { action: 'attempt', vertex: free[random(game) % free.length] } : { action: 'pass' };
      const start = performance.now();
      const r = await api('POST', `/api/v1/games/${game.id}/actions`, { seq: seq + 1, ...act }, game.token);
      seq = r.view.seq;
      if (r.event.type === 'illegal') { tried = new Set(r.view.tried); continue; }
      await until(game, (v) => v.seq > seq && (v.over || v.to_move === 'black'));
      out.latencies.push(performance.now() - start);
      if (game.view.computer?.busy) out.busy++;
      out.percent += game.view.computer?.think_percent ?? 100;
      break;
    }
  }
}

const out = { latencies: [], busy: 0, percent: 0, errors: 0, first_error: '' };
const games = [];
for (let i = 0; i < GAMES; i += 25)
  games.push(...await Promise.all(Array.from({ length: Math.min(25, GAMES - i) }, (_, k) => newGame(i + k + 1))));
await Promise.all(games.map((g) => play(g, out).catch((e) => { out.errors++; out.first_error ||= String(e.message) + ' ' + String(e.cause?.message ?? e.cause ?? ''); })));
for (const g of games) g.socket.destroy();
const sorted = out.latencies.sort((a, b) => a - b);
console.log(JSON.stringify({
  samples: sorted.length, p50_ms: Math.round(percentile(sorted, 50)), p99_ms: Math.round(percentile(sorted, 99)),
  max_ms: Math.round(sorted[sorted.length - 1] ?? 0), busy_turns: out.busy,
  mean_think_percent: sorted.length ? Math.round(out.percent / sorted.length) : 0,
  errors: out.errors, first_error: out.first_error,
}));
process.exit(out.errors ? 1 : 0);
