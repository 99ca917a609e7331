// The HTTP API client (docs/API.md) and the live-update channel.
//
// request() turns every failure into an ApiError carrying the server's code,
// so pages can translate it. act() is the one call that changes a game: it
// resends the very same body (same seq) after a network failure or 503, which
// the server recognises as a retry, so an action is never lost or doubled.
//
// LiveUpdates keeps a viewer up to date: a WebSocket first; after repeated
// failures (or the server's "too many connections") it also polls the events
// endpoint while it keeps trying the socket. It always asks from the
// last sequence number the page has applied, so nothing is missed after a
// reconnect, and the page drops what it has already seen.

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
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
  try {
    const payload = await response.json();
    if (payload && payload.error) {
      code = payload.error.code ?? code;
      message = payload.error.message ?? message;
    }
  } catch {
    // Not a JSON error body (a proxy page, say): keep the HTTP status.
  }
  const retryAfter = Number(response.headers.get('Retry-After')) || null;
  return new ApiError(response.status, code, message, retryAfter);
}

const gamePath = (id) => `/api/v1/games/${encodeURIComponent(id)}`;

// A retry is safe when the request may not have reached the game at all.
function retryable(error) {
  return error.status === 0 || error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504;
}

export const api = {
  health: () => request('GET', '/api/health'),
  createGame: (body) => request('POST', '/api/v1/games', { body }),
  claim: (id, invite) => request('POST', `${gamePath(id)}/claim`, { body: { invite } }),
  join: (id) => request('POST', `${gamePath(id)}/join`, { body: {} }),
  lobby: () => request('GET', '/api/v1/lobby'),
  view: (id, token) => request('GET', gamePath(id), { token }),
  events: (id, token, since) => request('GET', `${gamePath(id)}/events?since=${since}`, { token }),
  notes: (id, token) => request('GET', `${gamePath(id)}/notes`, { token }),
  // keepalive lets the last save finish while the page is being left.
  saveNotes: (id, token, ghosts, keepalive = false) => request('PUT', `${gamePath(id)}/notes`, { token, body: { ghosts }, keepalive }),
  rematch: (id, token) => request('POST', `${gamePath(id)}/rematch`, { token, body: {} }),
  qrSvg: (text) => request('POST', '/api/v1/qr', { body: { text }, accept: 'text' }),
  sgfUrl: (id) => `${gamePath(id)}/sgf`,

  // Sends one action, retrying the identical request until it gets an answer
  // or `deadlineMs` passes; onRetry(attempt) lets the page show "reconnecting".
  async act(id, token, body, { deadlineMs = 30000, onRetry = () => {} } = {}) {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
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

const POLL_INTERVAL_MS = 2000;
const SOCKET_FAILURES_BEFORE_POLLING = 2;
const MAX_SOCKET_BACKOFF_MS = 10000;
const SOCKET_RETRY_OVERLOADED_MS = 30000;

// status: 'connecting' | 'live' | 'reconnecting' | 'polling'
export class LiveUpdates {
  constructor({ gameId, token, getSince, onUpdate, onStatus, onError }) {
    this.gameId = gameId;
    this.token = token;
    this.getSince = getSince;
    this.onUpdate = onUpdate;
    this.onStatus = onStatus;
    this.onError = onError;
    this.socket = null;
    this.failures = 0;
    this.stopped = true;
    this.pollTimer = null;
    this.socketTimer = null;
    this.status = null;
    this.handleOnline = () => this.retrySocketNow();
  }

  start() {
    this.stopped = false;
    window.addEventListener('online', this.handleOnline);
    this.setStatus('connecting');
    this.openSocket();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.handleOnline);
    clearTimeout(this.socketTimer);
    this.stopPolling();
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close(1000);
      this.socket = null;
    }
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status);
  }

  socketUrl() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}${gamePath(this.gameId)}/ws`;
  }

  openSocket() {
    if (this.stopped) return;
    let socket;
    try {
      socket = new WebSocket(this.socketUrl());
    } catch {
      this.socketFailed(null);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: 'hello', token: this.token, since: this.getSince() }));
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (closing) => {
      if (this.socket === socket) this.socket = null;
      this.socketFailed(closing.code);
    };
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === 'update') {
      this.failures = 0;
      this.stopPolling();
      this.setStatus('live');
      this.onUpdate({ events: message.events ?? [], view: message.view });
    } else if (message.type === 'error' && message.error) {
      this.onError(new ApiError(0, message.error.code, message.error.message));
    }
  }

  // Keeps retrying the socket with a growing, jittered delay; from the
  // second failure on (or at once when the server is full) it also polls,
  // so a long outage of the socket alone costs no update.
  socketFailed(closeCode) {
    if (this.stopped) return;
    this.failures += 1;
    const overloaded = closeCode === 1013;
    if (overloaded || this.failures >= SOCKET_FAILURES_BEFORE_POLLING) this.startPolling();
    if (this.status !== 'polling') this.setStatus('reconnecting');
    const backoff = Math.min(MAX_SOCKET_BACKOFF_MS, 500 * 2 ** (this.failures - 1)) * (0.5 + Math.random() / 2);
    this.socketTimer = setTimeout(() => this.openSocket(), overloaded ? SOCKET_RETRY_OVERLOADED_MS : backoff);
  }

  retrySocketNow() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.socketTimer);
    this.openSocket();
  }

  startPolling() {
    if (this.pollTimer !== null) return;
    const poll = async () => {
      if (this.stopped || this.pollTimer === null) return;
      try {
        const answer = await api.events(this.gameId, this.token, this.getSince());
        if (this.pollTimer === null) return;
        this.setStatus('polling');
        this.onUpdate({ events: answer.events ?? [], view: answer.view });
      } catch (error) {
        if (error.status > 0 && error.status < 500 && error.status !== 429) this.onError(error);
        else this.setStatus('reconnecting');
      }
      if (this.pollTimer !== null) this.pollTimer = setTimeout(poll, POLL_INTERVAL_MS);
    };
    this.pollTimer = setTimeout(poll, 0);
  }

  stopPolling() {
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }
}
