// What every suite does to make a game and to draw random numbers, in one
// place: the server, hardening, cluster, bot and browser suites all make
// their games here and seed their random play here.
import { call } from './http.mjs';

// A seeded generator (mulberry32), so a failing random game can be
// replayed from its seed. The result is a function returning [0, 1), which
// also has .next() (the same), .int(n) (0..n-1) and .pick(array).
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.next = next;
  next.int = (n) => Math.floor(next() * n);
  next.pick = (arr) => arr[Math.floor(next() * arr.length)];
  return next;
}

// Creates a game (POST /api/v1/games with mode, color, settings and the
// fields of `extra`) and, for an online game, claims its invite, so both
// seats are held: resolves {id, tokens: {black, white}, created (the
// creation's answer)}. Throws, with the server's answer, when either
// request fails.
export async function newGame(base, { mode = 'hotseat', color = 'black', settings = { size: 9 }, extra = {} } = {}) {
  const res = await call(base, 'POST', '/api/v1/games', { body: { mode, color, settings, ...extra } });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  const tokens = {};
  for (const s of res.json.seats) tokens[s.color] = s.token;
  if (mode === 'online') {
    const claim = await call(base, 'POST', `/api/v1/games/${res.json.game.id}/claim`,
                             { body: { invite: res.json.invite } });
    if (claim.status !== 200) throw new Error(`claim: ${claim.status} ${claim.text}`);
    tokens[claim.json.color] = claim.json.token;
  }
  return { id: res.json.game.id, tokens, created: res.json };
}
