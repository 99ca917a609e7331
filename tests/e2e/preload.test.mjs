// The game page's preload list (web/game.html) names exactly the modules
// its scripts import, directly or not. The list is kept by hand (there is
// no build step): a module missing from it loads a round trip late on a
// first visit, and a module left in it after its last import went is
// fetched for nothing. No browser needed: the imports are read from the
// files, as the browser would follow them. The same reading checks that
// web/js/'s folders import only downwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const IMPORT = /(?:^|\n)\s*import\s[^'"]*?from\s+['"](\.\.?\/[^'"]+)['"]|import\s*\(\s*['"](\.\.?\/[^'"]+)['"]\s*\)/g;

// Every module reachable from the entry scripts, as paths under /web/js/
// (an import is relative to the folder of the module that makes it).
function importClosure(entries) {
  const seen = new Set();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(web, 'js', file), 'utf8');
    for (const m of text.matchAll(IMPORT)) todo.push(path.posix.join(path.posix.dirname(file), m[1] ?? m[2]));
  }
  return seen;
}

test('the game page preloads exactly the modules its scripts import', () => {
  const html = readFileSync(path.join(web, 'game.html'), 'utf8');
  const entries = [...html.matchAll(/<script type="module" src="\/web\/js\/([^"]+)"/g)].map((m) => m[1]);
  assert.ok(entries.includes('pages/game.js'), 'game.html loads pages/game.js');
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/web\/js\/([^"]+)"/g)].map((m) => m[1]));
  const imported = new Set([...importClosure(entries)].filter((f) => !entries.includes(f)));
  const missing = [...imported].filter((f) => !preloaded.has(f)).sort();
  const unused = [...preloaded].filter((f) => !imported.has(f)).sort();
  assert.deepEqual({ missing, unused }, { missing: [], unused: [] });
});

// web/js/'s folders (docs/ARCHITECTURE.md, "The files of web/"): imports
// point down only, pages/ -> game/ -> lib/, so a library never depends on
// a page or on the game page's parts.
test('the modules of web/js import only down: pages, then game, then lib', () => {
  const rank = { pages: 0, game: 1, lib: 2 };
  const upward = [];
  for (const folder of Object.keys(rank)) {
    for (const name of readdirSync(path.join(web, 'js', folder)).filter((f) => f.endsWith('.js'))) {
      const file = `${folder}/${name}`;
      const text = readFileSync(path.join(web, 'js', file), 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const target = path.posix.join(folder, m[1] ?? m[2]);
        const to = target.split('/')[0];
        if (!(to in rank) || rank[to] < rank[folder]) upward.push(`${file} -> ${target}`);
      }
    }
  }
  assert.deepEqual(upward, []);
});
