/* push_sender: the thread that delivers the store's push outbox
 * (RFC 8030), with libcurl.
 *
 * At start it reads the VAPID key from the store, making and storing one
 * first if there is none (every server then reads the same one back). The
 * thread takes the due rows of the outbox oldest first, claims each (a
 * lease in the store, so two servers never send one row) and POSTs it:
 * the payload encrypted for the subscription (RFC 8291, padded to a fixed
 * size so lengths say nothing), "Authorization: vapid t=<JWT>, k=<key>"
 * (audience the endpoint's origin, 12 hours, subject the contact), TTL of
 * one day, Topic the game id (a newer notice replaces an undelivered
 * older one), Urgency. The answer decides: 2xx sent; 404 or 410 the
 * subscription is gone (deleted, with its rows); 429, 5xx or no answer
 * tried again after Retry-After or a doubling delay, until the TTL runs
 * out; any other answer gives the row up. The endpoint's host is resolved
 * and checked before each send, and curl connects to the checked address.
 *
 * Nobody waits for this thread: producers only write the outbox and wake
 * it. It sleeps until the next row falls due. */
#ifndef PG_PUSH_SENDER_H
#define PG_PUSH_SENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "push/push_crypto.h"
#include "store/store.h"

typedef struct push_sender push_sender;

typedef struct {
    const char *contact;  /* the VAPID "sub": mailto: or https: URL */
    const char *ca_file;  /* PEM file of extra CAs to trust, or NULL/"" */
    bool allow_private;   /* endpoints on private addresses are allowed */
    int64_t retry_min_ms; /* the first retry's delay (doubling after; 0: 1000) */
} push_sender_config;

/* Reads or makes the key, reads the CA file, starts the thread. NULL with
 * a message in err when the store has no push tables (PostgreSQL so far),
 * the CA file cannot be read or a thread cannot start. */
push_sender *push_sender_start(store *st, const push_sender_config *cfg, char *err, size_t errlen);
/* Stops and joins the thread; a send in flight is cut short (its row stays
 * claimed and is retried when its lease ends). NULL is allowed. */
void push_sender_stop(push_sender *ps);
/* Something was queued: look at the outbox now. */
void push_sender_wake(push_sender *ps);
/* The VAPID public key as base64url text (PUSH_PUBLIC_TEXT characters). */
const char *push_sender_public_key(const push_sender *ps);
/* Whether endpoints on private addresses are allowed (the API's check). */
bool push_sender_allow_private(const push_sender *ps);

#endif
