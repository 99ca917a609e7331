// Moderation through the real server (docs/API.md, "Admin"): without
// --admin-token-file every admin route and /admin answer 404 and a short
// token stops the start; the token's wrong tries shut an address out (429,
// the right token included); reports (201, never told to the author,
// only of rooms the reporter reads, rate limited); removing a message (a
// tombstone in every later read, chat_removed to the sockets that read the
// room, nothing to a player's socket for the spectators' room during play);
// mutes of a seat or a prefix and bans of create, join and chat until they
// expire; hiding a game from the lobby; the admin log; a seat erasing its
// own talk after the end; and the retention sweep erasing names and chat
// (the SGF loses PB/PW, the moves stay). Runs on SQLite and, in the
// server-pg suite, on PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startServer, call, expectError, openSocket, tempDir } from './lib.mjs';

const TOKEN = 'operator-secret-0123456789-abcdefghijklmnop';

function tokenFile(text = `${TOKEN}\n`) {
  const dir = tempDir();
  const file = path.join(dir, 'admin-token');
  writeFileSync(file, text, { mode: 0o600 });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function withAdminServer(fn, args = []) {
  const token = tokenFile();
  const server = await startServer({ args: ['--admin-token-file', token.file, '--test-clock', ...args] });
  try {
    await fn(server.url);
  } finally {
    await server.stop();
    token.remove();
  }
}

const admin = (base, method, route, body, token = TOKEN) =>
  call(base, method, `/api/v1/admin/${route}`, { token, body });
const say = (base, id, token, body) => call(base, 'POST', `/api/v1/games/${id}/chat`, { token, body });
const report = (base, id, room, n, { token, body } = {}) =>
  call(base, 'POST', `/api/v1/games/${id}/chat/${room}/${n}/report`, { token, body });

// An online game with both seats taken: {id, black, white}.
async function onlineGame(base, { publicGame = false } = {}) {
  const res = await call(base, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black', public: publicGame, name: 'Ann' } });
  assert.equal(res.status, 201, res.text);
  const id = res.json.game.id;
  const black = res.json.seats[0].token;
  if (publicGame) return { id, black };
  const claim = await call(base, 'POST', `/api/v1/games/${id}/claim`, { body: { invite: res.json.invite, name: 'Bo' } });
  assert.equal(claim.status, 200, claim.text);
  return { id, black, white: claim.json.token };
}

async function resign(base, id, token) {
  const view = (await call(base, 'GET', `/api/v1/games/${id}`, { token })).json;
  const res = await call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body: { seq: view.seq + 1, action: 'resign' } });
  assert.equal(res.status, 200, res.text);
}

test('without a token file the admin routes and page do not exist; a short token stops the start', async () => {
  const server = await startServer();
  try {
    for (const [method, route] of [['GET', 'reports'], ['GET', 'log'], ['POST', 'mute'], ['POST', 'ban'],
      ['DELETE', 'games/abcdefghij/chat/players/1'], ['POST', 'games/abcdefghij/hide']])
      expectError(await admin(server.url, method, route, method === 'GET' ? undefined : {}), 404, 'not_found');
    assert.equal((await call(server.url, 'GET', '/admin')).status, 404);
  } finally {
    await server.stop();
  }
  const short = tokenFile('too-short-a-secret\n');
  try {
    await assert.rejects(startServer({ args: ['--admin-token-file', short.file] }), /at least|32 to/);
  } finally {
    short.remove();
  }
});

test('five wrong tokens a minute shut the address out, the right token included', async () => {
  await withAdminServer(async (base) => {
    assert.equal((await call(base, 'GET', '/admin')).status, 200);
    assert.equal((await admin(base, 'GET', 'log')).status, 200);
    expectError(await admin(base, 'GET', 'log', undefined, null), 401, 'bad_admin_token');
    for (let i = 0; i < 4; i++) expectError(await admin(base, 'GET', 'log', undefined, `${TOKEN}x`), 401, 'bad_admin_token');
    const shut = await admin(base, 'GET', 'log');
    expectError(shut, 429, 'rate_limited');
    assert.ok(Number(shut.headers.get('retry-after')) >= 1);
  });
});

