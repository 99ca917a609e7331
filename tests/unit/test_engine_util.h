/* Helpers shared by the engine's unit tests: vertices by name, a slow
 * from-scratch consistency check of the board's incremental structures, and
 * a small driver for referee games. Static inline so each test file stays
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

/* Recomputes groups, liberties, the empty list, stone counts and the hash
 * and the neighbour colour counts from the colours alone and compares them with the incremental fields.
 * Returns true when they agree. */
static inline bool board_consistent(const board *b) {
    int n = b->npoints, counts[3] = { 0, 0, 0 };
    bool in_empty[BOARD_MAX_POINTS] = { false };
    for (int i = 0; i < b->n_empty; i++) {
        point p = b->empty[i];
        if (p < 0 || p >= n || b->color[p] != EMPTY || b->empty_pos[p] != i || in_empty[p]) return false;
        in_empty[p] = true;
    }
    for (point p = 0; p < n; p++) {
        uint32_t nbc = 0;
        for (int i = 0; i < 4; i++) nbc += 1u << (8 * b->color[b->geo->neighbour[p][i]]);
        if (nbc != b->nbc[p]) return false;
        counts[b->color[p]]++;
        if (b->color[p] == EMPTY) { if (!in_empty[p]) return false; continue; }
        point root = b->group[p];
        if (b->color[root] != b->color[p] || b->group[root] != root) return false;
        /* Stones in the root's list: all share the root and count up. */
        int stones = 0, libs = 0;
        int32_t sum = 0, sq = 0;
        bool found = false;
        point s = root;
        do {
            if (b->group[s] != root) return false;
            found |= s == p;
            stones++;
            for (int i = 0; i < 4; i++) {
                point q = b->geo->neighbour[s][i];
                if (b->color[q] == EMPTY) { libs++; sum += q; sq += (int32_t)q * q; }
                if (b->color[q] == b->color[p] && b->group[q] != root) return false;
            }
            s = b->next_stone[s];
        } while (s != root && stones <= n);
        const board_group *g = &b->grp[root];
        if (!found || g->stones != stones || g->libs != libs || g->lib_sum != sum || g->lib_sum_sq != sq) return false;
        if (libs == 0) return false;
    }
    if (counts[BLACK] != b->stones[BLACK] || counts[WHITE] != b->stones[WHITE] || counts[EMPTY] != b->n_empty) return false;
    board fresh;
    board_init(&fresh, b->size, b->torus);
    for (point p = 0; p < n; p++)
        if (b->color[p] != EMPTY) board_play(&fresh, b->color[p], p, NULL);
    return fresh.hash == b->hash;
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
