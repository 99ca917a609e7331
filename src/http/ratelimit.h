/* ratelimit: per-client-address token buckets, the answer to one address
 * flooding the server (429 with Retry-After).
 *
 * A bucket holds up to `burst` tokens and refills at `per_second`; each
 * request takes one. Buckets live in a fixed-size, sharded open-addressing
 * table (no allocation after creation): a full shard recycles its stalest
 * bucket, which at worst forgives an address that has been quiet longest.
 * Thread-safe; the shards keep unrelated addresses from contending. */
#ifndef PG_HTTP_RATELIMIT_H
#define PG_HTTP_RATELIMIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct ratelimit ratelimit;

/* per_second <= 0 disables the limiter (ratelimit_take always allows). */
ratelimit *ratelimit_new(double per_second, double burst);
void ratelimit_free(ratelimit *rl);

/* The key that limits count an address under (at least 48 bytes): an IPv4
 * address as it is, an IPv4-mapped IPv6 address as its IPv4 form, any
 * other IPv6 address as its /64 ("2001:db8:1:2::/64"), since one host
 * commonly holds a whole /64 and could otherwise rotate addresses past
 * every limit. Text that is not an address is kept as it is. */
void ratelimit_key_of(const char *address, char *key, size_t keylen);

/* Takes one token for address `key` at time now_ms. Returns 0 if allowed,
 * else how many whole seconds (>= 1) until a token is back. */
int ratelimit_take(ratelimit *rl, const char *key, int64_t now_ms);

#endif
