// Table talk through the real server (docs/API.md, "Names, chat and
// cancelling"): names at creation, claim, join and rename; every text rule
// answered 400 bad_text with its reason; the two rooms' visibility for
// players and spectators before and after the end, over HTTP and the
// WebSocket (a spectator's message makes no frame at all for a player
// before the end); floods answered 429 with Retry-After; the spectator
// count; cancelling a game nobody joined; a rename pushed to the lobby's
// sockets; names in the SGF; and a restart
// (and an upgrade of a version-2 database) keeping the talk. The restart
// is a kill -9: acknowledged talk is durable like actions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startServer, call, expectError, newGame, openSocket, tempDir, ROOT } from './lib.mjs';
import { ON_POSTGRES } from '../lib/server.mjs';
import WebSocket from 'ws';

// The same file runs on SQLite and, in the server-pg suite, on PostgreSQL
// (tests/pg/with-postgres.mjs): talk behaves alike on both. Only the
// upgrade of an SQLite file is SQLite's own (PostgreSQL's upgrade is in
// tests/unit/test_store_pg.c).

const say = (base, id, token, body) => call(base, 'POST', `/api/v1/games/${id}/chat`, { token, body });
const read = (base, id, token, query = '') => call(base, 'GET', `/api/v1/games/${id}/chat${query}`, { token });
const rename = (base, id, token, name) => call(base, 'PUT', `/api/v1/games/${id}/name`, { token, body: { name } });

function expectBadText(res, field, reason) {
  expectError(res, 400, 'bad_text');
  assert.equal(res.json.error.field, field, res.text);
  assert.equal(res.json.error.reason, reason, res.text);
}

async function onlineGame(base, { name, publicGame = false } = {}) {
  const body = { mode: 'online', color: 'black', public: publicGame };
  if (name !== undefined) body.name = name;
  const res = await call(base, 'POST', '/api/v1/games', { body });
  assert.equal(res.status, 201, res.text);
  return { id: res.json.game.id, black: res.json.seats[0].token, invite: res.json.invite };
}

async function resign(base, id, token) {
  const view = (await call(base, 'GET', `/api/v1/games/${id}`, { token })).json;
  const res = await call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body: { seq: view.seq + 1, action: 'resign' } });
  assert.equal(res.status, 200, res.text);
}

