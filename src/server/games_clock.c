/* games_clock: the server's clock and each game's clock. See games.h.
 *
 * The server's clock is the wall clock plus an offset that only tests move
 * (serve --test-clock). Every stored action carries the time it was
 * accepted, and a game's clock is folded from those times and the moment
 * its clock started (engine/clock.h), so nothing about time is kept that a
 * restart could lose or freeze: the fold after a restart gives the same
 * clock, still running.
 *
 * Time runs out in two places, both under the game lock and both appending
 * the same ACT_TIMEOUT: before any action is judged (so a late move is
 * never accepted), and in the deadline thread, which sleeps until the
 * earliest deadline of any game and ends it, so a silent player loses on
 * time without anyone asking. The deadlines are a small array keyed by game
 * id (games leave memory when idle; the thread loads them back when due),
 * searched linearly: thousands of timed games cost microseconds per change.
 * At start-up every stored game whose clock runs is loaded, which arms its
 * deadline. */
#include "server/games_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/strbuf.h"
#include "wire/clock_json.h"

enum { DEFAULT_ABANDON_MS = 10 * 60 * 1000, MAX_SLEEP_MS = 60 * 1000, RETRY_MS = 1000 };

struct deadline {
    char id[24];
    int64_t at_ms;
};

/* ---- the server's clock ---------------------------------------------------- */

int64_t games_now_ms(games *gm) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + atomic_load(&gm->clock_offset_ms);
}

bool games_advance_clock(games *gm, int64_t ms) {
    if (!gm->test_clock || ms < 0) return false;
    atomic_fetch_add(&gm->clock_offset_ms, ms);
    pthread_mutex_lock(&gm->timer_lock);
    pthread_cond_broadcast(&gm->timer_cond);
    pthread_mutex_unlock(&gm->timer_lock);
    return true;
}

void games_set_options(games *gm, int abandon_after_s, bool test_clock) {
    gm->abandon_ms = (int64_t)abandon_after_s * 1000;
    gm->test_clock = test_clock;
}

/* ---- one game's clock ------------------------------------------------------ */

void game_clock_fold(const game *g, const referee *r, int upto, game_clock *out) {
    clock_init(out, &g->tc);
    int64_t started = g->row.started_at_ms;
    int to_move = referee_settings(r)->handicap > 0 ? WHITE : BLACK;
    bool running = false;
    for (int seq = 1; seq <= upto; seq++) {
        const ref_event *ev = referee_event(r, seq);
        int64_t at = g->at_ms[seq - 1];
        if (!running && started && at >= started) {
            clock_start_turn(out, to_move, started);
            running = true;
        }
        if (ev->ended) {
            clock_end_turn(out, at);
            clock_stop(out);
            return;
        }
        if (ev->kind != EV_MOVE && ev->kind != EV_PASS) continue;
        to_move = color_other(ev->color);
        if (!running) continue;
        clock_end_turn(out, at);
        clock_start_turn(out, to_move, at);
    }
    if (!running && started) clock_start_turn(out, to_move, started);
}

int game_enforce_clock(game *g, int64_t now) {
    if (referee_result(g->ref).over) return 0;
    game_clock c;
    game_clock_fold(g, g->ref, referee_event_count(g->ref), &c);
    if (!clock_flagged(&c, now)) return 0;
    action a = { .kind = ACT_TIMEOUT, .color = c.running, .point = NO_POINT };
    const ref_event *ev;
    if (referee_apply(g->ref, a, &ev) != REFUSE_NONE) return -1;
    if (game_commit_event(g, &a, ev, now) != GAMES_OK) return -1;
    game_invalidate(g);
    atomic_store(&g->over, true);
    game_clock_rearm(g);
    return 1;
}

games_status game_claim_allowed(game *g, int claimer, int64_t now) {
    game_clock c;
    game_clock_fold(g, g->ref, referee_event_count(g->ref), &c);
    if (!c.running || c.running == claimer || time_control_limited(&g->tc)) return GAMES_TOO_EARLY;
    return now >= c.turn_start_ms + g->owner->abandon_ms ? GAMES_OK : GAMES_TOO_EARLY;
}

char *game_with_clock(const game *g, const referee *r, int upto, int64_t now,
                      const char *view_text, size_t len, size_t *out_len) {
    game_clock c;
    game_clock_fold(g, r, upto, &c);
    bool claimable = c.running && !time_control_limited(&g->tc);
    cJSON *clock = clock_to_json(&c, now, claimable ? c.turn_start_ms + g->owner->abandon_ms : -1);
    char *ctext = clock ? cJSON_PrintUnformatted(clock) : NULL;
    cJSON_Delete(clock);
    strbuf sb;
    strbuf_init(&sb);
    if (!ctext || !view_text || len < 2 || view_text[len - 1] != '}') sb.failed = true;
    else {
        strbuf_append(&sb, view_text, len - 1);
        strbuf_printf(&sb, ",\"clock\":%s}", ctext);
    }
    cJSON_free(ctext);
    return strbuf_take(&sb, out_len);
}

/* ---- deadlines ------------------------------------------------------------- */

