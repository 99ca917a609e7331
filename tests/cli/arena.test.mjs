// `phantomgo arena`, the tool behind `make bench-bot`: its machine-readable
// RESULT lines are what bench/bot-ladder.sh parses, and its promise that a
// match does not depend on how games are spread over threads is what makes
// a ladder reproducible. The search-free players (random, heuristic) run
// here, and the strong one on a playout budget (deterministic too) where
// its forecasts are scored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN as bin } from '../lib/server.mjs';
import { arena, forecast, result, sgfGames } from '../lib/arena.mjs';

test('a match prints its score, interval and RESULT lines for the ladder script', async () => {
  const { code, stdout } = await arena(['--a', 'heuristic', '--b', 'random', '--games', '6',
    '--threads', '2', '--seed', '5']);
  assert.equal(code, 0);
  assert.match(stdout, /^arena: A=heuristic vs B=random, 9x9 komi 7\.5, 6 games, 2 threads, seed 5,/m);
  assert.match(stdout, /win rate [\d.]+%, 95% interval \[[\d.]+%, [\d.]+%\] \(Wilson\)/);
  const r = result(stdout);
  assert.equal(r.games, '6');
  assert.equal(r.refused, '0', 'a player attempted something the referee refused');
  const wins = Number(r.wins);
  assert.ok(wins >= 0 && wins <= 6);
  assert.ok(Number(r.low) <= Number(r.rate) && Number(r.rate) <= Number(r.high));
  assert.match(stdout, /^RESULT side=a name=heuristic sec_per_move=[\d.]+ attempts_per_move=[\d.]+ playouts_per_sec=\d+$/m);
  assert.match(stdout, /^RESULT side=b name=random /m);
});

test("the strong player's belief and expected replies are scored, and scoring changes no decision", async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-arena-'));
  try {
    // 7x7 at 1,000 playouts: the opponent's tree runs (20 a point), so replies are expected.
    const base = ['--b', 'heuristic', '--games', '4', '--threads', '2', '--size', '7', '--seed', '31'];
    const inProcess = await arena(['--a', 'strong:1000', '--sgf', path.join(tmp, 'in'), ...base]);
    assert.equal(inProcess.code, 0, inProcess.stderr);
    const f = forecast(inProcess.stdout, 'a');
    assert.ok(f, `no forecast line for the strong player:\n${inProcess.stdout}`);
    assert.ok(Number(f.points) > 100, f.points);
    assert.ok(Number(f.belief_bits) > 0 && Number(f.belief_bits) < Number(f.uniform_bits),
      `the informed belief (${f.belief_bits} bits) should beat a uniform one (${f.uniform_bits})`);
    assert.ok(Number(f.replies_expected) > 20, f.replies_expected);
    assert.ok(Number(f.replies_matched) >= 0 && Number(f.replies_matched) <= Number(f.replies_expected));
    assert.match(inProcess.stdout, /its belief: [\d.]+ bits a hidden point \(a uniform one: [\d.]+\) over \d+ points; the reply it expected was played [\d.]+% of \d+ times/);
    assert.equal(forecast(inProcess.stdout, 'b'), undefined, 'the heuristic player forecasts nothing');
    // The same player behind the protocol is not scored (the arena cannot see
    // its search) and plays the very same games.
    const viaGtp = await arena(['--a', `gtp:${bin} gtp --player strong:1000`, '--sgf', path.join(tmp, 'gtp'), ...base]);
    assert.equal(viaGtp.code, 0, viaGtp.stderr);
    assert.equal(forecast(viaGtp.stdout, 'a'), undefined);
    assert.deepEqual(sgfGames(path.join(tmp, 'in')), sgfGames(path.join(tmp, 'gtp')));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('the same seed gives the same match on one thread or two', async () => {
  const args = ['--a', 'heuristic', '--b', 'random', '--games', '8', '--size', '7', '--seed', '11'];
  const one = result((await arena([...args, '--threads', '1'])).stdout);
  const two = result((await arena([...args, '--threads', '2'])).stdout);
  assert.equal(one.wins, two.wins);
  assert.equal(one.capped, two.capped);
  const other = await arena([...args.slice(0, -1), '12', '--threads', '2']);
  assert.equal(other.code, 0);
});

test('capture Go, torus, handicap and each rule set play out without a refused action', async () => {
  for (const extra of [['--capture', '1'], ['--capture', '3', '--rules', 'hamburg'],
    ['--torus', '--rules', 'common'], ['--handicap', '2']]) {
    const { code, stdout } = await arena(['--a', 'heuristic', '--b', 'random', '--games', '4',
      '--size', '7', '--threads', '2', ...extra]);
    assert.equal(code, 0, extra.join(' '));
    const r = result(stdout);
    assert.equal(r.refused, '0', extra.join(' '));
    if (extra[0] === '--capture') {
      assert.match(stdout, new RegExp(`^arena: .* 7x7 capture ${extra[1]} komi`, 'm'));
      assert.equal(r.capped, '0', 'a capture-Go game between these players ends by a capture');
    }
  }
});

test('bad arguments are refused with the usage and a non-zero exit', async () => {
  const unknown = await arena(['--a', 'nobody', '--b', 'random', '--games', '2']);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /unknown player 'nobody'/);
  assert.equal(unknown.stdout, '');
  for (const args of [['--a', 'random', '--b', 'random'],
    ['--a', 'random', '--b', 'random', '--games', '0'],
    ['--a', 'random', '--b', 'random', '--games', '2', '--size', '4'],
    ['--a', 'random', '--b', 'random', '--games', '2', '--capture', '-1'],
    ['--a', 'random', '--b', 'random', '--games', '2', '--rules', 'chess']]) {
    const r = await arena(args);
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.stderr, /usage: phantomgo arena|arena: /, args.join(' '));
  }
});

