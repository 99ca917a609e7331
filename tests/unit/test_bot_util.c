/* test_bot_util: see test_bot_util.h. */
#include "test_bot_util.h"

#include <stdlib.h>
#include <string.h>

#include "engine/vertex.h"
#include "harness.h"

duel *duel_new(const game_settings *s) {
    duel *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->ref = referee_new(s);
    if (!d->ref) {
        free(d);
        return NULL;
    }
    bot_memory_init(&d->mem[BLACK], s, BLACK);
    bot_memory_init(&d->mem[WHITE], s, WHITE);
    return d;
}

void duel_free(duel *d) {
    if (!d) return;
    referee_free(d->ref);
    free(d);
}

void duel_sync(duel *d) {
    observation ob;
    for (int seq = d->seen + 1; seq <= referee_event_count(d->ref); seq++)
        for (int c = BLACK; c <= WHITE; c++)
            if (view_observe(d->ref, (viewer)c, seq, &ob)) bot_memory_apply(&d->mem[c], &ob);
    d->seen = referee_event_count(d->ref);
}

point duel_point(const duel *d, const char *vertex) {
    point p = NO_POINT;
    vertex_parse(vertex, referee_settings(d->ref)->size, &p);
    return p;
}

static refusal apply_point(duel *d, point p) {
    int c = referee_to_move(d->ref);
    action a = { p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT, c, p };
    refusal r = referee_apply(d->ref, a, NULL);
    duel_sync(d);
    return r;
}

refusal duel_play(duel *d, const char *vertex) { return apply_point(d, duel_point(d, vertex)); }

refusal duel_bot_step(duel *d, const bot_config *cfg, uint64_t seed, point *chosen) {
    return duel_bot_step_carrying(d, cfg, seed, NULL, chosen);
}

refusal duel_bot_step_carrying(duel *d, const bot_config *cfg, uint64_t seed, bot_carry *carry,
                               point *chosen) {
    duel_sync(d);
    int c = referee_to_move(d->ref);
    *chosen = bot_choose(cfg, &d->mem[c], seed, carry, NULL);
    return apply_point(d, *chosen);
}

bool duel_carry_changes_a_decision(const bot_config *cfg, duel *d, const bot_carry *carry, uint64_t n,
                                   uint64_t *first, point *with, point *without) {
    static bot_carry copy, again;
    bool differs = false;
    if (first) *first = 0;
    for (uint64_t seed = 1; seed <= n; seed++) {
        copy = *carry;
        again = *carry;
        point carried = bot_choose(cfg, &d->mem[BLACK], seed, &copy, NULL);
        CHECK_EQ_INT(bot_choose(cfg, &d->mem[BLACK], seed, &again, NULL), carried);
        point fresh = bot_choose(cfg, &d->mem[BLACK], seed, NULL, NULL);
        if (carried == fresh) continue;
        if (!differs && first) {
            *first = seed;
            *with = carried;
            *without = fresh;
        }
        differs = true;
    }
    return differs;
}
