/* arena_forecast: the strong player's forecasts scored against the truth
 * (see arena_forecast.h). */
#include "cli/arena_forecast.h"

#include <math.h>
#include <stdlib.h>

#include "bot/belief.h"
#include "engine/rng.h"

/* Boards drawn a turn: enough for a point's probability to within a few
 * percent, few enough to cost a small share of a 150 ms decision. */
#define BELIEF_SAMPLES 128

typedef struct belief_work {
    belief bf;
    board sample;
    int stones[BOARD_MAX_POINTS]; /* samples with an opponent stone at p */
} belief_work;

static bool is_hidden(const bot_memory *m, point p) {
    return m->view.stone[p] != m->me && m->opp[p] != OPP_CERTAIN;
}

/* The log-loss in bits of the belief prepared in w (informed or not) on
 * the hidden points, against truth. */
static double belief_log_loss(belief_work *w, const bot_memory *m, const board *truth, rng *r) {
    int n = board_points(truth), opp = color_other(m->me);
    for (point p = 0; p < n; p++) w->stones[p] = 0;
    for (int s = 0; s < BELIEF_SAMPLES; s++) {
        belief_sample(&w->bf, &w->sample, r);
        for (point p = 0; p < n; p++) w->stones[p] += board_at(&w->sample, p) == opp;
    }
    double bits = 0;
    for (point p = 0; p < n; p++) {
        if (!is_hidden(m, p)) continue;
        /* Smoothed, so that a point no sample filled costs bits, not infinity. */
        double q = (w->stones[p] + 0.5) / (BELIEF_SAMPLES + 1.0);
        bits -= log2(board_at(truth, p) == opp ? q : 1 - q);
    }
    return bits;
}

static long hidden_points(const bot_memory *m, const board *truth) {
    long n = 0;
    for (point p = 0; p < board_points(truth); p++) n += is_hidden(m, p);
    return n;
}

void forecast_score_belief(const bot_memory *m, const float *expected_map, const board *truth, uint64_t seed,
                           forecast_totals *t) {
    long points = hidden_points(m, truth);
    belief_work *w = points > 0 ? malloc(sizeof *w) : NULL;
    if (!w) return;
    rng r;
    rng_seed(&r, seed);
    if (belief_prepare_expecting(&w->bf, m, expected_map)) {
        double informed = belief_log_loss(w, m, truth, &r);
        if (belief_prepare(&w->bf, m, false)) {
            t->belief_points += points;
            t->belief_bits += informed;
            t->uniform_bits += belief_log_loss(w, m, truth, &r);
        }
    }
    free(w);
}

void forecast_add(forecast_totals *sum, const forecast_totals *t) {
    sum->belief_points += t->belief_points;
    sum->belief_bits += t->belief_bits;
    sum->uniform_bits += t->uniform_bits;
    sum->replies_expected += t->replies_expected;
    sum->replies_matched += t->replies_matched;
}
