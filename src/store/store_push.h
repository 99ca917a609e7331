/* Web Push in the store: the server's VAPID key, each seat's browser
 * subscriptions and the outbox of notices (schema.sql, version 4).
 *
 * The key is one row, written once by whichever server starts first
 * (store_push_key_put keeps an existing one) and read back by all, so a
 * cluster signs with one key. A subscription belongs to a seat of a game
 * and goes with it. The outbox holds a row per notice and subscription:
 * a notice has a rank in its game that rises with every notice
 * (push/notice.h), and store_push_enqueue adds a row only for the
 * subscriptions that have none of that rank or higher yet, so the same
 * notice queued again (a restart, another server hearing the same change)
 * adds nothing. Rows stay after they are sent or skipped: they are that
 * record. Sending is claimed row by row (store_push_claim moves its next
 * attempt past a lease), so two senders never send one row at once and a
 * sender killed mid-send leaves it to be retried when the lease ends.
 *
 * Durable like every write of the store (group commit), on SQLite and
 * PostgreSQL alike. */
#ifndef PG_STORE_PUSH_H
#define PG_STORE_PUSH_H

#include "store/store.h"

#define STORE_PUSH_ENDPOINT_BYTES 1025 /* 1024 characters and the NUL */
#define STORE_PUSH_KIND_BYTES 16
#define STORE_PUSH_PER_SEAT 5 /* subscriptions a seat may hold */

enum { STORE_PUSH_QUEUED = 0, STORE_PUSH_SENT = 1, STORE_PUSH_SKIPPED = 2, STORE_PUSH_FAILED = 3 };

typedef struct {
    int color; /* 1 black, 2 white */
    char endpoint[STORE_PUSH_ENDPOINT_BYTES];
    uint8_t p256dh[65]; /* the browser's P-256 point */
    uint8_t auth[16];   /* its auth secret */
    char lang[4];       /* "en" | "ru" | "ko" */
} store_push_sub;

/* One notice of a seat, queued for each of its subscriptions. */
typedef struct {
    int color;
    int64_t rank;     /* rises with every notice of the game (push/notice.h) */
    const char *kind; /* "your_turn"... */
    const char *payload_json;
    bool high;    /* Urgency: high */
    bool skipped; /* recorded as skipped (the seat had a socket open), not queued */
    int64_t at_ms;
} store_push_notice;

/* A queued row, with its subscription's keys, ready to send. */
typedef struct store_push_message {
    int64_t id;
    char game_id[24];
    int color;
    char endpoint[STORE_PUSH_ENDPOINT_BYTES];
    char kind[STORE_PUSH_KIND_BYTES];
    char *payload_json; /* owned: free with store_push_messages_free */
    bool high;
    int attempts; /* made so far */
    int64_t created_at_ms;
    uint8_t p256dh[65];
    uint8_t auth[16];
    char lang[4];
} store_push_message;

/* The key: store_push_key_get answers STORE_NOT_FOUND while there is none;
 * store_push_key_put stores one unless a key is there already (STORE_OK
 * either way: read it back). */
int store_push_key_get(store *st, uint8_t priv[32], uint8_t pub[65]);
int store_push_key_put(store *st, const uint8_t priv[32], const uint8_t pub[65]);

/* store_push_subscribe:   adds or renews (same endpoint: new keys, lang)
 *                         one of seat s->color's subscriptions.
 *                         STORE_CONFLICT when the seat holds
 *                         STORE_PUSH_PER_SEAT others; STORE_NOT_FOUND for
 *                         an unknown game.
 * store_push_unsubscribe: removes it (nothing to remove is STORE_OK);
 *                         endpoint NULL removes all of the seat's. Its
 *                         outbox rows go with it. */
int store_push_subscribe(store *st, const char *game_id, const store_push_sub *s);
int store_push_unsubscribe(store *st, const char *game_id, int color, const char *endpoint);
/* How many subscriptions seat `color` of the game holds. */
int store_push_count(store *st, const char *game_id, int color, int *out_n);
/* Calls each(ctx, id) once per game that has a subscription. */
int store_push_games(store *st, int (*each)(void *ctx, const char *game_id), void *ctx);

/* Queues (or records as skipped) notice n for each of the seat's
 * subscriptions that has no notice of rank n->rank or higher yet. */
int store_push_enqueue(store *st, const char *game_id, const store_push_notice *n);

/* At most `limit` queued rows due at now_ms, the earliest first; *out is
 * malloc'd (NULL when none). */
int store_push_due(store *st, int64_t now_ms, int limit, store_push_message **out, int *out_count);
void store_push_messages_free(store_push_message *list, int count);
/* When the next queued row falls due: *at_ms, or INT64_MAX when none. */
int store_push_next_due(store *st, int64_t *at_ms);
/* Takes row m (still queued and due at now_ms) for one send, moving its
 * next attempt to lease_until_ms: STORE_CONFLICT when another sender took
 * it or it is gone. */
int store_push_claim(store *st, const store_push_message *m, int64_t now_ms, int64_t lease_until_ms);
/* The row was sent (STORE_PUSH_SENT) or given up (STORE_PUSH_FAILED). */
int store_push_finish(store *st, const store_push_message *m, int state);
/* The row is tried again at next_at_ms (one more attempt counted). */
int store_push_retry(store *st, const store_push_message *m, int64_t next_at_ms);

#endif
