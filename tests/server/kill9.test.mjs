// Nothing acknowledged is ever lost: many times over, play several games
// concurrently, kill -9 the server at a random moment, restart it on the
// same database, and check that every action that got a 200 is there with
// the answer's seq and content, then play on from where the log ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startServer, call, tempDir, rng, allVertices } from './lib.mjs';
import { ON_POSTGRES } from '../lib/server.mjs';

// Fewer rounds on PostgreSQL: the cluster suite kills servers on it too.
const ROUNDS = ON_POSTGRES ? 8 : 20, GAMES = 8;

async function playUntilKilled(url, games, acked, random, stop) {
  await Promise.all(games.map(async (g) => {
    let view;
    try {
      view = (await call(url, 'GET', `/api/v1/games/${g.id}`, { token: g.tokens.black })).json;
    } catch {
      return;                                    /* killed before this game's first read */
    }
    let toMove = view.to_move, seq = view.seq;
    const free = allVertices(19);
    while (!stop.now) {
      const vertex = free[Math.floor(random() * free.length)];
      let res;
      try {
        res = await call(url, 'POST', `/api/v1/games/${g.id}/actions`,
                         { token: g.tokens[toMove], body: { seq: seq + 1, action: 'attempt', vertex } });
      } catch {
        return;                                  /* the server died under us */
      }
      if (res.status !== 200) continue;          /* own stone or tried: pick again */
      acked.push({ game: g, color: toMove, event: res.json.event });
      seq = res.json.event.seq;
      toMove = res.json.view.to_move;
    }
  }));
}

async function waitUntil(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

test(`kill -9 at random moments, ${ROUNDS} times: every acknowledged action survives`, async () => {
  const dir = tempDir();
  const random = rng(20240611);
  try {
    let server = await startServer({ dir });
    const games = [];
    for (let i = 0; i < GAMES; i++) {
      const res = await call(server.url, 'POST', '/api/v1/games', { body: { mode: 'hotseat', settings: { size: 19 } } });
      assert.equal(res.status, 201);
      games.push({ id: res.json.game.id, tokens: Object.fromEntries(res.json.seats.map((s) => [s.color, s.token])) });
    }
    let total = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const acked = [];
      const stop = { now: false };
      const playing = playUntilKilled(server.url, games, acked, random, stop);
      // The moment is counted in acknowledged actions, then a random delay,
      // rather than in time alone: on a loaded machine a fixed delay can
      // pass before the first answer and the round proves nothing.
      const wanted = 1 + Math.floor(random() * 2 * GAMES);
      await waitUntil(() => acked.length >= wanted, 30000);
      assert.ok(acked.length >= wanted, `round ${round}: ${acked.length} of ${wanted} actions acknowledged in 30 s`);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 250)));
      await server.kill();
      stop.now = true;
      await playing;
      server = await startServer({ dir });
      const views = {};
      for (const g of games)
        for (const color of ['black', 'white'])
          views[`${g.id}/${color}`] = (await call(server.url, 'GET', `/api/v1/games/${g.id}`, { token: g.tokens[color] })).json;
      for (const { game, color, event } of acked) {
        const view = views[`${game.id}/${color}`];
        assert.ok(view.seq >= event.seq, `round ${round}: game ${game.id} lost seq ${event.seq} (has ${view.seq})`);
        assert.deepEqual(view.events[event.seq - 1], event, `round ${round}: event ${event.seq} differs`);
      }
      total += acked.length;
    }
    assert.ok(total >= ROUNDS, `only ${total} actions acknowledged in all`);
    const r = await server.stop();
    assert.equal(r.code, 0, server.output());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
