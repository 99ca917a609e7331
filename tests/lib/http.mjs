// The test suites' HTTP client: one API call, answered as
// {status, headers, text, json}.
import http from 'node:http';

// One API call; resolves {status, headers, text, json}.
//
// Each call opens its own connection (agent: false). The server closes an
// idle keep-alive connection after half a second; a client that reuses one
// just as it closes sees its request fail ("fetch failed"), a race of HTTP
// keep-alive itself that a loaded machine turns into flaky tests. Browsers
// retry such a request; a test client that never reuses a socket avoids it.
//
// Every write says it is JSON, as the page does (the server answers 415
// otherwise); a test of that rule passes its own Content-Type, or null to
// send none. Every error body must be valid UTF-8: it is decoded strictly.
export function call(base, method, urlPath, { body, token, headers = {}, raw } = {}) {
  const h = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (method !== 'GET' && method !== 'HEAD' && h['Content-Type'] === undefined) h['Content-Type'] = 'application/json';
  if (h['Content-Type'] === null) delete h['Content-Type'];
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) h['Content-Length'] = Buffer.byteLength(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, base), { method, headers: h, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        if (res.statusCode >= 400) strictUtf8(bytes, `${method} ${urlPath} -> ${res.statusCode}`);
        const text = bytes.toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        const hs = new Headers();
        for (const [k, v] of Object.entries(res.headers)) hs.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode, headers: hs, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

// Throws if bytes are not valid UTF-8 (every error answer must be).
export function strictUtf8(bytes, where = 'answer') {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${where}: the body is not valid UTF-8: ${bytes.toString('hex').slice(0, 200)}`);
  }
}
