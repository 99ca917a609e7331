/* Unit tests of the arena's statistics: the Wilson interval and the Elo
 * difference, against values computed by hand. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>

#include "cli/arena_stats.h"

static bool near(double a, double b) { return fabs(a - b) < 5e-4; }

TEST(bot_arena_wilson_interval) {
    interval iv = wilson95(50, 100);
    CHECK(near(iv.low, 0.4038));
    CHECK(near(iv.high, 0.5962));
    iv = wilson95(0, 10);
    CHECK(near(iv.low, 0.0));
    CHECK(near(iv.high, 0.2775));
    iv = wilson95(95, 100);
    CHECK(near(iv.low, 0.8883));
    CHECK(near(iv.high, 0.9785));
}

TEST(bot_arena_elo_difference) {
    CHECK(near(elo_of(0.5), 0));
    CHECK(near(elo_of(0.75), 190.849));
    CHECK(near(elo_of(0.25), -190.849));
    CHECK(isinf(elo_of(1.0)) && elo_of(1.0) > 0);
    CHECK(isinf(elo_of(0.0)) && elo_of(0.0) < 0);
}

/* The SPRT's log-likelihood ratio and Elo interval, against the formula
 * LLR = N (s1 - s0)(2 mean - s0 - s1) / (2 var) evaluated independently
 * (Python, double precision) for the same counts. */
TEST(bot_arena_sprt_pentanomial) {
    sprt_test t = { 0, 10, 0.05, 0.05 };
    CHECK(near(score_of_elo(10), 0.514387));
    long counts[5] = { 10, 60, 200, 90, 40 };
    sprt_state s = sprt_pentanomial(&t, counts);
    CHECK(near(s.llr, 5.479321));
    CHECK(near(s.score, 0.55625));
    CHECK(fabs(s.elo - 39.2527) < 1e-3);
    CHECK(fabs(s.elo_low - 23.6661) < 1e-3);
    CHECK(fabs(s.elo_high - 54.9983) < 1e-3);
    CHECK(near(s.lower, -2.944439) && near(s.upper, 2.944439));
    CHECK(s.verdict == SPRT_H1);
    long worse[5] = { 30, 80, 200, 70, 20 };
    s = sprt_pentanomial(&t, worse);
    CHECK(near(s.llr, -2.747760));
    CHECK(s.verdict == SPRT_CONTINUE);
    long none[5] = { 0, 0, 0, 0, 0 };
    s = sprt_pentanomial(&t, none);
    CHECK(s.llr == 0 && s.verdict == SPRT_CONTINUE);
}

TEST(bot_arena_sprt_trinomial) {
    sprt_test t = { 0, 10, 0.05, 0.05 };
    long counts[3] = { 400, 300, 500 };
    sprt_state s = sprt_trinomial(&t, counts);
    CHECK(near(s.llr, 3.203877));
    CHECK(fabs(s.elo - 29.0203) < 1e-3);
    CHECK(fabs(s.elo_low - 12.0127) < 1e-3);
    CHECK(s.verdict == SPRT_H1);
    /* A mean halfway between the hypotheses' scores favours neither. */
    sprt_test wide = { -400.0 * log10(3), 400.0 * log10(3), 0.05, 0.05 }; /* s0 1/4, s1 3/4 */
    long even[3] = { 5, 0, 5 };
    s = sprt_trinomial(&wide, even);
    CHECK(fabs(s.llr) < 1e-9);
}

/* The match's test decides once, at the first crossing of a bound with
 * enough pairs, and the decision stands when a pair still in play then
 * pulls the LLR back inside the bounds (the match stops dispatching, but
 * a second thread's pair may finish after it).
 *
 *     pairs 1..9    won both             LLR over the bound, too few pairs
 *     pair 10       won both             decided: H1 at 10
 *     pair 11       lost both            LLR back inside; still H1 at 10 */
TEST(bot_arena_sprt_run_keeps_its_decision) {
    sprt_run run = { .test = { 0, 30, 0.05, 0.05 }, .min_pairs = 10, .min_unsplit = 5 };
    for (int i = 1; i <= 9; i++) CHECK(!sprt_run_add_pair(&run, 4));
    CHECK(run.now.verdict == SPRT_H1 && run.decision == SPRT_CONTINUE);
    CHECK(sprt_run_add_pair(&run, 4));
    CHECK(run.decision == SPRT_H1);
    CHECK_EQ_INT((int)run.decided_at, 10);
    double llr_at_ten = run.now.llr;
    CHECK(run.decided_llr == llr_at_ten && llr_at_ten >= run.now.upper);
    for (int i = 0; i < 3; i++) CHECK(sprt_run_add_pair(&run, 0));
    CHECK(run.now.llr < run.now.upper && run.now.verdict == SPRT_CONTINUE);
    CHECK(run.decision == SPRT_H1);
    CHECK_EQ_INT((int)run.decided_at, 10);
    CHECK_EQ_INT((int)sprt_run_pairs(&run), 13);
    CHECK_EQ_INT((int)run.pairs[4], 10);
    CHECK_EQ_INT((int)run.pairs[0], 3);
}

/* Pairs split one game each say the colour decided, not which side is
 * stronger; a run of them alone leaves the variance at the
 * regularisation's and the LLR far below its lower bound, but the test
 * waits for pairs that were not split.
 *
 *     pairs 1..12   split               LLR under the bound, 0 unsplit: going on
 *     pairs 13..16  won both            4 unsplit: going on
 *     pair 17       lost both           5 unsplit, LLR 0.74: inside, going on */
TEST(bot_arena_sprt_run_waits_for_unsplit_pairs) {
    sprt_run run = { .test = { 0, 30, 0.05, 0.05 }, .min_pairs = 10, .min_unsplit = 5 };
    for (int i = 1; i <= 12; i++) CHECK(!sprt_run_add_pair(&run, 2));
    CHECK(run.now.verdict == SPRT_H0 && run.now.llr < -100);
    CHECK(run.decision == SPRT_CONTINUE && run.decided_at == 0);
    for (int i = 13; i <= 16; i++) CHECK(!sprt_run_add_pair(&run, 4));
    CHECK(run.decision == SPRT_CONTINUE);
    CHECK(!sprt_run_add_pair(&run, 0));
    CHECK_EQ_INT((int)sprt_run_pairs(&run), 17);
    /* (1, 0, 12, 0, 4): mean 0.588, well inside the bounds after 17 pairs. */
    CHECK(run.now.verdict == SPRT_CONTINUE && run.decision == SPRT_CONTINUE);
    /* Without the guard the same split pairs would have decided H0 at 10. */
    sprt_run unguarded = { .test = { 0, 30, 0.05, 0.05 }, .min_pairs = 10 };
    for (int i = 1; i <= 9; i++) CHECK(!sprt_run_add_pair(&unguarded, 2));
    CHECK(sprt_run_add_pair(&unguarded, 2));
    CHECK(unguarded.decision == SPRT_H0 && unguarded.decided_at == 10);
}
