/* games_push: notices owed to seats, queued in the store's outbox (see
 * games_push.h).
 *
 * Locks: the module's lock guards its list of games to look at and is
 * taken alone. The look lock is held across a look and across a
 * subscription and its baseline (games_push_subscribe); under it a look
 * takes the game's own lock (through the games API) and writes the store. */
#include "games/games_push.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/color.h"
#include "store/store_push.h"
#include "util/now.h"
#include "wire/push_json.h"

enum { MAX_SLEEP_MS = 60 * 1000, RETRY_MS = 1000 };

/* The notices, in the order of their ranks within a turn. */
typedef enum { N_NONE = 0, N_JOINED = 2, N_TURN = 2, N_TIME_LOW = 3, N_OVER = 6, N_REMATCH = 7 } notice_place;

typedef struct look {
    char id[24];
    int64_t at_ms; /* server clock; 0: now */
} look;

struct games_push {
    registry_listener listener; /* first: the callback finds the module from it */
    registry *gm;
    store *st;
    push_sender *ps;
    pthread_t thread;
    bool running, stopping;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* on CLOCK_MONOTONIC */
    /* Held across a look and across a subscription with its baseline, so
     * a look sees a new subscription only with its baseline in place. */
    pthread_mutex_t look_lock;
    look *list;
    size_t n, cap;
};

/* ---- the list of games to look at ---- */

/* Looks at id at at_ms (0: now), or sooner if it is listed sooner. */
static void schedule(games_push *gp, const char *id, int64_t at_ms) {
    pthread_mutex_lock(&gp->lock);
    size_t i = 0;
    while (i < gp->n && strcmp(gp->list[i].id, id)) i++;
    if (i < gp->n) {
        if (at_ms < gp->list[i].at_ms) gp->list[i].at_ms = at_ms;
    } else {
        if (gp->n == gp->cap) {
            size_t cap = gp->cap ? gp->cap * 2 : 64;
            look *bigger = realloc(gp->list, cap * sizeof *bigger);
            if (!bigger) {
                pthread_mutex_unlock(&gp->lock);
                fprintf(stderr, "push: game %s: out of memory to note its notices\n", id);
                return;
            }
            gp->list = bigger;
            gp->cap = cap;
        }
        snprintf(gp->list[gp->n].id, sizeof gp->list[0].id, "%s", id);
        gp->list[gp->n++].at_ms = at_ms;
    }
    pthread_cond_signal(&gp->cond);
    pthread_mutex_unlock(&gp->lock);
}

void games_push_look(games_push *gp, const char *id) {
    if (gp && id) schedule(gp, id, 0);
}

void games_push_clock_moved(games_push *gp) {
    if (!gp) return;
    pthread_mutex_lock(&gp->lock);
    pthread_cond_signal(&gp->cond);
    pthread_mutex_unlock(&gp->lock);
}

static void on_changed(registry_listener *l, game *g, const game_change *c) {
    (void)c; /* the notices thread reads each subscribed seat's view itself */
    if (game_get_mode(g) == MODE_HOTSEAT) return; /* one device for both seats: nothing to tell */
    schedule((games_push *)l, game_id(g), 0);
}

/* ---- what a seat is owed ---- */

/* The seat that the open rematch offer (rematch_id, or NULL) invites, or 0. */
static int rematch_invited(games_push *gp, const char *rematch_id) {
    game *r;
    if (!rematch_id || registry_get(gp->gm, rematch_id, &r) != GAME_OK) return 0;
    int offerer = game_rematch_invited_color(r); /* the offerer's colour in the game it follows */
    game_release(r);
    return offerer ? color_other(offerer) : 0;
}

/* The notice seat `color` is owed by the facts f of its view of g after
 * event seq (N_NONE: none), and its kind's name. */
