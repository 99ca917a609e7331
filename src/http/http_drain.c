/* http_drain: the graceful part of stopping (SIGTERM), so that a rolling
 * restart behind a balancer fails nothing. See http.h.
 *
 * The order matters. First /api/live answers 503 {"status":"draining"},
 * while every other request is still served as usual: the balancer
 * (docker/haproxy.cfg checks /api/live) takes this server out and moves
 * new requests to the others. The server waits until it has refused
 * DRAIN_PROBES checks (HAProxy's `fall 2`) and no request came for
 * DRAIN_QUIET_MS, which is when the balancer has let go; a server nobody
 * checked lately waits only for the quiet, and one whose balancer stops
 * checking (it was stopped itself) waits no more for its checks. Then each WebSocket gets
 * whatever was due, and a close with code 1012 (service restart): its
 * client reconnects at once and the balancer sends it to the game's new
 * server. Only then does http_stop close the listener and finish the
 * requests in flight. The whole drain is bounded by DRAIN_MAX_MS, so a
 * stop takes well under 10 s even with a client hammering this server
 * directly. */
#include "http/http.h"

#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "http/hub.h"
#include "util/now.h"

enum {
    DRAIN_PROBES = 2,               /* refused checks before a balancer has let go */
    DRAIN_BALANCER_SEEN_MS = 10000, /* a check this recent means a balancer checks us */
    DRAIN_BALANCER_GONE_MS = 2000,  /* no check for this long while draining: it stopped */
    DRAIN_QUIET_MS = 300,           /* no request for this long: nothing more is coming */
    DRAIN_MAX_MS = 5000,            /* the drain's bound */
    DRAIN_SOCKETS_MS = 1000,        /* clients' time to answer the 1012 close */
    DRAIN_TICK_MS = 20,
};

/* Has the traffic moved away (or is the drain out of time)? */
static bool drained(server_ctx *srv, int64_t began, bool balanced) {
    int64_t now = now_monotonic_ms();
    if (now - began >= DRAIN_MAX_MS) return true;
    if (balanced && atomic_load(&srv->probes_refused) < DRAIN_PROBES) {
        int64_t probe = atomic_load(&srv->last_probe_ms);
        if (now - (probe > began ? probe : began) < DRAIN_BALANCER_GONE_MS) return false;
    }
    return now - atomic_load(&srv->last_request_ms) >= DRAIN_QUIET_MS;
}

void http_drain(server_ctx *srv) {
    if (!srv->mg) return;
    int64_t began = now_monotonic_ms();
    long long probe = atomic_load(&srv->last_probe_ms);
    bool balanced = probe > 0 && began - probe < DRAIN_BALANCER_SEEN_MS;
    atomic_store(&srv->probes_refused, 0);
    atomic_store(&srv->draining, true);
    while (!drained(srv, began, balanced)) usleep(DRAIN_TICK_MS * 1000);
    int64_t sockets_from = now_monotonic_ms();
    long open = hub_open_count(srv->hb);
    hub_restart(srv->hb);
    while (hub_open_count(srv->hb) > 0 && now_monotonic_ms() - sockets_from < DRAIN_SOCKETS_MS)
        usleep(DRAIN_TICK_MS * 1000);
    fprintf(stderr, "phantomgo: drained in %lld ms (%s; %ld WebSockets closed with 1012, %ld left)\n",
            (long long)(now_monotonic_ms() - began), balanced ? "behind a balancer" : "no balancer checks",
            open, hub_open_count(srv->hb));
}
