/* arena_stats: Wilson interval, Elo difference and the SPRT (see arena_stats.h). */
#include "cli/arena_stats.h"

#include <assert.h>
#include <math.h>

interval wilson95(double wins, int n) {
    const double z = 1.959963984540054;
    double p = wins / n, z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z / (1 + z2n) * sqrt(p * (1 - p) / n + z2n / (4.0 * n));
    interval iv = { centre - half, centre + half };
    if (iv.low < 0) iv.low = 0;
    if (iv.high > 1) iv.high = 1;
    return iv;
}

double elo_of(double p) {
    if (p <= 0) return -INFINITY;
    if (p >= 1) return INFINITY;
    return 400.0 * log10(p / (1 - p));
}

double score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* The SPRT over samples taking the values x[0..k-1] counts[] times. A
 * value never seen counts 1e-3 times (fishtest's regularisation), so the
 * variance of a short one-sided run is small but not zero. */
static sprt_state sprt_of(const sprt_test *t, const long *counts, const double *x, int k) {
    double n = 0, sum = 0, raw_n = 0;
    double c[5];
    for (int i = 0; i < k; i++) {
        c[i] = counts[i] > 0 ? (double)counts[i] : 1e-3;
        raw_n += (double)counts[i];
        n += c[i];
        sum += c[i] * x[i];
    }
    double mean = sum / n, var = 0;
    for (int i = 0; i < k; i++) var += c[i] * (x[i] - mean) * (x[i] - mean);
    var /= n;
    double s0 = score_of_elo(t->elo0), s1 = score_of_elo(t->elo1);
    sprt_state st;
    st.lower = log(t->beta / (1 - t->alpha));
    st.upper = log((1 - t->beta) / t->alpha);
    st.llr = raw_n > 0 ? raw_n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var) : 0;
    st.score = mean;
    double half = raw_n > 0 ? 1.959963984540054 * sqrt(var / raw_n) : 1;
    st.elo = elo_of(mean);
    st.elo_low = elo_of(mean - half);
    st.elo_high = elo_of(mean + half);
    st.verdict = st.llr >= st.upper ? SPRT_H1 : st.llr <= st.lower ? SPRT_H0 : SPRT_CONTINUE;
    return st;
}

sprt_state sprt_pentanomial(const sprt_test *t, const long counts[5]) {
    static const double x[5] = { 0, 0.25, 0.5, 0.75, 1 };
    return sprt_of(t, counts, x, 5);
}

sprt_state sprt_trinomial(const sprt_test *t, const long counts[3]) {
    static const double x[3] = { 0, 0.5, 1 };
    return sprt_of(t, counts, x, 3);
}

sprt_run sprt_run_start(sprt_test t) {
    return (sprt_run){ .test = t, .min_pairs = SPRT_MIN_PAIRS, .min_unsplit = SPRT_MIN_UNSPLIT };
}

long sprt_run_pairs(const sprt_run *run) {
    long n = 0;
    for (int k = 0; k < 5; k++) n += run->pairs[k];
    return n;
}

bool sprt_run_add_pair(sprt_run *run, int half_points) {
    assert(half_points >= 0 && half_points <= 4);
    run->pairs[half_points]++;
    run->now = sprt_pentanomial(&run->test, run->pairs);
    long n = sprt_run_pairs(run);
    long unsplit = n - run->pairs[2];
    if (run->decision == SPRT_CONTINUE && run->now.verdict != SPRT_CONTINUE && n >= run->min_pairs &&
        unsplit >= run->min_unsplit) {
        run->decision = run->now.verdict;
        run->decided_at = n;
        run->decided_llr = run->now.llr;
    }
    return run->decision != SPRT_CONTINUE;
}
