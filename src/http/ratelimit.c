/* ratelimit: sharded token buckets keyed by client address. See ratelimit.h. */
#include "http/ratelimit.h"

#include <arpa/inet.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHARDS = 16, SLOTS = 1024, PROBE = 16, KEY_MAX = 48 };

typedef struct bucket {
    char key[KEY_MAX]; /* "" = free slot */
    double tokens;
    int64_t last_ms;
} bucket;

typedef struct shard {
    pthread_mutex_t lock;
    bucket slot[SLOTS];
} shard;

struct ratelimit {
    double per_ms, burst;
    shard shards[SHARDS];
};

ratelimit *ratelimit_new(double per_second, double burst) {
    ratelimit *rl = calloc(1, sizeof *rl);
    if (!rl) return NULL;
    rl->per_ms = per_second > 0 ? per_second / 1000.0 : 0;
    rl->burst = burst < 1 ? 1 : burst;
    for (int i = 0; i < SHARDS; i++) pthread_mutex_init(&rl->shards[i].lock, NULL);
    return rl;
}

void ratelimit_free(ratelimit *rl) {
    if (!rl) return;
    for (int i = 0; i < SHARDS; i++) pthread_mutex_destroy(&rl->shards[i].lock);
    free(rl);
}

void ratelimit_key_of(const char *address, char *key, size_t keylen) {
    struct in6_addr a6;
    snprintf(key, keylen, "%s", address);
    if (inet_pton(AF_INET6, address, &a6) != 1) return; /* IPv4, or not an address */
    char text[INET6_ADDRSTRLEN];
    if (IN6_IS_ADDR_V4MAPPED(&a6)) {
        if (inet_ntop(AF_INET, &a6.s6_addr[12], text, sizeof text)) snprintf(key, keylen, "%s", text);
        return;
    }
    memset(&a6.s6_addr[8], 0, 8);
    if (inet_ntop(AF_INET6, &a6, text, sizeof text)) snprintf(key, keylen, "%s/64", text);
}

static uint64_t hash_key(const char *s) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

/* The bucket of key within its probe window: found, a free slot, or the
 * stalest one recycled. */
static bucket *find_bucket(ratelimit *rl, shard *sh, uint64_t h, const char *key, int64_t now_ms) {
    bucket *stalest = NULL;
    for (int i = 0; i < PROBE; i++) {
        bucket *b = &sh->slot[(h + (uint64_t)i) % SLOTS];
        if (!strcmp(b->key, key)) return b;
        if (!b->key[0] || !stalest || b->last_ms < stalest->last_ms) stalest = b;
        if (!b->key[0]) break;
    }
    snprintf(stalest->key, sizeof stalest->key, "%s", key);
    stalest->tokens = rl->burst;
    stalest->last_ms = now_ms;
    return stalest;
}

int ratelimit_take(ratelimit *rl, const char *key, int64_t now_ms) {
    if (!rl || rl->per_ms <= 0) return 0;
    uint64_t h = hash_key(key);
    shard *sh = &rl->shards[(h >> 32) % SHARDS];
    int retry = 0;
    pthread_mutex_lock(&sh->lock);
    bucket *b = find_bucket(rl, sh, h, key, now_ms);
    if (now_ms > b->last_ms) {
        b->tokens = fmin(rl->burst, b->tokens + (double)(now_ms - b->last_ms) * rl->per_ms);
        b->last_ms = now_ms;
    }
    if (b->tokens >= 1.0) b->tokens -= 1.0;
    else retry = (int)fmax(1.0, ceil((1.0 - b->tokens) / rl->per_ms / 1000.0));
    pthread_mutex_unlock(&sh->lock);
    return retry;
}
