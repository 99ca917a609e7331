/* api_idempotency: see api_idempotency.h.
 *
 * A key is scoped by the request's method, path and Authorization header,
 * so the same key sent to two routes or by two seats names two records.
 * From (scope, key) two SHA-256 hashes are drawn under different labels:
 * one names the record (its first 16 bytes, base64url), the other is the
 * AES-256-GCM key of its answer. The sealed answer is a random 12-byte
 * nonce, the ciphertext of [SHA-256 of the body | status (2 bytes) |
 * answer bytes] with the record's name as associated data, and the tag.
 *
 * A request first reserves its record (pending, under a random owner
 * number), so a duplicate sent meanwhile, to this server or another, waits
 * for the answer instead of running too; then it runs with its answer held
 * back (http_reply's capture), stores the sealed answer, and only then
 * sends it: an answer a client received can always be replayed. A request
 * that ends without a final answer removes its reservation; one whose
 * server died leaves it pending, and after IDEM_STALE_MS the next request
 * with that key takes it over and runs again.
 *
 * Record times are the games' clock (registry_now_ms), which --test-clock
 * moves, so the 24-hour expiry can be tested. */
#include "http/api_idempotency.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/registry.h"
#include "games/secrets.h"
#include "store/store_idempotency.h"
#include "util/now.h"
#include "util/strbuf.h"

#define IDEM_KEY_MAX 64
#define IDEM_TTL_MS (24LL * 3600 * 1000)
/* A pending record this old belongs to a request that died: a request
 * runs for seconds at most (the store's own waits are 5 s). */
#define IDEM_STALE_MS 60000
/* How long a duplicate waits for the request that holds its key. */
#define IDEM_WAIT_MS 5000
#define IDEM_POLL_MS 50
/* Expired records are removed at most this often per server, in bounded
 * batches (STORE_IDEM_PURGE_MAX). */
#define IDEM_PURGE_EVERY_MS 10000
/* The largest answer kept: the creating answers are a few hundred bytes. */
#define IDEM_ANSWER_MAX 60000
/* A pending record with a seed is taken over after this: its request
 * makes the same game again (registry_create_drawn), so taking over a request
 * that still runs is harmless, and a retry after a crash waits no longer. */
#define IDEM_TAKEOVER_MS 3000
#define NONCE_LEN 12
#define TAG_LEN 16
#define HEAD_LEN (SECRET_HASH_LEN + 2)
/* A new game's id, its three secrets and a colour bit (idempotency_drawn_game). */
#define SEED_ID_BYTES 48
#define SEED_LEN (SEED_ID_BYTES + 3 * SECRET_BYTES + 1)

/* The seed of the request this thread runs under its key, if any. */
static _Thread_local const http_request *seeded_rq;
static _Thread_local const uint8_t *seeded_bytes;

typedef struct {
    char id[STORE_IDEM_ID_LEN + 1];
    uint8_t key[SECRET_HASH_LEN];
    uint8_t body_hash[SECRET_HASH_LEN];
} idem_names;

/* 1 to 64 characters, printable ASCII (RFC 9110's visible characters and
 * space, the space not first or last). */
static bool key_ok(const char *key) {
    size_t n = strnlen(key, IDEM_KEY_MAX + 1);
    if (n == 0 || n > IDEM_KEY_MAX || key[0] == ' ' || key[n - 1] == ' ') return false;
    for (size_t i = 0; i < n; i++)
        if (key[i] < 0x20 || key[i] > 0x7e) return false;
    return true;
}

