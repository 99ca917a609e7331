// Acting twice must not act twice: a retried request (same seq, same
// action) gets the first answer byte for byte, also after the other seat
// moved and after a restart; plus the other endpoints a game has: creation
// links, notes, rematch, the record and the QR code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startServer, call, newGame, expectError, tempDir, openSocket } from './lib.mjs';

let server, base;
const dir = tempDir();
before(async () => { server = await startServer({ dir }); base = server.url; });
after(async () => {
  const r = await server.stop();
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

const act = (id, token, body) => call(base, 'POST', `/api/v1/games/${id}/actions`, { token, body });

test('a retried action returns the first answer byte for byte and acts once', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 9 } });
  const first = await act(id, tokens.black, { seq: 1, action: 'attempt', vertex: 'E5' });
  assert.equal(first.status, 200);
  const again = await act(id, tokens.black, { seq: 1, action: 'attempt', vertex: 'E5' });
  assert.equal(again.status, 200);
  assert.equal(again.text, first.text);
  // Concurrent double click: both get the same answer, one event.
  const [a, b] = await Promise.all([act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'C3' }),
                                    act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'C3' })]);
  assert.equal(a.status, 200);
  assert.equal(b.text, a.text);
  assert.equal((await call(base, 'GET', `/api/v1/games/${id}`)).json.seq, 2);
  // The same seq with another action is not a retry.
  expectError(await act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'D3' }), 409, 'stale_seq');
  // A seat's last answer stays retryable after the other seat acted.
  assert.equal((await act(id, tokens.black, { seq: 3, action: 'pass' })).status, 200);
  const late = await act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'C3' });
  assert.equal(late.text, a.text);
  // Also after a restart (the answer is rebuilt from the log).
  const before = await act(id, tokens.black, { seq: 3, action: 'pass' });
  await server.stop();
  server = await startServer({ dir });
  base = server.url;
  const restarted = await act(id, tokens.black, { seq: 3, action: 'pass' });
  assert.equal(restarted.status, 200);
  assert.equal(restarted.text, before.text);
  assert.equal((await call(base, 'GET', `/api/v1/games/${id}`)).json.seq, 3);
});

test('creation answers the seats, the invite and the three links', async () => {
  const online = await call(base, 'POST', '/api/v1/games', { body: { mode: 'online', color: 'white', settings: { size: 13 } } });
  assert.equal(online.status, 201);
  const g = online.json;
  assert.match(g.game.id, /^[a-z0-9]{10,20}$/);
  assert.equal(g.game.mode, 'online');
  assert.deepEqual(g.game.settings, { size: 13, komi: 7.5, handicap: 0, ko: 'simple', rules: 'olympiad', torus: false, capture_go: false });
  assert.equal(g.seats.length, 1);
  assert.equal(g.seats[0].color, 'white');
  assert.match(g.seats[0].token, /^[A-Za-z0-9_-]{43}$/);
  assert.match(g.invite, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(g.links.play, `${base}/g/${g.game.id}#seat=${g.seats[0].token}`);
  assert.equal(g.links.invite, `${base}/g/${g.game.id}#invite=${g.invite}`);
  assert.equal(g.links.watch, `${base}/g/${g.game.id}`);
  const view = (await call(base, 'GET', `/api/v1/games/${g.game.id}`, { token: g.seats[0].token })).json;
  assert.equal(view.viewer, 'white');
  assert.deepEqual([view.seats.black.taken, view.seats.black.computer, view.seats.white.taken, view.seats.white.computer],
                   [false, false, true, false]);
  const hot = await call(base, 'POST', '/api/v1/games', { body: { mode: 'hotseat' } });
  assert.deepEqual(hot.json.seats.map((s) => s.color), ['black', 'white']);
  assert.equal(hot.json.invite, undefined);
  assert.equal(hot.json.links.invite, undefined);
  assert.equal(hot.json.links.play, `${base}/g/${hot.json.game.id}#seat=${hot.json.seats[0].token}&seat=${hot.json.seats[1].token}`);
  const colors = new Set();
  for (let i = 0; i < 16; i++)
    colors.add((await call(base, 'POST', '/api/v1/games', { body: { mode: 'online' } })).json.seats[0].color);
  assert.deepEqual([...colors].sort(), ['black', 'white'], 'random colour');
});

test('notes are private to their seat and survive as stored', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 9 } });
  assert.deepEqual((await call(base, 'GET', `/api/v1/games/${id}/notes`, { token: tokens.black })).json, { ghosts: [] });
  const put = await call(base, 'PUT', `/api/v1/games/${id}/notes`, { token: tokens.black, body: { ghosts: ['d4', 'E5'] } });
  assert.equal(put.status, 200);
  assert.deepEqual(put.json, { ghosts: ['D4', 'E5'] });
  assert.deepEqual((await call(base, 'GET', `/api/v1/games/${id}/notes`, { token: tokens.black })).json, { ghosts: ['D4', 'E5'] });
  assert.deepEqual((await call(base, 'GET', `/api/v1/games/${id}/notes`, { token: tokens.white })).json, { ghosts: [] });
  const view = await call(base, 'GET', `/api/v1/games/${id}`, { token: tokens.white });
  assert.ok(!view.text.includes('"D4"') && !view.text.includes('"E5"'));
  expectError(await call(base, 'PUT', `/api/v1/games/${id}/notes`, { token: tokens.black, body: { ghosts: ['D4', 'D4'] } }),
              400, 'bad_vertex');
  expectError(await call(base, 'PUT', `/api/v1/games/${id}/notes`, { token: tokens.black, body: { ghosts: 'D4' } }),
              400, 'bad_request');
});

