// node prof_clients.mjs URL MODE N
//  setup-view: make a 9x9 hotseat game with ~40 actions, print "ID TOKEN"
//  views ID TOKEN N: N sequential GETs
//  setup-attempts G: create G games, print JSON to stdout
//  attempts FILE N: play until N POST attempts sent, print count accepted/illegal
import { readFileSync, writeFileSync } from 'node:fs';
const COLUMNS = 'ABCDEFGHJ';
async function api(base, method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  for (let t = 0; ; t++) {
    try { res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) }); break; }
    catch (e) { if (t > 3) throw e; globalThis.retries = (globalThis.retries || 0) + 1; }
  }
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}
async function newGame(base) {
  const g = await api(base, 'POST', '/api/v1/games', { mode: 'hotseat', settings: { size: 9 } });
  return { id: g.game.id, tokens: Object.fromEntries(g.seats.map((s) => [s.color, s.token])),
           s: (globalThis.gameSeed = (globalThis.gameSeed || 0) + 7919), seq: 0, toMove: 'black', mine: { black: [], white: [] }, tried: [] };
}
async function step(base, g) {
  for (;;) {
    g.s = (g.s * 1103515245 + 12345) % 2147483648;
    const v = `${COLUMNS[g.s % 9]}${1 + (Math.floor(g.s / 9) % 9)}`;
    if (g.mine[g.toMove].includes(v) || g.tried.includes(v)) continue;
    const r = await api(base, 'POST', `/api/v1/games/${g.id}/actions`,
                        { seq: g.seq + 1, action: 'attempt', vertex: v }, g.tokens[g.toMove]);
    g.seq = r.view.seq;
    if (r.event.type === 'illegal') { g.tried.push(v); return 'illegal'; }
    g.mine[g.toMove] = r.view.stones[g.toMove];
    g.tried = [];
    g.toMove = r.view.to_move;
    return r.view.phase === 'over' || r.view.over ? 'over' : 'accepted';
  }
}
const [base, mode, a, b, c] = process.argv.slice(2);
if (mode === 'setup-view') {
  const g = await newGame(base);
  for (let i = 0; i < 40; i++) await step(base, g);
  console.log(`${g.id} ${g.tokens.black}`);
} else if (mode === 'views') {
  let bytes = 0, retries = 0;
  for (let i = 0; i < Number(c); i++) {
    for (let t = 0; ; t++) {
      try {
        const r = await fetch(`${base}/api/v1/games/${a}`, { headers: { Authorization: `Bearer ${b}` } });
        bytes += (await r.text()).length; break;
      } catch (e) { if (t > 3) throw e; retries++; }
    }
  }
  console.log(`views ${c} bytes ${bytes} retries ${retries}`);
} else if (mode === 'setup-attempts') {
  const gs = [];
  for (let i = 0; i < Number(a); i++) gs.push(await newGame(base));
  writeFileSync(b, JSON.stringify(gs));
} else if (mode === 'attempts') {
  const gs = JSON.parse(readFileSync(a));
  const count = {};
  for (let i = 0; i < Number(b); i++) {
    const g = gs[i % gs.length];
    const r = await step(base, g);
    count[r] = (count[r] || 0) + 1;
  }
  count.retries = globalThis.retries || 0;
  console.log(JSON.stringify(count));
}