// The SPRT of `make bench-bot BASE=...`: pairs of games from one seed and
// opening with colours swapped, stopping when the LLR crosses a bound
// (never before the tenth pair). Its arithmetic is checked in
// tests/unit/test_bot_arena_stats.c; here the match's plumbing.
function sprtResult(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT sprt '));
  assert.ok(line, `no RESULT sprt line in:\n${stdout}`);
  return Object.fromEntries(line.slice('RESULT sprt '.length).split(' ').map((kv) => kv.split('=')));
}

test('--sprt stops a lopsided match at its upper bound, in whole pairs', async () => {
  const { code, stdout, stderr } = await arena(['--a', 'heuristic', '--b', 'random', '--games', '200',
    '--sprt', '0,10', '--opening', '4', '--threads', '2', '--seed', '3']);
  assert.equal(code, 0);
  const s = sprtResult(stdout);
  assert.equal(s.verdict, 'H1');
  // Decided at the first crossing; a pair the second thread was still
  // playing is counted after it and may move the LLR, not the verdict.
  assert.ok(Number(s.decided_llr) >= Number(s.upper));
  const pairs = Number(s.pairs);
  const decidedAt = Number(s.decided_at);
  assert.ok(decidedAt >= 10 && decidedAt <= pairs && pairs <= decidedAt + 1, `decided at ${decidedAt} of ${pairs}`);
  assert.ok(pairs >= 10 && pairs < 100, `stopped after ${pairs} pairs`);
  assert.equal(s.penta.split(',').map(Number).reduce((x, y) => x + y), pairs);
  assert.equal(Number(result(stdout).games), 2 * pairs);
  assert.match(stdout, /^ {2}LLR [-\d.]+ \[-2\.944, 2\.944\]: H1 accepted/m);
  assert.match(stdout, /^ {2}score [\d.]+%, Elo \+[\d.]+ \[\+[\d.]+, /m);
  assert.match(stderr, /^arena: pair 10: A [\d.]+ of 2, LLR /m);
});

test('--sprt: pairs all split one game each decide nothing', async () => {
  // Same seed and opening, colours swapped, the same player on each side:
  // each pair is one win each. Such pairs say the colour decided, not which
  // side is stronger, and their variance is only the regularisation's, so
  // the test waits for pairs that were not split (arena_stats.h) and ends
  // at the game cap without a verdict.
  const { code, stdout } = await arena(['--a', 'random', '--b', 'random', '--games', '40',
    '--sprt', '0,10', '--opening', '2', '--threads', '1', '--seed', '4']);
  assert.equal(code, 0);
  const s = sprtResult(stdout);
  assert.equal(s.verdict, 'none');
  assert.equal(s.pairs, '20');
  assert.equal(s.decided_at, '0');
  assert.equal(s.penta, '0,0,20,0,0');
  assert.ok(Number(s.llr) < Number(s.lower), `LLR ${s.llr} past its lower bound yet undecided`);
  assert.match(stdout, /no decision within the games allowed/);
});

test('--sprt and --opening refuse bad values', async () => {
  for (const bad of [['--sprt', '10,0'], ['--sprt', 'x'], ['--sprt', '0,10', '--alpha', '0.7'],
    ['--opening', '-1']]) {
    const { code } = await arena(['--a', 'random', '--b', 'random', '--games', '4', ...bad]);
    assert.equal(code, 2, bad.join(' '));
  }
});

// A long match stopped by hand (Ctrl-C, or kill on a background SPRT):
// the report of the games finished so far, at once, not lost with them.
// With toGroup the signal goes to the arena's whole process group, as a
// terminal's Ctrl-C does.
function arenaStopped(args, signal, afterGames, { toGroup = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['arena', ...args], { detached: toGroup });
    let stdout = '', stderr = '', sent = false;
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no report:\n${stderr}`)); }, 60000);
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = [...stderr.matchAll(/^arena: (\d+)\/\d+ games/gm)].pop();
      if (!sent && m && Number(m[1]) >= afterGames) {
        sent = true;
        if (toGroup) process.kill(-child.pid, signal);
        else child.kill(signal);
      }
    });
    child.on('close', (code, sig) => { clearTimeout(timer); resolve({ code, sig, stdout, stderr }); });
  });
}

test('SIGINT and SIGTERM print the report of the finished games and exit 128 + the signal', async () => {
  for (const [signal, exitCode, word] of [['SIGINT', 130, 'interrupted'], ['SIGTERM', 143, 'terminated']]) {
    const { code, sig, stdout, stderr } = await arenaStopped(['--a', 'heuristic', '--b', 'random',
      '--games', '1000000', '--threads', '2', '--seed', '6'], signal, 4);
    assert.equal(sig, null, `${signal} killed the arena instead of stopping it`);
    assert.equal(code, exitCode, signal);
    const m = stderr.match(new RegExp(`^arena: ${word}: the report counts the (\\d+) finished games`, 'm'));
    assert.ok(m, stderr.slice(-500));
    const finished = Number(m[1]);
    assert.ok(finished >= 4 && finished < 1000000);
    const r = result(stdout);
    assert.equal(Number(r.games), finished);
    const last = [...stderr.matchAll(/^arena: \d+\/\d+ games, A ([\d.]+)$/gm)].pop();
    assert.equal(Number(r.wins), Number(last[1]), 'the report and the progress lines disagree');
  }
});

test('a stopped SPRT reports its pairs so far, also when the signal hits the whole process group', async () => {
  const engine = `gtp:${bin} gtp --player random`;
  const { code, stdout } = await arenaStopped(['--a', engine, '--b', 'random', '--games', '1000000',
    '--sprt', '0,10', '--opening', '2', '--threads', '2', '--seed', '7'], 'SIGTERM', 6, { toGroup: true });
  assert.equal(code, 143);
  const s = sprtResult(stdout);
  const r = result(stdout);
  assert.equal(r.forfeits_a, '0', 'a game lost to the engine\'s death was counted');
  // Each thread may have counted one game of a pair it was still playing.
  assert.ok(Number(s.pairs) >= 2 && 2 * Number(s.pairs) <= Number(r.games), `${s.pairs} pairs, ${r.games} games`);
  assert.equal(s.penta.split(',').map(Number).reduce((x, y) => x + y), Number(s.pairs));
  assert.equal(s.verdict, 'none'); /* never before the tenth pair */
  assert.match(stdout, /^ {2}LLR [-\d.]+ \[-2\.944, 2\.944\]: no decision before the match was stopped$/m);
});
