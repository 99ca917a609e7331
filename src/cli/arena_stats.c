/* arena_stats: Wilson interval and Elo difference (see arena_stats.h). */
#include "cli/arena_stats.h"

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
