/* The records of requests sent with an Idempotency-Key (docs/API.md), on
 * both backends: what lets a retried create, claim, join or rematch answer
 * what the first attempt answered, after a restart or on another server.
 *
 * The store knows nothing of keys, scopes or answers: a record is an id
 * (STORE_IDEM_ID_LEN characters the caller derives from the key), the
 * moment it was made, and an opaque answer (the caller seals it; NULL while
 * the request that reserved the id still runs). The caller's random
 * `owner` number tells its own reservation from another request's.
 *
 * Durable like actions: every write goes through the group-commit writer,
 * so STORE_OK means committed. */
#ifndef PG_STORE_IDEMPOTENCY_H
#define PG_STORE_IDEMPOTENCY_H

#include "store/store.h"

#include <stddef.h>
#include <stdint.h>

#define STORE_IDEM_ID_LEN 22
/* The largest answer a record holds. */
#define STORE_IDEM_ANSWER_MAX 70000
/* The most expired records one store_idem_purge removes. */
#define STORE_IDEM_PURGE_MAX 200
/* The largest seed a record holds. */
#define STORE_IDEM_SEED_MAX 1024

typedef struct store_idem_record {
    int64_t created_at_ms;
    uint8_t *answer; /* malloc'd (the caller frees); NULL while pending */
    size_t answer_len;
    uint8_t *seed; /* malloc'd (the caller frees); NULL when none was given */
    size_t seed_len;
} store_idem_record;

/* Frees a record's answer and seed. */
void store_idem_record_free(store_idem_record *rec);

/* store_idem_reserve: makes `id` pending under `owner` at at_ms, if it has
 *     no record, or a pending one made before stale_before (its request
 *     died), or any made before expired_before (forgotten): STORE_OK, the
 *     caller runs the request. STORE_CONFLICT: a live record holds it
 *     (read it with store_idem_get). `seed` (NULL: none) is kept with a
 *     new record; a pending record taken over keeps its own.
 * store_idem_finish: stores the answer of owner's pending record. STORE_OK;
 *     STORE_CONFLICT when the record is no longer owner's pending one.
 * store_idem_release: removes owner's pending record (the request ended
 *     without a final answer); STORE_OK also when there was none.
 * store_idem_purge: removes up to STORE_IDEM_PURGE_MAX records made before
 *     expired_before. */
int store_idem_reserve(store *st, const char *id, int64_t owner, int64_t at_ms, int64_t stale_before,
                       int64_t expired_before, const void *seed, size_t seed_len);
int store_idem_finish(store *st, const char *id, int64_t owner, const void *answer, size_t answer_len);
int store_idem_release(store *st, const char *id, int64_t owner);
int store_idem_purge(store *st, int64_t expired_before);

/* The record of id: STORE_NOT_FOUND when there is none. */
int store_idem_get(store *st, const char *id, store_idem_record *out);

#endif
