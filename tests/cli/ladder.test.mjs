// bench/bot-ladder.sh, the table `make bench-bot` prints: a tiny 13x13
// ladder (30 playouts a decision, two games a row) must give the strength
// row and both rows against the textbook reference, each with a win rate
// and times parsed from the arena's RESULT lines. The script's arithmetic
// lives in shell and awk, where a slip prints zeros rather than failing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, ROOT } from '../lib/server.mjs';

test('a 13x13 ladder prints strong against flat and both against the reference', async () => {
  const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-ladder-'));
  try {
    const env = {
      ...process.env, PHANTOMGO_BIN: BIN, LADDER_LOGS: logs, LADDER_ONLY: '13x13',
      LADDER_FLAT13: '30', LADDER_13: '2', LADDER_REF13: '2', LADDER_LEVELS: '0',
      LADDER_THREADS: '2', LADDER_SEED: '3',
    };
    const stdout = await new Promise((resolve, reject) => {
      execFile('bash', [path.join(ROOT, 'bench/bot-ladder.sh')], { env, timeout: 120000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
    });
    const rows = stdout.split('\n').filter((l) => /^13x13/.test(l));
    assert.equal(rows.length, 3, stdout);
    const row = (rung, player, opponent) => {
      const found = rows.find((l) => {
        const f = l.split(/\s+/);
        return f[0] === rung && f[1].startsWith(player) && f[2].startsWith(opponent);
      });
      assert.ok(found, `no row ${rung} ${player} ${opponent} in:\n${stdout}`);
      return found.split(/\s+/);
    };
    for (const f of [row('13x13', 'strong:', 'flat:30'), row('13x13-ref', 'flat:30', 'reference:'),
      row('13x13-ref', 'strong:', 'reference:')]) {
      assert.equal(f[3], '2', `games in ${f.join(' ')}`);
      assert.match(f[4], /^\d+\.\d%$/);
      const secPerMove = Number(f[f.length - 4]);
      assert.ok(secPerMove > 0, `seconds a move in ${f.join(' ')}`);
    }
    // Both searching players got the playouts that cost what flat's 30 cost.
    assert.match(row('13x13-ref', 'flat:30', 'reference:')[2], /^reference:\d+$/);
    assert.ok(fs.existsSync(path.join(logs, 'ladder-13x13-ref-strong-vs-reference.log')));
  } finally {
    fs.rmSync(logs, { recursive: true, force: true });
  }
});
