/* push_sender: the outbox's delivery thread (see push_sender.h). One
 * thread, one request at a time: push services answer in milliseconds and
 * a game server sends a few notices a minute, so a pool would buy nothing
 * but locks. Each row is claimed in the store before its request, so a
 * crash or kill -9 mid-request leaves it to the next try after its lease. */
#include "push/push_sender.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "push/push_target.h"
#include "store/store_push.h"
#include "util/now.h"

enum {
    BATCH = 16,                          /* rows read at once */
    PAD_TO = 512,                        /* every plaintext is padded to this length */
    TTL_S = 86400,                       /* the push service keeps a message a day */
    JWT_LIFE_S = 12 * 3600,              /* RFC 8292: at most 24 hours */
};
static const int64_t LEASE_MS = 30000;       /* a claimed row is retried after this if not finished */
static const int64_t IDLE_MS = 60000;        /* look at the outbox at least this often */
static const int64_t BACKOFF_MAX_MS = 3600000;
static const int64_t RETRY_AFTER_MAX_MS = 86400000;
static const char SYSTEM_CA_FILE[] = "/etc/ssl/certs/ca-certificates.crt";

struct push_sender {
    store *st;
    push_key *key;
    char public_text[PUSH_PUBLIC_TEXT + 1];
    char contact[512];
    bool allow_private;
    int64_t retry_min_ms;
    char *ca_pem; /* the system's CAs and the extra ones, or NULL: curl's default */
    size_t ca_len;

    pthread_t thread;
    bool running;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* on CLOCK_MONOTONIC */
    bool stopping, woken;
    atomic_bool abort_sends; /* set by stop: a request in flight ends at once */
};

typedef enum { OUT_SENT, OUT_GONE, OUT_RETRY, OUT_GIVE_UP } outcome;

/* ---- start: the key and the CAs ---- */

/* The store's key, made and stored first when there is none. */
static bool load_key(push_sender *ps, char *err, size_t errlen) {
    uint8_t priv[PUSH_PRIVATE_BYTES], pub[PUSH_PUBLIC_BYTES];
    int rc = store_push_key_get(ps->st, priv, pub);
    if (rc == STORE_NOT_FOUND) {
        push_key *fresh = push_key_generate();
        bool ok = fresh && push_key_raw(fresh, priv, pub);
        push_key_free(fresh);
        if (!ok) {
            snprintf(err, errlen, "push: cannot make a VAPID key");
            return false;
        }
        rc = store_push_key_put(ps->st, priv, pub); /* kept unless another server was first */
        if (rc == STORE_OK) rc = store_push_key_get(ps->st, priv, pub);
    }
    if (rc != STORE_OK) {
        snprintf(err, errlen, "push: cannot read or store the VAPID key (%s)", store_strerror(rc));
        return false;
    }
    ps->key = push_key_from_raw(priv, pub);
    memset(priv, 0, sizeof priv);
    if (!ps->key) {
        snprintf(err, errlen, "push: the stored VAPID key is not a valid P-256 key pair");
        return false;
    }
    base64url_encode(pub, sizeof pub, ps->public_text);
    return true;
}

/* Appends the file at path to the buffer; false if it cannot be read. */
static bool append_file(const char *path, char **buf, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool ok = true;
    char chunk[8192];
    size_t n;
    while (ok && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        char *grown = realloc(*buf, *len + n + 2);
        if (!grown) ok = false;
        else {
            *buf = grown;
            memcpy(*buf + *len, chunk, n);
            *len += n;
        }
    }
    ok = ok && !ferror(f);
    fclose(f);
    if (ok && *buf) {
        (*buf)[(*len)++] = '\n'; /* two files never run into one line */
        (*buf)[*len] = '\0';
    }
    return ok;
}

/* An extra CA file is trusted beside the system's, not instead of them:
 * both go to curl as one PEM bundle. */
static bool load_cas(push_sender *ps, const char *extra, char *err, size_t errlen) {
    if (!extra || !*extra) return true;
    append_file(SYSTEM_CA_FILE, &ps->ca_pem, &ps->ca_len); /* none: only the extra ones */
    if (!append_file(extra, &ps->ca_pem, &ps->ca_len) || !ps->ca_len) {
        snprintf(err, errlen, "--push-ca: cannot read %.300s: %s", extra, strerror(errno ? errno : EINVAL));
        return false;
    }
    return true;
}

