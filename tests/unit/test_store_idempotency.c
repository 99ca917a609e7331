/* The store's Idempotency-Key records, on a real SQLite file (and on
 * PostgreSQL under tests/pg/with-postgres.mjs): a reservation is the key's
 * alone until its answer is stored or it is released; a pending one is
 * taken over only once stale, keeping its seed; an answered one only once
 * expired, with the new seed; purging removes what expired and nothing
 * else; everything survives a reopen. */
#include "harness.h"
#include "test_store_util.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_idempotency.h"

#define ID_A "AAAAAAAAAAAAAAAAAAAAAA"
#define ID_B "BBBBBBBBBBBBBBBBBBBBBB"
#define T0 1700000000000LL

/* Reserves id at `at` under owner with a seed, stale after 1 s, expired after 10 s. */
static int reserve(store *st, const char *id, int64_t owner, int64_t at, const char *seed) {
    return store_idem_reserve(st, id, owner, at, at - 1000, at - 10000, seed, seed ? strlen(seed) : 0);
}

static bool has(store *st, const char *id, const char *answer, const char *seed) {
    store_idem_record rec;
    int rc = store_idem_get(st, id, &rec);
    bool ok = rc == STORE_OK &&
              (answer ? rec.answer && rec.answer_len == strlen(answer) &&
                            !memcmp(rec.answer, answer, rec.answer_len)
                      : !rec.answer) &&
              (seed ? rec.seed && rec.seed_len == strlen(seed) && !memcmp(rec.seed, seed, rec.seed_len)
                    : !rec.seed);
    store_idem_record_free(&rec);
    return ok;
}

TEST(store_idem_reserve_finish_release_take_over_purge) {
    char dir[256];
    if (test_tmpdir(dir, sizeof dir) != 0) return;
    store *st = test_store_open(dir, "idem.db");
    CHECK(st != NULL);
    if (!st) return;
    store_idem_record rec;
    CHECK_EQ_INT(store_idem_get(st, ID_A, &rec), STORE_NOT_FOUND);
    /* reserved once; a second reservation conflicts while it is fresh */
    CHECK_EQ_INT(reserve(st, ID_A, 1, T0, "seed-1"), STORE_OK);
    CHECK(has(st, ID_A, NULL, "seed-1"));
    CHECK_EQ_INT(reserve(st, ID_A, 2, T0 + 500, "seed-2"), STORE_CONFLICT);
    /* only its owner stores the answer, once */
    CHECK_EQ_INT(store_idem_finish(st, ID_A, 2, "answer", 6), STORE_CONFLICT);
    CHECK_EQ_INT(store_idem_finish(st, ID_A, 1, "answer", 6), STORE_OK);
    CHECK_EQ_INT(store_idem_finish(st, ID_A, 1, "again", 5), STORE_CONFLICT);
    CHECK(has(st, ID_A, "answer", "seed-1"));
    /* an answer is kept until it expires, then the key is new again */
    CHECK_EQ_INT(reserve(st, ID_A, 3, T0 + 5000, "seed-3"), STORE_CONFLICT);
    CHECK_EQ_INT(reserve(st, ID_A, 3, T0 + 10001, "seed-3"), STORE_OK);
    CHECK(has(st, ID_A, NULL, "seed-3"));
    /* a stale pending record is taken over, keeping its seed */
    CHECK_EQ_INT(reserve(st, ID_A, 4, T0 + 11002, "seed-4"), STORE_OK);
    CHECK(has(st, ID_A, NULL, "seed-3"));
    CHECK_EQ_INT(store_idem_finish(st, ID_A, 3, "late", 4), STORE_CONFLICT);
    /* release removes only the owner's pending record */
    CHECK_EQ_INT(store_idem_release(st, ID_A, 3), STORE_OK);
    CHECK(has(st, ID_A, NULL, "seed-3"));
    CHECK_EQ_INT(store_idem_release(st, ID_A, 4), STORE_OK);
    CHECK_EQ_INT(store_idem_get(st, ID_A, &rec), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_idem_release(st, ID_A, 4), STORE_OK);
    /* no seed is allowed; purge removes what is older than asked only */
    CHECK_EQ_INT(reserve(st, ID_A, 5, T0, NULL), STORE_OK);
    CHECK(has(st, ID_A, NULL, NULL));
    CHECK_EQ_INT(reserve(st, ID_B, 6, T0 + 100, "b"), STORE_OK);
    CHECK_EQ_INT(store_idem_finish(st, ID_B, 6, "b-answer", 8), STORE_OK);
    CHECK_EQ_INT(store_idem_purge(st, T0 + 50), STORE_OK);
    CHECK_EQ_INT(store_idem_get(st, ID_A, &rec), STORE_NOT_FOUND);
    CHECK(has(st, ID_B, "b-answer", "b"));
    /* bad arguments */
    CHECK_EQ_INT(reserve(st, "short", 1, T0, NULL), STORE_ERROR);
    CHECK_EQ_INT(store_idem_finish(st, ID_B, 6, "", 0), STORE_ERROR);
    store_close(st);
    /* durable */
    st = test_store_open(dir, "idem.db");
    CHECK(st != NULL);
    if (st) {
        CHECK(has(st, ID_B, "b-answer", "b"));
        store_close(st);
    }
    test_rmtree(dir);
}
