// `phantomgo gtp` and `phantomgo arena --a gtp:COMMAND`: the Phantom Go
// dialect of GTP (docs/GTP.md) as a controller sees it. Sessions are fed to
// a real `phantomgo gtp` process on stdin and its responses read back; the
// arena tests play real engine processes, including broken ones, through
// the project's referee.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN as bin } from '../lib/server.mjs';
import { arena, result, sgfGames } from '../lib/arena.mjs';

// Runs one session: the commands on stdin, every response parsed.
function session(commands, options = ['--player', 'heuristic', '--seed', '1']) {
  const run = spawnSync(bin, ['gtp', ...options], { input: commands.join('\n') + '\n', timeout: 60000 });
  assert.equal(run.status, 0, `gtp exited ${run.status}: ${run.stderr}`);
  const out = run.stdout.toString();
  assert.ok(out === '' || out.endsWith('\n\n'), `output does not end a response: ${JSON.stringify(out)}`);
  return out === '' ? [] : out.slice(0, -2).split('\n\n').map((text) => {
    const m = /^([=?])(\d*) ?([\s\S]*)$/.exec(text);
    assert.ok(m, `not a GTP response: ${JSON.stringify(text)}`);
    return { ok: m[1] === '=', id: m[2], text: m[3] };
  });
}

// Asserts each response in turn: a string is a success with that text, a
// RegExp an error matching it, null any success.
function expectAll(commands, expected, options) {
  const got = session(commands, options);
  assert.equal(got.length, expected.length, `responses: ${JSON.stringify(got)}`);
  expected.forEach((want, i) => {
    const where = `${commands.filter((c) => c.trim() && !c.trim().startsWith('#'))[i]} -> ${JSON.stringify(got[i])}`;
    if (want instanceof RegExp) {
      assert.equal(got[i].ok, false, where);
      assert.match(got[i].text, want, where);
    } else {
      assert.equal(got[i].ok, true, where);
      if (want !== null) assert.equal(got[i].text, want, where);
    }
  });
  return got;
}

const vertexRe = /^([A-HJ-Z]([1-9]|1\d|2[0-5])|pass)$/;

test('administrative commands, ids, comments and blank lines follow GTP v2', () => {
  const got = session(['protocol_version', '12 name', '  # only a comment', '', 'version',
    'phantom-protocol_version', 'known_command genmove', 'known_command play',
    'known_command phantom-played', '7 list_commands', 'quit', 'name']);
  assert.deepEqual(got.slice(0, 2).map((r) => [r.ok, r.id, r.text]),
    [[true, '', '2'], [true, '12', 'phantomgo']]);
  assert.match(got[2].text, /^\d+\.\d+\.\d+ \(heuristic, phantom dialect 1\)$/);
  assert.equal(got[3].text, '1');
  assert.deepEqual(got.slice(4, 7).map((r) => r.text), ['true', 'false', 'true']);
  assert.equal(got[7].id, '7');
  const listed = got[7].text.split('\n');
  for (const name of ['protocol_version', 'name', 'version', 'known_command', 'list_commands', 'quit',
    'boardsize', 'clear_board', 'komi', 'fixed_handicap', 'set_free_handicap', 'time_settings',
    'time_left', 'genmove', 'phantom-rules', 'phantom-ko', 'phantom-torus', 'phantom-capture_target',
    'phantom-seat', 'phantom-played', 'phantom-illegal', 'phantom-passed'])
    assert.ok(listed.includes(name), `list_commands lacks ${name}`);
  assert.equal(got.length, 9, 'nothing is answered after quit');
});

test('unknown and malformed commands get a clear error and change nothing', () => {
  expectAll(['play black D4', 'boardsize 4', 'boardsize nine', 'komi lots', 'komi 6.3',
    'genmove purple', 'genmove', 'phantom-rules chess', 'phantom-torus maybe', 'phantom-capture_target -1',
    'fixed_handicap 12', 'known_command', '99999999999999999999 name', '3', 'Name',
    '\u0001\u0002name\u0007', 'boardsize 7', 'phantom-settings'],
  [/^unknown command$/, /^unacceptable size$/, /^unacceptable size$/, /komi must be a number/,
    /multiple of 0\.5/, /expected black or white/, /expected a colour/, /olympiad, common or hamburg/,
    /on or off/, /capture target/, /^invalid number of stones$/, /expected a command name/,
    /id too long/, /no command after the id/, /^unknown command$/, 'phantomgo', null,
    'size 7 komi 7.5 handicap 0 rules olympiad ko simple torus off capture_target 0 seat none']);
});

