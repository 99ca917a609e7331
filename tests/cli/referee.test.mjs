// The command-line referee's contract (issue 2), byte for byte: settings on
// the first line, one JSON-string action a line, one truth line per action
// and a closing {"over":true,...} line; bad input gives exactly one line on
// stderr and a non-zero exit, never a crash (this suite runs the ASan build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.resolve(repoRoot, process.env.PHANTOMGO_BIN ?? 'build/phantomgo');

// Runs the referee on the given input lines (strings are sent as they are).
function referee(lines, args = []) {
  const input = lines.map((l) => l + '\n').join('');
  const r = spawnSync(bin, ['referee', ...args], { input, encoding: 'utf8', timeout: 20000 });
  return {
    code: r.status,
    out: r.stdout.split('\n').filter((l) => l !== ''),
    err: r.stderr.split('\n').filter((l) => l !== ''),
  };
}

const moves = (...vs) => vs.map((v) => JSON.stringify(v));
const legal = (color, action, captured = [], atari = false) =>
  JSON.stringify({ color, action, result: 'legal', captured, atari });

test('a 5x5 game: moves, a five-stone capture sorted by column, atari, passes, score', () => {
  const r = referee(['{"size":5}', ...moves(
    'B1', 'B2', 'C1', 'C2', 'D1', 'D2', 'A2', 'B3', 'E2', 'D3', 'A3', 'pass',
    'B4', 'pass', 'C3', 'pass', 'D4', 'pass', 'E3', 'B2', 'pass', 'pass')]);
  assert.equal(r.code, 0);
  assert.deepEqual(r.err, []);
  assert.equal(r.out.length, 23);
  assert.equal(r.out[0], '{"color":"B","action":"B1","result":"legal","captured":[],"atari":false}');
  assert.equal(r.out[11], '{"color":"W","action":"pass","result":"pass"}');
  assert.equal(r.out[16], legal('B', 'D4', [], true));
  assert.equal(r.out[18],
    '{"color":"B","action":"E3","result":"legal","captured":["B2","B3","C2","D2","D3"],"atari":false}');
  assert.equal(r.out[19], legal('W', 'B2'));
  assert.equal(r.out[22], '{"over":true,"reason":"passes","winner":"B","score":{"black":20,"white":8.5}}');
});

test('illegal attempts say why; refusals change nothing', () => {
  // Black A3 B4 B2, white B3 C4 C2 D3; black C3 takes the ko.
  const r = referee(['{"size":5,"rules":"olympiad"}', ...moves(
    'A3', 'B3', 'B4', 'C4', 'B2', 'C2', 'E5', 'D3', 'C3',
    'B3', 'b3', 'C3', 'E5', 'A1', 'C3', 'Z9', 'K1', 'I2', 'hello', 'pass')]);
  assert.equal(r.code, 0);
  assert.equal(r.out[8], legal('B', 'C3', ['B3']));
  assert.equal(r.out[9], '{"color":"W","action":"B3","result":"illegal","reason":"ko"}');
  assert.equal(r.out[10], '{"result":"refused","error":"already_tried"}');   // b3 is B3
  assert.equal(r.out[11], '{"color":"W","action":"C3","result":"illegal","reason":"occupied"}');
  assert.equal(r.out[12], '{"color":"W","action":"E5","result":"illegal","reason":"occupied"}');
  assert.equal(r.out[13], legal('W', 'A1'));
  assert.equal(r.out[14], '{"result":"refused","error":"own_stone"}');       // black's own C3
  for (const i of [15, 16, 17, 18]) assert.equal(r.out[i], '{"result":"refused","error":"bad_vertex"}');
  assert.equal(r.out[19], '{"color":"B","action":"pass","result":"pass"}');
  assert.equal(r.out.length, 20);
});

test('suicide, single and multi-stone', () => {
  const r = referee(['{"size":5}', ...moves(
    'B4', 'E1', 'A3', 'E2', 'B2', 'D1', 'C3', 'B3')]);
  assert.equal(r.out[7], '{"color":"W","action":"B3","result":"illegal","reason":"suicide"}');
  // Two white stones B4, D4 under a black roof: C4 would leave them no liberty.
  const m = referee(['{"size":5}', ...moves(
    'B5', 'B4', 'C5', 'D4', 'D5', 'E1', 'A4', 'E2', 'E4', 'D1', 'B3', 'C1', 'C3', 'A1', 'D3', 'C4')]);
  assert.equal(m.out[15], '{"color":"W","action":"C4","result":"illegal","reason":"suicide"}');
});

test('superko forbids a repeated position that simple ko allows', () => {
  const setup = moves('B9', 'C9', 'A8', 'B8', 'B7', 'D8', 'B6', 'C7', 'A5', 'C6', 'C5', 'D5',
    'B4', 'C4', 'B3', 'C3', 'A2', 'B2', 'B1', 'D2', 'J9', 'C1');
  const cycle = moves('C8', 'B5', 'C2', 'B8', 'C5', 'B2');
  const simple = referee(['{"ko":"simple"}', ...setup, ...cycle]);
  assert.equal(simple.out[27], legal('W', 'B2', ['C2'], true));   // and B1 is in atari again
  const superko = referee(['{"ko":"superko"}', ...setup, ...cycle]);
  assert.equal(superko.out[26], legal('B', 'C5', ['B5']));
  assert.equal(superko.out[27], '{"color":"W","action":"B2","result":"illegal","reason":"ko"}');
});