test('names are given at creation, claim and join, changed by rename, and shown to everyone', async () => {
  const server = await startServer();
  try {
    const game = await onlineGame(server.url, { name: '  Алиса  ' });
    const claim = await call(server.url, 'POST', `/api/v1/games/${game.id}/claim`, { body: { invite: game.invite, name: '이세돌' } });
    assert.equal(claim.status, 200, claim.text);
    const spectator = (await call(server.url, 'GET', `/api/v1/games/${game.id}`)).json;
    assert.equal(spectator.seats.black.name, 'Алиса');
    assert.equal(spectator.seats.white.name, '이세돌');
    assert.equal(spectator.cancelled, false);

    const renamed = await rename(server.url, game.id, claim.json.token, 'Lee  Sedol');
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(renamed.json.names, { black: 'Алиса', white: 'Lee Sedol' });
    const cleared = await rename(server.url, game.id, game.black, null);
    assert.deepEqual(cleared.json.names, { black: null, white: 'Lee Sedol' });
    const view = (await call(server.url, 'GET', `/api/v1/games/${game.id}`, { token: game.black })).json;
    assert.equal(view.seats.black.name, null);
    assert.equal(view.seats.white.name, 'Lee Sedol');

    expectError(await call(server.url, 'PUT', `/api/v1/games/${game.id}/name`, { body: { name: 'x' } }), 401, 'token_required');
    expectError(await rename(server.url, game.id, 'not-a-seat-token', 'x'), 403, 'bad_token');
    expectError(await call(server.url, 'PUT', `/api/v1/games/${game.id}/name`, { token: game.black, body: {} }), 400, 'bad_request');
    expectError(await call(server.url, 'PUT', `/api/v1/games/${game.id}/name`, { token: game.black, body: { name: 'a', x: 1 } }), 400, 'bad_request');

    const lobbyGame = await onlineGame(server.url, { name: 'Host', publicGame: true });
    const lobby = (await call(server.url, 'GET', '/api/v1/lobby')).json;
    assert.deepEqual(lobby.open.find((entry) => entry.id === lobbyGame.id).names, { black: 'Host', white: null });
    const join = await call(server.url, 'POST', `/api/v1/games/${lobbyGame.id}/join`, { body: { name: 'Guest' } });
    assert.equal(join.status, 200, join.text);
    const joined = (await call(server.url, 'GET', `/api/v1/games/${lobbyGame.id}`)).json;
    assert.deepEqual([joined.seats.black.name, joined.seats.white.name], ['Host', 'Guest']);

    const hotseat = await call(server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', name: 'Solo' } });
    expectError(hotseat, 400, 'bad_request');
  } finally {
    await server.stop();
  }
});

test('every name rule is a 400 bad_text naming the reason, and nothing changes', async () => {
  const server = await startServer();
  try {
    const game = await onlineGame(server.url, { name: 'Keep' });
    const cases = [
      ['Al\u0007ice', 'control'], ['tab\there', 'control'], ['line\nbreak', 'control'],
      ['abc\u202Etxt', 'bidi'], ['\u2066x\u2069', 'bidi'], ['Al\u200Bice', 'invisible'], ['\u3164', 'invisible'],
      ['<b>Bob</b>', 'symbol'], ['Bob 👍', 'symbol'], ['...', 'no_letter'], ['   ', 'empty'],
      ['a'.repeat(33), 'too_long'], ['\uE000x', 'not_allowed'],
    ];
    for (const [name, reason] of cases) {
      expectBadText(await rename(server.url, game.id, game.black, name), 'name', reason);
      const create = await call(server.url, 'POST', '/api/v1/games', { body: { mode: 'online', name } });
      expectBadText(create, 'name', reason);
    }
    const ok = await rename(server.url, game.id, game.black, 'b'.repeat(32));
    assert.equal(ok.status, 200, ok.text);
    expectBadText(await call(server.url, 'POST', `/api/v1/games/${game.id}/claim`, { body: { invite: game.invite, name: 'x\u202E' } }), 'name', 'bidi');
    const claim = await call(server.url, 'POST', `/api/v1/games/${game.id}/claim`, { body: { invite: game.invite } });
    assert.equal(claim.status, 200, 'a refused name left the invite unused');
  } finally {
    await server.stop();
  }
});

test('every message rule: control, bidi, invisible, 301 characters refused; HTML kept as text; seq untouched', async () => {
  const server = await startServer();
  try {
    const { id, tokens } = await newGame(server.url, { mode: 'online' });
    const before = (await call(server.url, 'GET', `/api/v1/games/${id}`, { token: tokens.black })).json;
    const cases = [
      ['two\nlines', 'control'], ['bell\u0007', 'control'], ['evil \u202Egnp.exe', 'bidi'], ['\u200Fhi', 'bidi'],
      ['zero\u200Bwidth', 'invisible'], ['\uFEFFbom', 'invisible'], ['x'.repeat(301), 'too_long'], ['', 'empty'],
    ];
    for (const [text, reason] of cases) {
      expectBadText(await say(server.url, id, tokens.black, { text }), 'text', reason);
      expectBadText(await say(server.url, id, null, { text }), 'text', reason);
    }
    expectError(await say(server.url, id, tokens.black, { text: 'hi', room: 'spectators' }), 400, 'bad_request');
    expectError(await say(server.url, id, tokens.black, {}), 400, 'bad_request');
    expectError(await say(server.url, id, tokens.black, { text: 5 }), 400, 'bad_request');
    expectError(await call(server.url, 'POST', `/api/v1/games/${id}/chat`, { token: tokens.black, raw: '{' }), 400, 'bad_json');
    expectError(await say(server.url, id, 'bad-token', { text: 'hi' }), 403, 'bad_token');
    expectError(await say(server.url, 'nosuchgame00', null, { text: 'hi' }), 404, 'not_found');

    const html = await say(server.url, id, tokens.black, { text: '<script>alert("x")</script> & <b>bold</b>' });
    assert.equal(html.status, 201, html.text);
    assert.equal(html.json.message.text, '<script>alert("x")</script> & <b>bold</b>');
    assert.deepEqual(Object.keys(html.json.message).sort(), ['at_ms', 'from', 'n', 'name', 'room', 'text']);
    const long = await say(server.url, id, tokens.white, { text: 'ж'.repeat(300) });
    assert.equal(long.status, 201, long.text);
    assert.equal(long.json.message.n, 2);
    const emoji = await say(server.url, id, tokens.white, { text: 'gg 👍🏽 👨‍👩‍👧' });
    assert.equal(emoji.status, 201, emoji.text);

    const after = (await call(server.url, 'GET', `/api/v1/games/${id}`, { token: tokens.black })).json;
    assert.equal(after.seq, before.seq, 'talk never changes the sequence number');
    assert.deepEqual(after.events, before.events);
    const listed = (await read(server.url, id, tokens.black)).json;
    assert.deepEqual(listed.players.messages.map((m) => m.n), [1, 2, 3]);
    assert.equal(listed.players.last, 3);
    assert.deepEqual((await read(server.url, id, tokens.black, '?players=2')).json.players.messages.map((m) => m.n), [3]);
    expectError(await read(server.url, id, tokens.black, '?players=-1'), 400, 'bad_request');
  } finally {
    await server.stop();
  }
});

test('the rooms: players and spectators do not read each other until the end, over HTTP and the WebSocket', async () => {
  const server = await startServer();
  try {
    const { id, tokens } = await newGame(server.url, { mode: 'online' });
    const blackSocket = openSocket(server.url, id, { token: tokens.black });
    const watcherSocket = openSocket(server.url, id);
    await blackSocket.waitFor((f) => f.some((x) => x.json.type === 'update'));
    await watcherSocket.waitFor((f) => f.some((x) => x.json.type === 'update' && x.json.view.spectators === 1));
    // A barrier: the server tells a socket's arrival to the others before
    // the socket's own first frame, and sends a socket whatever is due
    // before a pong. Once the pong is in, no frame about the watcher's
    // arrival can still be on its way to Black (a second update telling
    // the same arrival would otherwise look like a frame made by the
    // spectator's message).
    blackSocket.ws.send(JSON.stringify({ type: 'ping' }));
    await blackSocket.waitFor((f) => f.some((x) => x.json.type === 'pong'));
    assert.ok(blackSocket.frames.some((x) => x.json.type === 'update' && x.json.view.spectators === 1));
    const blackFramesBefore = blackSocket.frames.length;

    const spectatorMessage = await say(server.url, id, null, { text: 'I think White has a stone at D4', name: 'Kibitzer' });
    assert.equal(spectatorMessage.status, 201, spectatorMessage.text);
    assert.deepEqual(spectatorMessage.json.message, {
      room: 'spectators', n: 1, from: 'spectator', name: 'Kibitzer', text: 'I think White has a stone at D4',
      at_ms: spectatorMessage.json.message.at_ms,
    });
    await watcherSocket.waitFor((f) => f.some((x) => x.json.type === 'chat' && x.json.message.room === 'spectators'));
    const playerMessage = await say(server.url, id, tokens.black, { text: 'good luck' });
    assert.equal(playerMessage.status, 201);
    assert.equal(playerMessage.json.message.from, 'black');
    await blackSocket.waitFor((f) => f.some((x) => x.json.type === 'chat'));
    const blackNew = blackSocket.frames.slice(blackFramesBefore);
    assert.deepEqual(blackNew.map((x) => x.json.type), ['chat'], 'the spectator\'s message made no frame for a player');
    assert.equal(blackNew[0].json.message.room, 'players');
    for (const frame of blackSocket.frames) assert.doesNotMatch(frame.text, /Kibitzer|stone at D4|"spectators":\{/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(!watcherSocket.frames.some((x) => x.json.type === 'chat' && x.json.message.room === 'players'),
      'a spectator does not read the players before the end');

    const blackRead = await read(server.url, id, tokens.black);
    assert.deepEqual(Object.keys(blackRead.json), ['players']);
    assert.doesNotMatch(blackRead.text, /Kibitzer/);
    const watcherRead = await read(server.url, id, null);
    assert.deepEqual(Object.keys(watcherRead.json), ['spectators']);
    assert.doesNotMatch(watcherRead.text, /good luck/);
    for (const token of [tokens.black, tokens.white]) {
      const view = await call(server.url, 'GET', `/api/v1/games/${id}`, { token });
      assert.doesNotMatch(view.text, /Kibitzer|stone at D4/);
    }

    await resign(server.url, id, tokens.white);
    await blackSocket.waitFor((f) => f.some((x) => x.json.type === 'chat' && x.json.message.room === 'spectators'));
    const overIndex = blackSocket.frames.findIndex((x) => x.json.type === 'update' && x.json.view.over);
    const spectatorIndex = blackSocket.frames.findIndex((x) => x.json.type === 'chat' && x.json.message.room === 'spectators');
    assert.ok(overIndex >= 0 && overIndex < spectatorIndex, 'the spectators\' room reaches a player only after the update that ends the game');
    await watcherSocket.waitFor((f) => f.some((x) => x.json.type === 'chat' && x.json.message.room === 'players'));
    const blackAfter = (await read(server.url, id, tokens.black)).json;
    assert.deepEqual(Object.keys(blackAfter).sort(), ['players', 'spectators']);
    assert.equal(blackAfter.spectators.messages[0].text, 'I think White has a stone at D4');
    const watcherAfter = (await read(server.url, id, null)).json;
    assert.equal(watcherAfter.players.messages[0].text, 'good luck');
    const gg = await say(server.url, id, tokens.white, { text: 'gg' });
    assert.equal(gg.status, 201, 'players may still talk after the end');

    await blackSocket.close();
    await watcherSocket.close();
  } finally {
    await server.stop();
  }
});

test('hot-seat and computer games have the players\' room only', async () => {
  const server = await startServer();
  try {
    const { id, tokens } = await newGame(server.url, { mode: 'hotseat' });
    expectError(await say(server.url, id, null, { text: 'hi' }), 403, 'chat_closed');
    const hello = await say(server.url, id, tokens.white, { text: 'Hello!' });
    assert.equal(hello.status, 201, hello.text);
    assert.equal(hello.json.message.from, 'white');
    assert.deepEqual(Object.keys((await read(server.url, id, tokens.black)).json), ['players']);
    assert.deepEqual(Object.keys((await read(server.url, id, null)).json), [], 'a spectator reads nothing before the end');
  } finally {
    await server.stop();
  }
});

test('floods are answered 429 with Retry-After, per seat and per address', async () => {
  const server = await startServer({ args: ['--chat-limit', '5'] });
  try {
    const { id, tokens } = await newGame(server.url, { mode: 'online' });
    let refused = null;
    for (let i = 0; i < 12 && !refused; i++) {
      const res = await say(server.url, id, tokens.black, { text: `message ${i}` });
      if (res.status === 429) refused = { res, i };
      else assert.equal(res.status, 201, res.text);
    }
    assert.ok(refused, 'a seat\'s flood is refused');
    assert.equal(refused.i, 10, 'after a burst of ten');
    expectError(refused.res, 429, 'rate_limited');
    assert.ok(Number(refused.res.headers.get('retry-after')) >= 1);
    const other = await say(server.url, id, tokens.white, { text: 'my turn to talk' });
    assert.equal(other.status, 201, 'the other seat has its own budget');

    const { id: second } = await newGame(server.url, { mode: 'online' });
    let spectatorRefused = null;
    for (let i = 0; i < 60 && !spectatorRefused; i++) {
      const res = await say(server.url, second, null, { text: `spam ${i}` });
      if (res.status === 429) spectatorRefused = res;
    }
    assert.ok(spectatorRefused, 'an address\'s flood is refused');
    expectError(spectatorRefused, 429, 'rate_limited');
    assert.ok(Number(spectatorRefused.headers.get('retry-after')) >= 1);
    const count = (await read(server.url, second, null)).json.spectators.last;
    assert.ok(count <= 40, `${count} messages stored from one address`);
  } finally {
    await server.stop();
  }
});

test('cancelling a game nobody joined closes its invite, lobby entry, actions and chat', async () => {
  const server = await startServer();
  try {
    const game = await onlineGame(server.url, { publicGame: true });
    expectError(await call(server.url, 'POST', `/api/v1/games/${game.id}/cancel`), 401, 'token_required');
    const cancel = await call(server.url, 'POST', `/api/v1/games/${game.id}/cancel`, { token: game.black });
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual(cancel.json, { cancelled: true });
    expectError(await call(server.url, 'POST', `/api/v1/games/${game.id}/claim`, { body: { invite: game.invite } }), 409, 'game_cancelled');
    expectError(await call(server.url, 'POST', `/api/v1/games/${game.id}/join`, { body: {} }), 409, 'game_cancelled');
    expectError(await call(server.url, 'POST', `/api/v1/games/${game.id}/actions`, { token: game.black, body: { seq: 1, action: 'pass' } }), 409, 'game_cancelled');
    expectError(await say(server.url, game.id, game.black, { text: 'hello?' }), 409, 'game_cancelled');
    expectError(await call(server.url, 'POST', `/api/v1/games/${game.id}/cancel`, { token: game.black }), 409, 'game_cancelled');
    const lobby = (await call(server.url, 'GET', '/api/v1/lobby')).json;
    assert.ok(!lobby.open.some((entry) => entry.id === game.id));
    const view = (await call(server.url, 'GET', `/api/v1/games/${game.id}`)).json;
    assert.equal(view.cancelled, true);
    assert.equal(view.over, false);
    assert.equal(view.result, null);
    expectError(await call(server.url, 'GET', `/api/v1/games/${game.id}/sgf`), 403, 'record_not_available');

    const { id, tokens } = await newGame(server.url, { mode: 'online' });
    expectError(await call(server.url, 'POST', `/api/v1/games/${id}/cancel`, { token: tokens.black }), 409, 'seat_taken');
    const hot = await newGame(server.url, { mode: 'hotseat' });
    expectError(await call(server.url, 'POST', `/api/v1/games/${hot.id}/cancel`, { token: hot.tokens.black }), 409, 'seat_taken');
  } finally {
    await server.stop();
  }
});

test('a rename of a listed game reaches the lobby\'s sockets', async () => {
  const server = await startServer();
  try {
    const game = await onlineGame(server.url, { name: 'Ann', publicGame: true });
    const u = new URL('/api/v1/lobby/ws', server.url);
    u.protocol = 'ws:';
    const ws = new WebSocket(u);
    const frames = [];
    const named = (name) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no lobby frame naming ${name}; got ${JSON.stringify(frames.at(-1))}`)), 5000);
      const check = () => {
        if (frames.some((f) => f.open?.find((e) => e.id === game.id)?.names.black === name)) { clearTimeout(timer); resolve(); }
        else setTimeout(check, 20);
      };
      check();
    });
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello' })));
    await named('Ann');
    assert.equal((await rename(server.url, game.id, game.black, 'Anna')).status, 200);
    await named('Anna');
    ws.close();
  } finally {
    await server.stop();
  }
});

test('the SGF of a finished game names its players (PB, PW)', async () => {
  const server = await startServer();
  try {
    const game = await onlineGame(server.url, { name: 'Go Seigen' });
    const claim = await call(server.url, 'POST', `/api/v1/games/${game.id}/claim`, { body: { invite: game.invite, name: 'Kitani ]Minoru[' } });
    await resign(server.url, game.id, claim.json.token);
    const sgf = await call(server.url, 'GET', `/api/v1/games/${game.id}/sgf`);
    assert.equal(sgf.status, 200);
    assert.match(sgf.text, /PB\[Go Seigen\]/);
    assert.match(sgf.text, /PW\[Kitani \\\]Minoru\[\]/);
  } finally {
    await server.stop();
  }
});

test('a restart keeps the names and both rooms, and numbering goes on', async () => {
  const dir = tempDir();
  try {
    let server = await startServer({ dir });
    const game = await onlineGame(server.url, { name: 'Alice' });
    const claim = await call(server.url, 'POST', `/api/v1/games/${game.id}/claim`, { body: { invite: game.invite, name: 'Bob' } });
    await say(server.url, game.id, game.black, { text: 'hello Bob' });
    await say(server.url, game.id, null, { text: 'go go', name: 'Fan' });
    await server.kill();
    server = await startServer({ dir });
    try {
      const view = (await call(server.url, 'GET', `/api/v1/games/${game.id}`)).json;
      assert.deepEqual([view.seats.black.name, view.seats.white.name], ['Alice', 'Bob']);
      const black = (await read(server.url, game.id, game.black)).json;
      assert.equal(black.players.messages[0].text, 'hello Bob');
      const next = await say(server.url, game.id, claim.json.token, { text: 'hi Alice' });
      assert.equal(next.json.message.n, 2);
      const spectators = (await read(server.url, game.id, null)).json;
      assert.equal(spectators.spectators.messages[0].name, 'Fan');
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a version-2 database is upgraded in place: its games play on and gain the talk',
     { skip: ON_POSTGRES && 'about the SQLite file (PostgreSQL: tests/unit/test_store_pg.c)' }, async () => {
  const dir = tempDir();
  try {
    const db = path.join(dir, 'pg.db');
    const black = randomBytes(32).toString('base64url');
    const white = randomBytes(32).toString('base64url');
    const hex = (token) => createHash('sha256').update(token).digest('hex');
    const rows = [
      `INSERT INTO games (id, created_at_ms, mode, settings_json, options_json, black_hash, white_hash, invite_color, started_at_ms)`,
      ` VALUES ('oldgame00002', 1700000000000, 'online', '{"size":9}', '{}', X'${hex(black)}', X'${hex(white)}', 0, 1700000000000);`,
      `INSERT INTO actions (game_id, seq, kind, color, vertex, at_ms) VALUES ('oldgame00002', 1, 'attempt', 1, 'C3', 1700000001000);`,
    ].join('\n');
    execFileSync('sqlite3', [db], { input: `.read ${path.join(ROOT, 'tests/server/fixtures/schema-v2.sql')}\n${rows}\n` });
    assert.equal(execFileSync('sqlite3', [db, 'PRAGMA user_version']).toString().trim(), '2');
    const server = await startServer({ dir });
    try {
      const view = (await call(server.url, 'GET', '/api/v1/games/oldgame00002', { token: white })).json;
      assert.equal(view.seq, 1);
      assert.equal(view.seats.black.name, null);
      assert.equal(view.cancelled, false);
      assert.equal((await say(server.url, 'oldgame00002', black, { text: 'still here' })).status, 201);
      assert.equal((await rename(server.url, 'oldgame00002', white, 'W')).status, 200);
      const moved = await call(server.url, 'POST', '/api/v1/games/oldgame00002/actions', { token: white, body: { seq: 2, action: 'pass' } });
      assert.equal(moved.status, 200, moved.text);
    } finally {
      await server.stop();
    }
    assert.equal(execFileSync('sqlite3', [db, 'PRAGMA user_version']).toString().trim(), '6');
    assert.equal(execFileSync('sqlite3', [db, 'SELECT text FROM chat']).toString().trim(), 'still here');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
