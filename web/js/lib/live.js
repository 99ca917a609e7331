// One live feed from the server, as the game page and the lobby use it: a
// WebSocket first; after repeated failures (or at once when the server says
// it has too many connections, close code 1013) the feed also polls while it
// keeps retrying the socket with a growing, jittered delay, so a long outage
// of the socket alone costs no update. The browser coming back online
// retries the socket at once.
//
// What differs between feeds is given: the socket path, the hello message
// (built at each connection, so it can carry the newest sequence number),
// the type of the socket's data messages and the poll request, whose answer
// has the same shape. Other message types (a game's chat) go to onOther.
// Status: 'connecting' | 'live' | 'reconnecting' |
// 'polling' | 'offline'.
//
// A socket can die silently (a laptop lid, a lost Wi-Fi, a server that
// hangs): the browser's offline event drops it at once, and while live a
// heartbeat on the socket itself ({"type":"ping"} every 2 s, answered
// {"type":"pong"}; browsers cannot send WebSocket ping frames) drops it
// when nothing at all came back for 3 s, so the page says so within
// seconds and the feed reconnects. It costs no HTTP request.
//
// A server that stops (a restart, a rolling upgrade) closes its sockets with
// code 1012 after everything due was sent: the feed reconnects at once,
// after a little jitter so that thousands of pages do not arrive in the same
// millisecond, and keeps saying 'live' meanwhile (a balancer has already
// moved the game to another server). Only if that reconnection fails does
// the usual back-off, with its 'reconnecting', begin.

const FAILURES_BEFORE_POLLING = 2;
const MAX_SOCKET_BACKOFF_MS = 10000;
const SOCKET_RETRY_OVERLOADED_MS = 30000;
const OVERLOADED = 1013;
const SERVICE_RESTART = 1012;
const RESTART_JITTER_MS = 400;
const HEARTBEAT_MS = 2000;
const HEARTBEAT_TIMEOUT_MS = 3000;
const HEARTBEAT_CHECK_MS = 500;

// An error worth showing to the person: the request itself was refused
// (4xx other than rate limiting); anything else is an outage to ride out.
const refused = (error) => error.status > 0 && error.status < 500 && error.status !== 429;

export class LiveFeed {
  constructor({ path, hello, dataType, poll, pollMs, onData, onStatus, onError = () => {}, onOther = () => {} }) {
    Object.assign(this, { path, hello, dataType, poll, pollMs, onData, onStatus, onError, onOther });
    this.heartbeatTimer = null;
    this.lastPingAt = 0;
    this.pongDueSince = null; // when the unanswered ping went, or null
    this.handleOffline = () => this.wentOffline();
    this.socket = null;
    this.failures = 0;
    this.restartSeen = false; // a 1012 not yet followed by data on a new socket
    this.stopped = true;
    this.pollTimer = null;
    this.socketTimer = null;
    this.status = null;
    this.handleOnline = () => this.retrySocketNow();
  }

  start() {
    this.stopped = false;
    window.addEventListener('online', this.handleOnline);
    window.addEventListener('offline', this.handleOffline);
    this.setStatus(navigator.onLine ? 'connecting' : 'offline');
    this.openSocket();
    this.heartbeatTimer = setInterval(() => this.beat(), HEARTBEAT_CHECK_MS);
  }

  // The network is gone: say so and drop the socket (it may not notice).
  wentOffline() {
    if (this.stopped) return;
    this.setStatus('offline');
    this.socket?.close();
  }

  // Pings a live socket now and then; one that answered nothing since the
  // last ping for HEARTBEAT_TIMEOUT_MS is taken for dead.
  beat() {
    const socket = this.socket;
    if (this.stopped || this.status !== 'live' || socket?.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.pongDueSince !== null) {
      if (now - this.pongDueSince < HEARTBEAT_TIMEOUT_MS) return;
      this.pongDueSince = null;
      this.setStatus(navigator.onLine ? 'reconnecting' : 'offline');
      socket.onclose = null;
      socket.close();
      this.socket = null;
      this.socketFailed(null);
      return;
    }
    if (now - this.lastPingAt < HEARTBEAT_MS) return;
    this.lastPingAt = now;
    this.pongDueSince = now;
    socket.send('{"type":"ping"}');
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.handleOnline);
    window.removeEventListener('offline', this.handleOffline);
    clearInterval(this.heartbeatTimer);
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

  openSocket() {
    if (this.stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let socket;
    try {
      socket = new WebSocket(`${scheme}//${location.host}${this.path}`);
    } catch {
      this.socketFailed(null);
      return;
    }
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify(this.hello()));
    socket.onmessage = (message) => {
      this.pongDueSince = null; // any message proves the socket alive
      this.receive(message.data);
    };
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
    if (message.type === 'pong') return;
    if (message.type === this.dataType) {
      this.failures = 0;
      this.restartSeen = false;
      this.stopPolling();
      this.setStatus('live');
      this.onData(message);
    } else if (message.type === 'error' && message.error) {
      this.onError({ status: 0, code: message.error.code, message: message.error.message });
    } else {
      this.onOther(message);
    }
  }

  socketFailed(closeCode) {
    if (this.stopped) return;
    if (closeCode === SERVICE_RESTART && !this.restartSeen && navigator.onLine) {
      this.restartSeen = true;
      this.socketTimer = setTimeout(() => this.openSocket(), 20 + Math.random() * RESTART_JITTER_MS);
      return;
    }
    this.failures += 1;
    const overloaded = closeCode === OVERLOADED;
    if (overloaded || this.failures >= FAILURES_BEFORE_POLLING) this.startPolling();
    if (!navigator.onLine) this.setStatus('offline');
    else if (this.status !== 'polling') this.setStatus('reconnecting');
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
    const pollOnce = async () => {
      if (this.stopped || this.pollTimer === null) return;
      try {
        const answer = await this.poll();
        if (this.pollTimer === null) return;
        this.setStatus('polling');
        this.onData(answer);
      } catch (error) {
        if (refused(error)) this.onError(error);
        else this.setStatus(navigator.onLine ? 'reconnecting' : 'offline');
      }
      if (this.pollTimer !== null) this.pollTimer = setTimeout(pollOnce, this.pollMs);
    };
    this.pollTimer = setTimeout(pollOnce, 0);
  }

  stopPolling() {
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }
}
