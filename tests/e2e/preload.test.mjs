// The game page's preload list (web/game.html) names exactly the modules
// its scripts import, directly or not. The list is kept by hand (there is
// no build step): a module missing from it loads a round trip late on a
// first visit, and a module left in it after its last import went is
// fetched for nothing. No browser needed: the imports are read from the
// files, as the browser would follow them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const IMPORT = /(?:^|\n)\s*import\s[^'"]*?from\s+['"](\.\/[^'"]+)['"]|import\s*\(\s*['"](\.\/[^'"]+)['"]\s*\)/g;

// Every module reachable from the entry scripts, as /web/js/... paths.
function importClosure(entries) {
  const seen = new Set();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(web, 'js', file), 'utf8');
    for (const m of text.matchAll(IMPORT)) todo.push(path.posix.normalize(m[1] ?? m[2]));
  }
  return seen;
}

test('the game page preloads exactly the modules its scripts import', () => {
  const html = readFileSync(path.join(web, 'game.html'), 'utf8');
  const entries = [...html.matchAll(/<script type="module" src="\/web\/js\/([^"]+)"/g)].map((m) => m[1]);
  assert.ok(entries.includes('game.js'), 'game.html loads game.js');
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/web\/js\/([^"]+)"/g)].map((m) => m[1]));
  const imported = new Set([...importClosure(entries)].filter((f) => !entries.includes(f)));
  const missing = [...imported].filter((f) => !preloaded.has(f)).sort();
  const unused = [...preloaded].filter((f) => !imported.has(f)).sort();
  assert.deepEqual({ missing, unused }, { missing: [], unused: [] });
});