/* SHA-256 of label NUL method LF path LF authorization NUL key. */
static bool scoped_hash(const http_request *rq, const char *label, const char *key,
                        uint8_t out[SECRET_HASH_LEN]) {
    const char *auth = http_header(rq, "Authorization");
    strbuf sb;
    strbuf_init(&sb);
    strbuf_append(&sb, label, strlen(label) + 1);
    strbuf_printf(&sb, "%s\n%s\n%s", rq->method, rq->path, auth ? auth : "");
    strbuf_append(&sb, "", 1);
    strbuf_puts(&sb, key);
    bool ok = !sb.failed && secrets_hash(sb.data, sb.len, out);
    if (!sb.failed) OPENSSL_cleanse(sb.data, sb.len);
    strbuf_free(&sb);
    return ok;
}

/* The first 16 bytes of h in base64url without padding: 22 characters. */
static void record_id(const uint8_t h[SECRET_HASH_LEN], char out[STORE_IDEM_ID_LEN + 1]) {
    unsigned char b64[32];
    EVP_EncodeBlock(b64, h, 16); /* 24 characters, "==" at the end */
    for (int i = 0; i < STORE_IDEM_ID_LEN; i++)
        out[i] = b64[i] == '+' ? '-' : b64[i] == '/' ? '_' : (char)b64[i];
    out[STORE_IDEM_ID_LEN] = '\0';
}

static bool names_of(const http_request *rq, const char *key, idem_names *n) {
    uint8_t h[SECRET_HASH_LEN];
    if (!scoped_hash(rq, "phantomgo idempotency record v1", key, h) ||
        !scoped_hash(rq, "phantomgo idempotency answer key v1", key, n->key) ||
        !secrets_hash(rq->body ? rq->body : "", rq->body_len, n->body_hash))
        return false;
    record_id(h, n->id);
    return true;
}

/* ---- sealing ------------------------------------------------------------- */

/* AES-256-GCM of in under n->key, with n->id as associated data: encrypt
 * writes len bytes and the tag, decrypt checks the tag. */
static bool gcm(const idem_names *n, char what, bool encrypt, const uint8_t nonce[NONCE_LEN],
                const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[TAG_LEN]) {
    uint8_t aad[STORE_IDEM_ID_LEN + 1];
    memcpy(aad, n->id, STORE_IDEM_ID_LEN);
    aad[STORE_IDEM_ID_LEN] = (uint8_t)what; /* 'a' an answer, 's' a seed */
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int outl = 0, finl = 0;
    bool ok = c && EVP_CipherInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL, encrypt) == 1 &&
              EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) == 1 &&
              EVP_CipherInit_ex(c, NULL, NULL, n->key, nonce, encrypt) == 1 &&
              EVP_CipherUpdate(c, NULL, &outl, aad, sizeof aad) == 1 &&
              EVP_CipherUpdate(c, out, &outl, in, (int)len) == 1 &&
              (encrypt || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, TAG_LEN, tag) == 1) &&
              EVP_CipherFinal_ex(c, out + outl, &finl) == 1 &&
              (!encrypt || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, TAG_LEN, tag) == 1);
    EVP_CIPHER_CTX_free(c);
    return ok && (size_t)(outl + finl) == len;
}

/* nonce | ciphertext of [body hash | status | answer] | tag; malloc'd.
 * (A seed is sealed the same way, what 's', its status 0.) */
static uint8_t *seal(const idem_names *n, char what, int status, const void *answer, size_t len,
                     size_t *sealed_len) {
    size_t plain_len = HEAD_LEN + len;
    uint8_t *plain = malloc(plain_len), *sealed = malloc(NONCE_LEN + plain_len + TAG_LEN);
    bool ok = plain && sealed && secrets_random_bytes(sealed, NONCE_LEN);
    if (ok) {
        memcpy(plain, n->body_hash, SECRET_HASH_LEN);
        plain[SECRET_HASH_LEN] = (uint8_t)(status >> 8);
        plain[SECRET_HASH_LEN + 1] = (uint8_t)status;
        memcpy(plain + HEAD_LEN, answer, len);
        ok = gcm(n, what, true, sealed, plain, plain_len, sealed + NONCE_LEN, sealed + NONCE_LEN + plain_len);
        OPENSSL_cleanse(plain, plain_len);
    }
    free(plain);
    if (!ok) {
        free(sealed);
        return NULL;
    }
    *sealed_len = NONCE_LEN + plain_len + TAG_LEN;
    return sealed;
}

