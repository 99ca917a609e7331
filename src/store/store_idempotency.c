/* Idempotency records in the store (see store_idempotency.h), on both
 * backends, built like store_chat.c: each write describes its parameters as
 * values (ST_IDEM_* in store_backend.h, value 0 the record's id) and goes
 * through the group-commit writer (store_submit); the read goes through
 * the backend's table. The SQL is the backends'. */
#include "store/store_idempotency.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_backend.h"

static bool id_ok(const char *id) { return id && strnlen(id, STORE_IDEM_ID_LEN + 1) == STORE_IDEM_ID_LEN; }

/* ---- writes ---- */

int store_idem_reserve(store *st, const char *id, int64_t owner, int64_t at_ms, int64_t stale_before,
                       int64_t expired_before, const void *seed, size_t seed_len) {
    if (!id_ok(id) || (seed && (seed_len == 0 || seed_len > STORE_IDEM_SEED_MAX))) return STORE_ERROR;
    /* Taking over a pending record keeps its seed; an expired one's is
     * replaced. */
    store_value v[] = {
        sv_text(id),          sv_int(owner),          sv_int(at_ms),
        sv_int(stale_before), sv_int(expired_before), seed ? sv_blob(seed, seed_len) : sv_null()
    };
    int rc = store_submit(st, ST_IDEM_RESERVE, v, 6);
    /* Unchanged: the writer asks whether a game of that id exists, and
     * none does (ids differ in length), so a held key says NOT_FOUND. */
    return rc == STORE_NOT_FOUND ? STORE_CONFLICT : rc;
}

int store_idem_finish(store *st, const char *id, int64_t owner, const void *answer, size_t answer_len) {
    if (!id_ok(id) || !answer || answer_len == 0 || answer_len > STORE_IDEM_ANSWER_MAX) return STORE_ERROR;
    store_value v[] = { sv_text(id), sv_int(owner), sv_blob(answer, answer_len) };
    int rc = store_submit(st, ST_IDEM_FINISH, v, 3);
    return rc == STORE_NOT_FOUND ? STORE_CONFLICT : rc;
}

int store_idem_release(store *st, const char *id, int64_t owner) {
    if (!id_ok(id)) return STORE_ERROR;
    store_value v[] = { sv_text(id), sv_int(owner) };
    return store_submit(st, ST_IDEM_RELEASE, v, 2);
}

int store_idem_purge(store *st, int64_t expired_before) {
    /* Value 0 names no record: both statements only check it is there. */
    store_value v[] = { sv_text("purge"), sv_int(expired_before) };
    return store_submit(st, ST_IDEM_PURGE, v, 2);
}

/* ---- reads ---- */

int store_idem_get(store *st, const char *id, store_idem_record *out) {
    if (!st || !id_ok(id) || !out) return STORE_ERROR;
    memset(out, 0, sizeof *out);
    return st->be->idem_get(st->db, id, out);
}

void store_idem_record_free(store_idem_record *rec) {
    free(rec->answer);
    free(rec->seed);
    rec->answer = rec->seed = NULL;
    rec->answer_len = rec->seed_len = 0;
}
