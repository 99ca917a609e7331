/* ratelimit: per-client-address token buckets, the answer to one address
 * flooding the server (429 with Retry-After).
 *
 * A bucket holds up to `burst` tokens and refills at `per_second`; each
 * request takes one. Buckets live in a fixed-size, sharded open-addressing
 * table (no allocation after creation): a full shard recycles its stalest
 * bucket, which at worst forgives an address that has been quiet longest.
 * Thread-safe; the shards keep unrelated addresses from contending. */
#ifndef PG_SERVER_RATELIMIT_H
#define PG_SERVER_RATELIMIT_H

#include <stdint.h>

typedef struct ratelimit ratelimit;

/* per_second <= 0 disables the limiter (ratelimit_take always allows). */
ratelimit *ratelimit_new(double per_second, double burst);
void ratelimit_free(ratelimit *rl);

/* Takes one token for address `key` at time now_ms. Returns 0 if allowed,
 * else how many whole seconds (>= 1) until a token is back. */
int ratelimit_take(ratelimit *rl, const char *key, int64_t now_ms);

#endif