test('reports reach the operator only; a removal is a tombstone told to the sockets that read the room', async () => {
  await withAdminServer(async (base) => {
    const g = await onlineGame(base);
    assert.equal((await say(base, g.id, g.black, { text: 'you play like a potato' })).status, 201);
    assert.equal((await say(base, g.id, null, { text: 'spoiler: D4', name: 'Kib' })).status, 201);
    const spectator = openSocket(base, g.id);
    const white = openSocket(base, g.id, { token: g.white });
    const blackSocket = openSocket(base, g.id, { token: g.black });
    await Promise.all([spectator, white, blackSocket].map((s) => s.waitFor((f) => f.some((x) => x.json.type === 'update'))));

    // Who may report what: the reader of a room, not of a room it cannot read.
    expectError(await report(base, g.id, 'players', 1), 404, 'not_found'); // a spectator during play
    expectError(await report(base, g.id, 'spectators', 1, { token: g.white }), 404, 'not_found');
    expectError(await report(base, g.id, 'players', 9, { token: g.white }), 404, 'not_found');
    expectError(await report(base, g.id, 'lounge', 1, { token: g.white }), 404, 'not_found');
    expectError(await report(base, g.id, 'players', 1, { token: g.white, body: { reason: 'a\u0007b' } }), 400, 'bad_text');
    expectError(await report(base, g.id, 'players', 1, { token: g.white, body: { why: 'x' } }), 400, 'bad_request');
    expectError(await call(base, 'GET', `/api/v1/games/${g.id}/chat/players/1/report`), 405, 'method_not_allowed');
    const made = await report(base, g.id, 'players', 1, { token: g.white, body: { reason: 'insult' } });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.json, { reported: true });
    assert.equal((await report(base, g.id, 'spectators', 1)).status, 201);

    const reports = (await admin(base, 'GET', 'reports')).json.reports;
    assert.equal(reports.length, 2);
    assert.deepEqual([reports[0].room, reports[0].n, reports[0].reporter, reports[0].reason], ['spectators', 1, 'spectator', null]);
    assert.deepEqual([reports[1].game, reports[1].reporter, reports[1].reason], [g.id, 'white', 'insult']);
    assert.equal(reports[1].message.text, 'you play like a potato');
    assert.equal(reports[1].message.from, 'black');

    // The removal of the spectators' message: the spectator's socket hears
    // it, the players' sockets hear nothing of that room during play.
    const removed = await admin(base, 'DELETE', `games/${g.id}/chat/spectators/1`);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.json, { removed: { game: g.id, room: 'spectators', n: 1 } });
    await spectator.waitFor((f) => f.some((x) => x.json.type === 'chat_removed'));
    assert.deepEqual(spectator.frames.find((x) => x.json.type === 'chat_removed').json, { type: 'chat_removed', room: 'spectators', n: 1 });
    expectError(await admin(base, 'DELETE', `games/${g.id}/chat/spectators/1`), 409, 'removed_already');
    expectError(await admin(base, 'DELETE', `games/${g.id}/chat/spectators/5`), 404, 'not_found');
    expectError(await admin(base, 'DELETE', 'games/nosuchgame1/chat/players/1'), 404, 'not_found');
    expectError(await admin(base, 'POST', `games/${g.id}/chat/players/1`, {}), 405, 'method_not_allowed');

    assert.equal((await admin(base, 'DELETE', `games/${g.id}/chat/players/1`)).status, 200);
    await white.waitFor((f) => f.some((x) => x.json.type === 'chat_removed'));
    await blackSocket.waitFor((f) => f.some((x) => x.json.type === 'chat_removed'));
    await spectator.waitFor((f) => f.filter((x) => x.json.type === 'chat_removed').length === 1);
    assert.equal(white.frames.filter((x) => x.json.type === 'chat_removed').length, 1);
    assert.ok(!white.frames.some((x) => /^chat/.test(x.json.type) && (x.json.room ?? x.json.message?.room) === 'spectators'),
      'a player heard of the spectators\' room');
    // The author was never told of the report (no frame but the removal).
    assert.ok(!blackSocket.frames.some((x) => /report/.test(x.text)));

    // Later reads show tombstones; the reports are closed.
    const read = (await call(base, 'GET', `/api/v1/games/${g.id}/chat`, { token: g.white })).json;
    assert.deepEqual(read.players.messages[0], { room: 'players', n: 1, from: 'black', name: null, text: '', at_ms: read.players.messages[0].at_ms, removed: true });
    assert.ok(!JSON.stringify(read).includes('potato'));
    assert.deepEqual((await admin(base, 'GET', 'reports')).json.reports, []);
    const late = openSocket(base, g.id);
    await late.waitFor((f) => f.some((x) => x.json.type === 'update'));
    const spect = (await call(base, 'GET', `/api/v1/games/${g.id}/chat`)).json;
    assert.equal(spect.spectators.messages[0].removed, true);
    assert.ok(!JSON.stringify(spect).includes('spoiler'));
    for (const s of [spectator, white, blackSocket, late]) await s.close();

    const log = (await admin(base, 'GET', 'log')).json.log;
    assert.deepEqual(log.map((e) => [e.action, e.target]),
      [['remove', `${g.id}/players/1`], ['remove', `${g.id}/spectators/1`]]);
    assert.ok(log.every((e) => typeof e.at_ms === 'number'));
  });
});

