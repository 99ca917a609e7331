// Helpers of the hardening suite: start a real server process on a free
// loopback port with its own database directory, talk HTTP to it, and speak
// just enough WebSocket (RFC 6455) to behave like a client, a hostile client
// included: our own small client, not a library, because the tests need to
// send what no well-behaved library would (oversized frames, sockets that are
// never read, requests dripped one byte at a time).
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { strictUtf8 } from '../lib/http.mjs';
import * as serverProcess from '../lib/server.mjs';

export { BIN, ROOT } from '../lib/server.mjs';
export { newGame, rng } from '../lib/games.mjs';

export function tempDir(prefix = 'pg-hard-') {
  return serverProcess.tempDir(prefix);
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

// Starts `phantomgo serve` on 127.0.0.1 (tests/lib/server.mjs: its options
// and handle). Its output() keeps everything the process wrote, for the
// "no token in the logs" checks; stop() (SIGTERM) asserts a clean exit,
// kill() is kill -9. `db` pins the database file for the tests about it.
export function startServer({ args = [], ...options } = {}) {
  return serverProcess.startServer({ ...options, args: ['--listen', '127.0.0.1', ...args] });
}

// One HTTP request on a fresh connection (no keep-alive, so every request is
// also a connection, as a fresh client would make it), from the loopback
// address `from` if given (127.0.0.2... act as other clients). Resolves
// {status, headers, text, json}; `json` is undefined when the body is not JSON.
export function request(base, method, urlPath, { body, token, headers = {}, raw, from } = {}) {
  const u = new URL(urlPath, base);
  const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const h = { Connection: 'close', ...headers };
  if (method !== 'GET' && method !== 'HEAD' && h['Content-Type'] === undefined) h['Content-Type'] = 'application/json';
  if (h['Content-Type'] === null) delete h['Content-Type'];
  if (payload !== undefined) h['Content-Length'] ??= Buffer.byteLength(payload);
  if (token) h.Authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search,
                               headers: h, agent: false, localAddress: from }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        if (res.statusCode >= 400) strictUtf8(bytes, `${method} ${urlPath} -> ${res.statusCode}`);
        const text = bytes.toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

// Shorthands for the API of docs/API.md.
export const api = {
  create: (base, body = { mode: 'hotseat', settings: { size: 9 } }) =>
    request(base, 'POST', '/api/v1/games', { body }),
  claim: (base, id, invite) => request(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite } }),
  view: (base, id, token) => request(base, 'GET', `/api/v1/games/${id}`, { token }),
  act: (base, id, token, seq, action, vertex) =>
    request(base, 'POST', `/api/v1/games/${id}/actions`,
            { token, body: vertex === undefined ? { seq, action } : { seq, action, vertex } }),
  events: (base, id, token, since) => request(base, 'GET', `/api/v1/games/${id}/events?since=${since}`, { token }),
  sgf: (base, id, token) => request(base, 'GET', `/api/v1/games/${id}/sgf`, { token }),
  aid: (base, id, token, query = '') => request(base, 'GET', `/api/v1/games/${id}/aid${query}`, { token }),
};

// ---- A raw socket: send bytes exactly as given, read whatever comes. ----

export function connect(port, host = '127.0.0.1', localAddress = undefined) {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host, localAddress }, () => resolve(s));
    s.once('error', reject);
  });
}

// Sends a whole request as raw text and resolves the raw answer (until the
// server closes or `ms` pass).
export async function rawExchange(port, text, ms = 5000) {
  const s = await connect(port);
  return new Promise((resolve) => {
    let data = '';
    const done = () => { clearTimeout(t); s.destroy(); resolve(data); };
    const t = setTimeout(done, ms);
    s.on('data', (d) => { data += d; });
    s.on('close', done);
    s.on('error', done);
    s.write(text);
  });
}

export function statusOf(rawAnswer) {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(rawAnswer);
  return m ? Number(m[1]) : null;
}

// ---- WebSocket client (text frames, client-to-server frames masked). ----

export function encodeFrame(payload, { opcode = 1, fin = true, lengthOverride } = {}) {
  const data = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const len = lengthOverride ?? data.length;
  let head;
  if (len < 126) { head = Buffer.alloc(2); head[1] = 0x80 | len; }
  else if (len < 65536) { head = Buffer.alloc(4); head[1] = 0x80 | 126; head.writeUInt16BE(len, 2); }
  else { head = Buffer.alloc(10); head[1] = 0x80 | 127; head.writeBigUInt64BE(BigInt(len), 2); }
  head[0] = (fin ? 0x80 : 0) | opcode;
  const mask = randomBytes(4);
  const masked = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) masked[i] = data[i] ^ mask[i & 3];
  return Buffer.concat([head, mask, masked]);
}