test('capture across the torus edge', () => {
  const plane = referee(['{"size":9}', ...moves('B1', 'A1', 'A2')]);
  assert.equal(plane.out[2], legal('B', 'A2', ['A1']));
  const torus = referee(['{"size":9,"torus":true}', ...moves('B1', 'A1', 'A2', 'E5', 'J1', 'F5', 'A9')]);
  assert.equal(torus.out[2], legal('B', 'A2'));
  assert.equal(torus.out[4], legal('B', 'J1', [], true));
  assert.equal(torus.out[6], legal('B', 'A9', ['A1']));
});

test('capture Go: the first capture ends the game; a target counts all captures', () => {
  const r = referee(['{"size":5,"capture_go":true}', ...moves('B1', 'A1', 'A2', 'C3')]);
  assert.deepEqual(r.out.slice(2), [
    legal('B', 'A2', ['A1']),
    '{"over":true,"reason":"capture","winner":"B"}',
    '{"result":"refused","error":"game_over"}',
  ]);
  const t = referee(['{"size":5,"capture_go":2}', ...moves('B1', 'A1', 'A2', 'E1', 'D1', 'C5', 'E2')]);
  assert.equal(t.out[2], legal('B', 'A2', ['A1']));
  assert.equal(t.out[6], legal('B', 'E2', ['E1']));
  assert.equal(t.out[7], '{"over":true,"reason":"capture","winner":"B"}');
  assert.equal(t.out.length, 8);
});

test('resignation, jigo with integer komi, handicap with White first', () => {
  const resign = referee(['{}', ...moves('E5', 'resign', 'pass')]);
  assert.deepEqual(resign.out, [
    legal('B', 'E5'),
    '{"color":"W","action":"resign","result":"resign"}',
    '{"over":true,"reason":"resign","winner":"B"}',
    '{"result":"refused","error":"game_over"}',
  ]);
  const jigo = referee(['{"size":5,"komi":0}',
    ...moves('B1', 'D1', 'B2', 'D2', 'B3', 'D3', 'B4', 'D4', 'B5', 'D5', 'pass', 'pass')]);
  assert.equal(jigo.out[12], '{"over":true,"reason":"passes","winner":null,"score":{"black":10,"white":10}}');
  const hc = referee(['{"size":9,"handicap":2}', ...moves('C3', 'E5', 'pass', 'pass')]);
  assert.equal(hc.out[0], '{"color":"W","action":"C3","result":"illegal","reason":"occupied"}');
  assert.equal(hc.out[1], legal('W', 'E5'));
  assert.equal(hc.out[4], '{"over":true,"reason":"passes","winner":"B","score":{"black":2,"white":1.5}}');
});

test('the referee prints the whole truth whatever the table rules', () => {
  const r = referee(['{"size":5,"rules":"hamburg"}', ...moves('C3', 'C3')]);
  assert.equal(r.out[1], '{"color":"W","action":"C3","result":"illegal","reason":"occupied"}');
});

test('blank lines are skipped; --help explains', () => {
  const r = referee(['', '{"size":5}', '   ', '"C3"', '']);
  assert.equal(r.code, 0);
  assert.deepEqual(r.out, [legal('B', 'C3')]);
  const h = spawnSync(bin, ['referee', '--help'], { encoding: 'utf8' });
  assert.equal(h.status, 0);
  assert.match(h.stdout, /usage: phantomgo referee/);
});

// Bad input: exactly one stderr line naming the line, non-zero exit, and
// the answers already given stay on stdout.
const bad = [
  ['unparsable settings', ['{"size":9'], /line 1: settings are not valid JSON/],
  ['unknown setting', ['{"size":9,"colour":"black"}'], /line 1: unknown setting "colour"/],
  ['size out of range', ['{"size":27}'], /line 1: size must be an integer from 5 to 25/],
  ['size below range', ['{"size":4}'], /line 1: size must be an integer from 5 to 25/],
  ['handicap too large', ['{"size":7,"handicap":5}'], /line 1: handicap must be 0 or 2 to 4 on this size/],
  ['bad komi', ['{"komi":7.3}'], /line 1: komi must be a number in steps of 0.5/],
  ['settings not an object', ['[1,2]'], /line 1: settings must be a JSON object/],
  ['unparsable action', ['{}', '"E5"', 'E5'], /line 3: not valid JSON/],
  ['action not a string', ['{}', '42'], /line 2: an action must be a JSON string/],
  ['action object', ['{}', '{"vertex":"E5"}'], /line 2: an action must be a JSON string/],
  ['no settings at all', [], /no settings line/],
];
for (const [name, lines, message] of bad) {
  test(`bad input: ${name}`, () => {
    const r = referee(lines);
    assert.notEqual(r.code, 0);
    assert.equal(r.err.length, 1, r.err.join('\n'));
    assert.match(r.err[0], /^phantomgo referee: /);
    assert.match(r.err[0], message);
    if (name === 'unparsable action') assert.deepEqual(r.out, [legal('B', 'E5')]);
  });
}

test('bad input: a NUL byte and binary garbage', () => {
  const r = spawnSync(bin, ['referee'], { input: Buffer.from('{}\n"E5\u0000"\n\xff\xfe\n'), timeout: 20000 });
  assert.notEqual(r.status, 0);
  assert.equal(r.stderr.toString().trim().split('\n').length, 1);
});

test('bad arguments exit 2', () => {
  const r = spawnSync(bin, ['referee', '--frobnicate'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
});
