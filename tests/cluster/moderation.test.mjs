// Moderation across servers: two `phantomgo serve` on one PostgreSQL,
// sharing one operator token. A mute made through A holds on B at once
// (it lives in the database, not in A's memory); a message removed
// through A disappears from a spectator's socket on B (chat_removed, by
// the database's news) and from B's reads; a game hidden through A leaves
// B's lobby; the log read on B lists what was done on A.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgres } from '../pg/postgres.mjs';
import { startServer } from '../lib/server.mjs';
import { call, openSocket } from '../server/lib.mjs';

const NEWS_MS = 5000;
const TOKEN = 'cluster-operator-token-0123456789abcdef';
let pg, a, b, tokenDir;

before(async () => {
  tokenDir = mkdtempSync(path.join(tmpdir(), 'pg-admin-'));
  const tokenFile = path.join(tokenDir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  pg = await startPostgres();
  const db = pg.createDatabase('moderation');
  const args = ['--rate-limit', '0', '--create-limit', '0', '--admin-token-file', tokenFile];
  a = await startServer({ db, args });
  b = await startServer({ db, args });
});

after(async () => {
  await a?.stop();
  await b?.stop();
  await pg?.destroy();
  rmSync(tokenDir, { recursive: true, force: true });
});

const admin = (base, method, route, body) => call(base, method, `/api/v1/admin/${route}`, { token: TOKEN, body });
const say = (base, id, token, body) => call(base, 'POST', `/api/v1/games/${id}/chat`, { token, body });

// Whether B's lobby lists game id once the database's news has had up to
// NEWS_MS to bring what A did (B learns of A's games by that news, not at
// once): polls until the listing is `expected` or the time is up.
async function listedOnB(id, expected) {
  const deadline = Date.now() + NEWS_MS;
  for (;;) {
    const listed = (await call(b.url, 'GET', '/api/v1/lobby')).json.open.some((e) => e.id === id);
    if (listed === expected || Date.now() >= deadline) return listed;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a mute, a removal and a hidden game made on one server hold on the other', async () => {
  const created = await call(a.url, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'black', public: true } });
  assert.equal(created.status, 201, created.text);
  const id = created.json.game.id;
  const black = created.json.seats[0].token;
  assert.equal(await listedOnB(id, true), true, 'B lists the game made on A');

  const spectator = openSocket(b.url, id);
  await spectator.waitFor((f) => f.some((x) => x.json.type === 'update'));
  assert.equal((await say(a.url, id, null, { text: 'something nasty', name: 'Troll' })).status, 201);
  await spectator.waitFor((f) => f.some((x) => x.json.type === 'chat'), NEWS_MS);

  // Removed through A: B's spectator socket is told, B's reads show a tombstone.
  assert.equal((await admin(a.url, 'DELETE', `games/${id}/chat/spectators/1`)).status, 200);
  await spectator.waitFor((f) => f.some((x) => x.json.type === 'chat_removed'), NEWS_MS);
  assert.deepEqual(spectator.frames.filter((x) => x.json.type === 'chat_removed').map((x) => x.json),
    [{ type: 'chat_removed', room: 'spectators', n: 1 }]);
  const read = (await call(b.url, 'GET', `/api/v1/games/${id}/chat`)).json;
  assert.equal(read.spectators.messages[0].removed, true);

  // Muted through A: B refuses at once.
  assert.equal((await admin(a.url, 'POST', 'mute', { game: id, seat: 'black', minutes: 5 })).status, 201);
  const refused = await say(b.url, id, black, { text: 'let me speak' });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.json.error.code, 'muted');

  // Hidden through A: B's lobby drops it.
  assert.equal((await admin(a.url, 'POST', `games/${id}/hide`)).status, 200);
  assert.equal(await listedOnB(id, false), false, 'B still lists the hidden game');
  const join = await call(b.url, 'POST', `/api/v1/games/${id}/join`);
  assert.equal(join.status, 403, join.text);

  const log = (await admin(b.url, 'GET', 'log')).json.log;
  assert.deepEqual(log.map((e) => e.action), ['hide', 'mute', 'remove']);
  await spectator.close();
});
