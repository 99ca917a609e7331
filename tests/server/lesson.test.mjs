// The interactive lesson's referee, POST /api/v1/lesson/{step}: each step
// reaches its goal through the real engine's answers, every answer before
// the end hides White's stones exactly as a game's view does (checked on
// many sequences of tries per step), the same moves give the same bytes,
// and bad input gets the API's JSON errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, expectError, rng } from './lib.mjs';

const STEPS = ['see', 'illegal', 'once', 'capture', 'end'];
const POINTS = [];
for (const column of 'ABCDE') for (let row = 1; row <= 5; row++) POINTS.push(`${column}${row}`);

let server;
before(async () => { server = await startServer(); });
after(async () => {
  const r = await server.stop();
  assert.equal(r.code, 0, `server exit: ${JSON.stringify(r)}\n${server.output()}`);
});

function lesson(step, moves, options = {}) {
  return call(server.url, 'POST', `/api/v1/lesson/${step}`, { body: { moves }, ...options });
}

async function answer(step, moves) {
  const res = await lesson(step, moves);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

// What Black may know while the game is on: their own stones and tries,
// White's captures of Black's stones and Black's of White's (olympiad
// rules), never where White played or tried.
function assertHidesWhite(json, context) {
  const view = json.view;
  if (view.over) return;
  assert.equal(view.viewer, 'black', context);
  assert.deepEqual(view.stones.white, [], `${context}: a White stone shown`);
  for (const event of view.events) {
    if (event.color !== 'white') continue;
    assert.equal(event.vertex, undefined, `${context}: White's ${event.type} located: ${JSON.stringify(event)}`);
    assert.equal(event.reason, undefined, context);
  }
}

function newEvents(json) {
  return json.view.events.filter((event) => event.seq >= json.first_seq);
}

test('every step starts with Black to move and nothing of White shown', async () => {
  for (const step of STEPS) {
    const json = await answer(step, []);
    assert.equal(json.step, step);
    assert.equal(json.done, false);
    assert.equal(json.refused, null);
    assert.equal(json.view.to_move, 'black');
    assert.equal(json.view.game.settings.size, 5);
    assert.equal(json.view.seq, json.first_seq - 1, 'the set-up events come before first_seq');
    assertHidesWhite(json, step);
  }
});

test('see: a stone of Black is answered by White somewhere unseen', async () => {
  const json = await answer('see', ['A1']);
  assert.equal(json.done, true);
  const [own, reply] = newEvents(json);
  assert.deepEqual([own.type, own.color, own.vertex], ['move', 'black', 'A1']);
  assert.deepEqual([reply.type, reply.color, reply.vertex], ['move', 'white', undefined]);
  assert.equal(json.view.on_board.white, 1);
  assertHidesWhite(json, 'see');
});

test('illegal: a try on an unseen stone is refused and Black keeps the turn', async () => {
  let moves = [];
  let json;
  for (const point of POINTS) {
    json = await answer('illegal', [...moves, point]);
    if (json.refused) continue; // own stone
    moves = [...moves, point];
    assertHidesWhite(json, `illegal after ${moves}`);
    if (json.done) break;
    assert.equal(newEvents(json).some((event) => event.type === 'illegal' && event.color === 'black'), false);
  }
  assert.equal(json.done, true, 'some try was illegal');
  const last = newEvents(json).at(-1);
  assert.deepEqual([last.type, last.color, last.vertex], ['illegal', 'black', moves.at(-1)]);
  assert.equal(json.view.to_move, 'black');
  assert.deepEqual(json.view.tried, [moves.at(-1)]);
});

test('once: the same point twice in one turn is refused, and nothing changes', async () => {
  const first = await answer('once', ['C3']);
  assert.equal(first.done, false);
  assert.deepEqual(first.view.tried, ['C3']);
  const again = await answer('once', ['C3', 'C3']);
  assert.equal(again.refused, 'already_tried');
  assert.equal(again.done, true);
  assert.deepEqual(again.view, first.view, 'a refusal changes nothing');
  const own = await answer('once', ['A1']);
  assert.equal(own.refused, 'own_stone');
  assert.equal(own.done, false);
});

test('capture: the referee names the captured points, never the capturing stone', async () => {
  const json = await answer('capture', ['C4']);
  assert.equal(json.done, true);
  const [mine, theirs] = newEvents(json);
  assert.deepEqual([mine.color, mine.vertex, mine.captured], ['black', 'C4', ['C3']]);
  assert.deepEqual([theirs.color, theirs.vertex, theirs.captured], ['white', undefined, ['A5']]);
  assert.equal(json.view.stones.black.includes('A5'), false);
  assertHidesWhite(json, 'capture');
});

test('end: two passes end the game and reveal the whole board', async () => {
  const json = await answer('end', ['pass']);
  assert.equal(json.done, true);
  assert.equal(json.view.over, true);
  assert.equal(json.view.result.reason, 'passes');
  assert.equal(json.view.result.winner, 'black');
  assert.deepEqual(json.view.result.score, { black: 16, white: 15.5 });
  assert.deepEqual(json.view.stones.white.sort(), ['D1', 'D2', 'D3', 'D4', 'E2', 'E4']);
  const after = await answer('end', ['pass', 'A1']);
  assert.equal(after.refused, 'game_over');
});

test('many sequences of tries: White stays hidden until the end', async () => {
  const random = rng(23);
  for (const step of STEPS) {
    for (let game = 0; game < 4; game++) {
      let moves = [];
      for (let i = 0; i < 20; i++) {
        const point = random() < 0.1 ? 'pass' : POINTS[Math.floor(random() * POINTS.length)];
        const json = await answer(step, [...moves, point]);
        assertHidesWhite(json, `${step} ${[...moves, point]}`);
        if (!json.refused) moves = [...moves, point];
        if (json.view.over) break;
      }
    }
  }
});

test('the same moves give the same answer, byte for byte', async () => {
  const a = await lesson('capture', ['D4', 'C4']);
  const b = await lesson('capture', ['D4', 'C4']);
  assert.equal(a.text, b.text);
});

test('bad input gets a JSON error with the right status', async () => {
  expectError(await call(server.url, 'GET', '/api/v1/lesson/see'), 405, 'method_not_allowed');
  expectError(await lesson('nope', []), 404, 'not_found');
  expectError(await call(server.url, 'POST', '/api/v1/lesson', { body: {} }), 404, 'not_found');
  expectError(await lesson('see', ['Z9']), 400, 'bad_vertex');
  expectError(await lesson('see', ['F1']), 400, 'bad_vertex');
  expectError(await lesson('see', 'C3'), 400, 'bad_request');
  expectError(await lesson('see', [3]), 400, 'bad_request');
  expectError(await lesson('see', Array(65).fill('pass')), 400, 'bad_request');
  expectError(await lesson('once', ['C3', 'C3', 'A2']), 400, 'bad_request');
  expectError(await call(server.url, 'POST', '/api/v1/lesson/see', { body: { moves: [], extra: 1 } }), 400, 'bad_request');
  expectError(await call(server.url, 'POST', '/api/v1/lesson/see', {
    raw: 'not json', headers: { 'Content-Type': 'application/json' },
  }), 400, 'bad_json');
  expectError(await call(server.url, 'POST', '/api/v1/lesson/see', {
    raw: '{}', headers: { 'Content-Type': 'text/plain' },
  }), 415, 'unsupported_media_type');
  const empty = await call(server.url, 'POST', '/api/v1/lesson/see', { raw: '', headers: { 'Content-Type': 'application/json' } });
  assert.equal(empty.status, 200, 'no body: the step\'s start');
});