test('reports are rate limited per seat and per address', async () => {
  await withAdminServer(async (base) => {
    const g = await onlineGame(base);
    for (let i = 0; i < 8; i++) assert.equal((await say(base, g.id, g.black, { text: `line ${i}` })).status, 201);
    for (let n = 1; n <= 5; n++) assert.equal((await report(base, g.id, 'players', n, { token: g.white })).status, 201);
    const sixth = await report(base, g.id, 'players', 6, { token: g.white });
    expectError(sixth, 429, 'rate_limited');
    assert.ok(Number(sixth.headers.get('retry-after')) >= 1);
  });
});

test('mutes and bans answer 403 until they expire; hiding takes a game out of the lobby', async () => {
  await withAdminServer(async (base) => {
    const g = await onlineGame(base);
    // A seat's mute: that seat only.
    expectError(await admin(base, 'POST', 'mute', { game: g.id, seat: 'red', minutes: 5 }), 400, 'bad_request');
    expectError(await admin(base, 'POST', 'mute', { game: g.id, seat: 'black' }), 400, 'bad_request');
    expectError(await admin(base, 'POST', 'mute', { game: 'nosuchgame1', seat: 'black', minutes: 5 }), 404, 'not_found');
    expectError(await admin(base, 'POST', 'mute', { address: '300.1.2.3', minutes: 5 }), 400, 'bad_request');
    expectError(await admin(base, 'POST', 'mute', { address: '10.0.0.0/33', minutes: 5 }), 400, 'bad_request');
    expectError(await admin(base, 'POST', 'mute', { minutes: 5, extra: 1 }), 400, 'bad_request');
    const muted = await admin(base, 'POST', 'mute', { game: g.id, seat: 'black', minutes: 10 });
    assert.equal(muted.status, 201, muted.text);
    assert.equal(muted.json.mute.until_ms - muted.json.mute.at_ms, 600000);
    expectError(await say(base, g.id, g.black, { text: 'hello?' }), 403, 'muted');
    assert.equal((await say(base, g.id, g.white, { text: 'I can speak' })).status, 201);
    assert.equal((await call(base, 'POST', '/api/v1/test/clock', { body: { advance_ms: 601000 } })).status, 200);
    assert.equal((await say(base, g.id, g.black, { text: 'back again' })).status, 201);

    // An address prefix: everyone from 127/8 (these tests' loopback).
    const prefix = await admin(base, 'POST', 'mute', { address: '127.1.2.3/8', minutes: 1 });
    assert.equal(prefix.json.mute.address, '127.0.0.0/8');
    expectError(await say(base, g.id, g.white, { text: 'muted too' }), 403, 'muted');
    expectError(await say(base, g.id, null, { text: 'and me' }), 403, 'muted');
    assert.equal((await admin(base, 'POST', 'mute', { address: '2001:db8::1/48', minutes: 1 })).json.mute.address, '2001:db8::/48');
    assert.equal((await call(base, 'POST', '/api/v1/test/clock', { body: { advance_ms: 61000 } })).status, 200);
    assert.equal((await say(base, g.id, null, { text: 'free' })).status, 201);

    // Bans: what they name, and nothing else.
    expectError(await admin(base, 'POST', 'ban', { address: '127.0.0.1', minutes: 5, what: [] }), 400, 'bad_request');
    expectError(await admin(base, 'POST', 'ban', { address: '127.0.0.1', minutes: 5, what: ['fly'] }), 400, 'bad_request');
    const pub = await onlineGame(base, { publicGame: true });
    const ban = await admin(base, 'POST', 'ban', { address: '127.0.0.1', minutes: 5, what: ['create', 'join'] });
    assert.equal(ban.status, 201, ban.text);
    assert.deepEqual(ban.json.ban.what, ['create', 'join']);
    expectError(await call(base, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } }), 403, 'banned');
    expectError(await call(base, 'POST', `/api/v1/games/${pub.id}/join`), 403, 'banned');
    assert.equal((await say(base, g.id, g.black, { text: 'chat is not banned' })).status, 201);
    const sanctions = (await admin(base, 'GET', 'sanctions')).json.sanctions;
    assert.deepEqual(sanctions.map((s) => s.kind), ['ban']); // the mutes ran out
    assert.equal((await call(base, 'POST', '/api/v1/test/clock', { body: { advance_ms: 301000 } })).status, 200);
    assert.equal((await call(base, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } })).status, 201);

    // Hiding: out of the lobby, and not joinable from it.
    assert.ok((await call(base, 'GET', '/api/v1/lobby')).json.open.some((e) => e.id === pub.id));
    const hidden = await admin(base, 'POST', `games/${pub.id}/hide`);
    assert.equal(hidden.status, 200, hidden.text);
    assert.ok(!(await call(base, 'GET', '/api/v1/lobby')).json.open.some((e) => e.id === pub.id));
    expectError(await call(base, 'POST', `/api/v1/games/${pub.id}/join`), 403, 'not_public');
    expectError(await admin(base, 'POST', 'games/nosuchgame1/hide'), 404, 'not_found');

    const log = (await admin(base, 'GET', 'log')).json.log;
    assert.deepEqual(log.map((e) => e.action), ['hide', 'ban', 'mute', 'mute', 'mute']);
    assert.equal(log[1].target, '127.0.0.1/32');
    assert.deepEqual(log[1].detail.what, ['create', 'join']);
  });
});

