// The HTTP API client (docs/API.md); live.js keeps the WebSockets.
//
// request() turns every failure into an ApiError carrying the server's code,
// so pages can translate it. act() is the one call that changes a game: it
// resends the very same body (same seq) after a network failure or 503, which
// the server recognises as a retry, so an action is never lost or doubled.

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

async function request(method, path, { token = null, body = undefined, accept = 'json', keepalive = false } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
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

export const api = {
  health: () => request('GET', '/api/health'),
  createGame: (body) => request('POST', '/api/v1/games', { body }),
  claim: (id, invite, name) => request('POST', `${gamePath(id)}/claim`, { body: name ? { invite, name } : { invite } }),
  join: (id, name) => request('POST', `${gamePath(id)}/join`, { body: name ? { name } : {} }),
  lobby: () => request('GET', '/api/v1/lobby'),
  lobbySocketPath: '/api/v1/lobby/ws',
  view: (id, token) => request('GET', gamePath(id), { token }),
  events: (id, token, since) => request('GET', `${gamePath(id)}/events?since=${since}`, { token }),
  gameSocketPath: (id) => `${gamePath(id)}/ws`,
  notes: (id, token) => request('GET', `${gamePath(id)}/notes`, { token }),
  // keepalive lets the last save finish while the page is being left.
  saveNotes: (id, token, ghosts, keepalive = false) => request('PUT', `${gamePath(id)}/notes`, { token, body: { ghosts }, keepalive }),
  // action: 'offer' (or accept the opponent's), 'accept', 'withdraw', 'decline'.
  rematch: (id, token, action = 'offer') => request('POST', `${gamePath(id)}/rematch`, { token, body: { action } }),
  qrSvg: (text) => request('POST', '/api/v1/qr', { body: { text }, accept: 'text' }),
  sgfUrl: (id) => `${gamePath(id)}/sgf`,
  // The deduction aid: a seat's own (token) now, or after the end any seat's at seq.
  aid: (id, token, query = '') => request('GET', `${gamePath(id)}/aid${query}`, { token }),
  // Table talk: the rooms this viewer reads, past the given n of each.
  chat: (id, token, after) => request('GET', `${gamePath(id)}/chat?players=${after.players}&spectators=${after.spectators}`, { token }),
  say: (id, token, body) => request('POST', `${gamePath(id)}/chat`, { token, body }),
  rename: (id, token, name) => request('PUT', `${gamePath(id)}/name`, { token, body: { name } }),
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