/* ---- one request ---- */

typedef struct {
    int64_t retry_after_ms; /* -1: none given */
} answer;

static size_t discard_body(char *p, size_t size, size_t n, void *ctx) {
    (void)p;
    (void)ctx;
    return size * n;
}

/* Reads Retry-After: seconds, or an HTTP date. */
static size_t read_header(char *line, size_t size, size_t n, void *ctx) {
    answer *a = ctx;
    size_t len = size * n;
    static const char name[] = "retry-after:";
    if (len > sizeof name && len < 200 && !strncasecmp(line, name, sizeof name - 1)) {
        char value[200];
        memcpy(value, line + sizeof name - 1, len - (sizeof name - 1));
        value[len - (sizeof name - 1)] = '\0';
        char *v = value + strspn(value, " \t");
        v[strcspn(v, "\r\n")] = '\0';
        char *end;
        long secs = strtol(v, &end, 10);
        if (end != v && !*end && secs >= 0) a->retry_after_ms = (int64_t)secs * 1000;
        else {
            time_t at = curl_getdate(v, NULL);
            if (at > 0) {
                int64_t delta = (int64_t)at * 1000 - now_wall_ms();
                a->retry_after_ms = delta > 0 ? delta : 0;
            }
        }
    }
    return len;
}

/* The plaintext: the stored payload with the subscription's language
 * first, {"lang":"ko", ...}. NULL when out of memory or not an object. */
static char *plaintext_of(const store_push_message *m, size_t *len) {
    const char *p = m->payload_json;
    if (p[0] != '{' || p[1] == '}') return NULL;
    size_t n = strlen(p) + 32;
    char *out = malloc(n);
    if (!out) return NULL;
    *len = (size_t)snprintf(out, n, "{\"lang\":\"%s\",%s", m->lang, p + 1);
    return out;
}

/* Headers of one request; NULL when out of memory. */
static struct curl_slist *headers_of(push_sender *ps, const store_push_message *m, const char *jwt) {
    char auth[1400], topic[64];
    snprintf(auth, sizeof auth, "Authorization: vapid t=%s, k=%s", jwt, ps->public_text);
    snprintf(topic, sizeof topic, "Topic: %s", m->game_id);
    const char *fixed[] = { "Content-Type: application/octet-stream", "Content-Encoding: aes128gcm",
                            "TTL: 86400", m->high ? "Urgency: high" : "Urgency: normal", topic, auth,
                            "Expect:" };
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        struct curl_slist *next = curl_slist_append(list, fixed[i]);
        if (!next) {
            curl_slist_free_all(list);
            return NULL;
        }
        list = next;
    }
    return list;
}

/* curl's progress callback: a non-zero answer ends the transfer, so a
 * stop never waits for a slow push service's timeout. */
static int keep_going(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    return atomic_load(&((push_sender *)ctx)->abort_sends) ? 1 : 0;
}

/* POSTs body to the endpoint at the checked address; the HTTP status, or
 * 0 when no answer came (a network error). */
static long post(push_sender *ps, const store_push_message *m, const push_target *t, const char *addr,
                 struct curl_slist *headers, const uint8_t *body, size_t len, answer *a) {
    CURL *c = curl_easy_init();
    if (!c) return 0;
    char pin[PUSH_HOST_BYTES + 80];
    bool v6 = strchr(addr, ':') != NULL;
    snprintf(pin, sizeof pin, "%s:%d:%s%s%s", t->host, t->port, v6 ? "[" : "", addr, v6 ? "]" : "");
    struct curl_slist *resolve = curl_slist_append(NULL, pin);
    long status = 0;
    struct curl_blob ca = { .data = ps->ca_pem, .len = ps->ca_len, .flags = CURL_BLOB_NOCOPY };
    bool ok = resolve && curl_easy_setopt(c, CURLOPT_URL, m->endpoint) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https") == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_RESOLVE, resolve) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_POST, 1L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_POSTFIELDS, (const char *)body) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)len) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 15000L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard_body) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, read_header) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_HEADERDATA, a) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, keep_going) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_XFERINFODATA, ps) == CURLE_OK &&
              (!ps->ca_pem || curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &ca) == CURLE_OK);
    if (ok && curl_easy_perform(c) == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(resolve);
    curl_easy_cleanup(c);
    return status;
}

