/* now: clock_gettime read in milliseconds or seconds (see now.h). The
 * clocks used here cannot fail on Linux for a valid timespec, so the
 * functions return a value rather than an error. */
#include "util/now.h"

#include <time.h>

static struct timespec read_clock(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts;
}

static int64_t to_ms(struct timespec ts) { return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000; }

static double to_s(struct timespec ts) { return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9; }

int64_t now_monotonic_ms(void) { return to_ms(read_clock(CLOCK_MONOTONIC)); }

double now_monotonic_s(void) { return to_s(read_clock(CLOCK_MONOTONIC)); }

int64_t now_wall_ms(void) { return to_ms(read_clock(CLOCK_REALTIME)); }

double now_thread_cpu_s(void) { return to_s(read_clock(CLOCK_THREAD_CPUTIME_ID)); }

struct timespec now_monotonic_deadline(int64_t ms) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)(ms / 1000);
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    return until;
}
