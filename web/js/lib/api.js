// The HTTP API client (docs/API.md); live.js keeps the WebSockets.
//
// request() turns every failure into an ApiError carrying the server's code,
// so pages can translate it. act() is the one call that changes a game: it
// resends the very same body (same seq) after a network failure or 503, which
// the server recognises as a retry, so an action is never lost or doubled.
// Creating a game, claiming or joining a seat and offering a rematch carry an
// Idempotency-Key instead (once()): a fresh random key per call, the same key
// on that call's own retries, so a lost answer never makes a second game.

export class ApiError extends Error {
  // reason: the why of a refused text (400 bad_text), e.g. 'bidi'.
  constructor(status, code, message, retryAfter = null, reason = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.reason = reason;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function request(method, path, { token = null, body = undefined, accept = 'json', keepalive = false, key = null } = {}) {
  const headers = {};
  if (key) headers['Idempotency-Key'] = key;
  if (token) headers.Authorization = `Bearer ${token}`;
  // Every write says it is JSON: the server refuses others (415), so that no
  // other site can make a browser write here without a CORS preflight.
  if (method !== 'GET' && method !== 'HEAD') headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      keepalive,
    });
  } catch (error) {
    throw new ApiError(0, 'network', error.message);
  }
  if (!response.ok) throw await errorFrom(response);
  if (accept === 'text') return response.text();
  return response.json();
}

async function errorFrom(response) {
  let code = 'http_' + response.status;
  let message = response.statusText;
  let reason = null;
  try {
    const payload = await response.json();
    if (payload && payload.error) {
      code = payload.error.code ?? code;
      message = payload.error.message ?? message;
      reason = payload.error.reason ?? null;
    }
  } catch {
    // Not a JSON error body (a proxy page, say): keep the HTTP status.
  }
  const retryAfter = Number(response.headers.get('Retry-After')) || null;
  return new ApiError(response.status, code, message, retryAfter, reason);
}

const gamePath = (id) => `/api/v1/games/${encodeURIComponent(id)}`;

// A retry is safe when the request may not have reached the game at all.
function retryable(error) {
  return error.status === 0 || error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504;
}

// A key nobody can guess (docs/API.md asks for one): a random UUID.
// crypto.randomUUID needs a secure context; a server reached over plain
// http on a home network is not one, so the same from getRandomValues.
function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// A POST that must happen once: one Idempotency-Key for it and all its
// retries (a lost answer, a busy server, the same key still running
// elsewhere), so the server answers a retry with the first answer.
async function once(path, options, attempts = 4) {
  const key = newKey();
  for (let attempt = 1; ; attempt++) {
    try {
      return await request('POST', path, { ...options, key });
    } catch (error) {
      // Not a 429: the page tells the user to wait rather than wait silently.
      const again = (retryable(error) && error.status !== 429) || error.code === 'idempotency_key_in_use';
      if (!again || attempt >= attempts) throw error;
      await sleep(error.retryAfter ? error.retryAfter * 1000 : 250 * 2 ** attempt);
    }
  }
}

export const api = {
  health: () => request('GET', '/api/health'),
  // The operator's routes (docs/API.md, "Admin"): route is what follows
  // /api/v1/admin/, e.g. 'reports' or 'games/ID/hide'.
  admin: (method, route, token, body = undefined) => request(method, `/api/v1/admin/${route}`, { token, body }),
  createGame: (body) => once('/api/v1/games', { body }),
  claim: (id, invite, name) => once(`${gamePath(id)}/claim`, { body: name ? { invite, name } : { invite } }),
  join: (id, name) => once(`${gamePath(id)}/join`, { body: name ? { name } : {} }),
  lobby: () => request('GET', '/api/v1/lobby'),
  lobbySocketPath: '/api/v1/lobby/ws',
  view: (id, token) => request('GET', gamePath(id), { token }),
  events: (id, token, since) => request('GET', `${gamePath(id)}/events?since=${since}`, { token }),
  gameSocketPath: (id) => `${gamePath(id)}/ws`,
  notes: (id, token) => request('GET', `${gamePath(id)}/notes`, { token }),
  // keepalive lets the last save finish while the page is being left.
  saveNotes: (id, token, ghosts, keepalive = false) => request('PUT', `${gamePath(id)}/notes`, { token, body: { ghosts }, keepalive }),
  // action: 'offer' (or accept the opponent's), 'accept', 'withdraw', 'decline'.
  rematch: (id, token, action = 'offer') => once(`${gamePath(id)}/rematch`, { token, body: { action } }),
  // The lesson's referee: Black's view after the step's moves (docs/API.md, "Lesson").
  lesson: (step, moves) => request('POST', `/api/v1/lesson/${step}`, { body: { moves } }),
  qrSvg: (text) => request('POST', '/api/v1/qr', { body: { text }, accept: 'text' }),
  sgfUrl: (id) => `${gamePath(id)}/sgf`,
  // The deduction aid: a seat's own (token) now, or after the end any seat's at seq.
  aid: (id, token, query = '') => request('GET', `${gamePath(id)}/aid${query}`, { token }),
  // Table talk: the rooms this viewer reads, past the given n of each.
  chat: (id, token, after) => request('GET', `${gamePath(id)}/chat?players=${after.players}&spectators=${after.spectators}`, { token }),
  say: (id, token, body) => request('POST', `${gamePath(id)}/chat`, { token, body }),
  rename: (id, token, name) => request('PUT', `${gamePath(id)}/name`, { token, body: { name } }),
  report: (id, token, room, n) => request('POST', `${gamePath(id)}/chat/${room}/${n}/report`, { token }),
  eraseTalk: (id, token) => request('DELETE', `${gamePath(id)}/talk`, { token }),
  cancel: (id, token) => request('POST', `${gamePath(id)}/cancel`, { token, body: {} }),
  // Web Push: the server's key, and a seat's subscription of this browser.
  pushKey: () => request('GET', '/api/v1/push/key'),
  pushSubscribe: (id, token, subscription) => request('PUT', `${gamePath(id)}/push`, { token, body: subscription }),
  pushUnsubscribe: (id, token, endpoint) => request('DELETE', `${gamePath(id)}/push`, { token, body: { endpoint } }),

  // Sends one action, retrying the identical request until it gets an answer
  // or `deadlineMs` passes; onRetry(attempt) lets the page show "reconnecting".
  // Time spent offline does not count: the action goes once the browser is
  // back online.
  async act(id, token, body, { deadlineMs = 30000, onRetry = () => {} } = {}) {
    let started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        if (!navigator.onLine) {
          await new Promise((resolve) => addEventListener('online', resolve, { once: true }));
          started = Date.now();
        }
        return await request('POST', `${gamePath(id)}/actions`, { token, body });
      } catch (error) {
        if (!retryable(error) || Date.now() - started > deadlineMs) throw error;
        onRetry(attempt);
        const wait = error.retryAfter ? error.retryAfter * 1000 : Math.min(4000, 250 * 2 ** attempt);
        await sleep(wait);
      }
    }
  },
};
