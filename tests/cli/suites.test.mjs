// tests/lib/suites.sh, which closes `make test`: the summary sums the
// suites' verdicts, repeats skip reasons and the failed tests' names (CI
// shows only a run's last lines) and ends with the one line
// "N passed, N failed"; its exit status says whether anything failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../lib/server.mjs';

// Writes each suite's files into a fresh logs directory and runs summarize
// over the names given; resolves {status, lines}.
function summarize(suites, order) {
  const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-suites-'));
  try {
    for (const [name, { verdict, log }] of Object.entries(suites)) {
      fs.writeFileSync(path.join(logs, `${name}.started`), '');
      if (verdict) fs.writeFileSync(path.join(logs, `${name}.verdict`), `${verdict}\n`);
      if (log) fs.writeFileSync(path.join(logs, `${name}.log`), log);
    }
    const r = spawnSync('bash', ['-c', `logs="$1"; . "$2"; summarize ${order.join(' ')}`, 'summarize',
      logs, path.join(ROOT, 'tests/lib/suites.sh')], { encoding: 'utf8' });
    return { status: r.status, lines: r.stdout.trimEnd().split('\n'), stderr: r.stderr };
  } finally {
    fs.rmSync(logs, { recursive: true, force: true });
  }
}

const TAP_WITH_A_FAILURE = [
  'TAP version 13',
  '# Subtest: claiming a seat',
  'ok 1 - claiming a seat',
  '# Subtest: the rooms: players and spectators do not read each other',
  'not ok 2 - the rooms: players and spectators do not read each other',
  '  ---',
  '  duration_ms: 5510.5',
  "  name: 'AssertionError'",
  '  ...',
  '1..2',
  '# pass 1',
  '# fail 1',
  '',
].join('\n');

test('the summary names every failed test before its closing line, and fails', () => {
  const r = summarize({
    server: { verdict: 'count 109 1', log: TAP_WITH_A_FAILURE },
    unit: { verdict: 'count 200 1', log: 'ok\nFAIL board_capture: expected 2 liberties, got 1\n199 passed, 1 failed\n' },
    cli: { verdict: 'count 52 0', log: '# pass 52\n# fail 0\n' },
    pg: { verdict: 'skip no PostgreSQL here' },
    lost: {},
  }, ['unit', 'cli', 'server', 'pg', 'lost', 'never-started']);
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(r.lines, [
    '   lost: no verdict (the lane running it died)',
    'skipped (counted neither passed nor failed): pg: no PostgreSQL here',
    'failed in unit: FAIL board_capture: expected 2 liberties, got 1',
    'failed in server: not ok 2 - the rooms: players and spectators do not read each other',
    '361 passed, 3 failed',
  ]);
});

test('a run where everything passed ends with its count alone and succeeds', () => {
  const r = summarize({ unit: { verdict: 'count 214 0', log: '214 passed, 0 failed\n' },
                        cli: { verdict: 'count 52 0', log: '# pass 52\n# fail 0\n' } }, ['unit', 'cli']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.lines, ['266 passed, 0 failed']);
});
