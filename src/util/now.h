/* now: the process's clocks in the units the code uses, one place instead of
 * a clock_gettime wrapper per file.
 *
 * Monotonic time measures durations, deadlines and rate limits (it never
 * jumps when the wall clock is set); wall time stamps what is stored or
 * shown (milliseconds since the Unix epoch); thread CPU time is for
 * benchmarks that must not count time spent waiting for the machine. */
#ifndef PG_UTIL_NOW_H
#define PG_UTIL_NOW_H

#include <stdint.h>
#include <time.h>

/* Milliseconds on the monotonic clock (an arbitrary origin). */
int64_t now_monotonic_ms(void);
/* Seconds on the monotonic clock, with sub-microsecond resolution. */
double now_monotonic_s(void);
/* Milliseconds since the Unix epoch. */
int64_t now_wall_ms(void);
/* Seconds of CPU time used by the calling thread. */
double now_thread_cpu_s(void);
/* The monotonic moment ms from now, as pthread_cond_timedwait takes it on
 * a condition made with pthread_condattr_setclock(CLOCK_MONOTONIC): the
 * one sleep of every waiting thread (clocks, notices, push, retention). */
struct timespec now_monotonic_deadline(int64_t ms);

#endif
