/* Storage figures for `phantomgo bench`: the reference the issue sets for
 * durable actions, and what the group-commit store achieves on the same
 * disk in the same run (compare the ratio, not absolute numbers: the
 * machines are shared and noisy).
 *
 * Both create their database in dir (which must exist) and delete it
 * afterwards. They return a rate per second, or a negative number when the
 * database could not be used (a message is printed on stderr). */
#ifndef PG_STORE_BENCH_BASELINE_H
#define PG_STORE_BENCH_BASELINE_H

#include <stdio.h>

/* A plain SQLite loop, WAL and synchronous=FULL: one INSERT of an
 * action-sized row per transaction, for `seconds`. Commits per second. */
double store_bench_single_row_commits(const char *dir, double seconds);

/* The store itself (schema_path: schema.sql): `writers` threads, each
 * appending actions to its own game as fast as its commits return, for
 * `seconds`. Acknowledged (durable) appends per second, all threads
 * together. */
double store_bench_group_commit_appends(const char *dir, const char *schema_path, int writers,
                                        double seconds);

/* The storage section of `phantomgo bench`: makes a fresh directory under
 * dir, runs the loop and the store with 1 and with `writers` writers for
 * `seconds` each, prints a table with each rate's ratio to the loop's on
 * out, and removes the directory. Returns 0, or 1 if something failed. */
int store_bench_report(FILE *out, const char *dir, const char *schema_path, int writers, double seconds);

#endif
