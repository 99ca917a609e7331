// The deduction aid through the real server (docs/API.md, "Deduction aid"):
// the table setting (defaults per mode, a bad value refused, kept across a
// restart and a rematch, shown in every game object); who reads which aid
// before and after the end, each refusal with its status and code; the same
// answer for the same position; and after a computer game, the computer's
// belief at each of its moves, even at a table with the aid off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { call, expectError, newGame, startServer, tempDir } from './lib.mjs';

let srv;
before(async () => { srv = await startServer({ env: { PHANTOMGO_BOT_PLAYOUTS: '30' } }); });
after(async () => { await srv?.stop(); });

const aid = (id, { token, query = '' } = {}) => call(srv.url, 'GET', `/api/v1/games/${id}/aid${query}`, { token });
const act = (id, token, seq, body) => call(srv.url, 'POST', `/api/v1/games/${id}/actions`, { token, body: { seq, ...body } });
const create = (body) => call(srv.url, 'POST', '/api/v1/games', { body });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function hotseat(body = {}) {
  const res = await create({ mode: 'hotseat', deduction_aid: true, ...body });
  assert.equal(res.status, 201, res.text);
  const tokens = {};
  for (const s of res.json.seats) tokens[s.color] = s.token;
  return { id: res.json.game.id, tokens, game: res.json.game };
}

test('the setting: default per mode, explicit values, bad values, shown to everyone', async () => {
  const defaults = {};
  for (const mode of ['online', 'hotseat', 'computer']) {
    const res = await create({ mode, color: 'black' });
    assert.equal(res.status, 201, res.text);
    defaults[mode] = res.json.game.deduction_aid;
    const view = await call(srv.url, 'GET', `/api/v1/games/${res.json.game.id}`);
    assert.equal(view.json.game.deduction_aid, defaults[mode], 'a spectator sees the setting too');
  }
  assert.deepEqual(defaults, { online: false, hotseat: false, computer: true });
  const on = await create({ mode: 'online', deduction_aid: true });
  assert.equal(on.json.game.deduction_aid, true);
  const off = await create({ mode: 'computer', deduction_aid: false });
  assert.equal(off.json.game.deduction_aid, false);
  for (const bad of [1, 'yes', null, {}]) {
    const res = await create({ mode: 'online', deduction_aid: bad });
    expectError(res, 400, 'bad_request');
    assert.match(res.json.error.message, /deduction_aid/);
  }
});

test('a seat reads its own aid now; nobody else does before the end', async () => {
  const g = await hotseat({ settings: { size: 9, rules: 'hamburg' } });
  assert.equal((await act(g.id, g.tokens.black, 1, { action: 'attempt', vertex: 'E5' })).status, 200);
  assert.equal((await act(g.id, g.tokens.white, 2, { action: 'attempt', vertex: 'C3' })).status, 200);
  const refused = await act(g.id, g.tokens.black, 3, { action: 'attempt', vertex: 'C3' });
  assert.equal(refused.json.event.type, 'illegal');

  const mine = await aid(g.id, { token: g.tokens.black });
  assert.equal(mine.status, 200, mine.text);
  assert.equal(mine.json.color, 'black');
  assert.equal(mine.json.seq, 3);
  assert.equal(mine.json.size, 9);
  assert.equal(mine.json.samples, 256);
  assert.equal(mine.json.points.C3, 100, 'a point refused as occupied holds a stone');
  assert.ok(!('E5' in mine.json.points), 'never on the seat\'s own stone');
  const again = await aid(g.id, { token: g.tokens.black, query: '?seq=3' });
  assert.equal(again.text, mine.text, 'the same position gives the same bytes');

  expectError(await aid(g.id), 401, 'token_required');
  expectError(await aid(g.id, { token: g.tokens.white, query: '?color=black' }), 403, 'aid_not_yours');
  expectError(await aid(g.id, { token: 'not-a-seat' }), 403, 'bad_token');
  expectError(await aid(g.id, { token: g.tokens.black, query: '?seq=2' }), 409, 'stale_seq');
  expectError(await aid(g.id, { token: g.tokens.black, query: '?color=green' }), 400, 'bad_request');
  expectError(await aid(g.id, { token: g.tokens.black, query: '?seq=x' }), 400, 'bad_request');
  const post = await call(srv.url, 'POST', `/api/v1/games/${g.id}/aid`, { token: g.tokens.black, body: {} });
  expectError(post, 405, 'method_not_allowed');
  const white = await aid(g.id, { token: g.tokens.white });
  assert.equal(white.json.color, 'white');
  assert.ok(!('C3' in white.json.points), 'white\'s own stone');
});

test('a table with the aid off refuses it, before and after the end', async () => {
  const g = await newGame(srv.url, { mode: 'online' });
  expectError(await aid(g.id, { token: g.tokens.black }), 403, 'aid_off');
  assert.equal((await act(g.id, g.tokens.black, 1, { action: 'resign' })).status, 200);
  expectError(await aid(g.id, { query: '?color=black&seq=0' }), 403, 'aid_off');
});

