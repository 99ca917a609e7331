/* search: helpers shared by the Monte-Carlo players (see search.h). */
#include "bot/search.h"

#include <assert.h>

#include "engine/playout.h"
#include "util/now.h"

int search_candidates(const bot_memory *m, const board *base, point *out) {
    int n = 0;
    for (point p = 0; p < board_points(base); p++) {
        if (board_at(base, p) != EMPTY || (m->view.mark[p] & VIEW_TRIED)) continue;
        if (m->opp[p] == OPP_CERTAIN || board_is_eye(base, m->me, p)) continue;
        out[n++] = p;
    }
    return n;
}

const attempt_shares search_shares_shrinking = { { 1, 1, 1, 1 }, { 1, 2, 3, 4 } };

search_budget search_budget_for(const bot_config *cfg, const attempt_shares *shares, const bot_memory *m,
                                double start) {
    int k = m->view.n_tried < SEARCH_SHARED_ATTEMPTS ? m->view.n_tried : SEARCH_SHARED_ATTEMPTS - 1;
    long num = shares->num[k], den = shares->den[k];
    search_budget b = { 0, start, 0, cfg->share };
    if (cfg->playouts > 0) {
        long playouts = cfg->playouts * num / den;
        b.playouts = playouts > 0 ? playouts : 1;
    }
    if (cfg->time_ms > 0) b.deadline = start + cfg->time_ms * 1e-3 * (double)num / (double)den;
    return b;
}

bool search_continue(const search_budget *b, long done) {
    if (done == 0) return true;
    int share = b->share ? atomic_load_explicit(b->share, memory_order_relaxed) : 100;
    if (b->playouts > 0 && done >= (b->playouts * share / 100 > 0 ? b->playouts * share / 100 : 1))
        return false;
    if (b->deadline > 0 && done % 16 == 0 &&
        now_monotonic_s() >= b->start + (b->deadline - b->start) * share / 100)
        return false;
    return b->playouts > 0 || b->deadline > 0;
}

point search_random_move(const board *b, int c, rng *r) {
    int n = b->n_empty;
    if (n == 0) return PASS_POINT;
    /* Scan the empty list from a random start: cheap, and uniform enough
     * for the few in-tree replies that use it. */
    int start = (int)rng_below(r, (uint32_t)n);
    for (int k = 0; k < n; k++) {
        point p = b->empty[(start + k) % n];
        if (!board_is_eye(b, c, p) && board_check(b, c, p) == MOVE_OK) return p;
    }
    return PASS_POINT;
}

double search_finish(board *b, int me, int to_move, int passes, int komi_x2, double score_weight, rng *r,
                     uint8_t *first_mover) {
    assert(score_weight >= 0 && score_weight <= 1);
    int score_x2; /* black minus white, komi included */
    if (passes >= 2) {
        /* Only our area is beyond doubt: the rest, neutral regions
         * included, goes to the opponent. The sample's opponent stones are
         * drawn one by one and lie scattered, so the regions they share
         * with ours look neutral where the real, connected stones wall off
         * their own area; counted exactly, the samples said we were ahead
         * when we were not, and a pass gave the game away. */
        int black, white;
        board_score_area(b, &black, &white);
        if (me == BLACK) white = board_points(b) - black;
        else black = board_points(b) - white;
        score_x2 = 2 * (black - white) - komi_x2;
    } else {
        score_x2 = playout_random(b, to_move, komi_x2, r, first_mover).score_x2;
    }
    double margin = (me == BLACK ? score_x2 : -score_x2) / (2.0 * board_points(b));
    double win = margin > 0 ? 1.0 : margin < 0 ? 0.0 : 0.5;
    return (1 - score_weight) * win + score_weight * (0.5 + 0.5 * margin);
}