// Opens a WebSocket to urlPath and resolves a client with:
//   send(obj|string), next(ms) -> the next message {opcode, text, json},
//   messages (all received), closed (a promise of {code, reason}), socket, close().
// origin: an Origin header to send (none by default, as a program would).
export async function openWs(port, urlPath, { read = true, from, origin } = {}) {
  const s = await connect(port, '127.0.0.1', from);
  const key = randomBytes(16).toString('base64');
  s.write(`GET ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
          (origin ? `Origin: ${origin}\r\n` : '') +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  if (!read) return { socket: s };   // a client that never reads its socket
  let buf = Buffer.alloc(0);
  const head = await new Promise((resolve, reject) => {
    const onData = (d) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      s.off('data', onData);
      const text = buf.subarray(0, end).toString();
      buf = buf.subarray(end + 4);
      resolve(text);
    };
    s.on('data', onData);
    s.once('error', reject);
    s.once('close', () => reject(new Error('closed during the WebSocket handshake')));
  });
  const status = statusOf(head);
  if (status !== 101) { s.destroy(); const e = new Error(`WebSocket refused: ${head}`); e.status = status; throw e; }
  const accept = createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  if (!head.toLowerCase().includes(accept.toLowerCase())) throw new Error(`bad Sec-WebSocket-Accept: ${head} (want ${accept} for ${key})`);
  return wsClient(s, buf);
}

function wsClient(s, initial) {
  let buf = initial;
  const messages = [];
  const waiters = [];
  let closeInfo = null;
  let resolveClosed;
  const closed = new Promise((r) => { resolveClosed = r; });
  const deliver = (m) => {
    messages.push(m);
    const w = waiters.shift();
    if (w) w(m);
  };
  const parse = () => {
    for (;;) {
      if (buf.length < 2) return;
      const opcode = buf[0] & 0x0f;
      let len = buf[1] & 0x7f;
      let off = 2;
      if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); off = 10; }
      if (buf[1] & 0x80) off += 4;   // servers never mask; tolerate it anyway
      if (buf.length < off + len) return;
      const payload = buf.subarray(off, off + len);
      buf = buf.subarray(off + len);
      if (opcode === 8) {
        closeInfo = { code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
                      reason: payload.subarray(2).toString() };
        if (!s.destroyed) s.end(encodeFrame(payload.subarray(0, 2), { opcode: 8 }));
      } else if (opcode === 9) {
        s.write(encodeFrame(payload, { opcode: 10 }));
      } else if (opcode === 1 || opcode === 2) {
        const text = payload.toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        deliver({ opcode, text, json });
      }
    }
  };
  s.on('data', (d) => { buf = Buffer.concat([buf, d]); parse(); });
  s.on('error', () => {});
  s.on('close', () => {
    resolveClosed(closeInfo ?? { code: 1006, reason: '' });
    for (const w of waiters.splice(0)) w(null);
  });
  parse();
  let consumed = 0;
  return {
    socket: s, messages, closed,
    send(obj) { s.write(encodeFrame(typeof obj === 'string' ? obj : JSON.stringify(obj))); },
    sendRaw(bytes) { s.write(bytes); },
    // The next message not yet returned by next(), or null on close/timeout.
    next(ms = 5000) {
      if (consumed < messages.length) return Promise.resolve(messages[consumed++]);
      if (s.destroyed) return Promise.resolve(null);
      return new Promise((resolve) => {
        const t = setTimeout(() => { const i = waiters.indexOf(w); if (i >= 0) waiters.splice(i, 1); resolve(null); }, ms);
        const w = (m) => { clearTimeout(t); if (m) consumed++; resolve(m); };
        waiters.push(w);
      });
    },
    close() { if (!s.destroyed) s.end(encodeFrame(Buffer.from([0x03, 0xe8]), { opcode: 8 })); s.destroy(); },
  };
}

// Opens a game's WebSocket and says hello; resolves the client after the
// first update (or error) frame, which is returned as `first`.
export async function watch(port, id, token = null, since = 0, from = undefined) {
  const ws = await openWs(port, `/api/v1/games/${id}/ws`, { from });
  ws.send({ type: 'hello', token, since });
  ws.first = await ws.next(5000);
  return ws;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Wall-clock milliseconds of an async call.
export async function timed(fn) {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}
