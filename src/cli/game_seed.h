/* game_seed: the seeds of a match, shared by the arena and the GTP engine.
 *
 * A game has one seed; each decision in it is seeded by the game's seed and
 * the number of events folded so far. Both the arena (for its built-in
 * players) and `phantomgo gtp` (told the game's seed by phantom-seed) derive
 * a decision's seed this way, which is why a built-in player behind the
 * protocol makes exactly the decisions it makes in-process. */
#ifndef PG_CLI_GAME_SEED_H
#define PG_CLI_GAME_SEED_H

#include <stdint.h>

/* splitmix64's finaliser: nearby inputs give unrelated outputs. */
static inline uint64_t seed_mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The seed of game number index of a match seeded match_seed. */
static inline uint64_t seed_of_game(uint64_t match_seed, int index) {
    return seed_mix(match_seed ^ seed_mix((uint64_t)index));
}

/* The seed of the decision made after `events` events of a game. */
static inline uint64_t seed_of_decision(uint64_t game_seed, int events) {
    return seed_mix(game_seed + (uint64_t)events);
}

#endif