test('rematch: the first seat creates it with colours swapped, the other joins it', async () => {
  const { id, tokens } = await newGame(base, { mode: 'online', settings: { size: 7, komi: 5.5 } });
  expectError(await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black }), 409, 'game_not_over');
  assert.equal((await act(id, tokens.black, { seq: 1, action: 'resign' })).status, 200);
  const first = await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.white });
  assert.equal(first.status, 201, first.text);
  const next = first.json.game.id;
  assert.notEqual(next, id);
  assert.equal(first.json.game.settings.komi, 5.5);
  assert.deepEqual(first.json.seats.map((s) => s.color), ['black']);
  // The other seat is kept for the opponent: no invite to it is handed out.
  assert.equal(first.json.invite, undefined, first.text);
  assert.equal(first.json.links.invite, undefined, first.text);
  const seen = (await call(base, 'GET', `/api/v1/games/${id}`, { token: tokens.black })).json;
  assert.deepEqual(seen.rematch, { id: next, cancelled: false });
  const second = await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.json.game.id, next);
  assert.deepEqual(second.json.seats.map((s) => s.color), ['white']);
  const newBlack = first.json.seats[0].token, newWhite = second.json.seats[0].token;
  assert.equal((await call(base, 'POST', `/api/v1/games/${next}/actions`,
                           { token: newBlack, body: { seq: 1, action: 'attempt', vertex: 'D4' } })).status, 200);
  assert.equal((await call(base, 'GET', `/api/v1/games/${next}`, { token: newWhite })).json.viewer, 'white');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black }), 409, 'seat_taken');
});

test('rematch offers are withdrawn and declined live, and a new offer may follow', async () => {
  const { id, tokens } = await newGame(base, { mode: 'online', settings: { size: 7 } });
  const rematch = (token, body) => call(base, 'POST', `/api/v1/games/${id}/rematch`, { token, body });
  assert.equal((await act(id, tokens.black, { seq: 1, action: 'resign' })).status, 200);
  expectError(await rematch(tokens.white, { action: 'withdraw' }), 409, 'no_rematch');
  expectError(await rematch(tokens.white, { action: 'decline' }), 409, 'no_rematch');
  expectError(await rematch(tokens.white, { action: 'accept' }), 409, 'no_rematch');
  expectError(await rematch(tokens.white, { action: 'again' }), 400, 'bad_request');
  expectError(await rematch(tokens.white, { action: 'offer', extra: 1 }), 400, 'bad_request');
  expectError(await rematch(null, { action: 'withdraw' }), 401, 'token_required');
  // The opponent (black) watches the finished game live.
  const ws = openSocket(base, id, { token: tokens.black });
  await ws.opened;
  const rematchOf = (f) => f.json.type === 'update' && f.json.view.rematch;
  const offered = await rematch(tokens.white, { action: 'offer' });
  assert.equal(offered.status, 201, offered.text);
  const first = offered.json.game.id;
  await ws.waitFor((fs) => fs.some((f) => rematchOf(f)?.id === first && !rematchOf(f).cancelled));
  // Each side may only end the offer from its own side.
  expectError(await rematch(tokens.black, { action: 'withdraw' }), 409, 'not_offerer');
  expectError(await rematch(tokens.white, { action: 'decline' }), 409, 'own_offer');
  expectError(await rematch(tokens.white, { action: 'accept' }), 409, 'own_offer');
  // The offerer, waiting on the new game, hears it cancelled when it is withdrawn.
  const offerer = openSocket(base, first, { token: offered.json.seats[0].token });
  await offerer.opened;
  const withdrawn = await rematch(tokens.white, { action: 'withdraw' });
  assert.equal(withdrawn.status, 200, withdrawn.text);
  assert.deepEqual(withdrawn.json, { withdrawn: true });
  await ws.waitFor((fs) => fs.some((f) => rematchOf(f)?.id === first && rematchOf(f).cancelled));
  await offerer.waitFor((fs) => fs.some((f) => f.json.type === 'update' && f.json.view.cancelled));
  offerer.close();
  expectError(await rematch(tokens.white, { action: 'withdraw' }), 409, 'no_rematch');
  expectError(await rematch(tokens.black, { action: 'accept' }), 409, 'no_rematch');
  // A new offer, this time from black, replaces the withdrawn one; white declines it.
  const again = await rematch(tokens.black, {});
  assert.equal(again.status, 201, again.text);
  const second = again.json.game.id;
  assert.notEqual(second, first);
  const waiting = openSocket(base, second, { token: again.json.seats[0].token });
  await waiting.opened;
  const declined = await rematch(tokens.white, { action: 'decline' });
  assert.equal(declined.status, 200, declined.text);
  assert.deepEqual(declined.json, { declined: true });
  await waiting.waitFor((fs) => fs.some((f) => f.json.type === 'update' && f.json.view.cancelled));
  waiting.close();
  ws.close();
  expectError(await call(base, 'POST', `/api/v1/games/${second}/actions`,
                         { token: again.json.seats[0].token, body: { seq: 1, action: 'pass' } }), 409, 'game_cancelled');
  // The ended offer is stored: a restarted server tells the same.
  await server.stop();
  server = await startServer({ dir });
  base = server.url;
  const after = (await call(base, 'GET', `/api/v1/games/${id}`, { token: tokens.white })).json;
  assert.deepEqual(after.rematch, { id: second, cancelled: true });
  // A third offer is accepted: then it can be neither withdrawn nor declined.
  const third = await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.white, body: { action: 'offer' } });
  assert.equal(third.status, 201, third.text);
  const accepted = await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black, body: { action: 'accept' } });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.json.game.id, third.json.game.id);
  expectError(await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.white, body: { action: 'withdraw' } }),
              409, 'seat_taken');
  expectError(await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black, body: { action: 'decline' } }),
              409, 'seat_taken');
});

