// What the cli suites need to run `phantomgo arena` and read its report:
// the arena and gtp suites both play matches and compare their records.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, ROOT } from './server.mjs';

// Runs `phantomgo arena args...` from the repository's root; resolves to
// its exit code and output (never rejects, so a test can check a failure).
export function arena(args) {
  return new Promise((resolve) => {
    execFile(BIN, ['arena', ...args], { timeout: 120000, cwd: ROOT }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

// The fields of a RESULT line's "key=value" words after its prefix.
function fields(line, prefix) {
  return Object.fromEntries(line.slice(prefix.length).split(' ').map((kv) => kv.split('=')));
}

// The fields of the match's RESULT line (the one naming both players).
export function result(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT a='));
  assert.ok(line, `no RESULT line in:\n${stdout}`);
  return fields(line, 'RESULT ');
}

// The fields of side's forecast line ('a' or 'b'), or undefined when it has none.
export function forecast(stdout, side) {
  const line = stdout.split('\n').find((l) => l.startsWith(`RESULT forecast side=${side} `));
  return line && fields(line, 'RESULT forecast ');
}

// The games of a --sgf directory, without the players' names.
export function sgfGames(dir) {
  return fs.readdirSync(dir).sort().map((f) =>
    fs.readFileSync(path.join(dir, f), 'utf8').replace(/P[BW]\[[^\]]*\]/g, ''));
}
