/* rng: a tiny, fast, seedable pseudo-random generator for playouts and
 * property tests (xorshift64*, seeded through splitmix64).
 *
 * Header-only and inline because the playout loop draws one number per
 * candidate move: a call through a library boundary would cost more than
 * the generator itself. Deterministic: the same seed gives the same stream
 * on every machine, so a failing random test is reproducible from its seed.
 * Not for anything secret (tokens use the OS's generator, elsewhere). */
#ifndef PG_ENGINE_RNG_H
#define PG_ENGINE_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t state;
} rng;

/* Seeds the generator; any seed (0 included) gives a good stream. */
static inline void rng_seed(rng *r, uint64_t seed) {
    uint64_t z = seed + 0x9e3779b97f4a7c15ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    r->state = z ? z : 0x2545f4914f6cdd1dull; /* never zero */
}

/* The next 64 random bits. */
static inline uint64_t rng_next64(rng *r) {
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* The next 32 random bits (the high half, the better one). */
static inline uint32_t rng_next32(rng *r) { return (uint32_t)(rng_next64(r) >> 32); }

/* A number in [0, n), n >= 1 (multiply-shift: no division, bias < n/2^32). */
static inline uint32_t rng_below(rng *r, uint32_t n) {
    return (uint32_t)(((uint64_t)rng_next32(r) * n) >> 32);
}

#endif
