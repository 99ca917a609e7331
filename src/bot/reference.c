/* reference: the textbook information-set Monte-Carlo tree search, the
 * yardstick the strong player is measured against (`reference` in the
 * arena and over GTP; no product level uses it).
 *
 * Single-observer ISMCTS as Cowling, Powley and Whitehouse describe it
 * (2012), with nothing of this project's tuning:
 *  - determinization: each iteration draws one board from the uniform
 *    belief (belief.h, informed = false): our stones, the stones we know,
 *    an explanation of each refusal, and the rest of the public count
 *    spread uniformly over the other points;
 *  - one tree over our own attempts; the opponent's replies are a uniformly
 *    random legal move on the drawn board, not branches;
 *  - selection by UCB1 among the children legal on the drawn board, with
 *    availability counts (how often a child was legal) in place of the
 *    parent's visits; expansion of one untried legal action (pass
 *    included) per iteration;
 *  - a uniformly random playout (engine/playout.h) to the end, scored 1
 *    for a win, 1/2 for a jigo, 0 for a loss; no AMAF, no prior, no
 *    score margin;
 *  - the most visited root child is played.
 * The root's actions are the search's candidates (not our stone, not tried
 * this turn, not a known opponent stone, not our eye), so it never
 * attempts what it knows to be refused; deeper, any point legal for us on
 * the drawn board that is not our eye.
 *
 * One pool of nodes per decision (children as sibling lists, one node added
 * per iteration); when it is full the tree stops growing. */
#include "bot/players.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/search.h"
#include "engine/playout.h"

#define REF_POOL_MAX (1 << 20) /* nodes: 20 MiB at most */
#define REF_UCB_C 0.7          /* Cowling et al.'s exploration constant */
#define REF_MAX_DEPTH 64

typedef struct ref_node {
    int32_t first_child, next_sibling; /* pool indices, or -1 */
    point move;                        /* PASS_POINT for a pass */
    float n, w;                        /* visits and their summed results */
    float avail;                       /* iterations in which it was legal */
} ref_node;

typedef struct ref_work {
    belief bf;
    board sample;
    ref_node *pool;
    int32_t n_nodes, pool_size;
    int32_t path[REF_MAX_DEPTH + 2];
    point root_cand[BOARD_MAX_POINTS];
    int n_root_cand;
    point legal[BOARD_MAX_POINTS + 1];
    uint8_t has_child[BOARD_MAX_POINTS]; /* scratch: legal moves already children */
} ref_work;

/* Our legal actions at a node on the drawn board: PASS_POINT first. */
static int legal_actions(ref_work *rw, int me, bool root) {
    int n = 0;
    rw->legal[n++] = PASS_POINT;
    if (root) {
        for (int i = 0; i < rw->n_root_cand; i++)
            if (board_check(&rw->sample, me, rw->root_cand[i]) == MOVE_OK) rw->legal[n++] = rw->root_cand[i];
        return n;
    }
    for (int i = 0; i < rw->sample.n_empty; i++) {
        point p = rw->sample.empty[i];
        if (!board_is_eye(&rw->sample, me, p) && board_check(&rw->sample, me, p) == MOVE_OK)
            rw->legal[n++] = p;
    }
    return n;
}

static bool is_legal_here(const ref_work *rw, int me, point p) {
    return p == PASS_POINT || (board_at(&rw->sample, p) == EMPTY && !board_is_eye(&rw->sample, me, p) &&
                               board_check(&rw->sample, me, p) == MOVE_OK);
}

/* Adds child `move` to node `at`; -1 when the pool is full. */
static int32_t add_child(ref_work *rw, int32_t at, point move) {
    if (rw->n_nodes >= rw->pool_size) return -1;
    int32_t i = rw->n_nodes++;
    rw->pool[i] = (ref_node){ -1, rw->pool[at].first_child, move, 0, 0, 0 };
    rw->pool[at].first_child = i;
    return i;
}

/* One step down from node `at`: counts availability of the legal children,
 * expands one untried legal action if there is one (returning it with
 * *expanded set), else returns the UCB1 choice. -1: nothing legal. */