/* The plain text of a sealed answer (malloc'd, *len bytes), or NULL when
 * it does not open under n (or memory ran out). */
static uint8_t *unseal(const idem_names *n, char what, const uint8_t *sealed, size_t sealed_len,
                       size_t *len) {
    if (sealed_len < NONCE_LEN + HEAD_LEN + TAG_LEN) return NULL;
    size_t plain_len = sealed_len - NONCE_LEN - TAG_LEN;
    uint8_t *plain = malloc(plain_len), tag[TAG_LEN];
    memcpy(tag, sealed + sealed_len - TAG_LEN, TAG_LEN);
    if (plain && gcm(n, what, false, sealed, sealed + NONCE_LEN, plain_len, plain, tag)) {
        *len = plain_len;
        return plain;
    }
    free(plain);
    return NULL;
}

/* ---- answering ----------------------------------------------------------- */

static void send_reused(http_request *rq) {
    http_send_error(rq, 422, "idempotency_key_reused",
                    "This Idempotency-Key was used with another body: use a new key for a new request.");
}

/* The stored answer again, or 422 when this body is not the first's. */
static void replay(http_request *rq, const idem_names *n, const store_idem_record *rec) {
    size_t len = 0;
    uint8_t *plain = unseal(n, 'a', rec->answer, rec->answer_len, &len);
    if (!plain) {
        fprintf(stderr, "phantomgo: an idempotency record %s does not open\n", n->id);
        http_send_error(rq, 500, "internal", "The server failed to answer.");
        return;
    }
    if (!CRYPTO_memcmp(plain, n->body_hash, SECRET_HASH_LEN)) {
        int status = plain[SECRET_HASH_LEN] << 8 | plain[SECRET_HASH_LEN + 1];
        http_send(rq, status, "application/json", NULL, "Idempotent-Replayed: true\r\n", plain + HEAD_LEN,
                  len - HEAD_LEN);
    } else {
        send_reused(rq);
    }
    OPENSSL_cleanse(plain, len);
    free(plain);
}

/* 2xx, and 4xx but 429: what the same request would answer again. */
static bool final_answer(const http_capture *cap) {
    return cap->taken && cap->plain && !cap->body.failed && cap->body.len <= IDEM_ANSWER_MAX &&
           cap->status >= 200 && cap->status < 500 && cap->status != 429;
}

/* Runs the request that reserved n->id as owner, keeps a final answer
 * and sends it once it is stored; anything else is sent as it is and the
 * reservation removed. */
static void run_reserved(http_request *rq, const idem_names *n, int64_t owner, const uint8_t *seed,
                         idempotent_fn run, void *ctx) {
    http_capture cap;
    memset(&cap, 0, sizeof cap);
    rq->capture = &cap;
    seeded_rq = seed ? rq : NULL;
    seeded_bytes = seed;
    run(rq, ctx);
    seeded_rq = NULL;
    seeded_bytes = NULL;
    rq->capture = NULL;
    store *st = rq->srv->st;
    if (!final_answer(&cap)) {
        store_idem_release(st, n->id, owner); /* else it goes stale */
        http_send_captured(rq, &cap);
        return;
    }
    size_t sealed_len = 0;
    uint8_t *sealed = seal(n, 'a', cap.status, cap.body.data ? cap.body.data : "", cap.body.len, &sealed_len);
    int rc = sealed ? store_idem_finish(st, n->id, owner, sealed, sealed_len) : STORE_ERROR;
    free(sealed);
    if (rc == STORE_OK || rc == STORE_CONFLICT) {
        /* CONFLICT: this request outlived IDEM_STALE_MS and another took
         * its key over; its answer is still this request's own. */
        if (rc == STORE_CONFLICT) fprintf(stderr, "phantomgo: idempotency record %s was taken over\n", n->id);
        http_send_captured(rq, &cap);
        return;
    }
    if (cap.body.data) OPENSSL_cleanse(cap.body.data, cap.body.len);
    http_capture_free(&cap);
    http_send_error_extra(rq, 503, "unavailable",
                          "The answer could not be stored: send the same request again with the same "
                          "Idempotency-Key.",
                          "Retry-After: 1\r\n");
}

