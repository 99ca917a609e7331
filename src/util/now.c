/* now: clock_gettime read in milliseconds or seconds (see now.h). The
 * clocks used here cannot fail on Linux for a valid timespec, so the
 * functions return a value rather than an error. */
#include "util/now.h"

#include <time.h>

static int64_t to_ms(const struct timespec *ts) {
    return (int64_t)ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

static double to_s(const struct timespec *ts) {
    return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

int64_t now_monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return to_ms(&ts);
}

double now_monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return to_s(&ts);
}

int64_t now_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return to_ms(&ts);
}

double now_thread_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return to_s(&ts);
}