/* Builds and sends one row's message; what its answer means. */
static outcome send_one(push_sender *ps, const store_push_message *m, answer *a) {
    push_target t;
    const char *why = NULL;
    char addr[64];
    if (!push_target_parse(m->endpoint, ps->allow_private, &t, &why)) {
        fprintf(stderr, "push: a stored endpoint is refused (%s); given up\n", why);
        return OUT_GIVE_UP;
    }
    if (!push_target_resolve(&t, ps->allow_private, addr, sizeof addr, &why)) {
        fprintf(stderr, "push: %s: %s; will retry\n", t.origin, why);
        return OUT_RETRY;
    }
    size_t plain_len = 0, body_len = 0;
    char *plain = plaintext_of(m, &plain_len);
    uint8_t *body = NULL;
    char jwt[1024];
    struct curl_slist *headers = NULL;
    outcome out = OUT_RETRY;
    if (plain && push_webpush_encrypt(m->p256dh, m->auth, NULL, NULL, (const uint8_t *)plain, plain_len,
                                      plain_len < PAD_TO ? PAD_TO - plain_len : 0, &body, &body_len) &&
        push_vapid_jwt(ps->key, t.origin, ps->contact, now_wall_ms() / 1000 + JWT_LIFE_S, jwt, sizeof jwt) &&
        (headers = headers_of(ps, m, jwt)) != NULL) {
        long status = post(ps, m, &t, addr, headers, body, body_len, a);
        if (status >= 200 && status < 300) out = OUT_SENT;
        else if (status == 404 || status == 410) out = OUT_GONE;
        else if (status == 0 || status == 429 || status >= 500) out = OUT_RETRY;
        else out = OUT_GIVE_UP;
        if (out == OUT_GIVE_UP) fprintf(stderr, "push: %s answered %ld; given up\n", t.origin, status);
        if (status == 0) fprintf(stderr, "push: %s did not answer; will retry\n", t.origin);
    } else if (!plain) {
        out = OUT_GIVE_UP; /* a payload that is not an object: never sendable */
    }
    curl_slist_free_all(headers);
    free(body);
    free(plain);
    return out;
}

/* Sends a claimed row and records what came of it. */
static void deliver(push_sender *ps, const store_push_message *m) {
    answer a = { .retry_after_ms = -1 };
    outcome out = send_one(ps, m, &a);
    int64_t now = now_wall_ms();
    int rc = STORE_OK;
    if (out == OUT_RETRY) {
        int64_t delay = a.retry_after_ms;
        if (delay < 0) {
            delay = ps->retry_min_ms;
            for (int i = 0; i < m->attempts && delay < BACKOFF_MAX_MS; i++) delay *= 2;
            if (delay > BACKOFF_MAX_MS) delay = BACKOFF_MAX_MS;
        } else if (delay > RETRY_AFTER_MAX_MS) {
            delay = RETRY_AFTER_MAX_MS;
        }
        if (now + delay < m->created_at_ms + (int64_t)TTL_S * 1000) rc = store_push_retry(ps->st, m, now + delay);
        else out = OUT_GIVE_UP; /* it would come later than its TTL allows */
    }
    if (out == OUT_SENT || out == OUT_GIVE_UP)
        rc = store_push_finish(ps->st, m, out == OUT_SENT ? STORE_PUSH_SENT : STORE_PUSH_FAILED);
    if (out == OUT_GONE) rc = store_push_unsubscribe(ps->st, m->game_id, m->color, m->endpoint);
    if (rc != STORE_OK)
        fprintf(stderr, "push: cannot record a send (%s); it is retried after its lease\n", store_strerror(rc));
}

/* ---- the thread ---- */

/* Sends every due row it can claim; true when a whole batch was due (look
 * again at once). */