test('a rematch its offerer cancels on its own page is withdrawn on the finished game, live', async () => {
  const { id, tokens } = await newGame(base, { mode: 'online', settings: { size: 7 } });
  assert.equal((await act(id, tokens.black, { seq: 1, action: 'resign' })).status, 200);
  const ws = openSocket(base, id, { token: tokens.black });
  await ws.opened;
  const rematchOf = (f) => f.json.type === 'update' && f.json.view.rematch;
  const offered = await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.white });
  assert.equal(offered.status, 201, offered.text);
  const next = offered.json.game.id;
  await ws.waitFor((fs) => fs.some((f) => rematchOf(f)?.id === next && !rematchOf(f).cancelled));
  const cancelled = await call(base, 'POST', `/api/v1/games/${next}/cancel`, { token: offered.json.seats[0].token });
  assert.equal(cancelled.status, 200, cancelled.text);
  await ws.waitFor((fs) => fs.some((f) => rematchOf(f)?.id === next && rematchOf(f).cancelled));
  ws.close();
  const seen = (await call(base, 'GET', `/api/v1/games/${id}`, { token: tokens.black })).json;
  assert.deepEqual(seen.rematch, { id: next, cancelled: true });
  expectError(await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black, body: { action: 'accept' } }),
              409, 'no_rematch');
  // The other side may offer again, which replaces the cancelled rematch.
  const again = await call(base, 'POST', `/api/v1/games/${id}/rematch`, { token: tokens.black });
  assert.equal(again.status, 201, again.text);
  assert.notEqual(again.json.game.id, next);
});

test('the SGF record after the end, and QR codes of links', async () => {
  const { id, tokens } = await newGame(base, { settings: { size: 9 } });
  await act(id, tokens.black, { seq: 1, action: 'attempt', vertex: 'E5' });
  await act(id, tokens.white, { seq: 2, action: 'attempt', vertex: 'E5' });
  await act(id, tokens.white, { seq: 3, action: 'pass' });
  await act(id, tokens.black, { seq: 4, action: 'pass' });
  const sgf = await call(base, 'GET', `/api/v1/games/${id}/sgf`);
  assert.equal(sgf.status, 200);
  assert.match(sgf.text, /SZ\[9\]/);
  assert.match(sgf.text, /;B\[ee\]/);
  assert.match(sgf.headers.get('content-disposition'), /attachment; filename="phantomgo-[a-z0-9]+\.sgf"/);
  const qr = await call(base, 'POST', '/api/v1/qr', { body: { text: `${base}/g/${id}#invite=secret` } });
  assert.equal(qr.status, 200);
  assert.equal(qr.headers.get('content-type'), 'image/svg+xml');
  assert.match(qr.text, /^<svg|^<\?xml/);
  assert.ok(!qr.text.includes('secret'));
});