static notice_place notice_of(games_push *gp, game *g, int color, const push_view_facts *f, int seq,
                              const char **kind) {
    *kind = NULL;
    if (f->over) {
        if (f->cancelled) return N_NONE;
        if (rematch_invited(gp, f->rematch_id) == color) {
            *kind = "rematch_offer";
            return N_REMATCH;
        }
        *kind = "game_over";
        return N_OVER;
    }
    if (f->cancelled || !f->taken[BLACK] || !f->taken[WHITE]) return N_NONE;
    if (seq == 0 && game_get_mode(g) == MODE_ONLINE) {
        *kind = "opponent_joined";
        return N_JOINED;
    }
    if (f->to_move != color) return N_NONE;
    const time_control *tc = game_get_time_control(g);
    int64_t deadline = game_deadline(g);
    if (tc->kind == TC_NONE && tc->days_per_move > 0 && deadline != INT64_MAX &&
        deadline - registry_now_ms(gp->gm) < GAMES_PUSH_TIME_LOW_MS) {
        *kind = "time_low";
        return N_TIME_LOW;
    }
    *kind = "your_turn";
    return N_TURN;
}

/* Queues seat color's notice of g, if any (recorded as skipped when the
 * seat has seen it: a socket open, or `seen`); true when one was queued.
 * Everything a notice says comes from the seat's own view. */
static bool queue_seat(games_push *gp, game *g, int color, bool seen) {
    int seq = 0;
    strbuf text = { 0 };
    push_view *v = game_view_text(g, (viewer)color, &text, &seq) ? push_view_read(text.data, text.len) : NULL;
    strbuf_free(&text);
    if (!v) return false;
    push_view_facts f;
    push_view_facts_of(v, &f);
    const char *kind;
    notice_place place = notice_of(gp, g, color, &f, seq, &kind);
    bool queued = false;
    if (place != N_NONE) {
        char *payload = push_payload_text(v, game_id(g), kind, color);
        store_push_notice n = { .color = color,
                                .rank = (int64_t)(f.turn > 0 ? f.turn : 0) * 8 + place,
                                .kind = kind,
                                .payload_json = payload,
                                .high = place == N_TURN || place == N_TIME_LOW,
                                .skipped = seen || f.connected[color],
                                .at_ms = now_wall_ms() };
        int rc = payload ? store_push_enqueue(gp->st, game_id(g), &n) : STORE_ERROR;
        if (rc != STORE_OK)
            fprintf(stderr, "push: game %s: its %s notice could not be queued (%s)\n", game_id(g), kind,
                    store_strerror(rc));
        queued = rc == STORE_OK && !n.skipped;
        free(payload);
    }
    push_view_free(v);
    return queued;
}

/* Looks at game id: queues what its subscribed seats are owed, and notes
 * when its time_low moment comes. Look lock held. */
static void look_at_locked(games_push *gp, const char *id) {
    game *g;
    game_status st = registry_get(gp->gm, id, &g);
    if (st == GAME_UNAVAILABLE) schedule(gp, id, registry_now_ms(gp->gm) + RETRY_MS);
    if (st != GAME_OK) return;
    bool subscribed = false, queued = false;
    for (int color = BLACK; color <= WHITE && game_get_mode(g) != MODE_HOTSEAT; color++) {
        int n = 0;
        int rc = store_push_count(gp->st, id, color, &n);
        if (rc == STORE_UNAVAILABLE) schedule(gp, id, registry_now_ms(gp->gm) + RETRY_MS);
        if (rc != STORE_OK || n == 0) continue;
        subscribed = true;
        queued |= queue_seat(gp, g, color, false);
    }
    const time_control *tc = game_get_time_control(g);
    int64_t deadline = game_deadline(g);
    if (subscribed && tc->kind == TC_NONE && tc->days_per_move > 0 && deadline != INT64_MAX &&
        deadline - GAMES_PUSH_TIME_LOW_MS > registry_now_ms(gp->gm))
        schedule(gp, id, deadline - GAMES_PUSH_TIME_LOW_MS);
    game_release(g);
    if (queued) push_sender_wake(gp->ps);
}