static bool send_due(push_sender *ps) {
    store_push_message *list = NULL;
    int n = 0;
    int64_t now = now_wall_ms();
    int rc = store_push_due(ps->st, now, BATCH, &list, &n);
    if (rc != STORE_OK) {
        fprintf(stderr, "push: cannot read the outbox (%s)\n", store_strerror(rc));
        return false;
    }
    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&ps->lock);
        bool stopping = ps->stopping;
        pthread_mutex_unlock(&ps->lock);
        if (stopping) break;
        if (store_push_claim(ps->st, &list[i], now, now_wall_ms() + LEASE_MS) == STORE_OK) deliver(ps, &list[i]);
    }
    store_push_messages_free(list, n);
    return n == BATCH;
}

/* Sleeps until the next row falls due (at most IDLE_MS), a wake or a stop. */
static void wait_for_work(push_sender *ps) {
    int64_t next = INT64_MAX, now = now_wall_ms();
    if (store_push_next_due(ps->st, &next) != STORE_OK) next = now + 1000;
    int64_t wait = next == INT64_MAX ? IDLE_MS : next - now;
    if (wait > IDLE_MS) wait = IDLE_MS;
    if (wait <= 0) return;
    struct timespec until = now_monotonic_deadline(wait);
    pthread_mutex_lock(&ps->lock);
    while (!ps->woken && !ps->stopping)
        if (pthread_cond_timedwait(&ps->cond, &ps->lock, &until) == ETIMEDOUT) break;
    pthread_mutex_unlock(&ps->lock);
}

static void *sender_main(void *arg) {
    push_sender *ps = arg;
    for (;;) {
        pthread_mutex_lock(&ps->lock);
        bool stopping = ps->stopping;
        ps->woken = false; /* a wake after this point is seen by the next wait */
        pthread_mutex_unlock(&ps->lock);
        if (stopping) break;
        if (!send_due(ps)) wait_for_work(ps);
    }
    return NULL;
}

static void sender_free(push_sender *ps) {
    push_key_free(ps->key);
    free(ps->ca_pem);
    pthread_cond_destroy(&ps->cond);
    pthread_mutex_destroy(&ps->lock);
    free(ps);
}

push_sender *push_sender_start(store *st, const push_sender_config *cfg, char *err, size_t errlen) {
    if (!st || !cfg || !cfg->contact || !*cfg->contact) {
        snprintf(err, errlen, "push: no contact for the VAPID key");
        return NULL;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(err, errlen, "push: libcurl did not start");
        return NULL;
    }
    push_sender *ps = calloc(1, sizeof *ps);
    if (!ps) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&ps->cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&ps->lock, NULL);
    ps->st = st;
    ps->allow_private = cfg->allow_private;
    ps->retry_min_ms = cfg->retry_min_ms > 0 ? cfg->retry_min_ms : 1000;
    snprintf(ps->contact, sizeof ps->contact, "%s", cfg->contact);
    if (!load_key(ps, err, errlen) || !load_cas(ps, cfg->ca_file, err, errlen)) {
        sender_free(ps);
        return NULL;
    }
    if (pthread_create(&ps->thread, NULL, sender_main, ps) != 0) {
        snprintf(err, errlen, "push: cannot start the sender thread");
        sender_free(ps);
        return NULL;
    }
    ps->running = true;
    return ps;
}

void push_sender_stop(push_sender *ps) {
    if (!ps) return;
    pthread_mutex_lock(&ps->lock);
    ps->stopping = true;
    atomic_store(&ps->abort_sends, true);
    pthread_cond_signal(&ps->cond);
    pthread_mutex_unlock(&ps->lock);
    if (ps->running) pthread_join(ps->thread, NULL);
    sender_free(ps);
    curl_global_cleanup();
}

void push_sender_wake(push_sender *ps) {
    if (!ps) return;
    pthread_mutex_lock(&ps->lock);
    ps->woken = true;
    pthread_cond_signal(&ps->cond);
    pthread_mutex_unlock(&ps->lock);
}

const char *push_sender_public_key(const push_sender *ps) { return ps->public_text; }

bool push_sender_allow_private(const push_sender *ps) { return ps->allow_private; }
