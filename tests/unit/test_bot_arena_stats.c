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
