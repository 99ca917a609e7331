// A Web Push service for the tests, on loopback: an HTTPS server whose
// certificate comes from a test CA made with openssl in a temporary
// directory (the server under test trusts it through --push-ca). Every
// message it receives is checked the way a real push service and browser
// would: the VAPID JWT's ES256 signature against the server's public key
// (GET /api/v1/push/key), its audience, expiry and subject; the headers
// (aes128gcm, TTL, Topic, Urgency); and the body decrypted with the
// subscription's own private key (RFC 8291, written here from the RFC with
// Node's crypto, independent of the server's C code). Each subscriber has
// an endpoint /push/<name> and a script of answers (default 201; 'hang':
// none at all, as a dead service).
import crypto from 'node:crypto';
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A CA and a certificate for 127.0.0.1 signed by it.
function makeCertificates(dir) {
  const run = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key',
      '-out', 'ca.pem', '-days', '2', '-subj', '/CN=phantomgo test push CA');
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'push.key',
      '-out', 'push.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run('x509', '-req', '-in', 'push.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', 'push.pem', '-days', '2', '-extfile', 'ext.cnf');
  return { ca: path.join(dir, 'ca.pem'), key: readFileSync(path.join(dir, 'push.key')),
           cert: readFileSync(path.join(dir, 'push.pem')) };
}

const b64u = (buf) => Buffer.from(buf).toString('base64url');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest();

// RFC 8291 section 3.4 and RFC 8188 section 2: the receiver's side.
export function decrypt(body, { ecdh, auth }) {
  const salt = body.subarray(0, 16), rs = body.readUInt32BE(16), idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen), record = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid of ${idlen} bytes`);
  if (record.length > rs) throw new Error('more than one record');
  const uaPublic = ecdh.getPublicKey();
  const secret = ecdh.computeSecret(asPublic);
  const prkKey = hmac(auth, secret);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([d.update(record.subarray(0, record.length - 16)), d.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('no last-record delimiter');
  return { text: plain.subarray(0, end).toString('utf8'), padded: plain.length, body: body.length };
}

// Checks "vapid t=<jwt>, k=<key>" against the server's key; returns the claims.
function checkVapid(header, serverKey, origin) {
  const m = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`bad Authorization: ${header}`);
  const [jwt, k] = [m[1], m[2]];
  if (k !== serverKey) throw new Error('k is not the key of GET /api/v1/push/key');
  const [h, c, s] = jwt.split('.');
  const head = JSON.parse(Buffer.from(h, 'base64url'));
  if (head.alg !== 'ES256' || head.typ !== 'JWT') throw new Error(`JWT header ${JSON.stringify(head)}`);
  const point = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({ format: 'jwk', key: { kty: 'EC', crv: 'P-256',
    x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) } });
  const ok = crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' },
                           Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('the VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(c, 'base64url'));
  const now = Date.now() / 1000;
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud}, want ${origin}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`exp ${claims.exp}`);
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub}`);
  return claims;
}

// Starts the service; resolves {url, caFile, subscriber(name), messages,
// failures, answer(name, ...statuses), waitFor(pred, ms), close()}.
export async function startPushService() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-push-'));
  const certs = makeCertificates(dir);
  const subscribers = new Map();
  const messages = [];   // {name, headers, payload, claims, at}
  const failures = [];   // what a check refused
  const waiters = [];
  let serverKey = null;
  let origin = null;
  const server = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const name = decodeURIComponent(req.url.replace(/^\/push\//, ''));
      const sub = subscribers.get(name);
      const status = sub?.script.length ? sub.script.shift() : 201;
      try {
        if (!sub) throw new Error(`unknown endpoint ${req.url}`);
        if (req.method !== 'POST') throw new Error(`method ${req.method}`);
        const h = req.headers;
        if (h['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${h['content-encoding']}`);
        if (h.ttl !== '86400') throw new Error(`TTL ${h.ttl}`);
        if (!/^(high|normal)$/.test(h.urgency ?? '')) throw new Error(`Urgency ${h.urgency}`);
        const claims = checkVapid(h.authorization, serverKey, origin);
        const body = Buffer.concat(chunks);
        const plain = decrypt(body, sub);
        const payload = JSON.parse(plain.text);
        if (h.topic !== payload.game) throw new Error(`Topic ${h.topic} for game ${payload.game}`);
        messages.push({ name, status, headers: h, payload, claims, size: body.length, at: Date.now() });
      } catch (e) {
        failures.push(`${name}: ${e.message}`);
      }
      for (const w of [...waiters]) if (w.pred()) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
      if (status === 'hang') return; /* never answers: a dead push service */
      res.writeHead(status, status === 503 && sub?.retryAfter ? { 'Retry-After': String(sub.retryAfter) } : {});
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  origin = `https://127.0.0.1:${port}`;
  return {
    url: origin, caFile: certs.ca, messages, failures,
    // The server's key, read from its API before any push is checked.
    setServerKey(k) { serverKey = k; },
    // A browser's subscription: its keys, and the JSON the Push API gives.
    subscriber(name) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const sub = { ecdh, auth, script: [], retryAfter: null };
      subscribers.set(name, sub);
      return { endpoint: `${origin}/push/${encodeURIComponent(name)}`, expirationTime: null,
               keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
    },
    // The next answers of an endpoint (then 201 again).
    answer(name, statuses, { retryAfter = null } = {}) {
      const sub = subscribers.get(name);
      sub.script.push(...statuses);
      sub.retryAfter = retryAfter;
    },
    of(name) { return messages.filter((m) => m.name === name); },
    waitFor(pred, ms = 15000) {
      if (pred()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const w = { pred, resolve: () => { clearTimeout(timer); resolve(); } };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`timed out; messages: ${JSON.stringify(messages.map((m) => [m.name, m.payload]))}; failures: ${failures}`));
        }, ms);
        waiters.push(w);
      });
    },
    async close() {
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
