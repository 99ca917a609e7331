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

/* The share of the budget (num / den) the attempt after n_tried refusals
 * of this turn gets. The strong player thinks alike on its first three
 * attempts, three quarters of the budget each: a refusal tells where an
 * unseen stone stands, and the retry's choice matters as much as the
 * first one's. Every attempt alike, against halving the budget at each
 * refusal, measured +60 Elo on 9x9 and +70 on 13x13 at equal time a move;
 * this rule, +23 on 9x9 with 7% less time a move (docs/BOT.md, fifteenth
 * session). From the fourth attempt on a quarter, so that a long run of
 * refusals late in a game stays within a few budgets. The other players
 * keep 1/2, 1/3, then 1/4. */
static void attempt_share(bot_kind kind, int n_tried, long *num, long *den) {
    if (kind == BOT_STRONG) {
        *num = n_tried < 3 ? 3 : 1;
        *den = 4;
    } else {
        *num = 1;
        *den = 1 + (n_tried < 3 ? n_tried : 3);
    }
}

search_budget search_budget_for(const bot_config *cfg, const bot_memory *m, double start) {
    long num, den;
    attempt_share(cfg->kind, m->view.n_tried, &num, &den);
    search_budget b = { 0, start, 0, cfg->share };
    if (cfg->playouts > 0) b.playouts = cfg->playouts * num / den > 0 ? cfg->playouts * num / den : 1;
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