/* Sets (at_ms < INT64_MAX) or drops the deadline of game id. */
static void deadline_set(games *gm, const char *id, int64_t at_ms) {
    pthread_mutex_lock(&gm->timer_lock);
    size_t i = 0;
    while (i < gm->n_deadlines && strcmp(gm->deadlines[i].id, id)) i++;
    bool found = i < gm->n_deadlines;
    if (at_ms == INT64_MAX && found) {
        gm->deadlines[i] = gm->deadlines[--gm->n_deadlines];
    } else if (at_ms != INT64_MAX && !found && gm->n_deadlines == gm->cap_deadlines) {
        size_t cap = gm->cap_deadlines ? gm->cap_deadlines * 2 : 64;
        struct deadline *bigger = realloc(gm->deadlines, cap * sizeof *bigger);
        if (bigger) {
            gm->deadlines = bigger;
            gm->cap_deadlines = cap;
        } else {
            fprintf(stderr, "phantomgo: game %s: out of memory for its deadline\n", id);
            at_ms = INT64_MAX;
        }
    }
    if (at_ms != INT64_MAX) {
        if (!found) snprintf(gm->deadlines[gm->n_deadlines++].id, sizeof gm->deadlines[0].id, "%s", id);
        gm->deadlines[i].at_ms = at_ms;
        pthread_cond_signal(&gm->timer_cond);
    }
    pthread_mutex_unlock(&gm->timer_lock);
}

void game_clock_rearm(game *g) {
    int64_t at = INT64_MAX;
    if (!referee_result(g->ref).over) {
        game_clock c;
        game_clock_fold(g, g->ref, referee_event_count(g->ref), &c);
        at = clock_deadline(&c);
    }
    deadline_set(g->owner, g->id, at);
}

/* The game whose deadline passed: its side to move loses, unless it moved
 * meanwhile (then its new deadline is armed). A game the store cannot read
 * now is tried again shortly; one that cannot be replayed at all is left. */
static void expire(games *gm, const char *id) {
    game *g;
    games_status st = games_get(gm, id, &g);
    if (st == GAMES_UNAVAILABLE) deadline_set(gm, id, games_now_ms(gm) + RETRY_MS);
    else if (st != GAMES_OK) fprintf(stderr, "phantomgo: game %s cannot be loaded; its clock is left\n", id);
    if (st != GAMES_OK) return;
    pthread_mutex_lock(&g->lock);
    int64_t now = games_now_ms(gm);
    int fired = game_enforce_clock(g, now);
    if (fired == 0) game_clock_rearm(g);
    pthread_mutex_unlock(&g->lock);
    if (fired < 0) {
        fprintf(stderr, "phantomgo: game %s: its timeout could not be stored; retrying\n", id);
        deadline_set(gm, id, now + RETRY_MS);
    }
    if (fired > 0) game_changed(g);
    game_release(g);
}

static size_t earliest(const games *gm) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < gm->n_deadlines; i++)
        if (best == SIZE_MAX || gm->deadlines[i].at_ms < gm->deadlines[best].at_ms) best = i;
    return best;
}

/* Sleeps up to ms on the timer condition. Timer lock held. */
static void sleep_for(games *gm, int64_t ms) {
    if (ms > MAX_SLEEP_MS) ms = MAX_SLEEP_MS;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    int rc = pthread_cond_timedwait(&gm->timer_cond, &gm->timer_lock, &until);
    if (rc != 0 && rc != ETIMEDOUT) fprintf(stderr, "phantomgo: clock thread wait failed (%d)\n", rc);
}

static void *timer_main(void *arg) {
    games *gm = arg;
    pthread_mutex_lock(&gm->timer_lock);
    while (!gm->timer_stopping) {
        size_t i = earliest(gm);
        int64_t now = games_now_ms(gm);
        if (i == SIZE_MAX || gm->deadlines[i].at_ms > now) {
            sleep_for(gm, i == SIZE_MAX ? MAX_SLEEP_MS : gm->deadlines[i].at_ms - now);
            continue;
        }
        char id[24];
        snprintf(id, sizeof id, "%s", gm->deadlines[i].id);
        gm->deadlines[i] = gm->deadlines[--gm->n_deadlines];
        pthread_mutex_unlock(&gm->timer_lock);
        expire(gm, id);
        pthread_mutex_lock(&gm->timer_lock);
    }
    pthread_mutex_unlock(&gm->timer_lock);
    return NULL;
}

bool games_clock_start(games *gm) {
    atomic_init(&gm->clock_offset_ms, 0);
    gm->abandon_ms = DEFAULT_ABANDON_MS;
    pthread_mutex_init(&gm->timer_lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&gm->timer_cond, &attr);
    pthread_condattr_destroy(&attr);
    gm->timer_running = pthread_create(&gm->timer, NULL, timer_main, gm) == 0;
    return gm->timer_running;
}

void games_clock_stop(games *gm) {
    if (gm->timer_running) {
        pthread_mutex_lock(&gm->timer_lock);
        gm->timer_stopping = true;
        pthread_cond_broadcast(&gm->timer_cond);
        pthread_mutex_unlock(&gm->timer_lock);
        pthread_join(gm->timer, NULL);
        gm->timer_running = false;
    }
    free(gm->deadlines);
    gm->deadlines = NULL;
    gm->n_deadlines = gm->cap_deadlines = 0;
    pthread_cond_destroy(&gm->timer_cond);
    pthread_mutex_destroy(&gm->timer_lock);
}

/* ---- start-up -------------------------------------------------------------- */

/* Loads every game of a store list; loading arms a game's deadline and
 * lists a public game in the lobby. */
static void load_listed(games *gm, const char *which) {
    id_list l = { NULL, 0, 0 };
    if (store_list_games(gm->st, which, games_collect_id, &l) != STORE_OK)
        fprintf(stderr, "phantomgo: cannot list the stored games (%s); some may resume late\n", which);
    for (size_t i = 0; i < l.n; i++) {
        game *g;
        if (games_get(gm, l.ids[i], &g) == GAMES_OK) game_release(g);
    }
    free(l.ids);
}

void games_resume(games *gm) {
    load_listed(gm, "clock_to_resume");
    load_listed(gm, "public_to_list");
}
