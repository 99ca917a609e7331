/* Helpers shared by the engine's unit tests: vertices by name, the board's
 * consistency check (the engine's own) as a test predicate, and a small
 * driver for referee games. Static inline so each test file stays
 * self-contained. */
#ifndef PG_TEST_ENGINE_UTIL_H
#define PG_TEST_ENGINE_UTIL_H

#include <stdbool.h>
#include <string.h>

#include "engine/board.h"
#include "engine/board_text.h"
#include "engine/referee.h"
#include "engine/vertex.h"
#include "harness.h"

/* The point of vertex text v on a board of the given size (NO_POINT if bad). */
static inline point vtx(int size, const char *v) {
    point p;
    return vertex_parse(v, size, &p) ? p : NO_POINT;
}

/* The engine's from-scratch check of the board's incremental structures
 * (board_invariant_violation); true when they agree, else says what not. */
static inline bool board_consistent(const board *b) {
    const char *why = board_invariant_violation(b);
    if (why) fprintf(stderr, "board invariant: %s\n", why);
    return why == NULL;
}

/* Applies an attempt by text vertex; returns the refusal. */
static inline refusal ref_try(referee *r, int color, const char *v, const ref_event **ev) {
    action a = { ACT_ATTEMPT, color, vtx(referee_settings(r)->size, v) };
    return referee_apply(r, a, ev);
}

static inline refusal ref_act(referee *r, action_kind kind, int color) {
    action a = { kind, color, NO_POINT };
    return referee_apply(r, a, NULL);
}

/* Plays a list of vertices alternately from the player to move, each one
 * expected to be accepted; "pass" passes. Returns how many were accepted. */
static inline int ref_play_all(referee *r, const char *const *vs, int n) {
    for (int i = 0; i < n; i++) {
        int c = referee_to_move(r);
        refusal why = strcmp(vs[i], "pass") ? ref_try(r, c, vs[i], NULL) : ref_act(r, ACT_PASS, c);
        if (why != REFUSE_NONE) return i;
    }
    return n;
}

#endif