/* Removes expired records now and then (bounded batches, one server at a
 * time rarely matters: the deletes are idempotent). */
static void purge_now_and_then(store *st, int64_t now) {
    static int64_t last; /* accessed atomically */
    int64_t mono = now_monotonic_ms(), seen = __atomic_load_n(&last, __ATOMIC_RELAXED);
    if (mono - seen < IDEM_PURGE_EVERY_MS && seen != 0) return;
    if (!__atomic_compare_exchange_n(&last, &seen, mono, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    store_idem_purge(st, now - IDEM_TTL_MS);
}

static void sleep_ms(int ms) {
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The seed sealed in rec (SEED_LEN bytes into seed): 1 when it opens and
 * was drawn for this body, 0 when for another body, -1 when it does not
 * open (or rec has none). */
static int open_seed(const idem_names *n, const store_idem_record *rec, uint8_t seed[SEED_LEN]) {
    size_t len = 0;
    uint8_t *plain = rec->seed ? unseal(n, 's', rec->seed, rec->seed_len, &len) : NULL;
    int verdict = -1;
    if (plain && len == HEAD_LEN + SEED_LEN) {
        verdict = !CRYPTO_memcmp(plain, n->body_hash, SECRET_HASH_LEN);
        memcpy(seed, plain + HEAD_LEN, SEED_LEN);
    }
    if (plain) OPENSSL_cleanse(plain, len);
    free(plain);
    return verdict;
}

/* Runs the request that reserved n as owner: for a seeded one with the
 * seed the record holds now (its own, or the one of the attempt it took
 * over). */
static void run_owned(http_request *rq, const idem_names *n, int64_t owner, bool seeded, idempotent_fn run,
                      void *ctx) {
    if (!seeded) {
        run_reserved(rq, n, owner, NULL, run, ctx);
        return;
    }
    store_idem_record rec;
    uint8_t seed[SEED_LEN];
    int rc = store_idem_get(rq->srv->st, n->id, &rec);
    int verdict = rc == STORE_OK ? open_seed(n, &rec, seed) : -1;
    store_idem_record_free(&rec);
    if (verdict == 1) run_reserved(rq, n, owner, seed, run, ctx);
    else if (verdict == 0) send_reused(rq);
    else if (rc == STORE_OK || rc == STORE_NOT_FOUND)
        http_send_error(rq, 500, "internal", "The server failed to answer.");
    else http_send_error(rq, 503, "unavailable", "The database cannot be written now; nothing changed.");
    OPENSSL_cleanse(seed, sizeof seed);
}

/* A new seed for a request, sealed for n: malloc'd, NULL on failure. */
static uint8_t *new_sealed_seed(const idem_names *n, size_t *len) {
    uint8_t seed[SEED_LEN];
    uint8_t *sealed =
        secrets_random_bytes(seed, sizeof seed) ? seal(n, 's', 0, seed, sizeof seed, len) : NULL;
    OPENSSL_cleanse(seed, sizeof seed);
    return sealed;
}

/* Replays n's answer, or reserves n and runs; waits while another request
 * holds it, up to IDEM_WAIT_MS (a seeded one is taken over meanwhile). */
static void run_keyed(http_request *rq, const idem_names *n, bool seeded, idempotent_fn run, void *ctx) {
    store *st = rq->srv->st;
    int64_t owner = 0;
    size_t sealed_len = 0;
    uint8_t *sealed = seeded ? new_sealed_seed(n, &sealed_len) : NULL;
    if (!secrets_random_bytes(&owner, sizeof owner) || (seeded && !sealed)) {
        free(sealed);
        http_send_error(rq, 500, "internal", "The server failed to answer.");
        return;
    }
    owner &= INT64_MAX;
    int64_t give_up = now_monotonic_ms() + IDEM_WAIT_MS;
    for (;;) {
        int64_t now = registry_now_ms(rq->srv->gm);
        store_idem_record rec;
        int rc = store_idem_get(st, n->id, &rec);
        int64_t stale = rec.seed ? IDEM_TAKEOVER_MS : IDEM_STALE_MS;
        bool live = rc == STORE_OK && rec.created_at_ms >= now - (rec.answer ? IDEM_TTL_MS : stale);
        uint8_t seed[SEED_LEN];
        bool other_body = rc == STORE_OK && !rec.answer && rec.seed && open_seed(n, &rec, seed) == 0;
        OPENSSL_cleanse(seed, sizeof seed);
        bool answered = true;
        if (live && rec.answer) replay(rq, n, &rec);
        else if (other_body) send_reused(rq);
        else answered = false;
        store_idem_record_free(&rec);
        if (answered) break;
        if (!live && (rc == STORE_OK || rc == STORE_NOT_FOUND)) {
            /* none, expired, or abandoned: this request takes the key */
            purge_now_and_then(st, now);
            rc =
                store_idem_reserve(st, n->id, owner, now, now - stale, now - IDEM_TTL_MS, sealed, sealed_len);
            if (rc == STORE_OK) {
                run_owned(rq, n, owner, seeded, run, ctx);
                break;
            }
        } else if (live) {
            rc = STORE_CONFLICT; /* pending: another request runs it */
        }
        if (rc != STORE_CONFLICT) {
            http_send_error(rq, 503, "unavailable", "The database cannot be written now; nothing changed.");
            break;
        }
        if (now_monotonic_ms() >= give_up + (seeded ? IDEM_TAKEOVER_MS : 0)) {
            http_send_error_extra(
                rq, 409, "idempotency_key_in_use",
                "A request with this Idempotency-Key is still running: send it again later.",
                "Retry-After: 1\r\n");
            break;
        }
        sleep_ms(IDEM_POLL_MS);
    }
    free(sealed);
}

bool idempotency_drawn_game(const http_request *rq, game_created *drawn, int *color_bit) {
    if (!seeded_bytes || seeded_rq != rq) return false;
    const uint8_t *b = seeded_bytes;
    memset(drawn, 0, sizeof *drawn);
    if (!secrets_game_id_from(b, SEED_ID_BYTES, drawn->id)) return false;
    b += SEED_ID_BYTES;
    secrets_token_from(b, drawn->token[BLACK]);
    secrets_token_from(b + SECRET_BYTES, drawn->token[WHITE]);
    secrets_token_from(b + 2 * SECRET_BYTES, drawn->invite);
    *color_bit = b[3 * SECRET_BYTES] & 1;
    return true;
}

void idempotency_run(http_request *rq, bool seeded, idempotent_fn run, void *ctx) {
    const char *key = http_header(rq, "Idempotency-Key");
    if (!key || strcmp(rq->method, "POST") != 0) {
        run(rq, ctx);
        return;
    }
    if (!key_ok(key)) {
        http_send_error(rq, 400, "bad_request",
                        "The Idempotency-Key header must be 1 to 64 printable ASCII characters.");
        return;
    }
    idem_names n;
    if (!names_of(rq, key, &n)) {
        http_send_error(rq, 500, "internal", "The server failed to answer.");
        return;
    }
    run_keyed(rq, &n, seeded, run, ctx);
    OPENSSL_cleanse(n.key, sizeof n.key);
}
