// Clients for bench/server.sh, with nothing but Node's built-ins (fetch and
// raw sockets for WebSocket), so the benchmark needs no npm install.
//
//   node bench/server_clients.mjs view URL FILE
//       makes a 9x9 hot-seat game in mid-play (about 40 accepted actions),
//       writes Black's view of it to FILE and prints "ID TOKEN".
//   node bench/server_clients.mjs hold URL GAMES SOCKETS
//       creates GAMES games with a few moves each and prints "games-ready";
//       after a line on stdin opens SOCKETS spectator WebSockets spread over
//       them (each answered by its first update) and prints "sockets-ready";
//       after another line on stdin closes everything and exits.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';

const COLUMNS = 'ABCDEFGHJ';

async function api(base, method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function newGame(base) {
  const g = await api(base, 'POST', '/api/v1/games', { mode: 'hotseat', settings: { size: 9 } });
  return { id: g.game.id, tokens: Object.fromEntries(g.seats.map((s) => [s.color, s.token])) };
}

// Plays `actions` accepted attempts, like two blind players.
async function play(base, game, actions, seed) {
  let s = seed, seq = 0, toMove = 'black';
  const mine = { black: new Set(), white: new Set() };
  let tried = new Set();
  while (seq < actions) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const v = `${COLUMNS[s % 9]}${1 + (Math.floor(s / 9) % 9)}`;
    if (mine[toMove].has(v) || tried.has(v)) continue;
    const r = await api(base, 'POST', `/api/v1/games/${game.id}/actions`,
                        { seq: seq + 1, action: 'attempt', vertex: v }, game.tokens[toMove]);
    seq = r.view.seq;
    if (r.event.type === 'illegal') { tried.add(v); continue; }
    mine[toMove] = new Set(r.view.stones[toMove]);
    tried = new Set();
    toMove = r.view.to_move;
  }
}

function openSpectator(base, id) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const sock = net.connect(Number(port), hostname, () => {
      sock.write(`GET /api/v1/games/${id}/ws HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
                 `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    let buf = Buffer.alloc(0), upgraded = false;
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        if (!buf.subarray(0, end).toString().includes(accept)) { reject(new Error('no upgrade')); return; }
        upgraded = true;
        buf = buf.subarray(end + 4);
        const payload = Buffer.from(JSON.stringify({ type: 'hello', token: null, since: 0 }));
        const mask = randomBytes(4);
        sock.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask,
                                  Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]));
      }
      if (upgraded && buf.length > 0) resolve(sock);      /* the first update has begun */
    });
    sock.on('error', reject);
  });
}

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

const [mode, base, a, b] = process.argv.slice(2);
if (mode === 'view') {
  const game = await newGame(base);
  await play(base, game, 40, 12345);
  const res = await fetch(`${base}/api/v1/games/${game.id}`, { headers: { Authorization: `Bearer ${game.tokens.black}` } });
  writeFileSync(a, await res.text());
  console.log(`${game.id} ${game.tokens.black}`);
  process.exit(0);
} else if (mode === 'hold') {
  const games = [];
  for (let i = 0; i < Number(a); i++) {
    const g = await newGame(base);
    await play(base, g, 4, i + 1);
    games.push(g);
  }
  console.log('games-ready');
  await lines.next();
  const sockets = [];
  for (let i = 0; i < Number(b); i += 50)
    sockets.push(...await Promise.all(Array.from({ length: Math.min(50, Number(b) - i) },
                                                 (_, k) => openSpectator(base, games[(i + k) % games.length].id))));
  console.log('sockets-ready');
  await lines.next();
  for (const s of sockets) s.destroy();
  process.exit(0);
} else {
  console.error('usage: server_clients.mjs view URL FILE | hold URL GAMES SOCKETS');
  process.exit(2);
}