test('a seat erases its own name and messages after the end, and the retention sweep erases old talk', async () => {
  await withAdminServer(async (base) => {
    const g = await onlineGame(base);
    const kept = await onlineGame(base); // in play: its talk stays however old
    assert.equal((await say(base, kept.id, kept.black, { text: 'still playing' })).status, 201);
    assert.equal((await say(base, g.id, g.black, { text: 'black one' })).status, 201);
    assert.equal((await say(base, g.id, g.white, { text: 'white one' })).status, 201);
    assert.equal((await say(base, g.id, g.black, { text: 'black two' })).status, 201);
    assert.equal((await say(base, g.id, null, { text: 'a kibitz', name: 'Kib' })).status, 201);
    expectError(await call(base, 'DELETE', `/api/v1/games/${g.id}/talk`, { token: g.black }), 409, 'game_not_over');
    expectError(await call(base, 'DELETE', `/api/v1/games/${g.id}/talk`), 401, 'token_required');
    await resign(base, g.id, g.white);
    const socket = openSocket(base, g.id, { token: g.white });
    await socket.waitFor((f) => f.some((x) => x.json.type === 'update'));
    const erased = await call(base, 'DELETE', `/api/v1/games/${g.id}/talk`, { token: g.black });
    assert.equal(erased.status, 200, erased.text);
    assert.deepEqual(erased.json, { erased: { name: true, messages: 2 } });
    await socket.waitFor((f) => f.filter((x) => x.json.type === 'chat_removed').length === 2);
    await socket.close();
    let chat = (await call(base, 'GET', `/api/v1/games/${g.id}/chat`)).json;
    assert.deepEqual(chat.players.messages.map((m) => m.removed ? null : m.text), [null, 'white one', null]);
    let view = (await call(base, 'GET', `/api/v1/games/${g.id}`)).json;
    assert.equal(view.seats.black.name, null);
    assert.equal(view.seats.white.name, 'Bo');
    let sgf = (await call(base, 'GET', `/api/v1/games/${g.id}/sgf`)).text;
    assert.ok(!sgf.includes('PB[') && sgf.includes('PW[Bo]'), sgf);

    // 91 days later (default retention 90): everyone's talk of the ended
    // game is gone, the moves stay; the game in play keeps its talk.
    assert.equal((await call(base, 'POST', '/api/v1/test/clock', { body: { advance_ms: 91 * 86400000 } })).status, 200);
    const deadline = Date.now() + 10000;
    do {
      chat = (await call(base, 'GET', `/api/v1/games/${g.id}/chat`)).json;
      if (chat.players.messages.every((m) => m.removed)) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    assert.ok(chat.players.messages.every((m) => m.removed && m.text === ''), JSON.stringify(chat));
    assert.ok(chat.spectators.messages.every((m) => m.removed), JSON.stringify(chat));
    view = (await call(base, 'GET', `/api/v1/games/${g.id}`)).json;
    assert.deepEqual([view.seats.black.name, view.seats.white.name], [null, null]);
    assert.equal(view.over, true);
    sgf = (await call(base, 'GET', `/api/v1/games/${g.id}/sgf`)).text;
    assert.ok(!sgf.includes('PB[') && !sgf.includes('PW['), sgf);
    assert.ok(sgf.includes('RE['), sgf);
    const still = (await call(base, 'GET', `/api/v1/games/${kept.id}/chat`, { token: kept.black })).json;
    assert.equal(still.players.messages[0].text, 'still playing');
  });
});

test('IPv6 and IPv4 prefixes match the client address a trusted proxy gives', async () => {
  await withAdminServer(async (base) => {
    const g = await onlineGame(base);
    const from = (address, text) => call(base, 'POST', `/api/v1/games/${g.id}/chat`,
      { headers: { 'X-Forwarded-For': address }, body: { text, name: 'Kib' } });
    assert.equal((await admin(base, 'POST', 'mute', { address: '2001:db8:1::/48', minutes: 5 })).status, 201);
    assert.equal((await admin(base, 'POST', 'ban', { address: '198.51.100.0/24', minutes: 5, what: ['chat', 'create'] })).status, 201);
    expectError(await from('2001:db8:1:ffff::7', 'inside the /48'), 403, 'muted');
    assert.equal((await from('2001:db8:2::7', 'outside the /48')).status, 201);
    expectError(await from('198.51.100.9', 'inside the /24'), 403, 'banned');
    expectError(await from('::ffff:198.51.100.9', 'an IPv4-mapped peer'), 403, 'banned');
    assert.equal((await from('198.51.101.9', 'outside the /24')).status, 201);
    expectError(await call(base, 'POST', '/api/v1/games', { headers: { 'X-Forwarded-For': '198.51.100.200' }, body: { mode: 'hotseat' } }), 403, 'banned');
    assert.equal((await call(base, 'POST', '/api/v1/games', { headers: { 'X-Forwarded-For': '2001:db8:1::1' }, body: { mode: 'hotseat' } })).status, 201,
      'a mute forbids chat only');
  }, ['--trust-proxy']);
});