static int32_t step(ref_work *rw, int32_t at, int me, bool root, rng *r, bool *expanded) {
    int n_legal = legal_actions(rw, me, root);
    bool pass_child = false;
    for (int32_t c = rw->pool[at].first_child; c >= 0; c = rw->pool[c].next_sibling) {
        point p = rw->pool[c].move;
        if (p == PASS_POINT) pass_child = true;
        else rw->has_child[p] = 1;
    }
    /* The untried legal actions, one drawn uniformly. */
    int untried = 0;
    for (int i = 0; i < n_legal; i++) {
        point p = rw->legal[i];
        bool tried = p == PASS_POINT ? pass_child : rw->has_child[p];
        if (!tried) rw->legal[untried++] = p;
    }
    for (int32_t c = rw->pool[at].first_child; c >= 0; c = rw->pool[c].next_sibling)
        if (rw->pool[c].move != PASS_POINT) rw->has_child[rw->pool[c].move] = 0;
    *expanded = false;
    if (untried > 0) {
        int32_t child = add_child(rw, at, rw->legal[rng_below(r, (uint32_t)untried)]);
        if (child >= 0) {
            rw->pool[child].avail = 1;
            *expanded = true;
            return child;
        }
    }
    int32_t best = -1;
    double best_value = -1;
    for (int32_t c = rw->pool[at].first_child; c >= 0; c = rw->pool[c].next_sibling) {
        ref_node *node = &rw->pool[c];
        if (!is_legal_here(rw, me, node->move)) continue;
        node->avail += 1;
        if (node->n == 0) continue; /* added when the pool filled: never visited */
        double v = node->w / node->n + REF_UCB_C * sqrt(log(node->avail) / node->n);
        if (v > best_value) {
            best = c;
            best_value = v;
        }
    }
    return best;
}

static void iterate(ref_work *rw, const bot_memory *m, rng *r) {
    int me = m->me, opp = color_other(me), komi = m->view.settings.komi_x2;
    belief_sample(&rw->bf, &rw->sample, r);
    int32_t at = 0;
    int depth = 0, passes = m->view.passes;
    rw->path[0] = 0;
    bool expanded = false;
    while (depth < REF_MAX_DEPTH && !expanded && passes < 2) {
        int32_t child = step(rw, at, me, depth == 0, r, &expanded);
        if (child < 0) break;
        rw->path[++depth] = at = child;
        point p = rw->pool[child].move;
        if (p == PASS_POINT) {
            board_pass(&rw->sample);
            passes++;
        } else {
            board_play(&rw->sample, me, p, NULL);
            passes = 0;
        }
        if (passes >= 2) break;
        point q = search_random_move(&rw->sample, opp, r);
        if (q == PASS_POINT) {
            board_pass(&rw->sample);
            passes++;
        } else {
            board_play(&rw->sample, opp, q, NULL);
            passes = 0;
        }
    }
    int score_x2;
    if (passes >= 2) {
        int black, white;
        board_score_area(&rw->sample, &black, &white);
        score_x2 = 2 * (black - white) - komi;
    } else {
        score_x2 = playout_random(&rw->sample, me, komi, r, NULL).score_x2;
    }
    if (me == WHITE) score_x2 = -score_x2;
    float result = score_x2 > 0 ? 1.0f : score_x2 < 0 ? 0.0f : 0.5f;
    for (int d = 0; d <= depth; d++) {
        rw->pool[rw->path[d]].n += 1;
        rw->pool[rw->path[d]].w += result;
    }
}

static point most_visited(const ref_work *rw) {
    point best = PASS_POINT;
    float best_n = -1;
    for (int32_t c = rw->pool[0].first_child; c >= 0; c = rw->pool[c].next_sibling)
        if (rw->pool[c].n > best_n) {
            best_n = rw->pool[c].n;
            best = rw->pool[c].move;
        }
    return best;
}

point reference_choose(const bot_config *cfg, const bot_memory *m, rng *r, double start, long *playouts_out) {
    *playouts_out = 0;
    ref_work *rw = calloc(1, sizeof *rw);
    if (!rw) return random_choose(m, r);
    long want = cfg->playouts > 0 ? (long)cfg->playouts + 1 : REF_POOL_MAX;
    rw->pool_size = (int32_t)(want < REF_POOL_MAX ? want : REF_POOL_MAX);
    rw->pool = malloc((size_t)rw->pool_size * sizeof *rw->pool);
    if (!rw->pool || !belief_prepare(&rw->bf, m, false)) {
        free(rw->pool);
        free(rw);
        return random_choose(m, r);
    }
    rw->n_root_cand = search_candidates(m, &rw->bf.base, rw->root_cand);
    rw->pool[0] = (ref_node){ -1, -1, NO_POINT, 0, 0, 0 };
    rw->n_nodes = 1;
    point choice = PASS_POINT;
    if (rw->n_root_cand > 0) {
        search_budget budget = search_budget_for(cfg, &search_shares_shrinking, m, start);
        long done = 0;
        while (search_continue(&budget, done)) {
            iterate(rw, m, r);
            done++;
        }
        *playouts_out = done;
        choice = most_visited(rw);
    }
    free(rw->pool);
    free(rw);
    return choice;
}