test('olympiad: reports say exactly what the seat is told, no more and no less', () => {
  // The engine is White on 5x5; Black moves first.
  const got = expectAll([
    'boardsize 5', 'clear_board', 'phantom-seat white',
    'phantom-illegal white C3',           // not White's turn
    'phantom-played black C3',            // the opponent's vertex is hidden
    'phantom-illegal black occupied',     // nor the reason of its attempt
    'phantom-illegal black',              // Black tried a point, refused
    'phantom-played black',               // then played somewhere
    'genmove white',
    'phantom-illegal white C3 occupied',  // olympiad rules tell no reason
    'phantom-illegal white C3',
    'phantom-illegal white C3',           // already tried this turn
    'phantom-played white C3',            // likewise
    'phantom-played white B3 atari',      // olympiad rules announce no atari
    'phantom-played white B3 captures 1', // the captured point is public here
    'phantom-played white B3 captures 1 C3',
    'phantom-played black captures 1',    // our own stone: its point is told
    'phantom-played black captures 1 D4', // D4 is not ours
    'phantom-played black captures 1 B3',
    'showboard',
  ], [null, null, null, /it is black's turn/, /hidden/, /hidden/, '', '', null,
    /only hamburg rules tell the reason/, '', /already tried/, /already tried/,
    /olympiad rules announce no atari/, /needs the 1 captured points/, '',
    /needs the 1 captured points/, /not the engine's stone/, '', null]);
  assert.match(got[8].text, vertexRe);
  const board = got[19].text.split('\n');
  assert.match(board[board.length - 2], /white's view, turn 4, white to move; on the board: black 1, white 0; captured by black 1, white 1/);
});

test('common rules: atari is announced; hamburg: reasons told, own captures only counted', () => {
  expectAll(['boardsize 7', 'phantom-rules common', 'phantom-seat black',
    'phantom-played black D4 atari', 'phantom-played white atari', 'genmove black'],
  [null, null, null, '', '', null]);
  expectAll(['boardsize 7', 'phantom-rules hamburg', 'phantom-seat black',
    'phantom-illegal black D4',            // hamburg tells the reason: it must be given
    'phantom-illegal black D4 suicide',
    'phantom-played black C4',
    'phantom-played white atari',
    'phantom-played black E4 captures 1 D4', // hamburg: only the count of what we captured
    'phantom-played black E4 captures 1',
    'phantom-played white captures 1',     // our stone: we see it go, so its point is told
    'phantom-played white captures 1 C4',
    'phantom-rules olympiad',              // the game has started
    'genmove black'],
  [null, null, null, /hamburg rules tell the reason/, '', '', '', /only how many stones/, '',
    /needs the 1 captured points/, '', /the game has started/, null]);
});

test('capture Go ends at the target, two passes end a game, torus and handicap tables', () => {
  expectAll(['boardsize 5', 'phantom-capture_target 1', 'phantom-seat black', 'phantom-played black C3',
    'phantom-played white captures 1 C3', 'genmove black', 'phantom-passed black'],
  [null, null, null, '', '', 'pass', /the game is over/]);
  expectAll(['boardsize 5', 'phantom-seat white', 'phantom-passed black', 'phantom-passed white',
    'genmove white', 'phantom-played black'],
  [null, null, '', '', 'pass', /the game is over/]);
  const torus = expectAll(['boardsize 5', 'phantom-torus on', 'phantom-ko superko', 'phantom-seat black',
    'genmove black', 'phantom-settings'], [null, null, null, null, null,
    'size 5 komi 7.5 handicap 0 rules olympiad ko superko torus on capture_target 0 seat black']);
  assert.match(torus[4].text, vertexRe);
  const hc = expectAll(['boardsize 9', 'komi 0.5', 'fixed_handicap 3', 'fixed_handicap 2',
    'phantom-seat white', 'genmove black', 'phantom-played black', 'genmove white', 'clear_board',
    'set_free_handicap C3 G7', 'set_free_handicap C3 D4', 'set_free_handicap C7 G7 C3', 'phantom-settings'],
  [null, null, 'C3 G7 C7', /board not empty/, null, /this engine plays white/, /it is white's turn/,
    null, null, '', /only the fixed handicap points/, /board not empty/,
    'size 9 komi 0.5 handicap 2 rules olympiad ko simple torus off capture_target 0 seat white']);
  assert.ok(!['C3', 'G7', 'C7'].includes(hc[7].text), 'the engine attempts on a public handicap stone');
});

test('genmove proposes without playing: asked twice, it answers the same', () => {
  const got = expectAll(['boardsize 9', 'phantom-seed 42', 'genmove black', 'genmove black',
    'time_left black x 0'], [null, null, null, null, /whole numbers/], ['--player', 'strong:3000']);
  assert.equal(got[2].text, got[3].text);
  assert.match(got[2].text, vertexRe);
});

test('the clock of time_settings and time_left bounds a player that has no other bound', () => {
  // 100 million playouts would take hours; one second left caps the decision
  // to a share of it (the bound asserted is loose: the machine is shared).
  const started = Date.now();
  const got = expectAll(['boardsize 9', 'time_settings 10 0 0', 'time_left black 1 0', 'genmove black'],
    [null, '', '', null], ['--player', 'strong:100000000']);
  assert.match(got[3].text, vertexRe);
  assert.ok(Date.now() - started < 30000, 'the clock did not bound the decision');
});

// ---- the arena with external engines ----

test('the built-in player behind the protocol makes the same decisions as in-process', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-gtp-'));
  try {
    for (const [i, extra] of [[], ['--rules', 'hamburg', '--capture', '3'], ['--rules', 'common', '--torus'],
      ['--handicap', '2', '--size', '9', '--rules', 'common'], ['--size', '7', '--ko', 'superko']].entries()) {
      const base = ['--games', '4', '--threads', '2', '--seed', String(20 + i), '--size', '7', ...extra];
      const viaGtp = path.join(tmp, `gtp${i}`), inProcess = path.join(tmp, `in${i}`);
      // flat as A behind the protocol, heuristic as B in-process; and the reverse roles
      const a = await arena(['--a', `gtp:${bin} gtp --player flat:150`, '--b', 'heuristic', '--sgf', viaGtp, ...base]);
      assert.equal(a.code, 0, a.stderr);
      const r = result(a.stdout);
      assert.deepEqual([r.refused, r.forfeits_a, r.forfeits_b], ['0', '0', '0'], a.stdout);
      const b = await arena(['--a', 'flat:150', '--b', 'heuristic', '--sgf', inProcess, ...base]);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(result(b.stdout).wins, r.wins, extra.join(' '));
      assert.deepEqual(sgfGames(viaGtp), sgfGames(inProcess), `the games differ: ${extra.join(' ')}`);
      assert.equal(sgfGames(viaGtp).length, 4);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('two engines behind the protocol play each other; SGF records are written', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-gtp-'));
  try {
    const { code, stdout } = await arena(['--a', `gtp:${bin} gtp --player heuristic`,
      '--b', `gtp:${bin} gtp --level easy`, '--games', '2', '--threads', '1', '--size', '5', '--sgf', tmp]);
    assert.equal(code, 0);
    const r = result(stdout);
    assert.deepEqual([r.forfeits_a, r.forfeits_b, r.games], ['0', '0', '2']);
    assert.match(r.a, /^gtp:\S+_gtp_--player_heuristic$/, 'a RESULT field is one word');
    const sgf = sgfGames(tmp);
    assert.equal(sgf.length, 2);
    for (const text of sgf) assert.match(text, /^\(;FF\[4\]GM\[1\]/);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('an engine that crashes, hangs, babbles or cheats loses the game and is reported', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-gtp-'));
  const script = (name, body) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, body);
    return `sh ${file}`;
  };
  try {
    // [engine, what the report says, --timeout]: only the hanging engine
    // needs a short one (a sanitized build may take a second to start).
    const cases = [
      [`sed -u 12q | ${bin} gtp --player random`, /crashed or exited/, '30'],
      [script('hang.sh', 'read -r line; sleep 30\n'), /timed out: no answer within 1000 ms/, '1'],
      [script('babble.sh', 'while read -r l; do echo hello; echo; done\n'), /answered garbage: not a GTP response: 'hello'/, '30'],
      [script('refuses.sh', 'while read -r l; do printf "? no\\n\\n"; done\n'), /'boardsize 5' answered with an error: no/, '30'],
      [script('a1.sh', 'while read -r l; do printf "= A1\\n\\n"; done\n'), /attempted A1, which the referee refuses \((its own stone|already tried this turn)\)/, '30'],
      [script('offboard.sh', 'while read -r l; do printf "= Z99\\n\\n"; done\n'), /'genmove black' answered 'z99', not a vertex/, '30'],
    ];
    for (const [command, why, timeout] of cases) {
      const { code, stdout, stderr } = await arena(['--a', `gtp:${command}`, '--b', 'random', '--games', '2',
        '--threads', '1', '--size', '5', '--timeout', timeout]);
      assert.equal(code, 0, command);
      const r = result(stdout);
      assert.equal(r.wins, '0.0', `${command} won a game:\n${stdout}`);
      assert.equal(r.forfeits_a, '2', command);
      assert.match(stdout, /game 1: A \(gtp:.*\) lost by a protocol failure: /);
      assert.match(stdout, why, command);
      assert.match(stderr, why, command);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('bad gtp options are refused with the usage', () => {
  for (const args of [['--level', 'godlike'], ['--player', 'nobody'], ['--level', 'easy', '--player', 'flat'], ['extra']]) {
    const run = spawnSync(bin, ['gtp', ...args], { input: '', timeout: 10000 });
    assert.equal(run.status, 2, args.join(' '));
    assert.match(run.stderr.toString(), /usage: phantomgo gtp/);
  }
});