static void look_at(games_push *gp, const char *id) {
    pthread_mutex_lock(&gp->look_lock);
    look_at_locked(gp, id);
    pthread_mutex_unlock(&gp->look_lock);
}

int games_push_subscribe(games_push *gp, game *g, const store_push_sub *sub) {
    pthread_mutex_lock(&gp->look_lock);
    int rc = store_push_subscribe(gp->st, game_id(g), sub);
    if (rc == STORE_OK) queue_seat(gp, g, sub->color, true);
    pthread_mutex_unlock(&gp->look_lock);
    return rc;
}

/* ---- the thread ---- */

/* Takes the id of a look that is due into id; false (and the wait until
 * the next, in *wait_ms) when none is. Lock held. */
static bool take_due(games_push *gp, char id[24], int64_t *wait_ms) {
    int64_t now = registry_now_ms(gp->gm), soonest = INT64_MAX;
    for (size_t i = 0; i < gp->n; i++) {
        if (gp->list[i].at_ms <= now) {
            memcpy(id, gp->list[i].id, 24);
            gp->list[i] = gp->list[--gp->n];
            return true;
        }
        if (gp->list[i].at_ms < soonest) soonest = gp->list[i].at_ms;
    }
    *wait_ms = soonest == INT64_MAX ? MAX_SLEEP_MS : soonest - now;
    if (*wait_ms > MAX_SLEEP_MS) *wait_ms = MAX_SLEEP_MS;
    return false;
}

static void sleep_for(games_push *gp, int64_t ms) {
    struct timespec until = now_monotonic_deadline(ms);
    int rc = pthread_cond_timedwait(&gp->cond, &gp->lock, &until);
    if (rc != 0 && rc != ETIMEDOUT) fprintf(stderr, "push: the notices thread's wait failed (%d)\n", rc);
}

static void *notices_main(void *arg) {
    games_push *gp = arg;
    pthread_mutex_lock(&gp->lock);
    while (!gp->stopping) {
        char id[24];
        int64_t wait = 0;
        if (!take_due(gp, id, &wait)) {
            sleep_for(gp, wait);
            continue;
        }
        pthread_mutex_unlock(&gp->lock);
        look_at(gp, id);
        pthread_mutex_lock(&gp->lock);
    }
    pthread_mutex_unlock(&gp->lock);
    return NULL;
}

static int note_subscribed(void *ctx, const char *id) {
    games_push_look(ctx, id);
    return 0;
}

games_push *games_push_start(registry *gm, store *st, push_sender *ps) {
    games_push *gp = calloc(1, sizeof *gp);
    if (!gp) return NULL;
    gp->listener.changed = on_changed;
    gp->gm = gm;
    gp->st = st;
    gp->ps = ps;
    pthread_mutex_init(&gp->lock, NULL);
    pthread_mutex_init(&gp->look_lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&gp->cond, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&gp->thread, NULL, notices_main, gp) != 0) {
        games_push_stop(gp);
        return NULL;
    }
    gp->running = true;
    registry_listen(gm, &gp->listener);
    int rc = store_push_games(st, note_subscribed, gp);
    if (rc != STORE_OK) fprintf(stderr, "push: cannot list the subscribed games (%s)\n", store_strerror(rc));
    return gp;
}

void games_push_stop(games_push *gp) {
    if (!gp) return;
    if (gp->running) {
        registry_unlisten(gp->gm, &gp->listener);
        pthread_mutex_lock(&gp->lock);
        gp->stopping = true;
        pthread_cond_signal(&gp->cond);
        pthread_mutex_unlock(&gp->lock);
        pthread_join(gp->thread, NULL);
    }
    free(gp->list);
    pthread_cond_destroy(&gp->cond);
    pthread_mutex_destroy(&gp->look_lock);
    pthread_mutex_destroy(&gp->lock);
    free(gp);
}