test('after the end anyone reads any seat at any position before it', async () => {
  const g = await hotseat();
  let seq = 0;
  for (const [color, vertex] of [['black', 'E5'], ['white', 'D4'], ['black', 'C3'], ['white', 'F6']]) {
    assert.equal((await act(g.id, g.tokens[color], ++seq, { action: 'attempt', vertex })).status, 200);
  }
  const live = await aid(g.id, { token: g.tokens.black });
  assert.equal(live.json.seq, 4);
  assert.equal((await act(g.id, g.tokens.black, ++seq, { action: 'resign' })).status, 200);
  const after4 = await aid(g.id, { query: '?color=black&seq=4' });
  assert.equal(after4.status, 200, after4.text);
  assert.equal(after4.text, live.text, 'the replayed position gives the answer the seat had');
  const start = await aid(g.id, { query: '?color=white&seq=0' });
  assert.equal(start.status, 200, start.text);
  assert.deepEqual(start.json.points, {}, 'before any move there is no stone to guess');
  const byDefault = await aid(g.id, { token: g.tokens.white });
  assert.equal(byDefault.json.seq, 4, 'a seat\'s default is the last position before the end');
  expectError(await aid(g.id, { query: '?color=black&seq=5' }), 400, 'bad_request');
  expectError(await aid(g.id, { query: '?seq=1' }), 400, 'bad_request');
});

test('after a computer game, the computer\'s belief at its moves, even with the aid off', async () => {
  const res = await create({ mode: 'computer', color: 'black', level: 'easy', deduction_aid: false });
  const id = res.json.game.id, token = res.json.seats[0].token;
  expectError(await aid(id, { token }), 403, 'aid_off');
  // Black's view once Black is to move (the computer done).
  const blacksTurn = async () => {
    for (;; await sleep(10)) {
      const v = (await call(srv.url, 'GET', `/api/v1/games/${id}`, { token })).json;
      if (v.to_move === 'black') return v;
    }
  };
  const whiteMoves = (events) => events.filter((e) => e.color === 'white' && e.type === 'move');
  // Black tries until the computer has made two moves: on this server (30
  // playouts a decision) the easy level now and then passes early instead.
  let view = await blacksTurn();
  for (const vertex of ['E5', 'C7', 'G3', 'C3', 'G7', 'E3', 'E7', 'C5', 'G5']) {
    if (whiteMoves(view.events).length >= 2) break;
    const r = await act(id, token, view.seq + 1, { action: 'attempt', vertex });
    assert.equal(r.status, 200, r.text);
    view = await blacksTurn();
  }
  const resigned = await act(id, token, view.seq + 1, { action: 'resign' });
  assert.equal(resigned.status, 200, resigned.text);
  const events = (await call(srv.url, 'GET', `/api/v1/games/${id}/events`)).json.events;
  const computerMoves = whiteMoves(events);
  assert.ok(computerMoves.length >= 2, JSON.stringify(events));
  for (const move of computerMoves) {
    const belief = await aid(id, { query: `?color=white&seq=${move.seq - 1}` });
    assert.equal(belief.status, 200, belief.text);
    assert.equal(belief.json.color, 'white');
  }
  const spectatorDefault = await aid(id);
  assert.equal(spectatorDefault.json.color, 'white', 'a spectator is shown the computer by default');
  expectError(await aid(id, { query: '?color=black&seq=1' }), 403, 'aid_off');
});

test('the setting survives a restart and a rematch', async () => {
  const dir = tempDir();
  try {
    let s = await startServer({ dir });
    const made = await call(s.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', deduction_aid: true } });
    const id = made.json.game.id;
    const black = made.json.seats[0].token;
    await s.stop({ keepData: true });
    s = await startServer({ dir });
    const view = await call(s.url, 'GET', `/api/v1/games/${id}`);
    assert.equal(view.json.game.deduction_aid, true);
    const mine = await call(s.url, 'GET', `/api/v1/games/${id}/aid`, { token: black });
    assert.equal(mine.status, 200, mine.text);
    assert.equal((await call(s.url, 'POST', `/api/v1/games/${id}/actions`, { token: black, body: { seq: 1, action: 'resign' } })).status, 200);
    const rematch = await call(s.url, 'POST', `/api/v1/games/${id}/rematch`, { token: black });
    assert.equal(rematch.status, 201, rematch.text);
    assert.equal(rematch.json.game.deduction_aid, true);
    await s.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('25x25 torus and 5x5: the aid answers on the edges of the sizes', async () => {
  for (const settings of [{ size: 25, torus: true }, { size: 5 }]) {
    const g = await hotseat({ settings });
    assert.equal((await act(g.id, g.tokens.black, 1, { action: 'attempt', vertex: 'C3' })).status, 200);
    const r = await aid(g.id, { token: g.tokens.white });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.size, settings.size);
    // One stone spread over 25 points adds up to about 100; over 625
    // points each chance rounds to 0 or 1 percent.
    const total = Object.values(r.json.points).reduce((a, b) => a + b, 0);
    if (settings.size === 5) assert.ok(total >= 70 && total <= 130, `one black stone adds up to about 100 (${total})`);
    else assert.ok(total <= 150, `${total}`);
  }
});
