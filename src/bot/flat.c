/* flat: flat Monte-Carlo over determinized boards with AMAF, the baseline
 * player (after Cazenave's "A Phantom-Go Program", 2005).
 *
 * Each simulation draws a board from the uniform belief, picks uniformly
 * one of the candidate attempts that is legal on that board (or pass, in
 * a fixed share of the simulations), and
 * finishes the game with a light playout. A candidate's value is its mean
 * result blended with its AMAF mean (every simulation where we were first
 * to play that point counts for it), the blend leaning on AMAF while a
 * move has few results of its own. Values are conditional on the attempt
 * being legal: an illegal one costs nothing but a new decision, with one
 * more stone learnt. Pass is chosen when its mean is at least the best
 * move's. */
#include "bot/players.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/search.h"

#define AMAF_EQUIV 200.0 /* results at which own mean and AMAF weigh alike */
#define SCORE_WEIGHT 0.1 /* the score margin's share of a result (search_finish) */
/* Pass gets its uniform share of the simulations (one in n_cand + 1),
 * never the first, but never fewer than PASS_MIN_SIMS of a budget counted
 * in playouts nor fewer than one in PASS_EVERY of a smaller or timed one.
 * It is judged against the best candidate's mean: on one or two
 * simulations it won by chance (flat at 30 simulations passed 14 times in
 * 300 first replies). Yet a share above the uniform one, at a large
 * budget, made flat pass reliably wherever its uniform belief valued
 * passing, also while the opponent was filling its area unseen: flat at
 * 10,000 playouts fell from 75 to 66 wins in 80 against the heuristic. */
#define PASS_EVERY 10
#define PASS_MIN_SIMS 30

typedef struct flat_work {
    belief bf;
    board sample;
    point cand[BOARD_MAX_POINTS + 1];                          /* candidates, then PASS_POINT */
    double n[BOARD_MAX_POINTS + 1], w[BOARD_MAX_POINTS + 1];   /* by index */
    double amaf_n[BOARD_MAX_POINTS], amaf_w[BOARD_MAX_POINTS]; /* by point */
    uint8_t first_mover[BOARD_MAX_POINTS];
} flat_work;

/* Pass is simulated once in this many simulations (see PASS_MIN_SIMS). */
long flat_pass_period(long budget_playouts, int n_cand) {
    long uniform = n_cand + 1, keeps_min_sims = budget_playouts / PASS_MIN_SIMS;
    long longest = keeps_min_sims > PASS_EVERY ? keeps_min_sims : PASS_EVERY;
    return uniform < longest ? uniform : longest;
}

/* A candidate index legal on the sample, uniformly; n_cand (pass) when
 * none is. */
static int pick_legal(const flat_work *fw, int n_cand, int me, rng *r) {
    int order[BOARD_MAX_POINTS];
    for (int i = 0; i < n_cand; i++) order[i] = i;
    for (int left = n_cand; left > 0; left--) {
        int k = (int)rng_below(r, (uint32_t)left);
        int i = order[k];
        order[k] = order[left - 1];
        if (board_check(&fw->sample, me, fw->cand[i]) == MOVE_OK) return i;
    }
    return n_cand;
}

/* One simulation: our pass when `pass` (its share is never left to
 * chance), else a random legal move. */
static void simulate(flat_work *fw, const bot_memory *m, int n_cand, bool pass, rng *r) {
    int me = m->me, komi = m->view.settings.komi_x2;
    belief_sample(&fw->bf, &fw->sample, r);
    int i = pass ? n_cand : pick_legal(fw, n_cand, me, r);
    double result;
    if (i == n_cand) {
        board_pass(&fw->sample);
        result = search_finish(&fw->sample, me, color_other(me), m->view.passes + 1, komi, SCORE_WEIGHT, r, NULL);
    } else {
        point p = fw->cand[i];
        memset(fw->first_mover, 0, (size_t)board_points(&fw->sample));
        fw->first_mover[p] = (uint8_t)me;
        board_play(&fw->sample, me, p, NULL);
        result = search_finish(&fw->sample, me, color_other(me), 0, komi, SCORE_WEIGHT, r, fw->first_mover);
        for (point q = 0; q < board_points(&fw->sample); q++)
            if (fw->first_mover[q] == me) {
                fw->amaf_n[q] += 1;
                fw->amaf_w[q] += result;
            }
    }
    fw->n[i] += 1;
    fw->w[i] += result;
}

static point best_of(const flat_work *fw, int n_cand) {
    int best = -1;
    double best_value = -1, best_mean = -1;
    for (int i = 0; i < n_cand; i++) {
        if (fw->n[i] == 0) continue;
        point p = fw->cand[i];
        double mean = fw->w[i] / fw->n[i];
        double amaf = fw->amaf_w[p] / fw->amaf_n[p];
        double beta = sqrt(AMAF_EQUIV / (3 * fw->n[i] + AMAF_EQUIV));
        double value = beta * amaf + (1 - beta) * mean;
        if (value > best_value) {
            best = i;
            best_value = value;
        }
        if (mean > best_mean) best_mean = mean;
    }
    bool pass_tried = fw->n[n_cand] > 0;
    if (best < 0 || (pass_tried && fw->w[n_cand] / fw->n[n_cand] >= best_mean)) return PASS_POINT;
    return fw->cand[best];
}

point flat_choose(const bot_config *cfg, const bot_memory *m, rng *r, double start, long *playouts_out) {
    flat_work *fw = calloc(1, sizeof *fw);
    if (!fw || !belief_prepare(&fw->bf, m, false)) {
        free(fw);
        return heuristic_choose(m, r);
    }
    int n_cand = search_candidates(m, &fw->bf.base, fw->cand);
    fw->cand[n_cand] = PASS_POINT;
    long done = 0;
    if (n_cand > 0) {
        search_budget budget = search_budget_for(cfg, &search_shares_shrinking, m, start);
        long pass_every = flat_pass_period(budget.playouts, n_cand);
        while (search_continue(&budget, done)) {
            simulate(fw, m, n_cand, done % pass_every == pass_every - 1, r);
            done++;
        }
    }
    point choice = n_cand > 0 ? best_of(fw, n_cand) : PASS_POINT;
    *playouts_out = done;
    free(fw);
    return choice;
}
